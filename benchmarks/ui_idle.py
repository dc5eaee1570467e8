"""The touchscreen at rest: how much of a core ``companion run`` uses while nothing happens at the table.

Starts the real command (``python -m companion --data FOLDER run GAME``, phones and buttons off) on a
classic game under the display it is given (Xvfb on a server), waits until it has opened the game
(``last-game.json`` written) and a further ``--settle`` seconds for start-up to finish, then reads the
process's CPU time (user + system, ``/proc/PID/stat``) over ``--seconds`` of nothing happening. The
figure is a share of one core. Each run is one process; ``--runs`` repeats it.

Where the time goes at rest is Kivy's own frame loop (the clock ticks every frame) plus whatever the
app schedules; the app used to look at the game file every 50 ms for other programs' writes, and now
sleeps until the kernel says the game's files were written (``companion/watch.py``).

``ui_poll_work`` is what one look of the old poll cost, measured in this process (without Kivy's
scheduling around it).

Run under a display: ``xvfb-run -a -s "-screen 0 1280x800x24" .venv/bin/python benchmarks/ui_idle.py``.
Prints one JSON line per run and one for the median. Figures only: nothing here asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def cpu_seconds(pid: int) -> float:
    """The process's CPU time so far (user + system), in seconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def one_run(seconds: float, settle: float) -> dict:
    from companion.service import Banker

    with tempfile.TemporaryDirectory(prefix="ui-idle-") as folder:
        game = Path(folder) / "night.game"
        Banker.create(game, "classic", ["Ann", "Bob", "Cy"], {}, backup_every=0).close()
        (Path(folder) / "touchscreen.json").write_text(
            json.dumps({"phones": False, "advertise": False, "hardware": False})
        )
        env = dict(
            os.environ,
            KIVY_NO_ARGS="1",
            KIVY_NO_CONSOLELOG="1",
            KIVY_NO_FILELOG="1",
            KIVY_HOME=tempfile.mkdtemp(prefix="kivy-home-"),
            GPIOZERO_PIN_FACTORY="mock",
            PYTHONPATH=str(ROOT),
        )
        command = [sys.executable, "-m", "companion", "--data", folder, "run", str(game)]
        proc = subprocess.Popen(command, env=env, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            deadline = time.monotonic() + 120
            while not (Path(folder) / "last-game.json").exists():
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit(f"the app did not open the game: {proc.stderr.read().decode()[-2000:]}")
                time.sleep(0.2)
            time.sleep(settle)
            before, t0 = cpu_seconds(proc.pid), time.monotonic()
            time.sleep(seconds)
            after, t1 = cpu_seconds(proc.pid), time.monotonic()
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()
    return {
        "measure": "ui_idle_cpu",
        "percent_of_a_core": round(100 * (after - before) / (t1 - t0), 3),
        "seconds": seconds,
    }


def poll_work() -> dict:
    """What one look of the old 50 ms poll did, in this process: ``Banker.refresh`` (one ``PRAGMA
    data_version``), the trading unit's tick and its outputs; as a share of a core at 20 looks a second."""
    from companion.service import Banker
    from companion.ui.unit_link import UnitLink

    with tempfile.TemporaryDirectory(prefix="ui-idle-") as folder:
        with Banker.create(Path(folder) / "g.game", "classic", ["Ann", "Bob"], {}, backup_every=0) as banker:
            link = UnitLink(banker.table["pack"], act=lambda action: None)
            n = 20000
            start = time.process_time()
            for _ in range(n):
                banker.refresh()
                link.tick()
                link.unit.outputs(link.clock())
            each = (time.process_time() - start) / n
    return {
        "measure": "ui_poll_work",
        "us_each": round(each * 1e6, 2),
        "percent_of_a_core_at_20_a_second": round(each * 2000, 4),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to watch the app at rest")
    parser.add_argument("--settle", type=float, default=8.0, help="seconds after the game opened before watching")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps(poll_work()), flush=True)
    figures = []
    for _ in range(args.runs):
        row = one_run(args.seconds, args.settle)
        figures.append(row["percent_of_a_core"])
        print(json.dumps(row), flush=True)
    load = os.getloadavg()[0]
    print(json.dumps({"measure": "ui_idle_cpu_median", "percent_of_a_core": statistics.median(figures), "load": load}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
