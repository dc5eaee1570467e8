"""Where one action's CPU goes in the phones' server: a profile of ``benchmarks/phones.py`` split by stage.

    PHONES_PROFILE=/tmp/table.prof python benchmarks/phones.py --actions 300
    python benchmarks/action_profile.py /tmp/table.prof

Prints one JSON line per stage of an action's way from a tap to the phones, with the functions (and
files) it is counted from, how many times they ran, their CPU time under the profiler (which inflates
Python code several times against C code such as SQLite's fsync: compare shares, not milliseconds with
the benchmark's), that per action, and the stage's share of the stages together. ``actions`` is the
number of entries committed (the banker's actions and the players' own).
"""

from __future__ import annotations

import json
import pstats
import sys

# stage: [(file ending, function), ...] whose cumulative times add up (none inside another)
STAGES: dict[str, list[tuple[str, str]]] = {
    "request parse (HTTP, JSON body)": [("aiohttp/web_protocol.py", "data_received"), ("web/intake.py", "read_json")],
    "auth and guards (door, host, limits, token)": [],  # own time of the two middlewares, below
    "decision (contract parse, rule, conservation)": [("core/engine.py", "decide_full")],
    "commit (BEGIN IMMEDIATE, catch-up, INSERT with hash, COMMIT)": [],  # _write less its parts, below
    "publish (chronicle: worth, story; wake streams)": [("companion/service.py", "_committed")],
    "page (one per watched role per change)": [("web/desk.py", "_page")],  # older builds: "page", below
    "write (12 streams, the action's answer)": [
        ("aiohttp/web_response.py", "write"),
        ("aiohttp/web_protocol.py", "finish_response"),
    ],
}


def find(stats: dict, ending: str, name: str) -> tuple[int, float, float]:
    calls = own = cumulative = 0.0
    for (path, _line, func), (_cc, nc, tt, ct, _callers) in stats.items():
        if func == name and path.replace("\\", "/").endswith(ending):
            calls, own, cumulative = calls + nc, own + tt, cumulative + ct
    return int(calls), own, cumulative


def main(path: str) -> int:
    stats = pstats.Stats(path).stats  # type: ignore[attr-defined]
    actions = find(stats, "companion/service.py", "_committed")[0]
    figures: dict[str, tuple[float, list[str]]] = {}
    for stage, functions in STAGES.items():
        total, named = 0.0, []
        for ending, name in functions:
            calls, _own, cumulative = find(stats, ending, name)
            if not calls and name == "_page":  # a build from before the page was made under this name
                name = "page"
                calls, _own, cumulative = find(stats, ending, name)
            total += cumulative
            named.append(f"{ending}:{name} x{calls}")
        figures[stage] = (total, named)
    door, guard, authorise = (
        find(stats, "web/door.py", "arrived"),
        find(stats, "web/security.py", "guard"),
        find(stats, "web/desk.py", "authorise"),
    )
    if not door[0]:  # a build from before the door's step was part of the guard: a middleware of its own
        door = find(stats, "web/door.py", "middleware")
    figures["auth and guards (door, host, limits, token)"] = (
        door[1] + guard[1] + authorise[2],
        [
            f"web/door.py:arrived x{door[0]} (own)",
            f"web/security.py:guard x{guard[0]} (own)",
            f"web/desk.py:authorise x{authorise[0]}",
        ],
    )
    write, decide, committed = (
        find(stats, "companion/service.py", "_write"),
        find(stats, "core/engine.py", "decide_full"),
        find(stats, "companion/service.py", "_committed"),
    )
    figures["commit (BEGIN IMMEDIATE, catch-up, INSERT with hash, COMMIT)"] = (
        write[2] - decide[2] - committed[2],
        [
            f"companion/service.py:_write x{write[0]} less the decision and the publish",
            f"companion/store.py:append x{find(stats, 'companion/store.py', 'append')[0]}",
        ],
    )
    together = sum(total for total, _ in figures.values()) or 1.0
    for stage, (total, named) in figures.items():
        print(
            json.dumps(
                {
                    "stage": stage,
                    "profiled_ms": round(total * 1000, 1),
                    "per_action_ms": round(total * 1000 / max(actions, 1), 3),
                    "share": round(total / together, 3),
                    "counted_from": named,
                    "actions": actions,
                }
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "/tmp/table.prof"))
