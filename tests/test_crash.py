"""The power cord is pulled mid-game: a child applying actions is killed with SIGKILL at random moments.

After every kill, every action the child acknowledged is in the game file, SQLite's integrity check
says ok, and a full replay of the log equals the state rebuilt from the snapshots.
"""

from __future__ import annotations

import json
import os
import random
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.rules import pack_names
from companion.service import Banker
from tests.random_actions import variants

KILLS = int(os.environ.get("CRASH_KILLS", "100"))
ROOT = Path(__file__).resolve().parent.parent


class Children:
    """The fork server of tests/crash_child.py: one process with the bank imported, which forks each child."""

    def __init__(self, errors: Path) -> None:
        self.errors = errors
        with errors.open("w") as err:
            self.server = subprocess.Popen(
                [sys.executable, "-m", "tests.crash_child", "--serve"],
                cwd=ROOT,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=err,
                text=True,
                bufsize=1,
            )
        self.out = self.server.stdout.fileno()
        self.pending = b""

    def lines(self, until: float | None = None, upto: tuple[str, ...] = ()) -> list[str]:
        """The whole lines the server and its child write, read until the moment `until` (time.monotonic)
        or, without it, until a line starting with one of `upto` (a minute at most)."""
        found: list[str] = []
        give_up = time.monotonic() + 60.0 if until is None else until
        while (left := give_up - time.monotonic()) > 0:
            if not select.select([self.out], [], [], left)[0]:
                break
            chunk = os.read(self.out, 65536)
            assert chunk, f"the fork server ended: {self.errors.read_text()}"
            *whole, self.pending = (self.pending + chunk).split(b"\n")
            found += [line.decode() for line in whole]
            if upto and any(line.startswith(upto) for line in found):
                return found
        assert not upto, f"no {upto} from the crash child within a minute: {self.errors.read_text()}"
        return found

    def close(self) -> None:
        self.server.stdin.close()
        self.server.wait(timeout=30)
        self.server.stdout.close()


def _run_and_kill(children: Children, game: Path, pack: str, options: dict, seed: int, rnd: random.Random) -> int:
    children.server.stdin.write(f"{game}\t{pack}\t{seed}\t{json.dumps(options)}\n")
    children.server.stdin.flush()
    said = children.lines(upto=("READY", "ENDED"))
    while not any(line.startswith("CHILD") for line in said):
        said += children.lines(upto=("CHILD",))
    ready = [int(line.split()[1]) for line in said if line.startswith("READY")]
    assert ready, f"the child ended before it was ready: {children.errors.read_text()}"
    pid = next(int(line.split()[1]) for line in said if line.startswith("CHILD"))
    acked = ready[0]
    said += children.lines(until=time.monotonic() + rnd.uniform(0.005, 0.25))
    os.kill(pid, signal.SIGKILL)
    while "ENDED" not in said:
        said += children.lines(upto=("ENDED",))
    for line in said:
        if line.startswith("ACK"):
            acked = max(acked, int(line.split()[1]))
    return acked


@pytest.mark.slow
def test_every_acknowledged_action_survives_sigkill(tmp_path):
    rnd = random.Random(20261125)
    runs = [(pack, options) for pack, options in variants() if pack in pack_names()]
    games = [tmp_path / f"{pack}-{i}.game" for i, (pack, _) in enumerate(runs)]
    acked_total = 0
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
                assert banker.verify() == [], f"kill {kill}: {banker.verify()}"
                assert banker.store.integrity_check() == ["ok"]
                acked_total += 1
    finally:
        children.close()
    assert acked_total >= KILLS * 0.9
    for game in games:
        with Banker.open(game, backup_every=0) as banker:
            assert banker.version > 20, "the children should have made real progress"
