"""Trade: two players swap cash and deeds (mortgaged deeds can be lifted at once); one confirm."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import DictProperty, ObjectProperty

from ..flows import ActionForm
from ..keypad import quick_amounts
from ..trade_view import Deal, trade_view
from . import BankScreen

__all__ = ["TradeScreen"]


class TradeScreen(BankScreen):
    deal = ObjectProperty(Deal())
    view = DictProperty({}, rebind=True)

    def start(self, a: str, give: list[str] | None = None) -> None:
        order = [p for p in self.desk.state()["active"] if p != a]
        self.deal = Deal(a=a, b=order[0] if order else "", give=tuple(give or ()))

    def on_pre_enter(self, *args):
        if self.desk is not None and not self.deal.a:
            self.start(self.app.player_to_play() or "")
        self.refresh()

    def refresh(self) -> None:
        if self.desk is None:
            return
        view = trade_view(self.desk, self.deal)
        self.view = view
        for side, who in (("give", view["a"]), ("get", view["b"])):
            holder = self.ids[f"{side}_side"]
            self._players(holder.ids.who, view["players"], who, side)
            self._deeds(holder.ids.deeds, view[f"{side}_rows"], side, view["takes_lift"])
            self._cash(holder.ids.cash, side)

    def _players(self, box, players, chosen, side) -> None:
        box.clear_widgets()
        for p in players:
            tap = Factory.Tap(
                text=p["name"],
                name=f"{side}-player-{p['name']}",
                selected=p["name"] == chosen,
                font_size=self.app.u * 20,
                guard=False,
                size_hint_y=1,
            )
            tap.value = (side, p["name"])
            tap.bind(on_release=self.pick_player)
            box.add_widget(tap)

    def _deeds(self, box, rows, side, takes_lift) -> None:
        box.clear_widgets()
        for row in rows:
            tap = Factory.Tap(
                text=row["deed"] + (" (mortgaged)" if row["mortgaged"] else ""),
                name=f"{side}-deed-{row['deed']}",
                selected=row["chosen"],
                guard=False,
                font_size=self.app.u * 20,
                height=self.app.u * 50,
            )
            tap.value = (side, row["deed"])
            tap.bind(on_release=self.pick_deed)
            box.add_widget(tap)
            if row["chosen"] and row["mortgaged"] and takes_lift:
                lift = Factory.Tap(
                    text="Lift the mortgage now" if not row["lift"] else "Lifting the mortgage",
                    name=f"lift-{row['deed']}",
                    selected=row["lift"],
                    guard=False,
                    font_size=self.app.u * 20,
                    height=self.app.u * 50,
                )
                lift.value = row["deed"]
                lift.bind(on_release=self.pick_lift)
                box.add_widget(lift)

    def _cash(self, box, side) -> None:
        amounts = quick_amounts(self.desk.pack)[-4:]  # $50, $100, $200, $500: $150 is two taps
        if max(len(self.desk.fmt(q)) for q in amounts) > 5:
            amounts = amounts[-3:]  # "+$100,000" needs the room of a third of the row
        if [c.value for c in reversed(box.children)][:-1] == [(side, q) for q in amounts]:
            return
        box.clear_widgets()
        for q in amounts:
            text = "+" + self.desk.fmt(q)
            tap = Factory.Tap(text=text, name=f"{side}-cash-{q}", guard=False, size_hint_y=1)
            tap.font_size = self.app.u * 18  # after the kv rule, which sets its own: one line
            tap.value = (side, q)
            tap.bind(on_release=self.add_cash)
            box.add_widget(tap)
        clear = Factory.Tap(
            text="C", name=f"{side}-cash-clear", guard=False, size_hint=(None, 1), width=self.app.u * 52
        )
        clear.value = (side, 0)
        clear.bind(on_release=self.add_cash)
        box.add_widget(clear)

    # -- taps --------------------------------------------------------------------------------------
    def pick_player(self, tap) -> None:
        side, name = tap.value
        a, b = (name, self.deal.b) if side == "give" else (self.deal.a, name)
        if a == b:
            a, b = (a, self.deal.a) if side == "get" else (self.deal.b, b)
        self.deal = self.deal.with_players(a, b)
        self.refresh()

    def pick_deed(self, tap) -> None:
        side, deed = tap.value
        self.deal = self.deal.toggle(deed, side)
        self.refresh()

    def pick_lift(self, tap) -> None:
        self.deal = self.deal.toggle_lift(tap.value)
        self.refresh()

    def add_cash(self, tap) -> None:
        side, amount = tap.value
        self.deal = self.deal.add_cash(side, amount) if amount else self.deal.clear_cash(side)
        self.refresh()

    def confirm(self, tap) -> None:
        if not self.view.get("ready"):
            self.app.refuse("choose two players and something to change hands", tap)
            return
        action = self.deal.action(self.view.get("takes_lift", False))
        values = {k: v for k, v in action.items() if k not in ("action", "id")}
        form = ActionForm("trade", values, id=f"ui-trade-{self.desk.version}", button="trade")
        result = self.app.commit(form, tap)  # the deal's sentence is on this very button
        if result is not None and result.ok:
            self.deal = Deal()

    def cancel(self) -> None:
        self.deal = Deal()
        self.app.to_table()
