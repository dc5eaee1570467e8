"""The trading unit: auction and deal timer, build spinner, game clock, turn buttons.

Pure on purpose: time comes in as ``now`` (float seconds from one monotonic clock), the spinner's
randomness is an injected ``random.Random``, and nothing here starts a thread, sleeps or touches a
pin or a window. ``settings`` holds what can be set, ``events`` what the unit reports, ``unit`` the
state machine itself.
"""

from .events import (
    Bid,
    UnitEvent,
    TimerStarted,
    CancelAsked,
    BidRecorded,
    TimerEnded,
    SpinStarted,
    SpinStopped,
    PressRefused,
    TurnPassed,
    UndoPressed,
    UndoDone,
    UndoConfirmAsked,
    ClockStarted,
    ClockRanOut,
    Outputs,
)
from .settings import EPSILON, FACES, TradingUnitError, SettingError, BidRefused, Blink, TradingUnitSettings
from .unit import TradingUnit

__all__ = [
    "Bid",
    "BidRecorded",
    "BidRefused",
    "Blink",
    "CancelAsked",
    "ClockRanOut",
    "ClockStarted",
    "EPSILON",
    "FACES",
    "Outputs",
    "PressRefused",
    "SettingError",
    "SpinStarted",
    "SpinStopped",
    "TimerEnded",
    "TimerStarted",
    "TradingUnit",
    "TradingUnitError",
    "TradingUnitSettings",
    "TurnPassed",
    "UndoConfirmAsked",
    "UndoDone",
    "UndoPressed",
    "UnitEvent",
]
