"""The trading unit on GPIO: four buttons, a red light and a buzzer, through gpiozero.

Nothing here touches a pin at import time, and gpiozero itself is imported only when a
board is opened, so the app runs (with the on-screen unit alone) where there is no GPIO.
The pin map is ``hw/pins.toml`` (BCM numbers), overridable by a dict of settings.

Wiring it up in the app::

    board = open_board(unit, clock=time.monotonic,
                       call_soon_threadsafe=loop.call_soon_threadsafe, call_later=loop.call_later)
    ...
    board.close()
"""

from __future__ import annotations

import logging
import threading
import time
import tomllib
import warnings
from dataclasses import dataclass, fields
from importlib.resources import files
from pathlib import Path
from typing import Any, Callable, Mapping

from companion.trading_unit import TradingUnit, UnitEvent

log = logging.getLogger(__name__)

PINS_FILE = Path(str(files("companion") / "hw" / "pins.toml")).resolve()
"""The pin map shipped with the project: package data (companion/hw links to the checkout's hw/)."""

BUTTONS = ("auction", "build", "next_turn", "undo")
"""The unit's buttons, in the order a person meets them."""

HEADER_PIN = {
    2: 3,
    3: 5,
    4: 7,
    14: 8,
    15: 10,
    17: 11,
    18: 12,
    27: 13,
    22: 15,
    23: 16,
    24: 18,
    10: 19,
    9: 21,
    25: 22,
    11: 23,
    8: 24,
    7: 26,
    0: 27,
    1: 28,
    5: 29,
    6: 31,
    12: 32,
    13: 33,
    19: 35,
    16: 36,
    26: 37,
    20: 38,
    21: 40,
}
"""BCM number -> physical pin on the 40-pin header (the same on every 40-pin Pi)."""

PASSIVE_MID_TONE_HZ, PASSIVE_OCTAVES = 1760.0, 2
"""A passive buzzer plays 440 Hz .. 7040 Hz: around a piezo's loudest band."""


class PinMapError(ValueError):
    """The pin map is missing, unreadable, or gives a pin to two parts."""


@dataclass(frozen=True)
class PinMap:
    """Which BCM pin each part of the unit uses, and how the parts behave electrically."""

    auction: int
    build: int
    next_turn: int
    undo: int
    light: int
    buzzer: int
    light_pwm: bool = True
    buzzer_kind: str = "active"
    bounce_time: float = 0.05

    def __post_init__(self) -> None:
        used = [getattr(self, name) for name in (*BUTTONS, "light", "buzzer")]
        if any(not isinstance(pin, int) or pin not in HEADER_PIN for pin in used):
            raise PinMapError(f"pins must be BCM numbers 0..27, got {used}")
        if len(set(used)) != len(used):
            raise PinMapError(f"a pin is used twice: {used}")
        if self.buzzer_kind not in ("active", "passive"):
            raise PinMapError(f"buzzer kind is 'active' or 'passive', not {self.buzzer_kind!r}")

    def describe(self, part: str) -> str:
        """'GPIO5 (pin 29)' for a part name."""
        bcm = getattr(self, part)
        return f"GPIO{bcm} (pin {HEADER_PIN[bcm]})"


def load_pins(path: Path | str | None = None, overrides: Mapping[str, Any] | None = None) -> PinMap:
    """Read the pin map (default hw/pins.toml) and apply flat overrides like {"light": 18}."""
    path = Path(path) if path else PINS_FILE
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        flat = dict(
            data["buttons"],
            light=data["light"]["pin"],
            buzzer=data["buzzer"]["pin"],
            light_pwm=data["light"].get("pwm", True),
            buzzer_kind=data["buzzer"].get("kind", "active"),
            bounce_time=data.get("timing", {}).get("bounce_time", 0.05),
        )
        known = {f.name for f in fields(PinMap)}
        unknown = set(overrides or {}) - known
        if unknown:
            raise PinMapError(f"unknown pin setting(s): {sorted(unknown)}")
        flat.update(overrides or {})
        return PinMap(**{k: v for k, v in flat.items() if k in known})
    except (OSError, KeyError, TypeError, tomllib.TOMLDecodeError) as error:
        raise PinMapError(f"cannot read the pin map {path}: {error!r}") from error


