"""The suite's timeline from a `--junitxml` file: which module ran in which test process, and when.

    python benchmarks/suite_timeline.py RUN.xml              # each process's modules, in the order they ran
    python benchmarks/suite_timeline.py RUN.xml --simulate 4 5   # the same tests dealt to 4, then 5 processes
    python benchmarks/suite_timeline.py RUN.xml --write-durations  # tests/durations.json from this run

A run of tests/conftest.py records each test's process and its wall-clock start and end as properties of
the XML; an older XML (without them) still gives each test's time, enough to simulate and to write the
durations. --simulate deals the tests as pytest-xdist's default did (scopes in the collection's order, a
new scope when two tests are left) and as tests/conftest.py does now (longest first, a new scope when
one is left), with each test taking the time it took in this run: an estimate, which ignores that more
processes than cores each run slower.
"""

from __future__ import annotations

import argparse
import heapq
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests import schedule, timeline  # noqa: E402


def read(path: Path) -> tuple[list[str], dict[str, float], dict[str, dict[str, str]]]:
    """The tests in the order their reports came, each one's time, and each one's properties."""
    order, took, properties = [], {}, {}
    for case in ET.parse(path).iter("testcase"):
        module = case.get("classname", "").replace(".", "/") + ".py"
        nodeid = f"{module}::{case.get('name')}"
        order.append(nodeid)
        took[nodeid] = float(case.get("time", 0))
        properties[nodeid] = {p.get("name", ""): p.get("value", "") for p in case.iter("property")}
    return order, took, properties


def simulate(
    units: list[tuple[str, list[str]]], took: dict[str, float], processes: int, refill_at: int
) -> dict[str, tuple[str, float, float]]:
    """Deal the scopes (in this order) as pytest-xdist's scope scheduling does: each process one at the
    start, then another to any with at most `refill_at` tests left (started and not ended), re-checked as
    each test ends. Returns nodeid -> (process, started, ended)."""
    queue = list(units)
    lanes: list[list[str]] = [[] for _ in range(processes)]  # the tests each process still has, in order
    ran: dict[str, tuple[str, float, float]] = {}

    def refill(i: int) -> None:  # one scope at a time, as pytest-xdist does after each test
        if queue and len(lanes[i]) <= refill_at:
            lanes[i].extend(queue.pop(0)[1])

    for i in range(processes):
        if queue:
            lanes[i].extend(queue.pop(0)[1])
    events = [(0.0, i) for i in range(processes)]
    heapq.heapify(events)
    while events:
        now, i = heapq.heappop(events)
        refill(i)  # the test before has ended: what this process has left is its pending work
        if not lanes[i]:
            continue
        nodeid = lanes[i].pop(0)
        ran[nodeid] = (f"p{i}", now, now + took[nodeid])
        heapq.heappush(events, (now + took[nodeid], i))
    return ran


def the_old_way(order: list[str], took: dict[str, float]) -> list[tuple[str, list[str]]]:
    """pytest-xdist's default with --no-loadscope-reorder: scopes in the order of their first test,
    groups(n) dealt in turn, the modules marked slow first, then those with a screen or a browser."""
    groups = schedule.module_groups()
    counts: dict[str, int] = {}
    units: dict[str, list[str]] = {}
    for nodeid in order:
        module = schedule.module_of(nodeid)
        n = groups.get(module)
        if n is None:
            scope = module
        elif n == 0:
            scope = nodeid
        else:
            counts[module] = counts.get(module, -1) + 1
            scope = f"{module}#{counts[module] % n}"
        units.setdefault(scope, []).append(nodeid)
    return list(units.items())


def the_new_way(order: list[str], took: dict[str, float]) -> list[tuple[str, list[str]]]:
    estimates = schedule.Estimates.read(order)
    scope_of = schedule.scopes(order, schedule.module_groups(), estimates)
    units: dict[str, list[str]] = {}
    for nodeid in order:
        units.setdefault(scope_of[nodeid], []).append(nodeid)
    return [(scope, units[scope]) for scope in schedule.longest_first(scope_of, estimates)]


def show(ran: dict[str, tuple[str, float, float]], every: bool) -> None:
    found = timeline.processes(ran)
    zero = min(p.started for p in found)
    if every:
        for p in found:
            print(f"{p.name}: ends {p.ended - zero:.0f}s, busy {p.busy:.0f}s")
            for s in p.stretches:
                if s.seconds >= 5:
                    print(
                        f"   {s.started - zero:5.0f}-{s.ended - zero:5.0f}s {s.seconds:5.0f}s  {s.module} ({s.tests})"
                    )
    for line in timeline.summary(ran):
        print(line)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("xml", type=Path)
    parser.add_argument("--simulate", type=int, nargs="*", default=[])
    parser.add_argument("--write-durations", action="store_true")
    parser.add_argument(
        "--collection", type=Path, help="the collection's order (`pytest --collect-only -q` saved to a file)"
    )
    args = parser.parse_args()
    order, took, properties = read(args.xml)
    if args.collection:
        collected = [line.strip() for line in args.collection.read_text().splitlines() if "::" in line]
        order = [n for n in collected if n in took] + [n for n in order if n not in set(collected)]
    ran = timeline.from_junit(properties.items())
    if args.write_durations:
        schedule.write(ran or {n: ("", 0.0, took[n]) for n in order})
        print(f"wrote {schedule.DURATIONS}")
    if ran and not args.simulate:
        show(ran, every=True)
    for n in args.simulate:
        for name, units, refill_at in (
            ("as before", the_old_way(order, took), 2),
            ("longest first", the_new_way(order, took), 1),
        ):
            print(f"\n== {n} processes, {name} ==")
            show(simulate(units, took, n, refill_at), every=False)


if __name__ == "__main__":
    main()
