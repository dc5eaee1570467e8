"""The power cord is pulled mid-game: a child applying actions is killed with SIGKILL at random moments.

After every kill, every action the child acknowledged is in the game file, SQLite's integrity check
says ok, and a full replay of the log equals the state rebuilt from the snapshots.
"""

from __future__ import annotations

import json
import os
import random
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


def _run_and_kill(game: Path, pack: str, options: dict, seed: int, rnd: random.Random) -> int:
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.crash_child", str(game), pack, str(seed), json.dumps(options)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    try:
        ready = child.stdout.readline()
        assert ready.startswith("READY"), child.stderr.read()
        acked = int(ready.split()[1])
        deadline = time.monotonic() + rnd.uniform(0.005, 0.25)
        os.set_blocking(child.stdout.fileno(), False)
        buffer = ""
        while time.monotonic() < deadline:
            try:
                chunk = child.stdout.read()
            except (BlockingIOError, TypeError):
                chunk = None
            if chunk:
                buffer += chunk
            time.sleep(0.001)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=10)
        try:
            rest = child.stdout.read()
        except (BlockingIOError, TypeError):
            rest = None
        buffer += rest or ""
        for line in buffer.splitlines():
            if line.startswith("ACK"):
                acked = max(acked, int(line.split()[1]))
        return acked
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
        child.stdout.close()
        child.stderr.close()


@pytest.mark.slow
def test_every_acknowledged_action_survives_sigkill(tmp_path):
    rnd = random.Random(20261125)
    runs = [(pack, options) for pack, options in variants() if pack in pack_names()]
    games = [tmp_path / f"{pack}-{i}.game" for i, (pack, _) in enumerate(runs)]
    acked_total = 0
    for kill in range(KILLS):
        (pack, options), game = runs[kill % len(runs)], games[kill % len(runs)]
        acked = _run_and_kill(game, pack, options, seed=kill, rnd=rnd)
        if not game.exists():
            continue  # killed before the game file was linked into place: nothing was acknowledged
        with Banker.open(game, backup_every=0) as banker:
            assert banker.version >= acked, (
                f"kill {kill}: acknowledged entry {acked} is missing (file has {banker.version})"
            )
            assert banker.verify() == [], f"kill {kill}: {banker.verify()}"
            assert banker.store.integrity_check() == ["ok"]
            acked_total += 1
    assert acked_total >= KILLS * 0.9
    for game in games:
        with Banker.open(game, backup_every=0) as banker:
            assert banker.version > 20, "the children should have made real progress"
