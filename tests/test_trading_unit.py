"""The trading unit at the table: auctions, deals, the build spinner, the game clock, undo."""

import random
import subprocess
import sys
from collections import Counter

import pytest
from hypothesis import given, settings as hypothesis_settings, strategies as st

from companion.trading_unit import (
    FACES,
    BidRefused,
    Blink,
    CancelAsked,
    ClockRanOut,
    PressRefused,
    SettingError,
    SpinStarted,
    SpinStopped,
    TimerEnded,
    TimerStarted,
    TradingUnit,
    TradingUnitSettings,
    TurnPassed,
    UndoConfirmAsked,
    UndoDone,
    UndoPressed,
)


class Table:
    """A trading unit on the table, with a record of everything it told the room."""

    def __init__(self, settings=None, rng=None):
        self.next_turns, self.undos, self.events = [], [], []
        self.unit = TradingUnit(
            settings,
            rng=rng or random.Random(1),
            on_next_turn=lambda: self.next_turns.append(1),
            on_undo=lambda: self.undos.append(1),
        )
        self.unit.subscribe(self.events.append)

    def changes(self, start, end):
        """Follow next_change from ``start`` to ``end``: [(time, light on, tone or None)]."""
        seen, now, last = [], start, None
        while now is not None and now <= end:
            out = self.unit.outputs(now)
            state = (out.light > 0, out.tone_hz)
            if state != last:
                seen.append((now, *state))
                last = state
            now = self.unit.next_change(now)
        return seen

    def of(self, kind):
        return [e for e in self.events if isinstance(e, kind)]


def light_edges(changes, start, end):
    """(time, light) pairs where the light flips, between start and end."""
    edges, last = [], None
    for t, light, _ in changes:
        if light != last and start <= t < end:
            edges.append((t, light))
        last = light
    return edges


def beeps(changes):
    """Start and stop times of each sound in a list of changes."""
    out, on = [], None
    for t, _, tone in changes:
        if tone is not None and on is None:
            on = t
        elif tone is None and on is not None:
            out.append((on, t))
            on = None
    return out


# -- auction ------------------------------------------------------------------------------


def test_the_banker_presses_auction_and_the_light_flashes_once_a_second():
    table = Table()
    assert isinstance(table.unit.press_auction(100.0), TimerStarted)
    changes = table.changes(100.0, 145.0)
    expected = [(100.0 + i * 0.5, i % 2 == 0) for i in range(90)]
    assert light_edges(changes, 100.0, 145.0) == expected
    assert beeps(changes) == []


def test_45_seconds_pass_the_light_flashes_faster_and_the_buzzer_sounds():
    table = Table()
    table.unit.press_auction(0.0)
    assert not table.unit.view(44.9)["warning"] and table.unit.view(45.0)["warning"]
    changes = table.changes(45.0, 60.0)
    fast = light_edges(changes, 45.0, 50.0)
    assert fast == [(45.0 + i * 0.125, i % 2 == 0) for i in range(40)]
    assert beeps(changes) == [(s, s + 0.25) for s in (45.0, 46.0, 47.0, 48.0, 49.0)]


def test_the_plan_ahead_holds_the_last_five_seconds_and_ends_at_the_hammer():
    """What the pins' own thread is handed at the 45th second: the fast flash and the five beeps,
    the same as following the unit change by change, up to the timer's end and no further."""
    table = Table()
    table.unit.press_auction(0.0)
    plan = table.unit.outputs_ahead(45.0, 10.0)
    assert plan[0][0] == 45.0 and plan[-1][0] < 50.0
    changes = [(at, out.light > 0, out.tone_hz) for at, out in plan]
    assert light_edges(changes, 45.0, 50.0) == [(45.0 + i * 0.125, i % 2 == 0) for i in range(40)]
    assert beeps(changes) == [(s, s + 0.25) for s in (45.0, 46.0, 47.0, 48.0, 49.0)]
    assert changes[-1] == (49.875, False, None)  # dark and quiet when the hammer falls
    assert table.of(TimerEnded) == []  # looking ahead lets no time pass


