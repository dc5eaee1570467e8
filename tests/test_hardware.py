"""The trading unit on GPIO, with gpiozero's mock pins and a fake clock (no real pin, no sleep)."""

import heapq
import itertools
import logging
import random
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field

import gpiozero
import gpiozero.pins.mock
import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.hardware import (
    HEADER_PIN,
    BoardDevices,
    NoHardware,
    OutputDriver,
    PinMapError,
    load_pins,
    open_board,
)
from companion.trading_unit import Blink, TradingUnit, TradingUnitSettings, UndoConfirmAsked

AUCTION, BUILD, NEXT_TURN, UNDO, LIGHT, BUZZER = 5, 6, 16, 26, 12, 13


@dataclass(order=True)
class Handle:
    when: float
    seq: int
    fn: object = field(compare=False)
    args: tuple = field(compare=False)
    cancelled: bool = field(default=False, compare=False)

    def cancel(self):
        self.cancelled = True


class FakeLoop:
    """A fake monotonic clock with the loop calls the board needs; time moves only when told."""

    def __init__(self, now=1000.0):
        self.now, self.queue, self._seq = now, [], itertools.count()
        self.threads = []

    def __call__(self):
        return self.now

    def call_later(self, delay, fn, *args):
        handle = Handle(self.now + delay, next(self._seq), fn, args)
        heapq.heappush(self.queue, handle)
        return handle

    def call_soon_threadsafe(self, fn, *args):
        self.threads.append(threading.get_ident())
        return self.call_later(0.0, fn, *args)

    def advance(self, seconds=0.0):
        """Let ``seconds`` pass, running every call that falls due, in time order."""
        end = self.now + seconds
        while self.queue and self.queue[0].when <= end:
            handle = heapq.heappop(self.queue)
            if not handle.cancelled:
                self.now = handle.when
                handle.fn(*handle.args)
        self.now = end


class Table:
    """A trading unit, its GPIO board on mock pins, and what the app's callbacks saw."""

    def __init__(self, loop, factory, settings=None, **pins):
        self.loop, self.factory = loop, factory
        self.next_turns, self.undos, self.event_threads = [], [], []
        self.unit = TradingUnit(
            settings,
            rng=random.Random(3),
            on_next_turn=lambda: self.next_turns.append(loop.now),
            on_undo=lambda: self.undos.append(loop.now),
        )
        self.unit.subscribe(lambda event: self.event_threads.append(threading.get_ident()))
        self.board = open_board(
            self.unit,
            clock=loop,
            call_soon_threadsafe=loop.call_soon_threadsafe,
            call_later=loop.call_later,
            pin_factory=factory,
            pins=pins or None,
            keep_time=False,  # the fake loop runs exactly on time: it writes the pins itself
        )
        self.light, self.buzzer = factory.pin(LIGHT), factory.pin(BUZZER)

    def press(self, bcm, hold=0.0):
        """Someone presses a button (and lets go after ``hold`` seconds)."""
        button = self.factory.pin(bcm)
        button.drive_low()
        self.loop.advance(hold)
        button.drive_high()
        self.loop.advance(0.0)


@pytest.fixture
def loop(monkeypatch):
    fake = FakeLoop()
    monkeypatch.setattr(gpiozero.pins.mock, "monotonic", fake)  # pin timestamps in fake time
    return fake


@pytest.fixture
def factory(loop):
    return MockFactory(pin_class=MockPWMPin)


@pytest.fixture
def table(loop, factory):
    table = Table(loop, factory)
    yield table
    table.board.close()


def flips(start_state, *runs):
    """Expected (seconds since previous change, state) for runs of (count, interval)."""
    expected, state = [], start_state
    for count, interval in runs:
        for _ in range(count):
            expected.append((interval, state))
            state = 1.0 - state
    return expected


def assert_pin(pin, expected):
    assert len(pin.states) == len(expected), [tuple(s) for s in pin.states]
    pin.assert_states_and_times(expected)


def test_the_banker_presses_auction_and_the_red_light_flashes(table):
    table.press(AUCTION)
    table.loop.advance(30.0)
    assert_pin(table.light, [(0.0, False)] + flips(1.0, (1, 0.0), (60, 0.5)))


def test_45_seconds_pass_the_light_flashes_faster_and_the_buzzer_sounds(table):
    table.press(AUCTION)
    table.loop.advance(60.0)
    assert_pin(table.light, [(0.0, False)] + flips(1.0, (1, 0.0), (90, 0.5), (39, 0.125)))
    pips = [(45.0, 1.0)] + [step for _ in range(4) for step in ((0.25, 0.0), (0.75, 1.0))] + [(0.25, 0.0)]
    assert_pin(table.buzzer, [(0.0, False)] + pips)
    assert table.unit.view(table.loop.now)["result"] == "no_bids"
    assert table.loop.queue == [] or all(h.cancelled for h in table.loop.queue)  # nothing left to poll


