"""How the suite is dealt to its test processes (pytest-xdist; the hook is in tests/conftest.py).

A *scope* is what one process runs back to back, sharing the module's fixtures (a module's app): a whole
module by default; a test of its own in a module marked ``spread``; one of n groups in a module marked
``groups(n)``. The scopes go out longest first, each to the next process free, so the long ones start
early and the short ones fill the end, and the processes end together (longest-processing-time first).

How long a scope takes is estimated from tests/durations.json: the wall seconds of each module and of each
test of a second or more, measured by a whole run (`make durations`). A module or test not in it (a new one)
is guessed from its kind; a wrong guess costs only balance, never a test.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

TESTS = Path(__file__).resolve().parent
DURATIONS = TESTS / "durations.json"
#: a test whose wall time is at least this is listed by itself in tests/durations.json
LISTED = 1.0

#: seconds guessed for a test of a module the durations file does not know yet
GUESS_SCREEN = 5.0
GUESS_OTHER = 0.3

_GROUPS = re.compile(r"pytest\.mark\.groups\((\d+)\)")


def module_of(nodeid: str) -> str:
    return nodeid.split("::")[0]


def module_groups(tests: Path = TESTS) -> dict[str, int]:
    """How many groups each test module may be split into across processes, by module node id: a module
    marked ``spread`` (``pytestmark`` naming ``pytest.mark.spread``) has a group per test (0 here); one
    marked ``pytest.mark.groups(n)`` has n, each sharing its own module fixtures (its own app). The marks
    are read from the modules' text: the scheduler runs in the process that collects nothing."""
    root = tests.parent
    groups = {}
    for path in tests.rglob("test_*.py"):
        text = path.read_text(encoding="utf-8")
        found = _GROUPS.search(text)
        if "pytest.mark.spread" in text:
            groups[path.relative_to(root).as_posix()] = 0
        elif found:
            groups[path.relative_to(root).as_posix()] = int(found.group(1))
    return groups


class Estimates:
    """The expected wall seconds of a test, from the durations a whole run measured."""

    def __init__(self, seconds: Mapping[str, float], collection: Iterable[str]) -> None:
        self.seconds = dict(seconds)
        per_module: dict[str, list[str]] = {}
        for nodeid in collection:
            per_module.setdefault(module_of(nodeid), []).append(nodeid)
        listed: dict[str, float] = {}
        for key, seconds_taken in self.seconds.items():
            if "::" in key:
                listed[module_of(key)] = listed.get(module_of(key), 0.0) + seconds_taken
        # What a module's unlisted tests share: its total less its listed tests, evenly.
        self._rest: dict[str, float] = {}
        for module, nodeids in per_module.items():
            unlisted = [n for n in nodeids if n not in self.seconds]
            if module in self.seconds and unlisted:
                self._rest[module] = max(self.seconds[module] - listed.get(module, 0.0), 0.0) / len(unlisted)

    @classmethod
    def read(cls, collection: Iterable[str], path: Path = DURATIONS) -> Estimates:
        try:
            seconds = json.loads(path.read_text(encoding="utf-8"))["seconds"]
        except (OSError, ValueError, KeyError):
            seconds = {}
        return cls(seconds, collection)

    def of(self, nodeid: str) -> float:
        if nodeid in self.seconds:
            return self.seconds[nodeid]
        module = module_of(nodeid)
        if module in self._rest:
            return self._rest[module]
        return GUESS_SCREEN if module.startswith("tests/gui/") else GUESS_OTHER


def scopes(collection: list[str], groups: Mapping[str, int], estimates: Estimates) -> dict[str, str]:
    """nodeid -> its scope. A ``groups(n)`` module's tests are dealt longest first, each to the group with
    the least time so far, so its groups take about as long as each other; each group keeps its tests in
    the module's order."""
    found: dict[str, str] = {}
    per_module: dict[str, list[str]] = {}
    for nodeid in collection:
        per_module.setdefault(module_of(nodeid), []).append(nodeid)
    for module, nodeids in per_module.items():
        n = groups.get(module)
        if n is None:
            found.update((nodeid, module) for nodeid in nodeids)
        elif n == 0:
            found.update((nodeid, nodeid) for nodeid in nodeids)
        else:
            load = [0.0] * n
            for nodeid in sorted(nodeids, key=lambda t: -estimates.of(t)):  # stable: ties keep their order
                group = load.index(min(load))
                load[group] += estimates.of(nodeid)
                found[nodeid] = f"{module}#{group}"
    return found


def longest_first(scope_of: Mapping[str, str], estimates: Estimates) -> list[str]:
    """The scopes, longest expected first (ties in the collection's order)."""
    total: dict[str, float] = {}
    for nodeid, scope in scope_of.items():
        total[scope] = total.get(scope, 0.0) + estimates.of(nodeid)
    return sorted(total, key=lambda scope: -total[scope])


def measured(ran: Mapping[str, tuple[str, float, float]]) -> dict[str, float]:
    """What tests/durations.json keeps from a run: each module's wall seconds and each test's of a second or
    more, rounded to a tenth (nodeid -> (process, started, ended))."""
    seconds: dict[str, float] = {}
    for nodeid, (_, started, ended) in ran.items():
        took = ended - started
        module = module_of(nodeid)
        seconds[module] = seconds.get(module, 0.0) + took
        if took >= LISTED:
            seconds[nodeid] = took
    return {key: round(value, 1) for key, value in sorted(seconds.items())}


def write(ran: Mapping[str, tuple[str, float, float]], path: Path = DURATIONS) -> None:
    """Keep this run's durations; the modules it did not run keep the ones they had."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))["seconds"]
    except (OSError, ValueError, KeyError):
        kept = {}
    ran_now = {module_of(nodeid) for nodeid in ran}
    seconds = {key: value for key, value in kept.items() if module_of(key) not in ran_now}
    seconds.update(measured(ran))
    text = json.dumps({"seconds": dict(sorted(seconds.items()))}, indent=0, ensure_ascii=False)
    path.write_text(text + "\n", encoding="utf-8")
