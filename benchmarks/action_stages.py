"""Where one action's CPU goes in the phones' server, stage by stage, without a profiler.

The table's server of ``benchmarks/phones.py`` runs in a process of its own with its 12 phones (3
players, 4 phones each) while the banker posts ``--actions`` transfers ``--gap-ms`` apart (each one
reaches the phones on its own). Inside the server, the functions each stage passes are timed with the
thread's own CPU clock (``time.thread_time``: the work itself, not the waits), one clock read on the way
in and one on the way out, so C code (SQLite's fsync, the socket writes) and Python code are counted
alike - a profiler inflates every Python call several times and C not at all. Prints one JSON line per
stage: the functions (and files) it is counted from, their calls per action and the microseconds per
action; then ``total``: the process's own CPU clock per action (``cpu_per_action`` of phones.py, every
thread included) and what the stages leave of it (the event loop, aiohttp's own request and response
work, the stream loop, the clock reads). The bare echo of phones.py is measured after it (``--no-echo``
to skip) for the ratio.

    python benchmarks/action_stages.py [--actions 200] [--gap-ms 110] [--no-echo]

A stage nested in another is not counted in it (the decision and the commit are not in ``Banker.do``,
the pages not in the streams' answers, wherever each is called from), so the stages add up.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import functools
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

import phones  # noqa: E402

# stage: the functions it is timed at, as (module, class or None, function, is it a coroutine)
TIMED: dict[str, list[tuple[str, str | None, str, bool]]] = {
    "request parse": [("aiohttp.web_protocol", "RequestHandler", "data_received", False)],
    "guard": [
        ("companion.web.security", "Guard", "check", False),  # every check in one pass; older builds: one each
        ("companion.web.security", None, "host_check", False),
        ("companion.web.security", None, "well_formed", False),
        ("companion.web.security", None, "csrf_check", False),
        ("companion.web.security", None, "authenticate", False),
    ],
    "body": [("companion.web.api", None, "read_json", True)],
    "Banker.do": [("companion.service", "Banker", "do", False)],
    "decision": [("companion.core.engine", None, "decide_full", False)],
    "append": [("companion.store", "Store", "append", False)],
    "publish": [("companion.service", "Banker", "_committed", False)],
    "watch, at the commit": [("companion.watch", "GameWatch", "own_commit", False)],
    "watch, woken": [
        ("companion.watch", "GameWatch", "_heard", False),
        ("companion.watch", "GameWatch", "_tail_look", False),
        ("companion.watch", "GameWatch", "_safety_look", False),
    ],
    "staging": [("companion.web.desk", "PhoneDesk", "_on_stage", False)],
    "chronicle": [("companion.web.chronicle", "Chronicle", "see", False)],
    "streams' answers": [("companion.web.desk", "PhoneDesk", "live_page", False)],
    # a player's page: made inside _page, or (newer builds) straight into the stream's event by _message
    "pages": [
        ("companion.web.desk", "PhoneDesk", "_page", False),
        ("companion.web.desk", "PhoneDesk", "_player_page", False),
    ],
    "writes": [("aiohttp.web_response", "StreamResponse", "write", True)],
    "fan-out": [("companion.web.sse", "Feed", "serve", False)],
}
SHOWN = {
    "Banker.do": "Banker.do's own work (catch-up read, history, the lull's note, the outcome)",
    "begin": "BEGIN IMMEDIATE (Store.writing)",
    "commit": "COMMIT, the durable one: the -wal written and fsynced (Store.writing)",
    "publish": "Banker._committed's own work (the subscribers' but the watch's and the chronicle's)",
    "staging": "PhoneDesk._on_stage's own work (before the COMMIT: the pages made there are counted as pages)",
    "writes": "writes through aiohttp (StreamResponse.write: a stream's own task, the 201 is not one)",
    "fan-out": "fan-out writes (Feed.serve's own: each page framed once, handed to each transport)",
}


def instrument() -> tuple[Counter, Counter]:
    """Wrap the timed functions; (microseconds, calls) by stage, filled in as the server runs.

    Each plain function's stage counts only its own time: while a timed function runs inside another
    (the decision inside ``Banker.do``, the pages made before the COMMIT inside it, the chronicle inside
    the publish), the outer stage's clock stands still, wherever the inner one is called from. A
    coroutine's stage (the body, the writes) is timed from its start to its end and stops no other."""
    import importlib

    spent: Counter = Counter()
    calls: Counter = Counter()
    clock = time.thread_time
    running: list[list] = []  # the plain stages now running, innermost last: [stage, its clock since]

    def enter(stage: str) -> list:
        now = clock()
        if running:
            outer = running[-1]
            spent[outer[0]] += now - outer[1]
        here = [stage, now]
        running.append(here)
        return here

    def leave(here: list) -> None:
        now = clock()
        running.remove(here)
        spent[here[0]] += now - here[1]
        calls[here[0]] += 1
        if running:
            running[-1][1] = now

    def timed(stage: str, function, coroutine: bool):
        if coroutine:

            @functools.wraps(function)
            async def wrapper(*args, **kwargs):
                started = clock()
                try:
                    return await function(*args, **kwargs)  # the waits inside are not CPU of this thread
                finally:
                    spent[stage] += clock() - started
                    calls[stage] += 1

            return wrapper

        @functools.wraps(function)
        def plain(*args, **kwargs):
            here = enter(stage)
            try:
                return function(*args, **kwargs)
            finally:
                leave(here)

        return plain

    for stage, where in TIMED.items():
        for module_name, owner_name, name, coroutine in where:
            module = importlib.import_module(module_name)
            owner = getattr(module, owner_name, None) if owner_name else module
            if owner is None or not hasattr(owner, name):  # an older build without it (the staged pages, Guard)
                continue
            setattr(owner, name, timed(stage, getattr(owner, name), coroutine))  # looked up there at each call

    store = importlib.import_module("companion.store")
    writing = store.Store.writing

    @contextlib.contextmanager
    def timed_writing(self):
        here = enter("begin")
        try:
            with writing(self) as inside:
                leave(here)
                here = None
                yield inside
                here = enter("commit")
        finally:
            if here is not None:
                leave(here)

    store.Store.writing = timed_writing
    return spent, calls