def test_a_second_press_within_three_seconds_cancels_the_auction(table):
    table.press(AUCTION)
    table.loop.advance(10.0)
    table.press(AUCTION)
    assert table.unit.view(table.loop.now)["request"] == "confirm_cancel"
    table.loop.advance(1.0)
    table.press(AUCTION)
    assert table.unit.view(table.loop.now)["result"] == "cancelled"
    assert table.light.state == 0.0
    table.loop.advance(60.0)
    assert table.light.states[-1].state == 0.0 and table.buzzer.state == 0


def test_the_build_button_ticks_then_blinks_the_result(table):
    table.press(BUILD)
    table.loop.advance(10.0)
    blinks = ("1", "2", "3", "railroad").index(table.unit.spins[0].face) + 1
    ticks = [(0.0, 1.0), (0.03125, 0.0)] + [(0.09375, 1.0), (0.03125, 0.0)] * 15
    assert_pin(table.buzzer, [(0.0, False)] + ticks)
    result = [(0.09375, 1.0), (0.25, 0.0)] + [(0.25, 1.0), (0.25, 0.0)] * (blinks - 1)
    assert_pin(table.light, [(0.0, False)] + ticks + result)
    table.press(BUILD)
    assert "One spin per turn" in table.unit.view(table.loop.now)["notice"]


def test_next_turn_calls_the_app_and_arms_the_spinner(table):
    table.press(BUILD)
    table.loop.advance(3.0)
    table.press(NEXT_TURN)
    assert table.next_turns == [1003.0] and table.unit.turn == 2
    assert table.unit.view(table.loop.now)["spinner"] == "ready"


def test_a_short_press_on_undo_undoes(table):
    table.press(UNDO, hold=0.2)
    assert table.undos == [1000.2]


def test_a_long_press_on_undo_asks_on_screen_instead(table):
    table.press(UNDO, hold=1.5)
    assert table.undos == []
    assert table.unit.view(table.loop.now)["request"] == "confirm_undo"


def test_presses_reach_the_unit_only_through_the_loop(table):
    def press_from_a_gpio_thread():
        table.factory.pin(AUCTION).drive_low()
        table.factory.pin(AUCTION).drive_high()

    worker = threading.Thread(target=press_from_a_gpio_thread)
    worker.start()
    worker.join()
    assert table.loop.threads == [worker.ident]  # handed over from the gpiozero thread...
    assert table.unit.view(table.loop.now)["mode"] == "idle"  # ...and not yet touched
    table.loop.advance(0.0)
    assert table.unit.view(table.loop.now)["mode"] == "auction"
    assert set(table.event_threads) == {threading.get_ident()}


def test_a_failing_callback_is_logged_not_raised(loop, factory, caplog):
    def broken():
        raise RuntimeError("service is busy")

    unit = TradingUnit(rng=random.Random(1), on_next_turn=broken)
    board = open_board(
        unit, clock=loop, call_soon_threadsafe=loop.call_soon_threadsafe, pin_factory=factory, keep_time=False
    )
    factory.pin(NEXT_TURN).drive_low()
    factory.pin(NEXT_TURN).drive_high()
    loop.advance(0.0)
    assert "button failed" in caplog.text and unit.turn == 1
    board.close()


def test_a_passive_buzzer_plays_the_warning_pitch(loop, factory):
    table = Table(loop, factory, buzzer_kind="passive")
    table.press(AUCTION)
    table.loop.advance(45.1)
    assert table.buzzer.frequency == pytest.approx(1760.0) and table.buzzer.state == 0.5
    table.loop.advance(0.2)
    assert table.buzzer.frequency is None and table.buzzer.state == 0.0
    table.board.close()


def test_a_plain_led_goes_on_and_off(loop, factory):
    table = Table(loop, factory, light_pwm=False)
    table.press(AUCTION)
    table.loop.advance(1.2)
    assert_pin(table.light, [(0.0, False), (0.0, 1.0), (0.5, 0.0), (0.5, 1.0)])
    table.board.close()


def test_buttons_are_debounced_and_hold_like_the_settings(loop, factory):
    table = Table(loop, factory, TradingUnitSettings(undo_hold_seconds=1.5))
    buttons = table.board.devices.buttons
    assert {b.pin.bounce for b in buttons.values()} == {0.05}
    assert buttons["undo"].hold_time == 1.5
    table.board.close()