def test_the_plan_ahead_stops_at_its_horizon():
    table = Table()
    table.unit.press_auction(0.0)
    plan = table.unit.outputs_ahead(10.0, 2.0)
    assert [at for at, _ in plan] == [10.0, 10.5, 11.0, 11.5]
    assert table.unit.outputs_ahead(60.0, 2.0) == [(60.0, table.unit.outputs(60.0))]  # at rest: now only


def test_at_zero_the_light_goes_off_and_the_highest_bid_wins():
    table = Table()
    unit = table.unit
    unit.press_auction(0.0, lot="Park Place")
    unit.bid(3.0, "Ann", 100_000)
    unit.bid(20.0, "Bob", 120_000)
    assert unit.highest_bid.bidder == "Bob" and unit.highest_bid.amount == 120_000
    with pytest.raises(BidRefused):
        unit.bid(21.0, "Ann", 110_000)
    view = unit.view(49.5)
    assert (view["bidder"], view["bid"], view["bid_count"], view["seconds_left"]) == ("Bob", 120_000, 2, 1)
    assert unit.outputs(50.0).light == 0.0 and not unit.outputs(50.0).sound
    assert unit.next_change(50.0) is None
    (ended,) = table.of(TimerEnded)
    assert (ended.at, ended.outcome, ended.winning_bid.bidder, ended.lot) == (50.0, "sold", "Bob", "Park Place")
    with pytest.raises(BidRefused):
        unit.bid(50.5, "Ann", 200_000)
    assert unit.view(51.0)["result_bidder"] == "Bob"


def test_an_auction_without_bids_ends_with_no_sale():
    table = Table()
    table.unit.press_auction(0.0)
    table.unit.view(50.0)
    assert table.of(TimerEnded)[0].outcome == "no_bids"


def test_the_banker_brings_the_hammer_down_early():
    table = Table()
    table.unit.press_auction(0.0)
    table.unit.bid(1.0, "Cleo", 50_000)
    ended = table.unit.close_auction(12.0)
    assert (ended.at, ended.outcome, ended.winning_bid.amount) == (12.0, "sold", 50_000)
    assert table.unit.outputs(12.0).light == 0.0


def test_the_opening_bid_respects_the_pack_minimum():
    table = Table(TradingUnitSettings(minimum_opening_bid=10_000))
    table.unit.press_auction(0.0)
    with pytest.raises(BidRefused):
        table.unit.bid(1.0, "Ann", 9_000)
    assert table.unit.bid(1.0, "Ann", 10_000).bid.amount == 10_000


def test_a_press_while_the_auction_runs_asks_before_cancelling():
    table = Table()
    unit = table.unit
    unit.press_auction(0.0)
    asked = unit.press_auction(10.0)
    assert isinstance(asked, CancelAsked) and asked.until == 13.0
    assert unit.view(11.0)["request"] == "confirm_cancel"
    assert unit.view(11.0)["seconds_left"] == 39  # it never restarted
    ended = unit.press_auction(12.0)
    assert ended.outcome == "cancelled" and ended.winning_bid is None
    assert unit.view(12.0)["mode"] == "idle" and unit.view(12.0)["request"] is None


def test_a_second_press_after_the_window_asks_again_instead_of_cancelling():
    table = Table()
    unit = table.unit
    unit.press_auction(0.0)
    unit.press_auction(10.0)
    assert unit.view(13.5)["request"] is None
    assert isinstance(unit.press_auction(14.0), CancelAsked)
    unit.dismiss(14.5)
    assert isinstance(unit.press_auction(15.0), CancelAsked)
    assert unit.confirm_cancel(15.2).outcome == "cancelled"
    assert isinstance(unit.confirm_cancel(16.0), PressRefused)


