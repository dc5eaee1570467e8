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

* ``evening_rss``: a person's evening at 800x480, as the pointer tests play it: classic, Monopoly
  City, The Game of Life and City Life (advanced) opened one after the other as new games from the
  start screen (names typed, options tapped), each played as tests/gui/test_family_games.py plays it
  (the family's own steps from More, City Life's Land chooser among its hundred squares included,
  salary, buying, rent, a mortgage and its undo on the deed's card, a group bought and built on, an
  auction, undo and redo, collecting from everyone), the history, deeds, scores and loans glanced
  at, then the games switched between (More, Games, the saved game's tile) for ``UI_BENCH_ROUNDS``
  rounds (3), each game ended in the last (its game-over chart); resident memory after a pause at
  the table after each game's turn, right after each game opens, the high-water mark and where it
  rose, and the growth over the last third; ``evening_over_baseline``: the last figure and the peak
  above the empty window's. Steps the table as it stands cannot take are counted, not fatal.

Every part runs on the allocator ``companion run`` starts the app on (``companion.heap.ALLOCATOR``),
the empty window's included, unless ``PYTHONMALLOC`` says otherwise.

Targets: the app on a 500-entry game at most 45 MB above an empty Kivy window (``app_over_baseline``;
the empty window alone is 143.7 MB here, so the old absolute 150 MB left the app 6 MB); action to table
under 50 ms; over an evening, no growth in the last third (within 5 MB) and at most 40 MB above an
empty Kivy window. Figures only: nothing here asserts.
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
                owned = [
                    d
                    for d, s in b.table["deeds"].items()
                    if s.get("owner") not in (None, who)
                    and not s.get("mortgaged")
                    and b.table["pack"]["cards"][d].get("kind") == "street"
                ]
                try:
                    b.do(
                        {"action": "rent", "payer": who, "deed": owned[n % len(owned)]}
                        if owned
                        else {"action": "transfer", "from": who, "to": "bank", "amount": 10}
                    )
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
    return {
        "measure": "baseline_rss",
        "what": f"an empty Kivy window, 800x480, set up as the app's, after {frames} frames and a tidy-up",
        "rss_mb": round(rss_mb(), 1),
        "before_tidy_mb": round(drawn, 1),
    }


def _start_app(folder: Path):
    from companion.ui.app import configure_kivy

    configure_kivy(size=(800, 480))
    from companion.ui.bank_app import TableBankerApp
    from companion.settings import UiSettings

    app = TableBankerApp(
        data=folder, settings=UiSettings(folder=str(folder), phones=False, hardware=False), settle_heap=True
    )  # as `companion run` starts it
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
    rows = [
        {
            "measure": "app_rss",
            "what": f"the app on a {app.desk.version}-entry game after table, history, chart and deeds",
            "rss_mb": round(rss_mb(), 1),
            "setup_seconds": round(played, 2),
        }
    ]

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
        return {
            "median_ms": round(statistics.median(values), 2),
            "p95_ms": round(values[int(len(values) * 0.95) - 1], 2),
            "max_ms": round(values[-1], 2),
        }

    rows.append(
        {
            "measure": "action_to_table",
            "what": "commit + table widgets updated (Python side)",
            "samples": SAMPLES,
            **stats(python_side),
            "target_ms": 50,
        }
    )
    rows.append(
        {
            "measure": "action_to_frame",
            "what": "commit + table updated + one frame drawn",
            "samples": SAMPLES,
            **stats(with_frame),
        }
    )
    app.shutdown()
    return rows


EVENING_ROUNDS = int(os.environ.get("UI_BENCH_ROUNDS", "3"))
#: The four families of a person's evening, in the order they were opened.
EVENING_GAMES = [("classic", {}), ("monopoly-city", {}), ("game-of-life", {}), ("city-life", {"advanced": True})]


def peak_mb() -> float:
    """The most this process has held resident so far (the kernel's high-water mark)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


#: Where the high-water mark rose during the evening: (what had just happened, the mark in MB).
PEAK_RISES: list[tuple[str, float]] = []


def note_peak(what: str) -> None:
    mark = round(peak_mb(), 1)
    if not PEAK_RISES or mark > PEAK_RISES[-1][1] + 0.5:
        PEAK_RISES.append((what, mark))


def _play_a_turn(bank, pack: str, options: dict, failed: list[str], *, last: bool = False) -> None:
    """One family's short game as the pointer tests play it (tests/gui/test_family_games.py), step by
    step: the family's own steps from More (City Life's Land chooser among its hundred squares), salary,
    buying, rent, a mortgage and its undo on the deed's card, a whole group bought and built on, an
    auction, undo and redo, collecting from everyone; in the ``last`` round the game is ended and its
    game-over chart shown. A step the table refuses or cannot take now is noted and the evening goes on."""
    from tests.gui import test_family_games as game

    desk = bank.app.desk
    held: dict[str, str | None] = {"bought": None, "sold": None}

    def deed_of(step: str):
        def run():
            found = getattr(game, f"step_{step}")(bank, desk)
            held["bought" if step == "buy" else "sold"] = found if found in desk.table["deeds"] else None

        return run

    steps = [
        lambda: [_family_step(bank, desk, a, answers) for a, answers in game.FAMILY_FIRST.get(pack, [])],
        lambda: game.step_salary(bank, desk),
        deed_of("buy"),
        lambda: game.step_next_turn(bank, desk),
        lambda: [_family_step(bank, desk, a, answers) for a, answers in game.FAMILY_BOBS_TURN.get(pack, [])],
        lambda: game.step_rent(bank, desk),
        lambda: game.step_mortgage(bank, desk, held["bought"]),
        lambda: game.step_build(bank, desk) if held["bought"] else None,
        deed_of("auction"),
        lambda: game.step_undo_redo(bank, desk, held["sold"]),
        lambda: game.step_collect_from_all(bank, desk),
        lambda: game.step_next_turn(bank, desk),
    ]
    for number, step in enumerate(steps):
        try:
            step()
        except Exception as e:  # noqa: BLE001 - an evening goes on past a step that did not fit the table as it stands
            failed.append(f"{pack} step {number}: {type(e).__name__}: {str(e)[:80]}")
            _back_to_the_table(bank)
        note_peak(f"{pack} step {number}")
    for place in ("history", "deeds", "over", "loans"):  # the banker glances at the other screens
        try:
            game.to_table(bank)
            bank.app.show(place)
            bank.pump(3)
            note_peak(f"{pack} {place}")
        except Exception as e:  # noqa: BLE001 - a glance that fails is counted
            failed.append(f"{pack} {place}: {type(e).__name__}")
        _back_to_the_table(bank)
    if last:
        try:
            game.step_game_over(bank, desk)
            bank.pump(3)
            note_peak(f"{pack} game over")
        except Exception as e:  # noqa: BLE001 - counted, as any step
            failed.append(f"{pack} game over: {type(e).__name__}: {str(e)[:80]}")


def _family_step(bank, desk, action: str, answers: dict):
    """The family's own step from More, as the pointer tests take it. In a later round its chooser may
    have no possible answer (The Game of Life's career, chosen in the first): the banker cancels it
    and the turn goes on."""
    from tests.gui import test_family_games as game
    from tests.gui.hands import TapLost

    try:
        return game.step_from_more(bank, desk, action, answers)
    except TapLost:
        if bank.screen == "ask" and not game.any_live_choice(bank):
            bank.tap("cancel")
            return f"no {action} possible now"
        raise


def _back_to_the_table(bank) -> None:
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    for child in list(Window.children):
        if isinstance(child, ModalView):
            child.dismiss(animation=False)
    bank.app.show("table" if bank.app.desk is not None else "start")
    bank.pump(3)


def _switch_to(bank, path: Path) -> None:
    """Back to the games list (More, Games) and the saved game's tile, as the banker switches games."""
    _back_to_the_table(bank)
    bank.tap("more")
    bank.until("the More menu", lambda: bank.screen == "more")
    bank.tap("go-start")
    bank.until("the games", lambda: bank.screen == "start")
    bank.tap(f"game-{path.name}")
    bank.until("the game's table", lambda: bank.screen == "table" and bank.app.desk.path == path)


def measure_evening() -> list[dict]:
    """A person's evening at 800x480: the four families opened one after the other from the start
    screen as new games and played as the pointer tests play them, then switched between for more
    rounds; resident memory after a pause at the table after each game's turn, and right after each
    game opens."""
    _kivy_env()
    from tests.gui import test_family_games as game
    from tests.gui.hands import SimulatedHands

    folder = Path(tempfile.mkdtemp(prefix="bench-evening-"))
    app = _start_app(folder)
    bank = SimulatedHands(app, folder)
    bank.pump(4)
    note_peak("the app started")
    samples: list[tuple[str, float, float]] = []
    opened: list[tuple[str, float]] = []
    failed: list[str] = []
    tidy_ms: list[float] = []
    paths: dict[str, Path] = {}
    started = time.perf_counter()
    for round_no in range(EVENING_ROUNDS):
        for pack, options in EVENING_GAMES:
            name = pack + ("-advanced" if options.get("advanced") else "")
            if name not in paths:
                if bank.screen not in ("start", "over"):
                    _back_to_the_table(bank)
                    bank.app.show("start")
                    bank.pump(3)
                game.new_game(bank, pack, options)
                paths[name] = bank.app.desk.path
                note_peak(f"{name} new game")
            else:
                _switch_to(bank, paths[name])
                note_peak(f"{name} opened")
            pump(2)
            opened.append((name, round(rss_mb(), 1)))
            _play_a_turn(bank, pack, options, failed, last=round_no == EVENING_ROUNDS - 1)
            _back_to_the_table(bank)
            pause(app, tidy_ms)  # the banker looks up between turns: the app tidies up then
            samples.append((f"{round_no + 1}:{name}", round(time.perf_counter() - started, 1), round(rss_mb(), 1)))
    hwm = peak_mb()
    app.shutdown()
    third = samples[len(samples) * 2 // 3 :]
    return [
        {
            "measure": "evening_rss",
            "what": f"{len(EVENING_GAMES)} families opened as new games, played as the "
            f"pointer tests play them, then switched between for {EVENING_ROUNDS} rounds in all",
            "first_mb": samples[0][2],
            "last_mb": samples[-1][2],
            "peak_sample_mb": max(s[2] for s in samples),
            "peak_mb": round(hwm, 1),
            "growth_last_third_mb": round(third[-1][2] - third[0][2], 1),
            "seconds": samples[-1][1],
            "tidy_ms_median": round(statistics.median(tidy_ms), 1) if tidy_ms else None,
            "tidy_ms_max": round(max(tidy_ms), 1) if tidy_ms else None,
            "samples": [[s[0], s[2]] for s in samples],
            "on_opening": opened,
            "steps_not_taken": len(failed),
            "first_not_taken": failed[:5],
            "peak_rises": PEAK_RISES,
        }
    ]


APP_OVER_BASELINE_MB = 45  # measured 40.9 MB (143.7 -> 184.6 and 143.8 -> 184.7 MB, two runs)


def main() -> int:
    if len(sys.argv) > 1:
        try:
            rows = {"baseline": measure_baseline, "evening": measure_evening}.get(sys.argv[1], measure_app)()
        except Exception as e:  # noqa: BLE001 - Kivy takes stderr into its log: say what went wrong where it is read
            import traceback

            print(
                json.dumps(
                    {
                        "measure": sys.argv[1],
                        "error": f"{type(e).__name__}: {e}",
                        "where": traceback.format_exc().splitlines()[-6:],
                    }
                )
            )
            return 1
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
        if not lines:
            print(json.dumps({"measure": part, "error": out.stderr.strip().splitlines()[-1:] or "failed"}))
            continue
        for line in lines:
            print(line)
            row = json.loads(line)
            found[row["measure"]] = row
    if "baseline_rss" in found and "app_rss" in found:
        base, app = found["baseline_rss"]["rss_mb"], found["app_rss"]["rss_mb"]
        print(
            json.dumps(
                {
                    "measure": "app_over_baseline",
                    "what": "the app on a 500-entry game above an empty window",
                    "excess_mb": round(app - base, 1),
                    "target_mb": APP_OVER_BASELINE_MB,
                }
            )
        )
    if "baseline_rss" in found and "evening_rss" in found:
        base, evening = found["baseline_rss"]["rss_mb"], found["evening_rss"]
        print(
            json.dumps(
                {
                    "measure": "evening_over_baseline",
                    "what": "the evening's last RSS above an empty window",
                    "excess_mb": round(evening["last_mb"] - base, 1),
                    "peak_excess_mb": round(evening["peak_mb"] - base, 1),
                    "growth_last_third_mb": evening["growth_last_third_mb"],
                    "growth_target_mb": 5,
                }
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