def test_close_twice_releases_the_pins(table, loop, factory):
    table.press(AUCTION)
    table.board.close()
    table.board.close()
    loop.advance(10.0)  # a late tick finds the board closed
    again = Table(loop, factory)
    assert again.board.present
    again.board.close()


def test_the_driver_can_be_ticked_by_hand(loop, factory):
    unit = TradingUnit(rng=random.Random(1))
    devices = BoardDevices(load_pins(), pin_factory=factory)
    driver = OutputDriver(unit, devices, clock=loop)
    driver.start()
    unit.press_auction(loop.now)
    assert driver.tick() == 1000.5 and devices.light.value == 1.0
    loop.now = 1000.5
    assert driver.tick() == 1001.0 and devices.light.value == 0.0
    driver.stop()
    driver.stop()
    devices.close()


# -- a busy loop ------------------------------------------------------------------------------


class StuckLoop:
    """The app's loop drawing one very slow frame: what it is asked to do later waits until told."""

    def __init__(self):
        self.waiting = []

    def call_later(self, delay, fn, *args):
        handle = Handle(0.0, 0, fn, args)
        self.waiting.append(handle)
        return handle

    def call_soon_threadsafe(self, fn, *args):
        return self.call_later(0.0, fn, *args)

    def run_once(self):
        waiting, self.waiting = self.waiting, []
        for handle in waiting:
            if not handle.cancelled:
                handle.fn(*handle.args)


def wait_for(what, check, limit=30.0):
    deadline = time.monotonic() + limit
    while not check():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


def board_on_a_stuck_loop(unit, factory):
    """The unit's board on real time, driven by a loop that looks at it only when told to."""
    loop = StuckLoop()
    board = open_board(
        unit,
        clock=time.monotonic,
        call_soon_threadsafe=loop.call_soon_threadsafe,
        call_later=loop.call_later,
        pin_factory=factory,
    )
    return loop, board


def test_the_warning_beeps_sound_on_time_while_the_loop_draws_a_slow_frame():
    """Bob's auction runs out while the screen is busy: the loop looked at the unit once, when the
    timer started, and not again, yet the buzzer beeps in the last seconds and the light flashes
    (the pins keep the unit's time on a thread of their own)."""
    factory = MockFactory(pin_class=MockPWMPin)
    # beeps from 0.5 s to 0.9 s and from 1.25 s to 1.65 s after the press; the hammer at 2 s
    settings = TradingUnitSettings(
        auction_seconds=2.0, deal_seconds=2.0, warning_seconds=1.5, warning_sound=Blink(0.4, 0.35)
    )
    unit = TradingUnit(settings, rng=random.Random(3))
    loop, board = board_on_a_stuck_loop(unit, factory)
    buzzer, light = factory.pin(BUZZER), factory.pin(LIGHT)
    show, beeps, sounding = board.devices.show, [], [None]

    def show_and_note(light_value, tone):
        if tone is not None and sounding[0] is None:
            beeps.append(time.monotonic() - pressed)  # a beep begins
        sounding[0] = tone
        show(light_value, tone)

    board.devices.show = show_and_note
    try:
        pressed = time.monotonic()
        unit.press_auction(pressed)
        loop.run_once()  # the loop's one look, right after the press; then it is stuck
        wait_for("two beeps, on and off", lambda: [s.state for s in buzzer.states[1:]] == [1.0, 0.0, 1.0, 0.0])
        wait_for("dark when the hammer falls", lambda: light.state == 0.0 and time.monotonic() > pressed + 2.0)
        assert beeps[0] >= 0.5 - 0.01 and beeps[1] >= 1.25 - 0.01  # never before the warning's beats
        assert sum(1 for s in light.states if s.state == 1.0) >= 3  # the timer's flash, then the fast one
        assert loop.waiting  # the loop never came back meanwhile
    finally:
        board.close()
    assert light.state == 0.0 and buzzer.state == 0.0


def test_a_muted_unit_flashes_without_a_sound_on_the_pins_own_thread():
    factory = MockFactory(pin_class=MockPWMPin)
    settings = TradingUnitSettings(auction_seconds=0.6, deal_seconds=0.6, warning_seconds=0.5)
    unit = TradingUnit(settings, rng=random.Random(3))
    loop, board = board_on_a_stuck_loop(unit, factory)
    show = board.devices.show
    board.devices.show = lambda light, tone: show(light, None)  # as the app's sound setting does
    buzzer, light = factory.pin(BUZZER), factory.pin(LIGHT)
    try:
        pressed = time.monotonic()
        unit.press_auction(pressed)
        loop.run_once()
        wait_for("the timer's end", lambda: time.monotonic() > pressed + 0.6 and light.state == 0.0)
        assert any(s.state == 1.0 for s in light.states) and all(s.state == 0.0 for s in buzzer.states)
    finally:
        board.close()


