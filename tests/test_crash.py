"""The power cord is pulled mid-game: a child applying actions is killed with SIGKILL at random moments.

After every kill, every action the child acknowledged is in the game file, SQLite's integrity check
says ok, and the replay of the log equals the state rebuilt from the snapshots: from the point the check
after the game's previous kill reached (whose stored chain head must be unchanged, and to which every
later entry must link), and from the first entry for every game at the end.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.rules import pack_names
from companion.service import Banker, Verified
from tests.random_actions import variants

KILLS = int(os.environ.get("CRASH_KILLS", "100"))
READY_SECONDS = 120  # a busy machine may take a while to open a long game
ROOT = Path(__file__).resolve().parent.parent


class Children:
    """Children applying actions, each forked by one parent (``tests.crash_child --forking``) that
    imported the bank once: the child's start is a fork, not a new interpreter."""

    def __init__(self, errors: Path) -> None:
        self.sock, theirs = socket.socketpair()
        self.errors = errors
        with errors.open("w") as stderr:
            self.parent = subprocess.Popen(
                [sys.executable, "-m", "tests.crash_child", "--forking", str(theirs.fileno())],
                cwd=ROOT,
                pass_fds=(theirs.fileno(),),
                stdin=subprocess.DEVNULL,
                stderr=stderr,
            )
        theirs.close()
        self.answers = self.sock.makefile("r")

    def start(self, game: Path, pack: str, seed: int, options: dict) -> tuple[int, int]:
        """A child playing ``game``: its process id and the read end of the pipe its lines come on."""
        read, write = os.pipe()
        try:
            socket.send_fds(self.sock, [json.dumps([str(game), pack, seed, options]).encode()], [write])
        finally:
            os.close(write)
        started = json.loads(self.answers.readline() or "{}")
        assert "child" in started, self.errors.read_text()
        return started["child"], read

    def reaped(self, pid: int) -> dict:
        ended = json.loads(self.answers.readline() or "{}")
        assert ended.get("ended") == pid, self.errors.read_text()
        return ended

    def close(self) -> None:
        """The parent ends when its socket closes; waited for, so its children's CPU is counted here."""
        self.answers.close()
        self.sock.close()
        try:
            self.parent.wait(timeout=30)
        finally:
            if self.parent.poll() is None:
                self.parent.kill()
                self.parent.wait()


def _run_and_kill(children: Children, game: Path, pack: str, options: dict, seed: int, rnd: random.Random) -> int:
    pid, read = children.start(game, pack, seed, options)
    with os.fdopen(read, "r") as lines:
        buffer = ""
        try:
            # a child that never says it is ready fails the test at once, with what it wrote on stderr
            assert select.select([read], [], [], READY_SECONDS)[0], f"no READY: {children.errors.read_text()}"
            ready = lines.readline()
            assert ready.startswith("READY"), children.errors.read_text()
            acked = int(ready.split()[1])
            deadline = time.monotonic() + rnd.uniform(0.005, 0.25)
            os.set_blocking(read, False)
            while time.monotonic() < deadline:
                try:
                    chunk = lines.read()
                except (BlockingIOError, TypeError):
                    chunk = None
                if chunk:
                    buffer += chunk
                time.sleep(0.001)
        finally:
            os.kill(pid, signal.SIGKILL)  # never reaped before this: its parent waits for it to end
            ended = children.reaped(pid)
        assert ended["signal"] == signal.SIGKILL, children.errors.read_text()  # it was playing till then
        try:
            rest = lines.read()
        except (BlockingIOError, TypeError):
            rest = None
    buffer += rest or ""
    for line in buffer.splitlines():
        if line.startswith("ACK"):
            acked = max(acked, int(line.split()[1]))
    return acked


@pytest.mark.slow
def test_every_acknowledged_action_survives_sigkill(tmp_path):
    rnd = random.Random(20261125)
    runs = [(pack, options) for pack, options in variants() if pack in pack_names()]
    games = [tmp_path / f"{pack}-{i}.game" for i, (pack, _) in enumerate(runs)]
    acked_total = 0
    checked: dict[Path, Verified] = {}  # how far each game's log was checked after the kills before
    children = Children(tmp_path / "children.err")
    try:
        for kill in range(KILLS):
            (pack, options), game = runs[kill % len(runs)], games[kill % len(runs)]
            acked = _run_and_kill(children, game, pack, options, seed=kill, rnd=rnd)
            if not game.exists():
                continue  # killed before the game file was linked into place: nothing was acknowledged
            with Banker.open(game, backup_every=0) as banker:
                assert banker.version >= acked, (
                    f"kill {kill}: acknowledged entry {acked} is missing (file has {banker.version})"
                )
                problems = banker.verify(since=checked.get(game))
                assert problems == [], f"kill {kill}: {problems}"
                assert banker.store.integrity_check() == ["ok"]
                checked[game] = banker.verified()
                acked_total += 1
    finally:
        children.close()
    assert acked_total >= KILLS * 0.9
    for game in games:
        with Banker.open(game, backup_every=0) as banker:
            assert banker.version > 20, "the children should have made real progress"
            assert banker.verify() == [], f"{game.name}: {banker.verify()}"  # the whole log, once more
