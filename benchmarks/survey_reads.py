"""What the nothing-cut survey reads, to compare two versions of it: a pytest plugin.

Records, at every place ``tests/gui/test_nothing_cut.py`` checks (window size, family, screen or
action), every label on show with its text, texture size, box, lines and whether it was shortened,
and writes them as JSON when pytest ends. Two checkouts' files are the same when both surveys read
the same labels laid out the same way (clock times aside). Not part of ``make bench``:

    READS_OUT=/tmp/reads-a.json PYTHONPATH=.:benchmarks .venv/bin/python -m pytest -q -p survey_reads \\
        tests/gui/test_nothing_cut.py
    .venv/bin/python benchmarks/survey_reads.py /tmp/reads-a.json /tmp/reads-b.json

Figures only: nothing here asserts.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any

READS: dict[str, list] = {}


def _record(bank: Any, where: str) -> None:
    from kivy.core.window import Window
    from kivy.uix.label import Label

    rows = []
    for w in bank.all():
        if isinstance(w, Label) and w.text.strip():
            core = w._label
            lines = [" ".join(word.text for word in line.words) for line in core._cached_lines] if core else None
            shortened = bool(getattr(core, "is_shortened", False))
            size = [round(w.width, 1), round(w.height, 1)]
            rows.append([w.text, [round(v, 1) for v in w.texture_size], size, lines, shortened])
    rows.sort(key=json.dumps)
    key = f"{Window.width}x{Window.height} {where}"
    READS[key + (" (again)" if key in READS else "")] = rows


def pytest_collection_finish(session: Any) -> None:
    survey = sys.modules.get("tests.gui.test_nothing_cut")
    if survey is None:
        return
    check = survey.cut_labels

    def recorded(bank: Any, where: str) -> list[str]:
        _record(bank, where)
        return check(bank, where)

    survey.cut_labels = recorded


def pytest_unconfigure(config: Any) -> None:
    if READS:
        with open(os.environ.get("READS_OUT", "survey-reads.json"), "w") as f:
            json.dump(READS, f, indent=0, sort_keys=True)


def compare(a: dict, b: dict) -> list[str]:
    """The places whose labels differ between two recordings (clock times read alike)."""

    def plain(rows: list) -> str:
        return re.sub(r"\b\d\d:\d\d\b", "HH:MM", json.dumps(rows))

    places = sorted(set(a) | set(b))
    return [p for p in places if p not in a or p not in b or plain(a[p]) != plain(b[p])]


if __name__ == "__main__":
    first, second = (json.load(open(name)) for name in sys.argv[1:3])
    differ = compare(first, second)
    labels = sum(len(rows) for rows in first.values())
    print(f"{len(first)} and {len(second)} places, {labels} labels in the first; {len(differ)} differ")
    for place in differ:
        print("  ", place)