# -- no hardware ------------------------------------------------------------------------------


def test_a_busy_pin_leaves_the_screen_unit_alone_with_one_warning(table, loop, factory, caplog):
    with caplog.at_level(logging.WARNING, logger="companion.hardware"):
        second = open_board(
            TradingUnit(), clock=loop, call_soon_threadsafe=loop.call_soon_threadsafe, pin_factory=factory
        )
    assert not second.present and "GPIO5" in second.reason
    assert [r.levelname for r in caplog.records] == ["WARNING"]
    second.close()
    second.close()
    assert table.board.present  # the first board still owns its pins


def test_no_gpio_at_all_gives_a_no_hardware_board(monkeypatch, loop, caplog):
    def no_factory():
        raise gpiozero.BadPinFactory("Unable to load any default pin factory!")

    monkeypatch.setattr(gpiozero.Device, "pin_factory", None)
    monkeypatch.setattr(gpiozero.Device, "_default_pin_factory", staticmethod(no_factory))
    board = open_board(TradingUnit(), clock=loop, call_soon_threadsafe=loop.call_soon_threadsafe)
    assert isinstance(board, NoHardware) and "default pin factory" in board.reason
    assert len(caplog.records) == 1


def test_without_gpiozero_installed_the_app_still_runs(monkeypatch, loop):
    monkeypatch.setitem(sys.modules, "gpiozero", None)
    board = open_board(TradingUnit(), clock=loop, call_soon_threadsafe=loop.call_soon_threadsafe)
    assert not board.present and "gpiozero" in board.reason


def test_a_missing_pin_map_is_explained(loop, factory, tmp_path):
    board = open_board(
        TradingUnit(),
        clock=loop,
        call_soon_threadsafe=loop.call_soon_threadsafe,
        pin_factory=factory,
        pins_path=tmp_path / "nowhere.toml",
    )
    assert not board.present and "nowhere.toml" in board.reason


# -- pin map ----------------------------------------------------------------------------------


def test_the_pin_map_comes_from_hw_pins_toml_and_can_be_overridden():
    pins = load_pins()
    assert (pins.auction, pins.build, pins.next_turn, pins.undo, pins.light, pins.buzzer) == (5, 6, 16, 26, 12, 13)
    assert load_pins(overrides={"light": 18, "buzzer_kind": "passive"}).light == 18
    assert pins.describe("auction") == "GPIO5 (pin 29)"


@pytest.mark.parametrize("bad", [{"light": 5}, {"colour": 1}, {"undo": 40}, {"buzzer_kind": "loud"}])
def test_a_bad_pin_map_is_refused(bad):
    with pytest.raises(PinMapError):
        load_pins(overrides=bad)


def test_importing_the_adapter_touches_no_pin():
    code = "import sys, companion.hardware; assert 'gpiozero' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("revision", ["c03111", "d04170"])  # a Pi 4 and a Pi 5
def test_the_header_map_matches_the_boards(revision):
    header = MockFactory(revision=revision).board_info.headers["J8"]
    gpio = {info.name: number for number, info in header.pins.items() if info.name.startswith("GPIO")}
    assert {f"GPIO{bcm}": pin for bcm, pin in HEADER_PIN.items()} == gpio


def test_holding_undo_asks_while_the_button_is_still_down(table):
    asked_at = []
    table.unit.subscribe(lambda e: asked_at.append(table.loop.now) if isinstance(e, UndoConfirmAsked) else None)
    undo = table.factory.pin(UNDO)
    undo.drive_low()
    table.loop.advance(5.0)  # nothing else runs: only the hold itself wakes the loop
    assert asked_at == [1001.0]
    undo.drive_high()
    table.loop.advance(0.0)
    assert table.undos == [] and table.unit.view(table.loop.now)["request"] == "confirm_undo"


def test_closing_mid_auction_leaves_the_light_dark_and_the_buzzer_quiet(table):
    table.press(AUCTION)
    table.loop.advance(45.1)
    assert table.light.state == 1.0 and table.buzzer.state == 1.0
    table.board.close()
    assert table.light.states[-1].state == 0.0 and table.buzzer.states[-1].state == 0.0