class Server(phones.Child):
    """phones.py's table server, started from this script (with the stages' clocks in it)."""

    def __init__(self, *args: str) -> None:  # phones.Child's asking and closing, this file's server
        self.proc = subprocess.Popen(
            [sys.executable, __file__, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
        )
        assert self.proc.stdout is not None
        self.hello = json.loads(self.proc.stdout.readline())


def report(spent: dict, calls: dict, actions: int, cpu: float, echo_cpu: float | None) -> None:
    own = dict(spent)
    order = [
        "request parse",
        "guard",
        "body",
        "decision",
        "begin",
        "append",
        "commit",
        "Banker.do",
        "publish",
        "staging",
        "watch, at the commit",
        "watch, woken",
        "chronicle",
        "pages",
        "streams' answers",
        "writes",
        "fan-out",
    ]
    for stage in order:
        where = TIMED.get(stage, [("companion.store", "Store", "writing", False)])
        phones.emit(
            stage=SHOWN.get(stage, stage),
            us_per_action=round(own.get(stage, 0.0) / actions * 1e6, 1),
            calls_per_action=round(calls.get(stage, 0) / actions, 2),
            functions=[f"{m}.{o + '.' if o else ''}{f}" for m, o, f, _ in where],
        )
    counted = sum(own.get(stage, 0.0) for stage in order)
    phones.emit(
        stage="total",
        us_per_action=round(cpu / actions * 1e6, 1),
        left_to_the_loop_and_aiohttp_us=round((cpu - counted) / actions * 1e6, 1),
        echo_us_per_action=round(echo_cpu / actions * 1e6, 1) if echo_cpu else None,
        ratio=round(cpu / echo_cpu, 2) if echo_cpu else None,
        actions=actions,
        phones=phones.PHONES,
    )


async def measure(args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        table = Server("--serve-table", tmp)
        try:
            cpu, _, _ = await phones.round_of_actions(table, args.actions, args.gap_ms / 1000)
            spent, calls = table.ask("stages")
        finally:
            table.close()
        echo_cpu = None
        if not args.no_echo:
            echo = phones.Child("--serve-echo", str(table.hello["size"]))
            try:
                echo_cpu, _, _ = await phones.round_of_actions(echo, args.actions, args.gap_ms / 1000)
            finally:
                echo.close()
    report(spent, calls, args.actions, cpu * args.actions, echo_cpu * args.actions if echo_cpu else None)


async def serve(folder: str) -> None:
    spent, calls = instrument()
    marks: dict = {}

    def stages():
        return {k: v - marks.get(("s", k), 0.0) for k, v in spent.items()}, {
            k: v - marks.get(("c", k), 0) for k, v in calls.items()
        }

    def cpu():
        """The process's CPU clock, as phones.py asks it; the first ask (the round starts, the phones'
        first pages are out) also starts the stages' count."""
        if not marks:
            marks.update({("s", k): v for k, v in spent.items()} | {("c", k): v for k, v in calls.items()})
            marks["started"] = True
        return time.process_time()

    phones.EXTRA_COMMANDS.update(stages=stages, cpu=cpu)
    await phones.serve_table(folder)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--gap-ms", type=float, default=110.0)
    parser.add_argument("--no-echo", action="store_true")
    parser.add_argument("--serve-table", metavar="FOLDER", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve_table:
        asyncio.run(serve(options.serve_table))
    else:
        asyncio.run(measure(options))
