"""The phones' server sees what other programs write to the game, and does nothing while nothing happens."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion.watch import GameWatch

ASYNC = pytest.mark.asyncio
LINUX = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the kernel's file notifications are Linux's")


async def until(condition, timeout: float = 20.0) -> None:
    """Wait on the loop until ``condition()`` holds (the machine may be busy: a generous timeout)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "waited too long"
        await asyncio.sleep(0.005)


@contextlib.contextmanager
def watching(banker, **options) -> Iterator[GameWatch]:
    """A watch on ``banker``'s game, told of the table's own commits as the server tells it, running
    (on this loop) until the block ends."""
    watch = GameWatch(banker.refresh, banker.path, **options)
    banker.subscribe(watch.own_commit, first=True)
    watch.start()
    try:
        yield watch
    finally:
        watch.stop()


async def from_the_terminal(game: Path, action: dict) -> None:
    """``companion do GAME ACTION`` in another process, as someone at a terminal would type it."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "companion.cli",
        "do",
        str(game),
        json.dumps(action),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    _, err = await child.communicate()
    assert child.returncode == 0, err


@LINUX
@ASYNC
async def test_the_terminal_pays_ann_her_salary_and_the_watch_hears_it_without_polling(table):
    """Ann's salary is entered with `companion do` from a terminal while the server's Banker holds
    the game: the kernel wakes the watch, which never looks on its own (no safety look here)."""
    banker = table.banker
    loop = asyncio.get_running_loop()
    heard: dict[int, float] = {}
    elsewhere: list[bool] = []
    banker.subscribe(lambda outcome: heard.setdefault(outcome.version, loop.time()))
    banker.subscribe(lambda outcome: elsewhere.append(outcome.elsewhere))
    with watching(banker, safety=0) as watch:
        assert watch.kernel
        before = banker.version
        await from_the_terminal(banker.path, {"action": "salary", "player": "Ann"})
        ended = loop.time()
        await until(lambda: before + 1 in heard)
        assert watch.wakeups >= 1 and elsewhere == [True]
        assert table.cash("Ann") == 1700
        # the entry was heard before, or soon after, the terminal's process ended (the 100 ms a
        # player notices, with room for a loaded machine)
        assert heard[before + 1] - ended < 1.0


@LINUX
@ASYNC
async def test_with_nothing_happening_the_watch_never_looks(table):
    """A quiet table: the kernel's watch looks not once; a poll in the same time looks again and again."""
    banker = table.banker
    quiet = GameWatch(banker.refresh, banker.path, safety=0)
    polling = GameWatch(banker.refresh, banker.path, kernel=False, fast=0.01, idle_poll=0.01)
    quiet.start()
    polling.start()
    try:
        await until(lambda: polling.looks >= 20)
        assert quiet.looks == 0 and quiet.wakeups == 0
    finally:
        quiet.stop()
        polling.stop()


@LINUX
@ASYNC
async def test_a_table_settling_in_for_the_evening_wakes_no_watch_of_its_own(table):
    """The table settles in (the -wal's room, as the touchscreen and `companion serve` do before their
    watch starts) and the room is synced in its first lull: its own watch hears none of it, then
    Bob's $20 to Ann costs no look either."""
    banker = table.banker
    banker.settle_in()
    with watching(banker, safety=0) as watch:
        banker.lull.flush()  # the first lull: the room's sync
        await asyncio.sleep(0.1)  # a loop that runs: nothing is waiting for it
        banker.do({"action": "transfer", "from": "Bob", "to": "Ann", "amount": 20})
        await asyncio.sleep(0.1)
        assert watch.looks == 0 and watch.wakeups == 0 and table.cash("Ann") == 1520


