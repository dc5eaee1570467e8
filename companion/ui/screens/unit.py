"""The trading unit on screen: the game's one TradingUnit (the same the GPIO buttons drive) shown by
the trading-unit widget, full size, with a way back to the table."""

from __future__ import annotations

from kivy.properties import StringProperty

from . import BankScreen

__all__ = ["UnitScreen"]


class UnitScreen(BankScreen):
    status = StringProperty("")

    def on_pre_enter(self, *args):
        holder = self.ids.holder
        link = self.app.unit_link
        if link is None:
            return
        current = holder.children[0] if holder.children else None
        if current is not None and getattr(current, "unit", None) is link.unit:
            current.refresh()
            return
        self._drop()
        try:
            from ..trading_unit import TradingUnitWidget
        except ImportError as e:  # the widget is optional: the auction screen has its own countdown
            self.status = f"The on-screen trading unit is not installed ({e})"
            return
        holder.add_widget(
            TradingUnitWidget(
                link.unit,
                clock=link.clock,
                money_format=self.desk.fmt,
                on_auction=self.auction,
                undo_says=lambda: self.desk.undo_text() if self.desk is not None else None,  # the game open now
                undo_names=lambda: self.desk.taken_back("undo") if self.desk is not None else None,
            )
        )
        self.status = link.hardware_text

    def refresh(self) -> None:
        """After every committed entry: UNDO names the entry it would take back now."""
        holder = self.ids.holder
        for widget in holder.children:
            if hasattr(widget, "refresh"):
                widget.refresh()

    def on_leave(self, *args):
        self._drop()

    def _drop(self) -> None:
        holder = self.ids.holder
        for widget in list(holder.children):
            if hasattr(widget, "detach"):
                widget.detach()
            holder.remove_widget(widget)

    def auction(self) -> None:
        """The one auction, wherever it starts: the deed, the timer and the bids on the auction screen."""
        self.app.show("auction")

    def back(self) -> None:
        self.app.to_table()
