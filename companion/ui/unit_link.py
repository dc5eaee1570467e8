"""The trading unit at the table: one :class:`TradingUnit` per open game, wired to the desk.

Its next-turn and undo buttons (on screen, or the GPIO buttons through :mod:`companion.hardware`)
become ``next_turn`` and ``undo`` on the ledger; an auction whose light goes off with a bid on a deed
becomes the ``auction`` action (the highest bidder pays the bank); where the game has a ``spin``
action (Monopoly City), where the build spinner stops is recorded for the player whose turn it is. The turn number follows the ledger,
so the build spinner turns once per turn even after an undo. No Kivy here; the app passes its clock and
its loop's scheduling functions.

Threading: the app's loop thread only. gpiozero's callbacks reach the unit through
``call_soon_threadsafe`` (see :func:`companion.hardware.open_board`).
"""

from __future__ import annotations

import logging
import time
from typing import Any, Callable

from companion.trading_unit import (
    SettingError,
    SpinStopped,
    TimerEnded,
    TimerStarted,
    TradingUnit,
    TradingUnitSettings,
    UnitEvent,
)

__all__ = ["UnitLink", "unit_settings"]

log = logging.getLogger(__name__)


def unit_settings(pack: dict) -> TradingUnitSettings:
    """The pack's trading unit settings (its ``trading_unit`` table), or the box's defaults."""
    try:
        return TradingUnitSettings.from_mapping(pack.get("trading_unit", {}) or {})
    except (SettingError, TypeError, ValueError) as e:
        log.warning("the pack's trading unit settings are not usable (%s); using the defaults", e)
        return TradingUnitSettings()


class UnitLink:
    """A game's trading unit and, when the Pi has them, its buttons, red light and buzzer."""

    def __init__(
        self,
        pack: dict,
        *,
        act: Callable[[dict], Any],
        clock: Callable[[], float] = time.monotonic,
        rng=None,
        on_sold: Callable[[Any], None] | None = None,
        on_event: Callable[[UnitEvent], None] | None = None,
        whose_turn: Callable[[], str | None] | None = None,
    ) -> None:
        self.clock = clock
        self._whose_turn = whose_turn  # given when the game records spins (a ``spin`` action)
        self._act = act
        self._on_sold = on_sold
        self._on_event = on_event
        self.deeds = set(pack.get("cards", {}))
        self.unit = TradingUnit(unit_settings(pack), rng=rng, on_next_turn=self._next_turn, on_undo=self._undo)
        self._unsubscribe: Callable[[], None] | None = self.unit.subscribe(self._event)
        self.board: Any = None
        self.hardware_text = "Buttons: on screen only"
        self.muted = False
        self.last_result: Any = None  # what the last auction the unit closed did on the ledger
        self.lot: str | None = None  # the deed the running auction sells (chosen on the auction screen)

    # -- the unit's callbacks ----------------------------------------------------------------------
    def _next_turn(self) -> None:
        self._act({"action": "next_turn"})

    def _undo(self) -> None:
        self._act({"action": "undo"})

    def _event(self, event: UnitEvent) -> None:
        if self._on_event is not None:
            self._on_event(event)  # questions and refusals the screen must show, wherever it is
        if isinstance(event, SpinStopped) and self._whose_turn is not None:
            player = self._whose_turn()
            if player:
                self.last_result = self._act(
                    {
                        "action": "spin",
                        "player": player,
                        "result": event.face,
                        "id": f"unit-spin-{event.turn}-{self.unit.roll}-{player}",
                    }
                )
            return
        if isinstance(event, TimerStarted) and event.purpose == "auction":
            self.lot = event.lot  # a new auction starts clean: its own lot or none yet
            return
        if not isinstance(event, TimerEnded) or event.purpose != "auction":
            return
        lot, self.lot = event.lot or self.lot, None
        if event.outcome == "sold" and event.winning_bid is not None and lot in self.deeds:
            bid = event.winning_bid
            action = {
                "action": "auction",
                "deed": lot,
                "winner": bid.bidder,
                "bid": bid.amount,
                "id": f"unit-auction-{lot}-{event.at:.3f}",
            }
            self.last_result = self._act(action)
        else:
            self.last_result = None
        if self._on_sold is not None:
            self._on_sold(self.last_result)  # the auction is over, sold or not: its screen starts clean

    def tick(self) -> None:
        """Let the unit's time pass (an auction whose light went off is sold even if no screen shows it)."""
        self.unit.advance(self.clock())

    # -- following the ledger ------------------------------------------------------------------------
    def follow_turn(self, number: int, roll: int = 1) -> None:
        """The ledger's turn number and roll (after a next turn, a double, an undo, a phone's action)."""
        if (self.unit.turn, self.unit.roll) != (number, roll):
            self.unit.start_turn(number, roll)

    # -- hardware ------------------------------------------------------------------------------------
    def open_board(
        self,
        opener: Callable[..., Any] | None,
        *,
        call_soon_threadsafe: Callable[..., Any],
        call_later=None,
        pins: dict | None = None,
        pin_factory: Any = None,
    ) -> str:
        """Open the GPIO buttons, light and buzzer with ``opener`` (the hardware adapter's ``open_board``,
        handed in by the composition root; None where no GPIO library is installed); says what it found."""
        if opener is None:
            self.hardware_text = "Buttons: on screen only (this computer has no GPIO pins)"
            return self.hardware_text
        self.board = opener(
            self.unit,
            clock=self.clock,
            call_soon_threadsafe=call_soon_threadsafe,
            call_later=call_later,
            pins=pins or None,
            pin_factory=pin_factory,
        )
        if getattr(self.board, "present", False):
            self._wrap_sound()
            self.hardware_text = "Buttons, light and buzzer connected"
        else:
            log.info("the trading unit's pins: %s", getattr(self.board, "reason", "no GPIO"))
            self.hardware_text = "Buttons: on screen only (no trading unit pins found)"
        return self.hardware_text

    def _wrap_sound(self) -> None:
        """Keep the buzzer quiet while the banker has turned sound off (the light still flashes)."""
        devices = getattr(self.board, "devices", None)
        if devices is None:
            return
        show = devices.show

        def show_unless_muted(light: float, tone_hz: float | None) -> None:
            show(light, None if self.muted else tone_hz)

        devices.show = show_unless_muted

    def close(self) -> None:
        """Release the pins and stop listening; safe to call twice."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self.board is not None:
            try:
                self.board.close()
            finally:
                self.board = None