class BoardDevices:
    """The gpiozero devices of the unit: named buttons, the red light, the buzzer.

    Threading: construct and close on one thread; ``show`` from the app's loop only.
    """

    def __init__(self, pins: PinMap, *, pin_factory: Any = None, hold_time: float = 1.0) -> None:
        from gpiozero import LED, PWMLED, Button, Buzzer, TonalBuzzer
        from gpiozero.tones import Tone

        self.pins, self._tone = pins, Tone.from_frequency
        self._opened: list[Any] = []
        try:
            self.buttons = {
                name: self._open(
                    Button,
                    getattr(pins, name),
                    pull_up=True,
                    bounce_time=pins.bounce_time,
                    hold_time=hold_time,
                    pin_factory=pin_factory,
                )
                for name in BUTTONS
            }
            self.light = self._open(PWMLED if pins.light_pwm else LED, pins.light, pin_factory=pin_factory)
            if pins.buzzer_kind == "passive":
                self.buzzer = self._open(
                    TonalBuzzer,
                    pins.buzzer,
                    mid_tone=Tone(PASSIVE_MID_TONE_HZ),
                    octaves=PASSIVE_OCTAVES,
                    pin_factory=pin_factory,
                )
            else:
                self.buzzer = self._open(Buzzer, pins.buzzer, pin_factory=pin_factory)
        except BaseException:
            self.close()
            raise

    def _open(self, kind: Callable[..., Any], pin: int, **options: Any) -> Any:
        device = kind(pin, **options)
        self._opened.append(device)
        return device

    def show(self, light: float, tone_hz: float | None) -> None:
        """Set the red light's brightness (0..1) and the buzzer (None is silent)."""
        if self.pins.light_pwm:
            self.light.value = light
        else:
            self.light.value = light > 0
        if self.pins.buzzer_kind == "active":
            self.buzzer.value = tone_hz is not None
        elif tone_hz is None:
            self.buzzer.stop()
        else:
            low, high = self.buzzer.min_tone.frequency, self.buzzer.max_tone.frequency
            self.buzzer.play(self._tone(min(max(tone_hz, low), high)))

    def close(self) -> None:
        """Release every pin; safe to call twice."""
        # Each Button's hold thread polls for its stop flag every 0.1 s; raising all the flags
        # first lets them finish together instead of one after another (falls back if absent).
        for device in self._opened:
            stopping = getattr(getattr(device, "_hold_thread", None), "stopping", None)
            if stopping is not None:
                stopping.set()
        while self._opened:
            self._opened.pop().close()


Shown = tuple[float, float | None]
"""What the pins show: the red light's brightness and the buzzer's pitch (None is silent)."""

PLAN_SECONDS = 60.0
"""How far ahead the pins' own thread is given the unit's outputs: a whole timer's run, so a loop
that looks in only now and then still leaves nothing unplayed (it hands a new plan at each look)."""


