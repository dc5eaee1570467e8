"""Touchscreen benchmark: memory after a 500-action game, and the time from an action to the table
screen showing it. Printed as JSON lines, with a baseline measured in the same run.

Run under a display (Xvfb on a server): ``xvfb-run -a .venv/bin/python benchmarks/ui.py``.
Each measurement runs in its own process so one's memory does not count in another's:

* ``baseline_rss``: an empty Kivy window (what any Kivy app costs before it does anything);
* ``app_rss``: the app on a game of 500 actions, after showing the table, the history and the chart;
* ``action_to_table``: an action applied through the app (commit included) until the table's widgets
  hold the new figures (Python side), and until the next frame is drawn; median and 95th percentile.

Targets (issue 7): app RSS under 150 MB; action to table under 50 ms.
"""
from __future__ import annotations

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

ACTIONS = 500
SAMPLES = 100


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def _kivy_env() -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
    os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")


def pump(frames: int = 3) -> None:
    from kivy.base import EventLoop

    for _ in range(frames):
        EventLoop.idle()


def play_evening(path: Path, actions: int = ACTIONS) -> None:
    """A game of ``actions`` entries: salaries, buying, rent, payments, turns and the odd undo."""
    from companion.service import Banker

    players = ["Ann", "Bob", "Cy", "Dee"]
    with Banker.create(path, "classic", players, {}, backup_every=0) as b:
        deeds = list(b.table["deeds"])
        n = 0
        while b.version < actions:
            who = b.table["order"][b.table["turn"]["index"]]
            step = n % 6
            if step == 0:
                b.do({"action": "salary", "player": who})
            elif step == 1 and deeds:
                deed = deeds.pop(0)
                try:
                    b.do({"action": "buy", "player": who, "deed": deed})
                except Exception:
                    b.do({"action": "transfer", "from": "bank", "to": who, "amount": 100})
            elif step == 2:
                owned = [d for d, s in b.table["deeds"].items() if s.get("owner") not in (None, who)
                         and not s.get("mortgaged") and b.table["pack"]["cards"][d].get("kind") == "street"]
                try:
                    b.do({"action": "rent", "payer": who, "deed": owned[n % len(owned)]} if owned else
                         {"action": "transfer", "from": who, "to": "bank", "amount": 10})
                except Exception:
                    b.do({"action": "transfer", "from": "bank", "to": who, "amount": 50})
            elif step == 3:
                other = players[(players.index(who) + 1) % len(players)]
                try:
                    b.do({"action": "transfer", "from": who, "to": other, "amount": 20, "memo": "a deal"})
                except Exception:
                    b.do({"action": "transfer", "from": "bank", "to": who, "amount": 20})
            elif step == 4 and n % 24 == 4:
                b.undo()
            else:
                b.do({"action": "next_turn"})
            n += 1


def measure_baseline() -> dict:
    _kivy_env()
    from kivy.config import Config

    Config.set("graphics", "width", "800")
    Config.set("graphics", "height", "480")
    from kivy.base import EventLoop
    from kivy.uix.label import Label

    EventLoop.ensure_window()
    EventLoop.window.add_widget(Label(text="empty"))
    pump(10)
    return {"measure": "baseline_rss", "what": "an empty Kivy window, 800x480", "rss_mb": round(rss_mb(), 1)}


def _start_app(folder: Path):
    from companion.ui.app import configure_kivy

    configure_kivy(size=(800, 480))
    from companion.ui.bank_app import TableBankerApp
    from companion.ui.settings import UiSettings

    app = TableBankerApp(data=folder, settings=UiSettings(folder=str(folder), phones=False, hardware=False))
    app._run_prepare()
    pump(5)
    return app


def measure_app() -> list[dict]:
    _kivy_env()
    folder = Path(tempfile.mkdtemp(prefix="bench-ui-"))
    started = time.perf_counter()
    play_evening(folder / "evening.game")
    played = time.perf_counter() - started
    app = _start_app(folder)
    assert app.desk is not None and app.desk.version >= ACTIONS
    for screen in ("table", "history", "over", "deeds", "table"):
        app.show(screen)
        pump(5)
    rows = [{"measure": "app_rss", "what": f"the app on a {app.desk.version}-entry game after table, history, "
             f"chart and deeds", "rss_mb": round(rss_mb(), 1), "target_mb": 150,
             "setup_seconds": round(played, 2)}]

    table = app.screens["table"]
    python_side, with_frame = [], []
    who = app.desk.table["order"]
    for i in range(SAMPLES):
        payee = who[i % len(who)]
        action = {"action": "transfer", "from": "bank", "to": payee, "amount": 1 + i, "memo": "bench"}
        t0 = time.perf_counter()
        result = app.act(action)
        app._refresh_now()  # what the batched trigger runs on the next frame
        t1 = time.perf_counter()
        pump(1)
        t2 = time.perf_counter()
        assert result.ok, result.text
        shown = {w.name: w.cash_text for w in table.ids.tiles.children}
        assert shown[payee] == app.desk.fmt(app.desk.table["accounts"][payee])
        python_side.append((t1 - t0) * 1000)
        with_frame.append((t2 - t0) * 1000)

    def stats(values: list[float]) -> dict:
        values = sorted(values)
        return {"median_ms": round(statistics.median(values), 2), "p95_ms": round(values[int(len(values) * 0.95) - 1], 2),
                "max_ms": round(values[-1], 2)}

    rows.append({"measure": "action_to_table", "what": "commit + table widgets updated (Python side)",
                 "samples": SAMPLES, **stats(python_side), "target_ms": 50})
    rows.append({"measure": "action_to_frame", "what": "commit + table updated + one frame drawn",
                 "samples": SAMPLES, **stats(with_frame)})
    app.shutdown()
    return rows


def main() -> int:
    if len(sys.argv) > 1:
        rows = measure_baseline() if sys.argv[1] == "baseline" else measure_app()
        for row in rows if isinstance(rows, list) else [rows]:
            print(json.dumps(row))
        return 0
    if not os.environ.get("DISPLAY"):
        print(json.dumps({"error": "no DISPLAY: run under xvfb-run -a"}))
        return 2
    for part in ("baseline", "app"):
        out = subprocess.run([sys.executable, __file__, part], capture_output=True, text=True, cwd=ROOT)
        lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
        if out.returncode != 0 or not lines:
            print(json.dumps({"measure": part, "error": out.stderr.strip().splitlines()[-1:] or "failed"}))
            continue
        for line in lines:
            print(line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
