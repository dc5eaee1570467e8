"""The touchscreen sees what another program writes without looking 20 times a second.

On its asyncio loop (as ``companion run`` runs it) the app sleeps until the kernel says the game's
files were written (companion/watch.py); where there are no file notifications it polls, faster after a
change and slower while nothing happens. Either way a payment typed at a terminal (``companion do``, a
process of its own) is on the table screen at once.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

from companion.service import Banker
from tests.gui.hands import start_app, stop_app

pytestmark = pytest.mark.gui

ROOT = Path(__file__).resolve().parents[2]


def tile(hands, name):
    return next(w for w in hands.all() if type(w).__name__ == "PlayerTile" and w.name == name)


async def frames_until(what: str, ready, seconds: float = 30.0) -> None:
    """Draw frames on the loop, as Kivy's asyncio loop does, until ``ready()``: the loop stays free
    between frames for the watch's file notifications and timers."""
    from kivy.base import EventLoop

    deadline = time.monotonic() + seconds
    while not ready():
        assert time.monotonic() < deadline, f"waited {seconds} s for {what}"
        EventLoop.idle()
        await asyncio.sleep(0.01)


async def rest(seconds: float) -> None:
    """Nothing happens at the table for ``seconds``: frames are drawn, the loop is free."""
    end = time.monotonic() + seconds
    await frames_until("the end of the rest", lambda: time.monotonic() >= end, seconds + 5)


async def companion_do(game: Path, *args: str) -> None:
    """The ``companion`` command in a terminal: a process of its own, with its own connection to the game."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "companion",
        "do",
        str(game),
        *args,
        env=env,
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await proc.communicate()
    assert proc.returncode == 0, err.decode()[-2000:]


@pytest.mark.parametrize("notifications", [True, False], ids=["kernel", "polling"])
def test_bob_s_payment_typed_at_a_terminal_shows_on_the_table_screen(tmp_path, monkeypatch, notifications):
    import companion.watch

    if not notifications:

        def no_inotify(folder):
            raise OSError("no inotify here")

        monkeypatch.setattr(companion.watch, "Inotify", no_inotify)
    game = tmp_path / "night.game"
    Banker.create(game, "classic", ["Ann", "Bob"], {}, backup_every=0).close()

    async def evening() -> None:
        hands = start_app(tmp_path, game)  # on the running loop, as `companion run` starts it
        try:
            app = hands.app
            assert hands.screen == "table" and tile(hands, "Bob").cash_text == "$1,500"
            watch = app.watch
            assert watch is not None and watch.kernel is notifications
            await companion_do(game, "transfer", "--from", "bank", "--to", "Bob", "--amount", "55", "--memo", "taxi")
            await frames_until("Bob's $55 on the table", lambda: tile(hands, "Bob").cash_text == "$1,555")
            assert hands.find("undo").text == "Undo: the bank paid Bob $55 (taxi)"
            if notifications:
                assert watch.wakeups >= 1  # the kernel woke it for the terminal's write
            looks = watch.looks
            await rest(1.0)
            if notifications:
                assert watch.looks - looks <= 6  # the tail after a write, then nothing: never 20 a second
        finally:
            stop_app(hands)

    asyncio.run(evening())
