"""The trading unit on the touchscreen: a widget that mirrors TradingUnit and works like its buttons.

Python decides, the widget renders: every property is set from ``unit.view(now)``, and every
touch is one call on the unit. Layout and bindings live in ``kv/trading_unit.kv``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, Callable

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button

from companion.trading_unit import BidRefused, TradingUnit, UnitEvent
from companion.ui.app import KV_DIR
from companion.ui.widgets import Aimed


class UnitButton(Aimed, Button):
    """A button of the on-screen unit: it takes only taps aimed at it (:class:`Aimed`); ``promise``,
    what it would take back (YES under "Undo: ...?"), so it counts as new when that changes."""

    name = StringProperty("")  # for tests and handlers, like a Tap's
    promise = ObjectProperty(None, allownone=True)


Factory.register("UnitButton", cls=UnitButton)

LIVE_REFRESH = 1 / 20
"""Seconds between redraws while the ring turns or the spinner rolls."""

REQUEST_TEXT = {
    "confirm_cancel": "Cancel the {mode}? Press again or touch YES.",
    "confirm_undo": "Undo the last action?",
}


def load_kv(name: str) -> None:
    """Load kv/<name> once, whoever loaded it before (this helper or the app's loader)."""
    path = (KV_DIR / name).resolve()
    if not any(Path(loaded).resolve() == path for loaded in Builder.files):
        Builder.load_file(str(path))


def describe_bid(view: dict[str, Any], money: Callable[[int], str]) -> str:
    """'Ann bids 120,000' for the running auction, or a prompt for the first bid."""
    if view["mode"] != "auction":
        return ""
    if view["bid"] is None:
        return "No bids yet"
    return f"{view['bidder']} bids {money(view['bid'])}"


def describe_result(view: dict[str, Any], money: Callable[[int], str]) -> str:
    """How the last auction or deal ended, in a few words."""
    outcome, lot = view["result"], view["result_lot"]
    if outcome == "sold":
        return f"SOLD{' ' + lot if lot else ''} to {view['result_bidder']} for {money(view['result_bid'])}"
    return {
        None: "",
        "no_bids": "No bids: not sold",
        "agreed": "Deal agreed",
        "lapsed": "Deal lapsed: time ran out",
        "cancelled": f"{(view['result_purpose'] or '').capitalize()} cancelled",
    }[outcome]


def describe_mode(view: dict[str, Any]) -> str:
    """The heading over the dial."""
    if view["mode"] == "auction":
        return f"AUCTION{': ' + view['lot'] if view['lot'] else ''}"
    return {"deal": "DEAL", "idle": "Trading unit"}[view["mode"]]


class TradingUnitWidget(BoxLayout):
    """Shows a TradingUnit (countdown ring, red light, bid, spinner, game clock) and passes touches on.

    Threading: Kivy's main thread (the app's loop) only, like the unit itself. It redraws
    on every unit event, every LIVE_REFRESH seconds while something runs, and otherwise at
    the unit's next change or once a second for the game clock.
    """

    mode = StringProperty("idle")
    heading = StringProperty("")
    seconds_text = StringProperty("")
    ring = NumericProperty(0.0)
    warning = BooleanProperty(False)
    light = NumericProperty(0.0)
    sound = BooleanProperty(False)
    bid_text = StringProperty("")
    result_text = StringProperty("")
    spinner = StringProperty("ready")
    face_text = StringProperty("")
    clock_text = StringProperty("")
    clock_state = StringProperty("off")
    turn_text = StringProperty("")
    request = StringProperty("")
    request_text = StringProperty("")
    notice_text = StringProperty("")
    bids_here = BooleanProperty(True)  # False in the app: bids are made on the one auction screen
    yes_promise = ObjectProperty(None, allownone=True)  # the entry "Undo: ...?" names, YES takes back

    def __init__(
        self,
        unit: TradingUnit,
        *,
        clock: Callable[[], float] = time.monotonic,
        money_format: Callable[[int], str] = "{:,}".format,
        on_auction: Callable[[], Any] | None = None,
        undo_says: Callable[[], str | None] | None = None,
        undo_names: Callable[[], tuple[int, str] | None] | None = None,
        **kwargs: Any,
    ) -> None:
        load_kv("trading_unit.kv")
        self.unit, self._clock, self._money = unit, clock, money_format
        self._on_auction = on_auction
        self._undo_says = undo_says  # what an undo would take back, so YES is pressed on what it names
        # the entry an undo would take back now (number, sentence): given (in the app), a press on
        # UNDO asks first with it, since the button cannot name it (the law of the banker's screen)
        self._undo_names = undo_names
        kwargs.setdefault("bids_here", on_auction is None)
        self._next_refresh = None
        super().__init__(**kwargs)
        self._redraw_soon = Clock.create_trigger(self.refresh)
        self._unsubscribe = unit.subscribe(self._on_unit_event)
        self.refresh()

    # -- rendering ---------------------------------------------------------------------------
    def refresh(self, *_: Any) -> dict[str, Any]:
        """Render the unit's view now and plan the next redraw; returns the view shown."""
        now = self._clock()
        view = self.unit.view(now)
        self.mode, self.heading = view["mode"], describe_mode(view)
        self.seconds_text = str(view["seconds_left"]) if view["mode"] != "idle" else ""
        self.ring, self.warning = view["ring"], view["warning"]
        self.light, self.sound = view["light"], view["sound"]
        self.bid_text, self.result_text = describe_bid(view, self._money), describe_result(view, self._money)
        self.spinner, self.face_text = view["spinner"], view["face_text"]
        self.clock_text, self.clock_state = view["clock_text"], view["clock"]
        self.turn_text = f"Turn {view['turn']}"
        self.request = view["request"] or ""
        self.request_text = REQUEST_TEXT.get(self.request, "").format(mode=self.mode)
        what = self._undo_says() if self.request == "confirm_undo" and self._undo_says is not None else None
        if what:
            self.request_text = f"Undo: {what}?"
        self.notice_text = view["notice"] or ""
        named = self._undo_names() if self._undo_names is not None and self.request == "confirm_undo" else None
        self.yes_promise = ("undo", *named) if named else None
        self._plan(now, view)
        return view

    def _plan(self, now: float, view: dict[str, Any]) -> None:
        if self._next_refresh is not None:
            self._next_refresh.cancel()
        upcoming = self.unit.next_change(now)
        delays = [upcoming - now] if upcoming is not None else []
        if view["mode"] != "idle" or view["spinner"] == "spinning":
            delays.append(LIVE_REFRESH)
        elif view["clock"] == "running":
            delays.append(1.0)
        self._next_refresh = Clock.schedule_once(self.refresh, max(min(delays), 0)) if delays else None

    def _on_unit_event(self, event: UnitEvent) -> None:
        self._redraw_soon()

    def detach(self) -> None:
        """Stop following the unit (before the widget is thrown away)."""
        self._unsubscribe()
        if self._next_refresh is not None:
            self._next_refresh.cancel()

    # -- touches: one call each, from kv ---------------------------------------------------------
    def press_auction(self) -> None:
        """AUCTION: in the app, the one auction screen (the deed first, then the timer and the bids)."""
        if self._on_auction is not None:
            self._on_auction()
            return
        self.unit.press_auction(self._clock(), purpose="auction")

    def press_deal(self) -> None:
        self.unit.press_deal(self._clock())

    def close_timer(self) -> None:
        """The SOLD / AGREED button: end the running auction or deal now."""
        if self.mode == "deal":
            self.unit.close_deal(self._clock())
        else:
            self.unit.close_auction(self._clock())

    def submit_bid(self) -> None:
        """Record the bid typed into the bidder and amount boxes (a refusal shows as a notice)."""
        amount = self.ids.amount.text.strip()
        try:
            self.unit.bid(self._clock(), self.ids.bidder.text.strip(), int(amount) if amount.isdigit() else 0)
        except BidRefused:
            return
        self.ids.amount.text = ""

    def press_build(self) -> None:
        self.unit.press_build(self._clock())

    def press_next_turn(self) -> None:
        self.unit.press_next_turn(self._clock())

    def press_undo(self) -> None:
        self.unit.press_undo(self._clock())

    def release_undo(self) -> None:
        """A short press undoes on the box; on the touchscreen (``undo_names`` given) it asks first,
        as a held press does, with the entry it would take back: the button does not name it."""
        if self._undo_names is not None and self.unit.undo_down():
            self.unit.ask_undo(self._clock())
            return
        self.unit.release_undo(self._clock())

    def confirm(self) -> None:
        """Yes to the question on screen."""
        if self.request == "confirm_cancel":
            self.unit.confirm_cancel(self._clock())
        elif self.request == "confirm_undo":
            self.unit.confirm_undo(self._clock())

    def dismiss(self) -> None:
        """No to the question on screen."""
        self.unit.dismiss(self._clock())
        self.refresh()

    def restart_clock(self) -> None:
        self.unit.start_clock(self._clock())