class PinPlayer:
    """Writes a plan of the unit's outputs to the pins at their moments, on a thread of its own.

    The app's loop hands it a new plan whenever it looks at the unit; between two looks the
    player keeps the time itself, so a quarter-second warning beep sounds on time, and the
    light flashes at its pace, while the loop is busy drawing a slow frame (a Pi drawing in
    software, an emulated one). A loop that came late would find the beep already over and
    never sound it.

    Threading: ``play`` and ``close`` from the loop's thread; ``show`` is called on the
    player's thread only, until ``close`` returns.
    """

    def __init__(
        self, show: Callable[[float, float | None], None], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._show, self._clock = show, clock
        self._plan: list[tuple[float, Shown]] = []
        self._shown: Shown | None = None
        self._closed = False
        self._changed = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="trading-unit-pins", daemon=True)
        self._thread.start()

    def play(self, plan: list[tuple[float, Shown]]) -> None:
        """From now on, show each ``(moment, shown)`` of ``plan`` (in time order) at its moment."""
        with self._changed:
            self._plan = list(plan)
            self._changed.notify()

    def close(self) -> None:
        """Stop writing the pins (what they show stays); safe to call twice."""
        with self._changed:
            self._closed = True
            self._changed.notify()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join()

    def _run(self) -> None:
        with self._changed:
            while not self._closed:
                now = self._clock()
                due = 0
                while due < len(self._plan) and self._plan[due][0] <= now:
                    due += 1
                if due:
                    shown = self._plan[due - 1][1]
                    del self._plan[:due]
                    if shown != self._shown:
                        try:
                            self._show(*shown)
                        except Exception:  # a pin that fails must not silence the rest of the plan
                            log.exception("trading unit: writing the light and buzzer failed")
                        self._shown = shown
                self._changed.wait(max(0.0, self._plan[0][0] - now) if self._plan else None)


