"""What the trading unit reports: events handed to subscribers and returned by presses, and the
outputs (red light, buzzer) at one moment."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


# -- what happened: events, handed to subscribers and returned by presses ---------------


@dataclass(frozen=True)
class Bid:
    """One offer called out in an auction (money in the pack's smallest unit)."""

    bidder: str
    amount: int
    at: float


@dataclass(frozen=True)
class UnitEvent:
    """Something the unit did, at time ``at``."""

    at: float


@dataclass(frozen=True)
class TimerStarted(UnitEvent):
    """The auction or deal timer began."""

    purpose: str
    ends_at: float
    lot: str | None = None


@dataclass(frozen=True)
class CancelAsked(UnitEvent):
    """The timer button was pressed while running: press again before ``until`` to cancel."""

    purpose: str
    until: float


@dataclass(frozen=True)
class BidRecorded(UnitEvent):
    """A new highest bid."""

    bid: Bid


@dataclass(frozen=True)
class TimerEnded(UnitEvent):
    """The timer stopped: outcome is sold, no_bids, agreed, lapsed or cancelled."""

    purpose: str
    outcome: str
    winning_bid: Bid | None = None
    lot: str | None = None


@dataclass(frozen=True)
class SpinStarted(UnitEvent):
    """The build spinner is turning; it shows its face at ``stops_at``."""

    turn: int
    stops_at: float


@dataclass(frozen=True)
class SpinStopped(UnitEvent):
    """The build spinner stopped on ``face`` for ``turn``."""

    turn: int
    face: str


@dataclass(frozen=True)
class PressRefused(UnitEvent):
    """A press that the unit could not honour, and why (shown on screen)."""

    button: str
    reason: str


@dataclass(frozen=True)
class TurnPassed(UnitEvent):
    """Next turn was pressed; ``turn`` is the new turn and the spinner is armed again."""

    turn: int


@dataclass(frozen=True)
class UndoPressed(UnitEvent):
    """Undo went down; if it is still down at ``asks_at`` the screen will ask first."""

    asks_at: float


@dataclass(frozen=True)
class UndoDone(UnitEvent):
    """The undo callback ran."""


@dataclass(frozen=True)
class UndoConfirmAsked(UnitEvent):
    """Undo was held down: the screen asks before undoing, until ``until``."""

    until: float


@dataclass(frozen=True)
class ClockStarted(UnitEvent):
    """The game clock (re)started its countdown."""

    ends_at: float


@dataclass(frozen=True)
class ClockRanOut(UnitEvent):
    """The game clock reached zero: time to count the money."""


class Outputs(NamedTuple):
    """What the red light and the buzzer do at one moment."""

    light: float
    sound: bool
    tone_hz: float | None
