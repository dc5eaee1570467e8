"""Touchscreen benchmark: memory after a 500-action game, and the time from an action to the table
screen showing it. Printed as JSON lines, with a baseline measured in the same run.

Run under a display (Xvfb on a server): ``xvfb-run -a .venv/bin/python benchmarks/ui.py``.
Each measurement runs in its own process so one's memory does not count in another's:

* ``baseline_rss``: an empty Kivy window set up as the app's (same Kivy settings, same allocator
  arenas), after a second of frames and the app's own tidy-up (what any Kivy app costs here before it
  does anything);
* ``app_rss``: the app on a game of 500 actions, after showing the table, the history and the chart;
* ``action_to_table``: an action applied through the app (commit included) until the table's widgets
  hold the new figures (Python side), and until the next frame is drawn; median and 95th percentile.

* ``evening_rss``: a scripted evening: four games opened in turn, 400 actions through the app, every
  screen visited after each batch, then a pause at the table until the app's tidy-up has run (timed);
  resident memory after each batch, and its growth over the last third of the evening; ``evening_over_baseline``: the last figure above the empty window's.

Every part runs on the allocator ``companion run`` starts the app on (``companion.heap.ALLOCATOR``),
the empty window's included, unless ``PYTHONMALLOC`` says otherwise.

Targets: the app on a 500-entry game at most 45 MB above an empty Kivy window (``app_over_baseline``;
the empty window alone is 143.7 MB here, so the old absolute 150 MB left the app 6 MB); action to table
under 50 ms; over an evening, no growth in the last third (within 5 MB) and at most 40 MB above an
empty Kivy window.
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


def pause(app, tidy_ms: list[float]) -> None:
    """A pause at the table: frames run on real time until the app's tidy-up after a still moment has
    run; its duration is kept (it delays the frame it runs in)."""
    from companion.ui.bank_app import TIDY_AFTER_SECONDS

    before = app.tidied
    deadline = time.perf_counter() + TIDY_AFTER_SECONDS + 5
    while app.tidied == before and time.perf_counter() < deadline:
        pump(1)
        time.sleep(0.02)
    if app.tidied != before:
        tidy_ms.append(app.tidy_ms)


def measure_baseline() -> dict:
    """An empty Kivy window set up exactly as the app's (``configure_kivy``: size, settings, allocator
    arenas), one label on it, after a second of frames and the same hand-back the app does at a
    pause: what any Kivy app costs here before it does anything."""
    _kivy_env()
    from companion.ui.app import configure_kivy

    configure_kivy(size=(800, 480))
    from kivy.base import EventLoop
    from kivy.uix.label import Label

    from companion.ui.tidy import give_back

    EventLoop.ensure_window()
    EventLoop.window.add_widget(Label(text="empty"))
    frames, end = 0, time.perf_counter() + 1.0
    while time.perf_counter() < end:
        pump(1)
        frames += 1
        time.sleep(0.02)
    drawn = rss_mb()
    give_back()
    return {"measure": "baseline_rss", "what": f"an empty Kivy window, 800x480, set up as the app's, after "
            f"{frames} frames and a tidy-up", "rss_mb": round(rss_mb(), 1), "before_tidy_mb": round(drawn, 1)}


def _start_app(folder: Path):
    from companion.ui.app import configure_kivy

    configure_kivy(size=(800, 480))
    from companion.ui.bank_app import TableBankerApp
    from companion.settings import UiSettings

    app = TableBankerApp(data=folder, settings=UiSettings(folder=str(folder), phones=False, hardware=False),
                         settle_heap=True)  # as `companion run` starts it
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
             f"chart and deeds", "rss_mb": round(rss_mb(), 1),
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


EVENING_ACTIONS = int(os.environ.get("UI_BENCH_ACTIONS", "400"))
EVENING_GAMES = 4


def measure_evening() -> list[dict]:
    """A scripted evening: four games opened in turn, EVENING_ACTIONS actions tapped through the app,
    every screen visited after each batch; resident memory after each batch, so growth shows."""
    _kivy_env()
    from companion.service import Banker

    folder = Path(tempfile.mkdtemp(prefix="bench-evening-"))
    packs = ["classic", "monopoly-city", "city-life", "game-of-life"][:EVENING_GAMES]
    for i, pack in enumerate(packs):
        Banker.create(folder / f"night-{i}-{pack}.game", pack, ["Ann", "Bob", "Cy", "Dee"], {}, backup_every=0).close()
    app = _start_app(folder)
    screens = ["table", "more", "deeds", "auction", "trade", "loans", "history", "requests", "join",
               "settings", "over", "start", "table"]
    samples: list[tuple[int, float, float]] = []
    tidy_ms: list[float] = []
    started = time.perf_counter()
    done = 0
    batch = max(1, EVENING_ACTIONS // 40)
    round_no = 0
    while done < EVENING_ACTIONS:
        game = sorted(folder.glob("*.game"))[round_no % len(packs)]
        if app.desk is None or app.desk.path != game:
            app.open_game(game)
            pump(3)
        who = app.desk.state()["turn"]["player"]
        for i in range(batch):
            action = ({"action": "transfer", "from": "bank", "to": who, "amount": 10 + i} if i % 3 else
                      {"action": "next_turn"} if "next_turn" in app.desk.specs else {"action": "undo"})
            app.act(action)
            app.press("undo") if i % 7 == 6 else None
            done += 1
        for name in screens:
            if name == "deeds":
                first = next(iter(app.desk.table["deeds"]), "")
                if first:
                    app.screens["deeds"].open_deed(first)
            app.show(name)
            pump(2)
        for button in ("rent", "buy", "pay"):
            form = app.start(button)
            if form is not None and app.desk.next_field(form.action, form.values) is not None:
                app.run_flow(form)
                pump(2)
        app.show("table")
        pause(app, tidy_ms)  # the banker looks up between turns: the app tidies up then
        samples.append((done, round(time.perf_counter() - started, 1), round(rss_mb(), 1)))
        round_no += 1
    app.shutdown()
    third = samples[len(samples) * 2 // 3:]
    return [{"measure": "evening_rss", "what": f"{EVENING_GAMES} games opened in turn, {done} actions, every screen "
             f"visited {len(samples)} times", "first_mb": samples[0][2], "last_mb": samples[-1][2],
             "peak_mb": max(s[2] for s in samples), "growth_last_third_mb": round(third[-1][2] - third[0][2], 1),
             "seconds": samples[-1][1], "tidy_ms_median": round(statistics.median(tidy_ms), 1) if tidy_ms else None,
             "tidy_ms_max": round(max(tidy_ms), 1) if tidy_ms else None, "samples": [s[2] for s in samples]}]


APP_OVER_BASELINE_MB = 45  # measured 40.9 MB (143.7 -> 184.6 and 143.8 -> 184.7 MB, two runs)


def main() -> int:
    if len(sys.argv) > 1:
        rows = {"baseline": measure_baseline, "evening": measure_evening}.get(sys.argv[1], measure_app)()
        for row in rows if isinstance(rows, list) else [rows]:
            print(json.dumps(row))
        return 0
    if not os.environ.get("DISPLAY"):
        print(json.dumps({"error": "no DISPLAY: run under xvfb-run -a"}))
        return 2
    from companion.heap import ALLOCATOR

    env = {**os.environ, "PYTHONMALLOC": os.environ.get("PYTHONMALLOC") or ALLOCATOR}  # as `companion run`
    print(json.dumps({"measure": "allocator", "PYTHONMALLOC": env["PYTHONMALLOC"]}))
    found: dict[str, dict] = {}
    for part in ("baseline", "app", "evening"):
        out = subprocess.run([sys.executable, __file__, part], capture_output=True, text=True, cwd=ROOT, env=env)
        lines = [line for line in out.stdout.splitlines() if line.startswith("{")]
        if out.returncode != 0 or not lines:
            print(json.dumps({"measure": part, "error": out.stderr.strip().splitlines()[-1:] or "failed"}))
            continue
        for line in lines:
            print(line)
            row = json.loads(line)
            found[row["measure"]] = row
    if "baseline_rss" in found and "app_rss" in found:
        base, app = found["baseline_rss"]["rss_mb"], found["app_rss"]["rss_mb"]
        print(json.dumps({"measure": "app_over_baseline", "what": "the app on a 500-entry game above an empty window",
                          "excess_mb": round(app - base, 1), "target_mb": APP_OVER_BASELINE_MB}))
    if "baseline_rss" in found and "evening_rss" in found:
        base, evening = found["baseline_rss"]["rss_mb"], found["evening_rss"]
        print(json.dumps({"measure": "evening_over_baseline", "what": "the evening's last RSS above an empty window",
                          "excess_mb": round(evening["last_mb"] - base, 1), "target_mb": 40,
                          "growth_last_third_mb": evening["growth_last_third_mb"], "growth_target_mb": 5}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