# -- deal -----------------------------------------------------------------------------------


def test_the_same_button_times_a_deal_which_lapses_at_zero():
    table = Table()
    started = table.unit.press_deal(0.0)
    assert (started.purpose, started.ends_at) == ("deal", 50.0)
    with pytest.raises(BidRefused):
        table.unit.bid(1.0, "Ann", 1)
    assert beeps(table.changes(0.0, 60.0))[0] == (45.0, 45.25)
    ended = table.of(TimerEnded)[0]
    assert (ended.at, ended.purpose, ended.outcome) == (50.0, "deal", "lapsed")


def test_a_deal_agreed_in_time_is_closed_by_the_banker():
    table = Table()
    table.unit.button_purpose = "deal"  # the mode the hardware button follows
    table.unit.press_auction(0.0)
    assert isinstance(table.unit.close_auction(5.0), PressRefused)
    assert table.unit.close_deal(20.0).outcome == "agreed"
    assert table.unit.outputs(20.0) == (0.0, False, None)


# -- build spinner -----------------------------------------------------------------------


def test_the_build_button_spins_with_ticks_and_stops_on_a_face():
    table = Table()
    started = table.unit.press_build(0.0)
    assert isinstance(started, SpinStarted) and started.stops_at == 2.0
    ticks = beeps(table.changes(0.0, 1.99))
    assert ticks == [(i * 0.125, i * 0.125 + 0.03125) for i in range(16)]  # one tick per face


def test_the_faces_roll_by_and_the_last_one_shown_is_the_result():
    table = Table()
    unit = table.unit
    unit.press_build(0.0)
    rolling = [unit.view(i * 0.125)["face"] for i in range(16)]
    assert set(rolling) == set(FACES) and unit.view(1.99)["spinner"] == "spinning"
    assert unit.view(2.0)["spinner"] == "stopped"
    (stopped,) = table.of(SpinStopped)
    assert (stopped.at, stopped.turn) == (2.0, 1)
    assert rolling[-1] == stopped.face == unit.view(2.0)["face"]
    assert unit.spins == (stopped,)


def test_after_the_spin_the_light_blinks_once_per_block():
    for face, blinks in zip(FACES, (1, 2, 3, 4)):
        table = Table(rng=FixedChoice(face))
        table.unit.press_build(0.0)
        edges = light_edges(table.changes(0.0, 10.0), 2.0, 10.0)
        assert [t for t, on in edges if on] == [2.0 + 0.5 * i for i in range(blinks)]
        assert table.unit.next_change(2.0 + 0.5 * blinks) is None


class FixedChoice:
    """A random source that always lands on one face."""

    def __init__(self, face):
        self.face = face

    def choices(self, population, weights):
        return [self.face]


def test_the_build_button_works_once_per_turn():
    table = Table()
    unit = table.unit
    unit.press_build(0.0)
    assert "still turning" in unit.press_build(1.0).reason
    refused = unit.press_build(5.0)
    assert isinstance(refused, PressRefused) and "One spin per turn" in refused.reason
    assert unit.view(5.0)["notice"] == refused.reason
    assert unit.view(9.5)["notice"] is None
    assert isinstance(unit.press_next_turn(10.0), TurnPassed) and table.next_turns == [1]
    assert unit.view(10.0)["spinner"] == "ready"
    assert isinstance(unit.press_build(11.0), SpinStarted)
    unit.start_turn(7)  # the service says it is turn 7
    unit.press_build(20.0)
    unit.advance(30.0)
    assert [s.turn for s in unit.spins] == [1, 2, 7]


def test_no_spin_while_an_auction_runs():
    table = Table()
    table.unit.press_auction(0.0)
    assert "Finish the auction" in table.unit.press_build(1.0).reason


