"""Every `companion` example in docs/*.md and docs/rules/*.md runs as written.

An example is a line of a ```sh block, or an inline `companion ...` that names a game as GAME. GAME
becomes a fresh game of the page's own pack (docs/rules/<pack>.md), or of classic Monopoly elsewhere.
Examples that open a window or serve the phones (`run`, `serve`) are started by tests/gui and tests/web
instead; an inline example with another placeholder (BACKUP, 'JSON', ACTION) is a pattern, not an example.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from tests.command import companion  # the game to run the example on, made in this process

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md")) + sorted((ROOT / "docs" / "rules").glob("*.md"))
PACKS = {p.stem for p in (ROOT / "companion" / "rules" / "packs").glob("*.toml")}
SKIP = re.compile(r"^(?:\S+=\S+ )*companion (run|serve)\b")
PLACEHOLDER = re.compile(r"\b(?!GAME\b)[A-Z]{3,}\b|'JSON'|\[")


def examples(page: Path) -> list[str]:
    text = page.read_text()
    found = []
    for block in re.findall(r"```(?:sh|bash|console)\n(.*?)```", text, flags=re.DOTALL):
        for line in block.splitlines():
            line = line.strip()
            if re.match(r"^(?:\S+=\S+ )*companion ", line):
                found.append(line)
    prose = re.sub(r"```.*?```", "", text, flags=re.DOTALL)
    for inline in re.findall(r"`(companion [a-z-]+ GAME[^`]*)`", prose):
        inline = " ".join(inline.split())  # an example may wrap onto the next line of the page
        if not PLACEHOLDER.search(inline.replace("GAME", "")):
            found.append(inline)
    return [line for line in found if not SKIP.match(line)]


CASES = [(page, line) for page in DOCS for line in examples(page)]


def test_the_docs_have_examples_to_run():
    assert len(CASES) >= 8, CASES


@pytest.mark.parametrize("page,line", CASES, ids=[f"{p.stem}:{i}" for i, (p, _) in enumerate(CASES)])
def test_the_example_runs_as_written(page, line, tmp_path):
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "companion").write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m companion "$@"\n')
    (bin_dir / "companion").chmod(0o755)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "HOME": str(tmp_path),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    env.pop("GPIOZERO_PIN_FACTORY", None)  # an example that needs mock pins says so itself
    pack = page.stem if page.stem in PACKS else "classic"
    game = tmp_path / "game.game"
    code, _, err = companion("new", str(game), "--rules", pack, "--player", "Ann", "--player", "Bob")
    assert code == 0, err
    command = line.split(" # ", 1)[0].strip() if re.search(r"\s#\s", line) else line
    command = re.sub(r"(?<=\s)GAME\b", shlex.quote(str(game)), command)
    done = subprocess.run(
        ["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, f"{page.relative_to(ROOT)}: {line}\n{done.stdout}\n{done.stderr}"
    assert done.stdout.strip() or done.stderr.strip() == "", f"{line}: says nothing"
