"""The trading unit: auction and deal timer, build spinner, game clock, turn buttons.

Pure on purpose: time comes in as ``now`` (float seconds from one monotonic clock), the
spinner's randomness is an injected ``random.Random``, and nothing here starts a thread,
sleeps or touches a pin or a window. The screen and the GPIO adapter both render the same
two derived things, ``outputs(now)`` (red light, buzzer) and ``view(now)`` (a plain dict),
and wake up again at ``next_change(now)``.

Button presses never raise: they answer with the event that happened, which is a
``PressRefused`` with a reason when the press cannot be honoured.
"""

from __future__ import annotations

import math
import random
from bisect import bisect_right
from dataclasses import dataclass
from typing import Any, Callable, NamedTuple, TypeVar

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
from .settings import EPSILON, FACES, _FACE_TEXT, BidRefused, TradingUnitSettings

_Event = TypeVar("_Event", bound=UnitEvent)


class _Signal(NamedTuple):
    light: bool
    tone: float | None
    next: float | None


@dataclass
class _Timer:
    purpose: str
    started: float
    ends: float
    lot: str | None
    bids: list[Bid]


@dataclass
class _Spin:
    turn: int
    face: str
    started: float
    stops: float
    stopped: bool = False
    roll: int = 1  # a double gives the turn another roll, and the spinner another spin