def test_the_spinner_is_fair_over_its_four_faces():
    unit = TradingUnit(rng=random.Random(2024))
    for turn in range(4000):
        unit.start_turn(turn)
        unit.press_build(turn * 10.0)
    unit.advance(40_010.0)
    counts = Counter(s.face for s in unit.spins)
    assert set(counts) == set(FACES)
    assert all(abs(n / 4000 - 0.25) < 0.03 for n in counts.values()), counts


def test_the_settings_can_weigh_the_spinner():
    unit = TradingUnit(TradingUnitSettings(spinner_weights=(3, 1, 0, 0)), rng=random.Random(5))
    for turn in range(2000):
        unit.start_turn(turn)
        unit.press_build(turn * 10.0)
    unit.advance(20_010.0)
    counts = Counter(s.face for s in unit.spins)
    assert set(counts) == {"1", "2"} and abs(counts["1"] / 2000 - 0.75) < 0.04


# -- game clock -------------------------------------------------------------------------------


def test_the_game_clock_beeps_more_and_more_often_near_the_hour():
    table = Table()
    table.unit.start_clock(0.0)
    assert table.unit.view(0.0)["clock_text"] == "60:00"
    assert table.unit.view(1.5)["clock_text"] == "59:59"
    sounds = beeps(table.changes(0.0, 3599.9))
    starts = [s for s, _ in sounds]
    assert starts[0] == 3300.0 and starts[-1] == 3599.0
    assert all(stop - start == 0.25 for start, stop in sounds)
    gaps = [b - a for a, b in zip(starts, starts[1:])]
    assert gaps == sorted(gaps, reverse=True) and gaps[0] == 60 and gaps[-1] == 1
    assert table.unit.outputs(3000.0) == (0.0, False, None)


def test_when_the_hour_is_up_the_clock_sounds_an_alarm_then_rests():
    table = Table()
    table.unit.start_clock(0.0)
    alarm = beeps(table.changes(3599.5, 3700.0))
    assert alarm == [(3600.0 + 0.5 * i, 3600.25 + 0.5 * i) for i in range(10)]
    assert [e.at for e in table.of(ClockRanOut)] == [3600.0]
    assert table.unit.view(3700.0)["clock"] == "ran_out"
    assert table.unit.next_change(3700.0) is None


def test_restarting_the_clock_counts_another_hour():
    table = Table()
    table.unit.start_clock(0.0)
    table.unit.start_clock(3650.0)  # like switching the box off and on
    assert table.unit.view(3650.0)["clock_text"] == "60:00"
    assert table.unit.next_change(3650.0) == 3650.0 + 3300.0
    table.unit.stop_clock(3700.0)
    assert table.unit.view(3700.0)["clock"] == "off" and table.unit.next_change(3700.0) is None


def test_the_auction_warning_drowns_out_a_clock_beep():
    table = Table(TradingUnitSettings(clock_seconds=347.0))
    table.unit.start_clock(0.0)  # beeps at 47 s (300 s left)
    table.unit.press_auction(2.0)  # warning from 47 s
    assert table.unit.outputs(47.1).tone_hz == table.unit.settings.warning_tone_hz


# -- next turn and undo -------------------------------------------------------------------


def test_a_short_press_on_undo_undoes():
    table = Table()
    table.unit.press_undo(5.0)
    assert isinstance(table.unit.release_undo(5.3), UndoDone)
    assert table.undos == [1]


def test_a_long_press_on_undo_asks_on_screen_first():
    table = Table()
    unit = table.unit
    assert unit.press_undo(5.0) == UndoPressed(5.0, asks_at=6.0)
    assert unit.next_change(5.2) == 6.0
    assert unit.view(6.0)["request"] == "confirm_undo"
    assert [e.at for e in table.of(UndoConfirmAsked)] == [6.0]
    assert unit.release_undo(7.0) is None and table.undos == []
    assert isinstance(unit.confirm_undo(8.0), UndoDone) and table.undos == [1]
    assert unit.view(8.0)["request"] is None