@LINUX
@ASYNC
async def test_a_write_heard_before_its_commit_shows_is_looked_at_again(tmp_path):
    """The kernel tells of the first page written to the -wal, before the commit is visible: the watch
    looks at once and again a little later, and does not look for writes to other files beside it."""
    game = tmp_path / "friday.game"
    game.write_bytes(b"")
    seen = []
    watch = GameWatch(lambda: seen.append(time.monotonic()) or False, game, tail=(0.01, 0.03), safety=0)
    watch.start()
    try:
        (tmp_path / "friday.game.phones").write_text("{}")  # the phones file beside it: not the game
        (tmp_path / "friday.game-wal").write_bytes(b"a page")
        await until(lambda: watch.looks >= 2 and not watch._due)
        await asyncio.sleep(0.1)  # nothing further is due
        # at once, then at 10 and 30 ms (one late look for both when a busy machine wakes it late)
        assert watch.wakeups == 1 and watch.looks in (2, 3)
        assert seen[-1] - seen[0] >= 0.03 - 0.002
    finally:
        watch.stop()


@LINUX
@ASYNC
async def test_the_tables_own_commits_cost_no_look_and_a_terminals_write_behind_them_is_heard(table):
    """Bob pays Ann $50, then $10, through this Banker: the kernel speaks of the table's own writes, and
    the watch reads that at the commit itself, so it neither wakes nor looks. Then Cy's $25 typed at a
    terminal right behind them is heard and folded in."""
    banker = table.banker
    with watching(banker, safety=0) as watch:
        banker.do({"action": "transfer", "from": "Bob", "to": "Ann", "amount": 50})
        banker.do({"action": "transfer", "from": "Bob", "to": "Ann", "amount": 10})
        assert watch.own_writes == 2
        await asyncio.sleep(0.1)  # a loop that runs: nothing is waiting for it
        assert watch.looks == 0 and watch.wakeups == 0
        before = banker.version
        await from_the_terminal(banker.path, {"action": "transfer", "from": "bank", "to": "Cy", "amount": 25})
        await until(lambda: banker.version == before + 1)
        assert watch.wakeups >= 1 and table.cash("Cy") == 1525 and table.cash("Ann") == 1560


@LINUX
@ASYNC
async def test_an_entry_caught_up_from_elsewhere_is_not_taken_for_the_tables_own(tmp_path):
    """Another program writes to the -wal and the Banker happens to catch up with its entry before the
    watch hears it: that outcome says so, and the watch still hears the write (and looks along its tail).
    The table's own commit right after is read at the commit and costs no wake-up."""
    game = tmp_path / "friday.game"
    game.write_bytes(b"")
    watch = GameWatch(lambda: False, game, tail=(0.01,), safety=0)
    watch.start()
    try:
        (tmp_path / "friday.game-wal").write_bytes(b"another program's page")
        watch.own_commit(SimpleNamespace(elsewhere=True))
        assert watch.own_writes == 0
        await until(lambda: watch.wakeups == 1 and watch.looks == 2)  # at once, and 10 ms later
        (tmp_path / "friday.game-wal").write_bytes(b"the table's own page")
        watch.own_commit(SimpleNamespace(elsewhere=False))
        assert watch.own_writes == 1
        await asyncio.sleep(0.05)
        assert watch.wakeups == 1 and watch.looks == 2
    finally:
        watch.stop()


@ASYNC
async def test_without_notifications_the_poll_slows_while_idle_and_a_phone_speeds_it_up(table):
    """Where the kernel cannot tell, the watch polls: slower and slower while nothing changes, back to
    the fast pace when a phone asks (and it looks before answering)."""
    with watching(table.banker, kernel=False, fast=0.005, idle_poll=0.04) as watch:
        await until(lambda: watch._pace >= 0.04)
        looks = watch.looks
        watch.nudge()
        assert watch.looks == looks + 1 and watch._pace == 0.005


@ASYNC
async def test_a_server_that_watches_picks_up_the_terminals_write_and_stops_cleanly(table):
    """``watch=True`` as ``companion serve`` runs it: another process's transfer reaches the server's Banker."""
    from companion.web.server import PhoneServer

    banker = table.banker
    server = PhoneServer(banker, "127.0.0.1", 0, advertise=False, lan_address="127.0.0.1", watch=True)
    await server.start()
    try:
        before = banker.version
        await from_the_terminal(banker.path, {"action": "transfer", "from": "bank", "to": "Cy", "amount": 25})
        await until(lambda: banker.version == before + 1)
        assert table.cash("Cy") == 1525
    finally:
        await server.stop()
        await server.stop()
        server.close()