class TradingUnit:
    """The Monopoly City trading unit as pure state over time.

    Threading: not thread-safe, by design. One thread (the app's event loop) makes every
    call; GPIO callbacks are handed to that loop first. Every call takes ``now`` from one
    monotonic clock and first settles the deadlines that passed (an auction that ran out
    closes, the spinner stops, an unanswered question lapses), telling subscribers in time
    order. A ``now`` earlier than one already seen counts as that later time.
    """

    def __init__(
        self,
        settings: TradingUnitSettings | None = None,
        *,
        rng: random.Random | None = None,
        on_next_turn: Callable[[], object] | None = None,
        on_undo: Callable[[], object] | None = None,
        turn: int = 1,
    ) -> None:
        self.settings = settings or TradingUnitSettings()
        self.turn = turn
        self.roll = 1
        self.button_purpose = "auction"
        self._rng = rng if rng is not None else random.Random()
        self._on_next_turn, self._on_undo = on_next_turn, on_undo
        self._marks = self.settings.beep_marks()
        self._listeners: list[Callable[[UnitEvent], object]] = []
        self._now = -math.inf
        self._timer: _Timer | None = None
        self._last_end: TimerEnded | None = None
        self._spin: _Spin | None = None
        self._spins: list[SpinStopped] = []
        self._clock: tuple[float, float] | None = None  # (started, ends)
        self._clock_out = False
        self._request: tuple[str, float] | None = None  # (kind, until)
        self._undo_down: float | None = None
        self._notice: tuple[str, float] | None = None

    # -- subscribers ----------------------------------------------------------------------
    def subscribe(self, listener: Callable[[UnitEvent], object]) -> Callable[[], None]:
        """Call ``listener(event)`` after every change; returns a function that unsubscribes."""
        self._listeners.append(listener)
        return lambda: self._listeners.remove(listener) if listener in self._listeners else None

    def _emit(self, event: _Event) -> _Event:
        if isinstance(event, PressRefused):
            self._notice = (event.reason, event.at + self.settings.notice_seconds)
        for listener in list(self._listeners):
            listener(event)
        return event

    def _refuse(self, now: float, button: str, reason: str) -> PressRefused:
        return self._emit(PressRefused(now, button, reason))

    # -- auction and deal timer -----------------------------------------------------------
    def press_auction(self, now: float, *, purpose: str | None = None, lot: str | None = None) -> UnitEvent:
        """The auction button: start the timer (``purpose`` auction or deal), or ask to cancel it."""
        now = self.advance(now)
        purpose = purpose or self.button_purpose
        if purpose not in ("auction", "deal"):
            raise ValueError(f"a timer is for an auction or a deal, not {purpose!r}")
        if self._timer is not None:
            if self._request_is("confirm_cancel"):
                return self._end_timer(now, "cancelled")
            self._request = ("confirm_cancel", now + self.settings.cancel_confirm_seconds)
            return self._emit(CancelAsked(now, self._timer.purpose, self._request[1]))
        if self._spin is not None and not self._spin.stopped:
            return self._refuse(now, "auction", "Wait: the build spinner is still turning")
        length = self.settings.auction_seconds if purpose == "auction" else self.settings.deal_seconds
        self._timer = _Timer(purpose, now, now + length, lot if purpose == "auction" else None, [])
        self._last_end = None
        return self._emit(TimerStarted(now, purpose, now + length, self._timer.lot))

    def press_deal(self, now: float) -> UnitEvent:
        """Time a deal with the same button (or ask to cancel the running timer)."""
        return self.press_auction(now, purpose="deal")

    def confirm_cancel(self, now: float) -> UnitEvent:
        """Cancel the running timer without waiting for a second press."""
        now = self.advance(now)
        if self._timer is None:
            return self._refuse(now, "cancel", "No auction or deal is running")
        return self._end_timer(now, "cancelled")

    def dismiss(self, now: float) -> None:
        """Answer "no" to the question on screen (cancel the timer? undo?)."""
        self.advance(now)
        self._request = None

    def bid(self, now: float, bidder: str, amount: int) -> BidRecorded:
        """Record an offer called out in the running auction; it must beat the highest bid.

        A refused bid is shown on screen like a refused press, and raises BidRefused.
        """
        now = self.advance(now)
        best = self.highest_bid
        least = max(best.amount + 1 if best else self.settings.minimum_opening_bid, 1)
        if self._timer is None or self._timer.purpose != "auction":
            reason = "No auction is running"
        elif not bidder:
            reason = "Say who bids"
        elif int(amount) != amount or amount < least:
            reason = f"A bid must be a whole amount of at least {least}"
        else:
            reason = None
        if reason:
            self._refuse(now, "bid", reason)
            raise BidRefused(reason)
        assert self._timer is not None  # no running auction was refused above
        bid = Bid(bidder, int(amount), now)
        self._timer.bids.append(bid)
        return self._emit(BidRecorded(now, bid))

    @property
    def highest_bid(self) -> Bid | None:
        """The best offer in the running auction, or None."""
        if self._timer is None or not self._timer.bids:
            return None
        return self._timer.bids[-1]

    def close_auction(self, now: float) -> UnitEvent:
        """Bring the hammer down before time runs out: the highest bid wins."""
        return self._close(self.advance(now), "auction")

    def close_deal(self, now: float) -> UnitEvent:
        """The players agreed in time: stop the deal timer."""
        return self._close(self.advance(now), "deal")

    def _close(self, now: float, purpose: str) -> UnitEvent:
        if self._timer is None or self._timer.purpose != purpose:
            return self._refuse(now, purpose, f"No {purpose} is running")
        return self._end_timer(now, "agreed" if purpose == "deal" else None)

    def _end_timer(self, at: float, outcome: str | None) -> TimerEnded:
        """Stop the timer; an auction without a given outcome is sold or had no bids."""
        timer, self._timer = self._timer, None
        assert timer is not None, "only a running timer ends"
        if self._request_is("confirm_cancel"):
            self._request = None
        best = timer.bids[-1] if timer.bids and outcome != "cancelled" else None
        if outcome is None:
            outcome = "sold" if best else "no_bids"
        self._last_end = TimerEnded(at, timer.purpose, outcome, best, timer.lot)
        return self._emit(self._last_end)

    # -- build spinner ----------------------------------------------------------------------
    def press_build(self, now: float) -> UnitEvent:
        """The build button: spin once per turn and stop on 1, 2, 3 blocks or a railroad."""
        now = self.advance(now)
        if self._timer is not None:
            return self._refuse(now, "build", f"Finish the {self._timer.purpose} first")
        if self._spin is not None and (self._spin.turn, self._spin.roll) == (self.turn, self.roll):
            if not self._spin.stopped:
                return self._refuse(now, "build", "The spinner is still turning")
            return self._refuse(
                now,
                "build",
                f"Build already spun on turn {self.turn}: {_FACE_TEXT[self._spin.face]}. One spin per turn.",
            )
        face = self._rng.choices(FACES, weights=self.settings.spinner_weights)[0]
        self._spin = _Spin(self.turn, face, now, now + self.settings.spin_seconds, roll=self.roll)
        return self._emit(SpinStarted(now, self.turn, self._spin.stops))

    @property
    def spins(self) -> tuple[SpinStopped, ...]:
        """Every spin of this game so far, with its turn number."""
        return tuple(self._spins)

    def start_turn(self, turn: int, roll: int = 1) -> None:
        """The service says which turn (and which roll of it, after doubles) is being played; a new turn
        or a new roll arms the spinner again."""
        self.turn, self.roll = turn, roll

    # -- next turn and undo -----------------------------------------------------------------
    def press_next_turn(self, now: float) -> UnitEvent:
        """Call the app's next-turn callback, then arm the spinner for the new turn."""
        now = self.advance(now)
        if self._on_next_turn is None:
            return self._refuse(now, "next_turn", "Next turn is not connected")
        self._on_next_turn()
        self.turn += 1
        self.roll = 1
        return self._emit(TurnPassed(now, self.turn))

    def press_undo(self, now: float) -> UndoPressed:
        """Undo went down: a short press undoes, a long one asks first (see release_undo)."""
        now = self.advance(now)
        self._undo_down = now
        return self._emit(UndoPressed(now, now + self.settings.undo_hold_seconds))

    def release_undo(self, now: float) -> UnitEvent | None:
        """Undo came up: undo at once if it was a short press; a long press already asked."""
        now = self.advance(now)
        down, self._undo_down = self._undo_down, None
        if down is None:
            return None
        return self._undo(now)

    def undo_down(self) -> bool:
        """Whether UNDO is down and has not asked yet (its release would undo)."""
        return self._undo_down is not None

    def ask_undo(self, now: float) -> UnitEvent:
        """Ask on screen before undoing, as a held press does, whatever the press was (the on-screen
        UNDO, which cannot name the entry it takes back)."""
        now = self.advance(now)
        self._undo_down = None
        self._request = ("confirm_undo", now + self.settings.undo_confirm_seconds)
        return self._emit(UndoConfirmAsked(now, self._request[1]))

    def confirm_undo(self, now: float) -> UnitEvent:
        """The banker said yes to "undo the last action?"."""
        now = self.advance(now)
        if not self._request_is("confirm_undo"):
            return self._refuse(now, "undo", "Nothing to confirm")
        self._request = None
        return self._undo(now)

    def _undo(self, now: float) -> UnitEvent:
        if self._on_undo is None:
            return self._refuse(now, "undo", "Undo is not connected")
        self._on_undo()
        return self._emit(UndoDone(now))

    # -- game clock -------------------------------------------------------------------------
    def start_clock(self, now: float) -> ClockStarted:
        """Start the game clock, or start it over (like switching the box off and on)."""
        now = self.advance(now)
        self._clock, self._clock_out = (now, now + self.settings.clock_seconds), False
        return self._emit(ClockStarted(now, self._clock[1]))

    def stop_clock(self, now: float) -> None:
        """Switch the game clock off (an untimed game)."""
        self.advance(now)
        self._clock, self._clock_out = None, False

    # -- time -------------------------------------------------------------------------------
    def advance(self, now: float) -> float:
        """Settle every deadline up to ``now`` in time order; returns the settled time."""
        now = max(now, self._now)
        while True:
            due = [(when, act) for when, act in self._deadlines() if when <= now + EPSILON]
            if not due:
                break
            when, act = min(due, key=lambda item: item[0])
            act(when)
        self._now = now
        return now

    def _deadlines(self) -> list[tuple[float, Callable[[float], object]]]:
        found: list[tuple[float, Callable[[float], object]]] = []
        if self._timer is not None:
            outcome = "lapsed" if self._timer.purpose == "deal" else None
            found.append((self._timer.ends, lambda at: self._end_timer(at, outcome)))
        if self._spin is not None and not self._spin.stopped:
            found.append((self._spin.stops, self._stop_spin))
        if self._clock is not None and not self._clock_out:
            found.append((self._clock[1], self._clock_ran_out))
        if self._request is not None:
            found.append((self._request[1], self._lapse_request))
        if self._undo_down is not None:
            found.append((self._undo_down + self.settings.undo_hold_seconds, self._undo_held))
        if self._notice is not None:
            found.append((self._notice[1], self._clear_notice))
        return found

    def _stop_spin(self, at: float) -> None:
        assert self._spin is not None, "only a turning spinner stops"
        self._spin.stopped = True
        self._spins.append(SpinStopped(at, self._spin.turn, self._spin.face))
        self._emit(self._spins[-1])

    def _clock_ran_out(self, at: float) -> None:
        self._clock_out = True
        self._emit(ClockRanOut(at))

    def _lapse_request(self, at: float) -> None:
        self._request = None

    def _clear_notice(self, at: float) -> None:
        self._notice = None

    def _undo_held(self, at: float) -> None:
        self._undo_down = None
        self._request = ("confirm_undo", at + self.settings.undo_confirm_seconds)
        self._emit(UndoConfirmAsked(at, self._request[1]))

    def _request_is(self, kind: str) -> bool:
        return self._request is not None and self._request[0] == kind

    # -- derived outputs --------------------------------------------------------------------
    def outputs(self, now: float) -> Outputs:
        """The red light (0 dark .. 1 full) and the buzzer (on, pitch) at ``now``."""
        now = self.advance(now)
        return self._outputs_of(self._signals(now))

    def outputs_ahead(self, now: float, horizon: float) -> list[tuple[float, Outputs]]:
        """The outputs at ``now`` and at each of their changes after it, up to the unit's next
        deadline (only settling it says what follows) or ``horizon`` seconds on, whichever comes
        first: what a pin writer keeping its own time plays while the app's loop is busy. Time
        passes only up to ``now``."""
        now = self.advance(now)
        end = min([now + horizon] + [when for when, _ in self._deadlines()])
        plan: list[tuple[float, Outputs]] = []
        at = now
        while True:
            signals = self._signals(at)
            plan.append((at, self._outputs_of(signals)))
            upcoming = min((s.next for s in signals if s.next is not None), default=None)
            if upcoming is None or upcoming >= end - EPSILON or upcoming <= at + EPSILON:
                return plan
            at = upcoming

    def _outputs_of(self, signals: list[_Signal]) -> Outputs:
        lit = any(s.light for s in signals)
        tone = next((s.tone for s in signals if s.tone is not None), None)
        return Outputs(self.settings.light_level if lit else 0.0, tone is not None, tone)

    def next_change(self, now: float) -> float | None:
        """The next moment the outputs or the state may change; None if only a press can."""
        now = self.advance(now)
        times = [s.next for s in self._signals(now) if s.next is not None]
        times += [when for when, _ in self._deadlines()]
        return min(times, default=None)

    def _signals(self, now: float) -> list[_Signal]:
        """Each part's light and sound, loudest first: timer, then spinner, then clock."""
        return [s for s in (self._timer_signal(now), self._spin_signal(now), self._clock_signal(now)) if s]

    def _timer_signal(self, now: float) -> _Signal | None:
        t, s = self._timer, self.settings
        if t is None:
            return None
        warn_from = t.ends - s.warning_seconds
        if now < warn_from - EPSILON:
            e = now - t.started
            return _Signal(s.flash.lit(e), None, min(t.started + s.flash.next_edge(e), warn_from))
        e = now - warn_from
        tone = s.warning_tone_hz if s.warning_sound.lit(e) else None
        edge = min(s.fast_flash.next_edge(e), s.warning_sound.next_edge(e))
        return _Signal(s.fast_flash.lit(e), tone, min(warn_from + edge, t.ends))

    def _spin_signal(self, now: float) -> _Signal | None:
        sp, s = self._spin, self.settings
        if sp is None:
            return None
        if not sp.stopped:
            e = now - sp.started
            lit = s.spin_tick.lit(e)
            return _Signal(lit, s.tick_tone_hz if lit else None, min(sp.started + s.spin_tick.next_edge(e), sp.stops))
        e, span = now - sp.stops, (FACES.index(sp.face) + 1) * s.result_blink.period
        if e >= span - EPSILON:
            return None
        return _Signal(s.result_blink.lit(e), None, sp.stops + min(s.result_blink.next_edge(e), span))

    def _clock_signal(self, now: float) -> _Signal | None:
        if self._clock is None:
            return None
        s, (_, ends) = self.settings, self._clock
        if not self._clock_out:
            beeps = [ends - mark for mark in self._marks]
            i = bisect_right(beeps, now + EPSILON) - 1
            if i >= 0 and now < beeps[i] + s.clock_beep_seconds - EPSILON:
                return _Signal(False, s.clock_tone_hz, beeps[i] + s.clock_beep_seconds)
            return _Signal(False, None, beeps[i + 1] if i + 1 < len(beeps) else ends)
        e = now - ends
        if e >= s.clock_alarm_seconds - EPSILON:
            return None
        tone = s.clock_tone_hz if s.clock_alarm.lit(e) else None
        return _Signal(False, tone, ends + min(s.clock_alarm.next_edge(e), s.clock_alarm_seconds))

    # -- the screen's view --------------------------------------------------------------------
    def view(self, now: float) -> dict[str, Any]:
        """A plain dict for the screen: everything it shows, already decided."""
        now = self.advance(now)
        out = self.outputs(now)
        view: dict[str, Any] = {
            "mode": "idle",
            "lot": None,
            "seconds_left": 0,
            "ring": 0.0,
            "warning": False,
            "light": out.light,
            "sound": out.sound,
            "bidder": None,
            "bid": None,
            "bid_count": 0,
            "turn": self.turn,
            "request": self._request[0] if self._request else None,
            "notice": self._notice[0] if self._notice else None,
            "result": self._last_end.outcome if self._last_end else None,
            "result_purpose": self._last_end.purpose if self._last_end else None,
            "result_lot": self._last_end.lot if self._last_end else None,
            "result_bidder": None,
            "result_bid": None,
        }
        if self._last_end and self._last_end.winning_bid:
            view["result_bidder"] = self._last_end.winning_bid.bidder
            view["result_bid"] = self._last_end.winning_bid.amount
        if self._timer is not None:
            t, left = self._timer, self._timer.ends - now
            view.update(
                mode=t.purpose,
                lot=t.lot,
                seconds_left=math.ceil(left - EPSILON),
                ring=left / (t.ends - t.started),
                warning=left <= self.settings.warning_seconds + EPSILON,
                bid_count=len(t.bids),
            )
            if t.bids:
                view.update(bidder=t.bids[-1].bidder, bid=t.bids[-1].amount)
        view.update(self._spinner_view(now))
        view.update(self._clock_view(now))
        return view

    def _spinner_view(self, now: float) -> dict[str, Any]:
        sp = self._spin
        if sp is None or (sp.turn, sp.roll) != (self.turn, self.roll):
            return {"spinner": "ready", "face": None, "face_text": "BUILD"}
        if sp.stopped:
            return {"spinner": "stopped", "face": sp.face, "face_text": _FACE_TEXT[sp.face]}
        tick = self.settings.spin_tick.period
        steps = math.ceil(self.settings.spin_seconds / tick - EPSILON)
        step = math.floor((now - sp.started) / tick + EPSILON)
        face = FACES[(FACES.index(sp.face) - (steps - 1) + step) % len(FACES)]
        return {"spinner": "spinning", "face": face, "face_text": _FACE_TEXT[face]}

    def _clock_view(self, now: float) -> dict[str, Any]:
        if self._clock is None:
            return {"clock": "off", "clock_left": 0, "clock_text": "--:--"}
        left = max(0.0, self._clock[1] - now)
        whole = math.ceil(left - EPSILON)
        return {
            "clock": "ran_out" if self._clock_out else "running",
            "clock_left": whole,
            "clock_text": f"{whole // 60:02d}:{whole % 60:02d}",
        }
