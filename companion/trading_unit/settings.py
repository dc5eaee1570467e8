"""The trading unit's settings: every duration, blink pattern, pitch and spinner weight, with the
rulebook's values as defaults, and the errors the unit raises."""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from typing import Any, Mapping

EPSILON = 1e-6
"""Time tolerance (seconds): sums of float times are never off by more than this."""

FACES = ("1", "2", "3", "railroad")
"""Where the build spinner can stop: up to 1, 2 or 3 blocks, or a free railroad."""

_FACE_TEXT = {"1": "1 block", "2": "2 blocks", "3": "3 blocks", "railroad": "Railroad"}


class TradingUnitError(Exception):
    """Root of the trading unit's errors."""


class SettingError(TradingUnitError, ValueError):
    """A trading unit setting is unknown or out of range."""


class BidRefused(TradingUnitError, ValueError):
    """A bid came when no auction runs, or it does not beat the highest bid."""


@dataclass(frozen=True)
class Blink:
    """A repeating pattern: ``on`` seconds lit (or sounding), then ``off`` seconds dark."""

    on: float
    off: float

    @property
    def period(self) -> float:
        return self.on + self.off

    def lit(self, elapsed: float) -> bool:
        """Whether the pattern is on ``elapsed`` seconds after it began."""
        return elapsed - self._cycle(elapsed) * self.period < self.on - EPSILON

    def next_edge(self, elapsed: float) -> float:
        """The elapsed time of the first on/off edge strictly after ``elapsed``."""
        start = self._cycle(elapsed) * self.period
        edge = start + self.on
        return edge if edge > elapsed + EPSILON else start + self.period

    def _cycle(self, elapsed: float) -> int:
        return math.floor((elapsed + EPSILON) / self.period)


@dataclass(frozen=True)
class TradingUnitSettings:
    """Every duration, pattern, pitch and weight of the unit; any game pack may override them.

    The defaults are the Monopoly City box: a 50-second auction (deals use the same timer)
    whose last 5 seconds sound and flash faster, a build spinner that is fair over its four
    faces (``spinner_weights`` are relative weights for "1", "2", "3", "railroad"), and a
    one-hour game clock. The box does not say how fast the light flashes or when the clock
    beeps; the defaults flash once a second, four times a second when time is short, and
    beep at the seconds-left marks given by ``clock_beeps``: ``(from, every)`` pairs, so
    from 300 s left it beeps every 60 s, from 120 s every 30 s, and so on down to 1 s.
    """

    auction_seconds: float = 50.0
    deal_seconds: float = 50.0
    warning_seconds: float = 5.0
    flash: Blink = Blink(0.5, 0.5)
    fast_flash: Blink = Blink(0.125, 0.125)
    warning_sound: Blink = Blink(0.25, 0.75)
    cancel_confirm_seconds: float = 3.0
    spin_seconds: float = 2.0
    spin_tick: Blink = Blink(0.03125, 0.09375)
    result_blink: Blink = Blink(0.25, 0.25)
    spinner_weights: tuple[float, ...] = (1.0, 1.0, 1.0, 1.0)
    clock_seconds: float = 3600.0
    clock_beeps: tuple[tuple[float, float], ...] = ((300, 60), (120, 30), (60, 10), (30, 5), (10, 1))
    clock_beep_seconds: float = 0.25
    clock_alarm: Blink = Blink(0.25, 0.25)
    clock_alarm_seconds: float = 5.0
    undo_hold_seconds: float = 1.0
    undo_confirm_seconds: float = 10.0
    notice_seconds: float = 4.0
    light_level: float = 1.0
    warning_tone_hz: float = 1760.0
    tick_tone_hz: float = 3520.0
    clock_tone_hz: float = 880.0
    minimum_opening_bid: int = 0

    def __post_init__(self) -> None:
        def need(ok: bool, what: str) -> None:
            if not ok:
                raise SettingError(f"trading unit setting out of range: {what}")

        for f in fields(self):
            value = getattr(self, f.name)
            if isinstance(value, Blink):
                need(value.on >= 0 and value.off >= 0 and value.period > 0, f.name)
            elif isinstance(value, (int, float)) and f.name != "minimum_opening_bid":
                need(value > 0, f"{f.name} must be above 0")
        need(self.warning_seconds < min(self.auction_seconds, self.deal_seconds), "warning_seconds")
        need(len(self.spinner_weights) == len(FACES), "spinner_weights needs 4 weights")
        need(min(self.spinner_weights) >= 0 and sum(self.spinner_weights) > 0, "spinner_weights")
        need(self.light_level <= 1, "light_level is at most 1")
        need(bool(self.clock_beeps), "clock_beeps")
        need(all(start > 0 and every > 0 for start, every in self.clock_beeps), "clock_beeps")
        gaps = [every for _, every in self.clock_beeps]
        need(self.clock_beep_seconds < min(gaps), "clock_beep_seconds longer than a gap")

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> TradingUnitSettings:
        """Settings from a pack's plain table (TOML): blinks are [on, off] pairs."""
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise SettingError(f"unknown trading unit setting: {key}")
            default = getattr(cls, key)
            if isinstance(default, Blink):
                value = Blink(*value)
            elif key == "clock_beeps":
                value = tuple(tuple(pair) for pair in value)
            elif isinstance(default, tuple):
                value = tuple(value)
            values[key] = value
        return cls(**values)

    def beep_marks(self) -> tuple[float, ...]:
        """Seconds left on the game clock at each beep, first to last; the gaps only shrink."""
        bands = sorted(self.clock_beeps)
        marks, left = [], min(bands[-1][0], self.clock_seconds)
        while left > EPSILON:
            marks.append(left)
            left -= next(every for start, every in bands if start >= left - EPSILON)
        return tuple(marks)
