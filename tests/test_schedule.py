"""How the suite is dealt to its processes (tests/schedule.py) and read back as a timeline (tests/timeline.py)."""

from __future__ import annotations

import json

import pytest

from tests import schedule, timeline
from tests.schedule import Estimates

LAW = "tests/gui/test_law.py"
MONKEY = "tests/gui/test_monkey.py"
CLI = "tests/test_cli.py"
COLLECTION = [
    f"{CLI}::test_version",
    f"{CLI}::test_export",
    f"{LAW}::test_walk[classic]",
    f"{LAW}::test_walk[game-of-life]",
    f"{LAW}::test_walk[city-life]",
    f"{LAW}::test_walk[greenopoly]",
    f"{MONKEY}::test_walk[1]",
    f"{MONKEY}::test_walk[2]",
]
MEASURED = {
    CLI: 2.0,
    LAW: 100.0,
    f"{LAW}::test_walk[classic]": 20.0,
    f"{LAW}::test_walk[game-of-life]": 50.0,
    MONKEY: 60.0,
    f"{MONKEY}::test_walk[1]": 30.0,
    f"{MONKEY}::test_walk[2]": 30.0,
}
GROUPS = {LAW: 2, MONKEY: 0}


def test_a_test_measured_by_itself_is_expected_to_take_what_it_took():
    assert Estimates(MEASURED, COLLECTION).of(f"{LAW}::test_walk[game-of-life]") == 50.0


def test_a_modules_unlisted_tests_share_what_is_left_of_its_time():
    estimates = Estimates(MEASURED, COLLECTION)
    assert estimates.of(f"{LAW}::test_walk[city-life]") == 15.0  # (100 - 20 - 50) / 2
    assert estimates.of(f"{CLI}::test_version") == 1.0


def test_a_new_module_is_guessed_from_its_kind():
    estimates = Estimates({}, ["tests/gui/test_new.py::test_a", "tests/test_new.py::test_b"])
    assert estimates.of("tests/gui/test_new.py::test_a") == schedule.GUESS_SCREEN
    assert estimates.of("tests/test_new.py::test_b") == schedule.GUESS_OTHER


def test_a_module_in_groups_is_dealt_so_its_groups_take_about_as_long():
    scope_of = schedule.scopes(COLLECTION, GROUPS, Estimates(MEASURED, COLLECTION))
    walks = {nodeid: scope for nodeid, scope in scope_of.items() if nodeid.startswith(LAW)}
    # game-of-life (50 s) alone in one group; classic (20) and the two of 15 s in the other
    assert walks[f"{LAW}::test_walk[game-of-life]"] == f"{LAW}#0"
    assert {walks[f"{LAW}::test_walk[{w}]"] for w in ("classic", "city-life", "greenopoly")} == {f"{LAW}#1"}


def test_a_spread_modules_tests_are_scopes_of_their_own_and_other_modules_are_one():
    scope_of = schedule.scopes(COLLECTION, GROUPS, Estimates(MEASURED, COLLECTION))
    assert scope_of[f"{MONKEY}::test_walk[1]"] == f"{MONKEY}::test_walk[1]"
    assert scope_of[f"{CLI}::test_export"] == CLI


def test_the_longest_scopes_go_out_first():
    estimates = Estimates(MEASURED, COLLECTION)
    order = schedule.longest_first(schedule.scopes(COLLECTION, GROUPS, estimates), estimates)
    assert order == [f"{LAW}#0", f"{LAW}#1", f"{MONKEY}::test_walk[1]", f"{MONKEY}::test_walk[2]", CLI]


def test_a_run_is_kept_as_module_times_and_the_long_tests(tmp_path):
    ran = {
        f"{CLI}::test_version": ("gw0", 100.0, 100.4),
        f"{CLI}::test_export": ("gw0", 100.4, 101.9),
        f"{LAW}::test_walk[classic]": ("gw1", 100.0, 120.0),
    }
    path = tmp_path / "durations.json"
    schedule.write(ran, path)
    assert json.loads(path.read_text())["seconds"] == {
        CLI: 1.9,
        f"{CLI}::test_export": 1.5,
        LAW: 20.0,
        f"{LAW}::test_walk[classic]": 20.0,
    }
    assert Estimates.read([f"{CLI}::test_version"], path).of(f"{CLI}::test_version") == pytest.approx(0.4)


def test_a_run_of_some_modules_keeps_the_others_durations(tmp_path):
    path = tmp_path / "durations.json"
    schedule.write({f"{CLI}::test_version": ("gw0", 0.0, 0.5), f"{LAW}::test_walk[classic]": ("gw1", 0.0, 30.0)}, path)
    schedule.write({f"{CLI}::test_version": ("gw0", 0.0, 0.7)}, path)
    assert json.loads(path.read_text())["seconds"] == {CLI: 0.7, LAW: 30.0, f"{LAW}::test_walk[classic]": 30.0}


def test_a_missing_or_damaged_durations_file_only_means_guesses(tmp_path):
    path = tmp_path / "durations.json"
    path.write_text("{not json")
    assert Estimates.read([f"{CLI}::test_version"], path).of(f"{CLI}::test_version") == schedule.GUESS_OTHER


def test_the_timeline_says_which_process_ended_last_and_what_it_ran_then():
    ran = {
        f"{CLI}::test_version": ("gw0", 1000.0, 1001.0),
        f"{CLI}::test_export": ("gw0", 1001.0, 1002.0),
        f"{MONKEY}::test_walk[1]": ("gw0", 1002.0, 1030.0),
        f"{LAW}::test_walk[classic]": ("gw1", 1000.0, 1060.0),
        f"{LAW}::test_walk[city-life]": ("gw1", 1060.0, 1090.0),
    }
    gw0, gw1 = timeline.processes(ran)
    assert [(s.module, s.tests) for s in gw0.stretches] == [(CLI, 2), (MONKEY, 1)]
    assert (gw1.busy, gw1.tests) == (90.0, 2)
    lines = timeline.summary(ran)
    assert lines[-1].startswith("the last to end: gw1 at 90s, 60s after the first; it ran then: gui/test_law.py 0-90s")