def test_a_short_press_on_an_undo_that_named_another_entry_asks_on_screen_first():
    table = Table()
    unit = table.unit
    unit.press_undo(5.0)
    assert unit.undo_down()
    assert isinstance(unit.ask_undo(5.2), UndoConfirmAsked) and not unit.undo_down()
    assert unit.view(5.2)["request"] == "confirm_undo" and table.undos == []
    assert unit.release_undo(5.3) is None and table.undos == []
    assert isinstance(unit.confirm_undo(6.0), UndoDone) and table.undos == [1]


def test_an_unanswered_undo_question_lapses():
    table = Table()
    table.unit.press_undo(0.0)
    table.unit.release_undo(2.0)
    assert table.unit.view(11.5)["request"] is None
    assert isinstance(table.unit.confirm_undo(12.0), PressRefused) and table.undos == []


def test_unconnected_buttons_say_so():
    unit = TradingUnit(rng=random.Random(1))
    assert "not connected" in unit.press_next_turn(0.0).reason
    unit.press_undo(1.0)
    assert "not connected" in unit.release_undo(1.1).reason


# -- settings -------------------------------------------------------------------------------


def test_a_pack_can_change_every_duration_and_pattern():
    settings = TradingUnitSettings.from_mapping(
        {
            "auction_seconds": 30,
            "warning_seconds": 10,
            "flash": [0.25, 0.25],
            "clock_beeps": [[60, 20], [20, 5]],
            "spinner_weights": [1, 1, 1, 0],
        }
    )
    assert settings.flash == Blink(0.25, 0.25) and settings.beep_marks() == (60, 40, 20, 15, 10, 5)
    table = Table(settings)
    table.unit.press_auction(0.0)
    assert beeps(table.changes(0.0, 31.0))[0] == (20.0, 20.25)


@pytest.mark.parametrize(
    "bad",
    [
        {"auction_seconds": 0},
        {"warning_seconds": 60},
        {"colour": "red"},
        {"spinner_weights": [1, 1]},
        {"flash": [0, 0]},
        {"clock_beep_seconds": 2, "clock_beeps": [[10, 1]]},
    ],
)
def test_nonsense_settings_are_refused(bad):
    with pytest.raises(SettingError):
        TradingUnitSettings.from_mapping(bad)


# -- invariants -----------------------------------------------------------------------------

PRESSES = st.lists(
    st.tuples(
        st.floats(0, 30),
        st.sampled_from(["auction", "deal", "build", "next", "undo", "release", "confirm", "dismiss", "clock", "bid"]),
    ),
    max_size=12,
)


@hypothesis_settings(max_examples=60, deadline=None)
@given(PRESSES)
def test_next_change_is_always_in_the_future_and_time_runs_out(presses):
    table = Table(TradingUnitSettings(clock_seconds=120.0))
    unit, now = table.unit, 0.0
    actions = {
        "auction": unit.press_auction,
        "deal": unit.press_deal,
        "build": unit.press_build,
        "next": unit.press_next_turn,
        "undo": unit.press_undo,
        "release": unit.release_undo,
        "confirm": unit.confirm_cancel,
        "dismiss": unit.dismiss,
        "clock": unit.start_clock,
    }
    for gap, what in presses:
        now += gap
        if what == "bid":
            try:
                unit.bid(now, "Ann", int(now * 1000) + 1)
            except BidRefused:
                pass
        else:
            actions[what](now)
    steps = 0
    while (nxt := unit.next_change(now)) is not None:
        assert nxt > now
        now, steps = nxt, steps + 1
        assert steps < 5000
    assert unit.view(now)["mode"] == "idle" and unit.outputs(now) == (0.0, False, None)


def test_the_unit_is_pure_python():
    code = (
        "import sys, companion.trading_unit; "
        "bad = [m for m in sys.modules if m.split('.')[0] in ('kivy', 'gpiozero', 'threading', 'asyncio')]; "
        "print(bad); assert not bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
