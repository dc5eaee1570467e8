"""Auction: the lot, bids by tapping a player and an amount, the trading unit's countdown beside them;
when the light goes off (or the banker taps Sold) the highest bidder pays the bank.

The countdown is the shared :class:`TradingUnit` (the same one the GPIO buttons and the Unit screen
drive), shown here compactly: seconds left, the ring as a bar, the red light."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, ObjectProperty, StringProperty

from companion.trading_unit import BidRefused

from ..auction_view import auction_view, opening_bid, unowned_deeds
from ..flows import ActionForm
from ..keypad import Keypad, keys_for, quick_amounts, wide_keys
from ..widgets import AccountTile
from . import BankScreen

__all__ = ["AuctionScreen"]


class AuctionScreen(BankScreen):
    lot = StringProperty("")
    bidder = StringProperty("")
    amount = NumericProperty(0)
    view = DictProperty({}, rebind=True)
    seconds = StringProperty("")
    ring = NumericProperty(0)
    light = NumericProperty(0)
    warning = BooleanProperty(False)
    keys_shown = BooleanProperty(False)  # the keypad instead of the pack's steps
    keypad = ObjectProperty(None, allownone=True)
    start = StringProperty("")  # where the bid on show started ("the highest $200 + $1"), until it changes
    _ticker = None
    _bids = 0

    def open_lot(self, deed: str) -> None:
        """The deed to sell (from the table, its card or the unit); a running timer without one sells it."""
        if deed != self.lot:
            self.clean()
            self.lot = deed
        link = self.app.unit_link
        if link is not None and link.unit.view(link.clock())["mode"] == "auction" and not link.lot:
            link.lot = deed

    def busy(self) -> bool:
        """An auction's countdown is running: its lot and the bid being entered stay for its end."""
        link = self.app.unit_link
        return link is not None and link.unit.view(link.clock())["mode"] == "auction"

    def clean(self) -> None:
        """A new auction starts clean: no lot, no bidder, no amount."""
        self.lot, self.bidder, self.amount, self.start = "", "", 0, ""
        if self.keypad is not None:
            self.keypad = self.keypad.set(None)

    def _keypad(self) -> Keypad:
        currency = self.desk.currency
        if self.keypad is None or self.keypad.currency != currency:
            self.keypad = Keypad(currency)
            self.keys_shown = currency.style == "short"  # millions are typed with K and M, not counted up
        return self.keypad

    def on_pre_enter(self, *args):
        if self.desk is not None and (not self.lot or self.lot not in unowned_deeds(self.desk)):
            lots = unowned_deeds(self.desk)
            self.lot = self.lot if self.lot in lots else ""
        self.refresh()
        self._ticker = Clock.schedule_interval(self._tick, 0.1)

    def on_leave(self, *args):
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None

    def _tick(self, *_):
        """Follow the countdown (a refresh of the whole view only when the unit's state changed)."""
        link = self.app.unit_link
        if link is None:
            return
        unit = link.unit.view(link.clock())
        self.seconds = str(unit["seconds_left"]) if unit["mode"] == "auction" else ""
        self.ring, self.light, self.warning = unit["ring"], unit["light"], unit["warning"]
        if (unit["mode"] == "auction") != bool(self.view.get("running")) or unit["bid_count"] != self._bids:
            self.refresh()

    def refresh(self) -> None:
        if self.desk is None:
            return
        link = self.app.unit_link
        unit = link.unit.view(link.clock()) if link is not None else None
        self._bids = unit["bid_count"] if unit else 0
        self._keypad()
        view = auction_view(self.desk, self.lot, self.bidder or None, int(self.amount) or None, unit, self.start)
        self.view = view
        self._show_bidders(view["bidders"])
        self._show_quick()

    def _show_bidders(self, rows: list[dict]) -> None:
        box = self.ids.bidders
        box.clear_widgets()
        for row in rows:
            tile = AccountTile(
                text=row["label"] + (" *" if row["leading"] else ""),
                account=row["value"],
                colour=list(row["colour"]),
                selected=row["selected"],
                guard=False,
                name=f"bidder-{row['value']}",
                size_hint_y=1,
            )
            tile.bind(on_release=self.pick_bidder)
            box.add_widget(tile)

    def _show_quick(self) -> None:
        """The pack's steps (+$50, +$100) or the keypad (with K and M for Monopoly City)."""
        box = self.ids.quick
        keys = wide_keys(keys_for(self.keypad.currency)) if self.keys_shown else []
        amounts = [] if self.keys_shown else quick_amounts(self.desk.pack)
        shape = (tuple(keys), tuple(amounts), id(self.desk))
        if getattr(box, "shape", None) == shape:
            return
        box.shape = shape
        box.clear_widgets()
        box.cols = max(4, (len(keys) + 1) // 2) if keys else 4
        for key in keys:
            tap = Factory.Tap(
                text="Del" if key == "<" else key,
                name=f"key-{key}",
                guard=False,
                size_hint_y=1,
                font_size=self.app.u * 24,
            )
            tap.value = key
            tap.bind(on_release=self.press_key)
            box.add_widget(tap)
        for q in amounts:
            text = "+" + self.desk.fmt(q)
            tap = Factory.Tap(text=text, name=f"raise-{q}", guard=False, size_hint_y=1)
            tap.font_size = self.app.u * (20 if len(text) <= 7 else 18)  # after the kv rule: "+$100,000" whole
            tap.value = q
            tap.bind(on_release=self.raise_by)
            box.add_widget(tap)

    # -- taps --------------------------------------------------------------------------------------
    def choose_lot(self, tap) -> None:
        if "auction" not in self.desk.specs:
            self.app.refuse("this game has no auctions", tap)
            return
        form = ActionForm("auction", {}, button="auction")
        self.app.screens["ask"].ask(form, "deed")
        self.app.show("ask")

    def _highest(self) -> int | None:
        link = self.app.unit_link
        best = link.unit.highest_bid if link is not None and self.busy() else None
        return best.amount if best else None

    def pick_bidder(self, tile) -> None:
        """A bidder chosen: the bid on show starts from the highest bid plus the smallest step (what
        Record would record), and the keypad's next key types a new figure over it."""
        self.bidder = tile.account
        if self.amount == 0 or self.start or (self._highest() or 0) >= self.amount:
            self.amount, self.start = opening_bid(self.desk, self._highest())
            self.keypad = self.keypad.set(None)
        self.refresh()

    def raise_by(self, tap) -> None:
        """A step adds to the figure on show, never to anything else."""
        self.amount = int(self.amount) + tap.value
        self.start = ""
        self.keypad = self.keypad.set(int(self.amount))
        self.refresh()

    def press_key(self, tap) -> None:
        self.keypad = self.keypad.press(tap.value)
        self.amount = self.keypad.value() or 0
        self.start = ""
        self.refresh()

    def toggle_keys(self) -> None:
        self.keys_shown = not self.keys_shown
        self.refresh()

    def clear(self) -> None:
        self.amount, self.start = 0, ""
        self.keypad = self.keypad.set(None)
        self.refresh()

    def start_timer(self, tap) -> None:
        if not self.lot:
            self.app.refuse("choose the deed first", tap)
            return
        link = self.app.unit_link
        link.unit.press_auction(link.clock(), purpose="auction", lot=self.lot)
        link.lot = self.lot
        self.refresh()

    def record_bid(self, tap) -> None:
        link = self.app.unit_link
        if not (self.bidder and self.amount):
            self.app.refuse("tap a bidder and an amount first", tap)
            return
        if not self.view.get("running"):
            self.app.refuse("start the timer first, or tap Sold to sell at this bid now", tap)
            return
        best = link.unit.highest_bid
        if best is not None and int(self.amount) <= best.amount:  # said in the pack's money, "₩1.5M"
            self.app.refuse(f"a bid must beat the highest, {best.bidder}'s {self.desk.fmt(best.amount)}", tap)
            return
        try:
            link.unit.bid(link.clock(), self.bidder, int(self.amount))
        except BidRefused as e:
            self.app.refuse(str(e), tap)
            return
        self.bidder, self.amount, self.start = "", 0, ""  # the bid is on the unit; the keypad is ready
        self.keypad = self.keypad.set(None)
        self.refresh()

    def sold(self, tap) -> None:
        """The hammer comes down: the highest bid (or the chosen bidder and amount) wins."""
        link = self.app.unit_link
        if self.view.get("running") and link.unit.highest_bid is not None:
            link.unit.close_auction(link.clock())  # the unit's TimerEnded applies the auction
            result = link.last_result
        else:
            if self.view.get("running"):
                link.unit.confirm_cancel(link.clock())
            if not (self.lot and self.bidder and self.amount):
                self.app.refuse("choose the deed, the winner and the winning bid first", tap)
                return
            result = self.app.act(
                {
                    "action": "auction",
                    "deed": self.lot,
                    "winner": self.bidder,
                    "bid": int(self.amount),
                    "id": f"ui-auction-{self.desk.version}-{self.lot}",
                },
                tap,
            )
        if result is not None and result.ok:
            self.clean()
            self.app.to_table()
        elif result is not None:
            self.app.refuse(result.text, tap)

    def back(self) -> None:
        self.app.to_table()
