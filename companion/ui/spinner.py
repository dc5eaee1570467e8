"""The build spinner on screen: the trading unit's spinner turning, then where it stopped.

The spin itself is the unit's (:class:`companion.trading_unit.TradingUnit`): its random face, its
time, its light and buzzer on the Pi. This strip only shows the unit's own view while it turns, and
lets the unit's time pass so that its stop is recorded (the unit link makes it the ``spin`` action)
the moment it happens, whatever else the app is doing.
"""

from __future__ import annotations

from typing import Callable

from kivy.clock import Clock
from kivy.properties import StringProperty
from kivy.uix.boxlayout import BoxLayout

__all__ = ["SpinnerStrip", "spin_words"]

#: How often the strip looks at the unit while it turns (the unit's own tick is faster; this is the eye's).
FRAME_SECONDS = 1 / 30


def spin_words(view: dict) -> tuple[str, str]:
    """(state, words) of the unit's spinner view: "spinning" with the face passing by, "stopped" with
    where it stopped, or "" when it has not turned this turn."""
    if view.get("spinner") == "spinning":
        return "spinning", view["face_text"]
    if view.get("spinner") == "stopped":
        return "stopped", view["face_text"]
    return "", ""


class SpinnerStrip(BoxLayout):
    """The spinner's window: the face passing by while it turns, then the result."""

    state = StringProperty("")  # "", "spinning" or "stopped"
    face_text = StringProperty("")
    _event = None
    _link = None
    _on_stop: Callable[[], None] | None = None

    def follow(self, link, on_stop: Callable[[], None]) -> None:
        """Show the unit's spinner until it stops, then call ``on_stop`` (the spin is on the ledger)."""
        self.hide()
        self._link, self._on_stop = link, on_stop
        self._event = Clock.schedule_interval(self._frame, FRAME_SECONDS)
        self._frame()

    def show_result(self, words: str) -> None:
        """A spin of this turn already on the ledger: what it allows now."""
        self.hide()
        self.state, self.face_text = "stopped", words

    def hide(self) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None
        self._link = self._on_stop = None
        self.state, self.face_text = "", ""

    @property
    def spinning(self) -> bool:
        return self.state == "spinning"

    def catch_up(self) -> None:
        """Look at the unit now rather than on the strip's next frame: the app's own pace of the unit
        may have recorded the stop first, and whoever shows the chooser then must show what the spin
        allows, not the districts as they were while it turned (``on_stop`` runs now if it stopped)."""
        if self._link is not None:
            self._frame()

    def _frame(self, *_: object) -> None:
        link = self._link
        if link is None:
            return
        link.tick()  # the unit's time passes: when it stops, the link records the spin
        self.state, self.face_text = spin_words(link.unit.view(link.clock()))
        if self.state != "spinning":
            if self._event is not None:
                self._event.cancel()
                self._event = None
            on_stop, self._on_stop, self._link = self._on_stop, None, None
            if on_stop is not None:
                on_stop()
