"""The suite's timeline: which module ran in which test process, and when.

Read from what each test recorded (its process, and its wall-clock start and end; tests/conftest.py), so the
same functions serve the summary `make test` prints and benchmarks/suite_timeline.py, which reads a
``--junitxml`` file afterwards.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

#: nodeid -> (process, started, ended), the times in seconds since the epoch
Ran = Mapping[str, tuple[str, float, float]]


@dataclass
class Stretch:
    """One module's tests run back to back in one process (a module split over processes, or visited
    twice by one process, has a stretch for each)."""

    module: str
    started: float
    ended: float
    tests: int = 1

    @property
    def seconds(self) -> float:
        return self.ended - self.started


@dataclass
class Process:
    name: str
    stretches: list[Stretch] = field(default_factory=list)

    @property
    def started(self) -> float:
        return self.stretches[0].started

    @property
    def ended(self) -> float:
        return self.stretches[-1].ended

    @property
    def busy(self) -> float:
        return sum(s.seconds for s in self.stretches)

    @property
    def tests(self) -> int:
        return sum(s.tests for s in self.stretches)

    def longest(self, n: int) -> list[Stretch]:
        return sorted(self.stretches, key=lambda s: -s.seconds)[:n]


def module_of(nodeid: str) -> str:
    return nodeid.split("::")[0]


def processes(ran: Ran) -> list[Process]:
    """Each process with its modules in the order they ran, by name."""
    by_process: dict[str, list[tuple[float, float, str]]] = {}
    for nodeid, (process, started, ended) in ran.items():
        by_process.setdefault(process, []).append((started, ended, module_of(nodeid)))
    found = []
    for name in sorted(by_process, key=lambda p: (len(p), p)):
        process = Process(name)
        for started, ended, module in sorted(by_process[name]):
            last = process.stretches[-1] if process.stretches else None
            if last is not None and last.module == module:
                last.ended = max(last.ended, ended)
                last.tests += 1
            else:
                process.stretches.append(Stretch(module, started, ended))
        found.append(process)
    return found


def summary(ran: Ran, longest: int = 3) -> list[str]:
    """A few lines: each process's span, busy time and longest modules, then the one that ended last and
    what it ran at the end. Times are seconds from the first test's start."""
    found = processes(ran)
    if not found:
        return []
    zero = min(p.started for p in found)
    lines = []
    for p in found:
        modules = ", ".join(f"{s.module.removeprefix('tests/')} {s.seconds:.0f}s" for s in p.longest(longest))
        lines.append(
            f"{p.name:>5} {p.started - zero:4.0f}-{p.ended - zero:4.0f}s  busy {p.busy:4.0f}s  "
            f"{p.tests:4d} tests; longest: {modules}"
        )
    last = max(found, key=lambda p: p.ended)
    first_done = min(p.ended for p in found)
    tail = [s for s in last.stretches if s.ended > first_done]
    ran_late = ", ".join(
        f"{s.module.removeprefix('tests/')} {s.started - zero:.0f}-{s.ended - zero:.0f}s" for s in tail[-4:]
    )
    lines.append(
        f"the last to end: {last.name} at {last.ended - zero:.0f}s, {last.ended - first_done:.0f}s after the "
        f"first; it ran then: {ran_late}"
    )
    return lines


def from_junit(properties: Iterable[tuple[str, Mapping[str, str]]]) -> dict[str, tuple[str, float, float]]:
    """nodeid -> (process, started, ended) from (nodeid, the test's properties) pairs read from a
    --junitxml file; tests without the timeline's properties are left out."""
    ran = {}
    for nodeid, found in properties:
        if "started" in found and "ended" in found:
            ran[nodeid] = (found.get("process", "main"), float(found["started"]), float(found["ended"]))
    return ran