class OutputDriver:
    """Keeps the red light and the buzzer in step with the unit.

    Threading: loop thread only. ``tick()`` reads the unit at ``clock()`` and, given
    ``call_later(delay, fn)``, schedules itself at the unit's next change, so nothing polls.
    Every unit event wakes it at once. Without a ``player`` the tick writes the pins itself,
    only when a value changes; with one, it hands the player the outputs' plan ahead
    (``TradingUnit.outputs_ahead``) and the player writes them at their moments, however late
    the loop comes.
    """

    def __init__(
        self,
        unit: TradingUnit,
        devices: BoardDevices,
        *,
        clock: Callable[[], float],
        call_later: Callable[[float, Callable[[], object]], Any] | None = None,
        player: PinPlayer | None = None,
    ) -> None:
        self.unit, self.devices, self._clock, self._call_later = unit, devices, clock, call_later
        self.player = player
        self._shown: Shown | None = None
        self._handle: Any = None
        self._unsubscribe: Callable[[], None] | None = None

    def start(self) -> None:
        """Follow the unit's events and show its outputs now."""
        self._unsubscribe = self.unit.subscribe(self._wake)
        self.tick()

    def tick(self) -> float | None:
        """Show the unit's outputs at this moment; returns the next moment to tick, or None."""
        if self._unsubscribe is None:
            return None
        now = self._clock()
        if self.player is not None:
            plan = self.unit.outputs_ahead(now, PLAN_SECONDS)
            self.player.play([(at, (out.light, out.tone_hz if out.sound else None)) for at, out in plan])
        else:
            out = self.unit.outputs(now)
            shown = (out.light, out.tone_hz if out.sound else None)
            if shown != self._shown:
                self.devices.show(*shown)
                self._shown = shown
        upcoming = self.unit.next_change(now)
        if self._call_later is not None:
            self._schedule(None if upcoming is None else max(0.0, upcoming - now))
        return upcoming

    def stop(self) -> None:
        """Stop following the unit (and the player writing the pins); safe to call twice."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._schedule(None)
        if self.player is not None:
            self.player.close()

    def _wake(self, event: UnitEvent) -> None:
        if self._call_later is not None:
            self._schedule(0.0)

    def _schedule(self, delay: float | None) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if delay is not None and self._call_later is not None:
            self._handle = self._call_later(delay, self.tick)


class TradingUnitBoard:
    """The buttons, red light and buzzer on GPIO, wired to a TradingUnit.

    Auction starts the timer (in ``unit.button_purpose``, auction or deal) or asks to cancel
    it, build spins, next turn and undo call the app's callbacks through the unit (a held
    undo asks on screen first).

    Threading: construct and close it on the app's loop thread. gpiozero calls the button
    handlers on its own threads; they only read the clock and hand the press to the loop
    through ``call_soon_threadsafe``, so the unit is touched on the loop thread only. The
    light and the buzzer are written by a thread of their own that keeps the unit's time
    (``keep_time``, :class:`PinPlayer`), or by the loop itself (``keep_time=False``: a loop
    that runs exactly on time, as the tests' fake one does).
    """

    present = True
    reason: str | None = None

    def __init__(
        self,
        unit: TradingUnit,
        devices: BoardDevices,
        *,
        clock: Callable[[], float],
        call_soon_threadsafe: Callable[..., Any],
        call_later: Callable[[float, Callable[[], object]], Any] | None = None,
        keep_time: bool = True,
    ) -> None:
        self.unit, self.devices = unit, devices
        self._clock, self._call_soon_threadsafe = clock, call_soon_threadsafe
        buttons = devices.buttons
        buttons["auction"].when_pressed = self._handler(unit.press_auction)
        buttons["build"].when_pressed = self._handler(unit.press_build)
        buttons["next_turn"].when_pressed = self._handler(unit.press_next_turn)
        buttons["undo"].when_pressed = self._handler(unit.press_undo)
        buttons["undo"].when_released = self._handler(unit.release_undo)
        # The player calls ``devices.show`` when it writes, so a wrapper put there later (the app's
        # mute) is honoured.
        player = PinPlayer(lambda light, tone: devices.show(light, tone), clock) if keep_time else None
        self.driver: OutputDriver | None = OutputDriver(
            unit, devices, clock=clock, call_later=call_later, player=player
        )
        self.driver.start()

    def _handler(self, press: Callable[[float], object]) -> Callable[[], None]:
        def on_gpio_thread() -> None:
            self._call_soon_threadsafe(self._on_loop, press, self._clock())

        return on_gpio_thread

    def _on_loop(self, press: Callable[[float], object], now: float) -> None:
        if self.driver is None:
            return
        try:
            press(now)
        except Exception:  # a button must never take the app down
            log.exception("trading unit button failed")

    def close(self) -> None:
        """Silence the outputs and release the pins; safe to call twice."""
        if self.driver is not None:
            self.driver.stop()
            self.driver = None
            self.devices.show(0.0, None)
        self.devices.close()


class NoHardware:
    """Stands in when there is no usable GPIO: the on-screen unit works alone.

    It says why once (one warning in the log) and never raises.
    """

    present = False

    def __init__(self, reason: str) -> None:
        self.reason = reason
        log.warning("trading unit hardware not available (%s); using the on-screen unit only", reason)

    def close(self) -> None:
        """Nothing to release."""


def open_board(
    unit: TradingUnit,
    *,
    clock: Callable[[], float],
    call_soon_threadsafe: Callable[..., Any],
    call_later: Callable[[float, Callable[[], object]], Any] | None = None,
    pins: Mapping[str, Any] | None = None,
    pins_path: Path | str | None = None,
    pin_factory: Any = None,
    keep_time: bool = True,
) -> TradingUnitBoard | NoHardware:
    """Open the unit's GPIO parts, or a NoHardware stand-in that says why they are missing."""
    with warnings.catch_warnings(record=True) as fallbacks:
        warnings.simplefilter("always")
        try:
            pin_map = load_pins(pins_path, pins)
            devices = BoardDevices(pin_map, pin_factory=pin_factory, hold_time=unit.settings.undo_hold_seconds)
        except Exception as error:  # no gpiozero, no GPIO, pin busy, bad pin map
            tried = "; ".join(str(w.message) for w in fallbacks)
            return NoHardware(f"{type(error).__name__}: {error}" + (f" ({tried})" if tried else ""))
    for caught in fallbacks:
        log.debug("gpiozero: %s", caught.message)
    return TradingUnitBoard(
        unit,
        devices,
        clock=clock,
        call_soon_threadsafe=call_soon_threadsafe,
        call_later=call_later,
        keep_time=keep_time,
    )
