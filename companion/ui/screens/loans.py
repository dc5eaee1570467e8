"""Loans and notes: who owes the bank what, due in how many turns; the family's borrow and repay."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import StringProperty

from ..flows import ActionForm
from ..loans_view import loans_view
from ..shown import face
from . import BankScreen

__all__ = ["LoansScreen"]


class LoansScreen(BankScreen):
    empty_text = StringProperty("")

    def refresh(self) -> None:
        if self.desk is None:
            return
        view = loans_view(self.desk)
        self.empty_text = view["empty_text"]
        box = self.ids.rows
        box.clear_widgets()
        for row in view["rows"]:
            line = Factory.LoanRow()
            line.screen = self
            line.player, line.colour = row["player"], list(row["colour"])
            line.words, line.amount_text = row["text"], row["amount_text"]
            line.due_text, line.detail, line.urgent = row["due_text"], row["detail"], row["urgent"]
            box.add_widget(line)
        for row in view["mortgages"]:
            line = Factory.MortgageRow()
            line.screen = self
            line.player, line.colour, line.words = row["player"], list(row["colour"]), row["text"]
            line.deed, line.lift_text, line.refused = row["deed"], row["lift_text"], row["refused"] or ""
            line.promise = row["promise"]
            box.add_widget(line)
        actions = self.ids.actions
        actions.clear_widgets()
        player = self.app.player_to_play()
        for act in view["actions"]:
            found = face(self.desk, act["name"], act["label"], player)  # one tap says what it moves
            tap = Factory.Tap(text=found["text"], name=f"loan-{act['name']}", promise=found["promise"])
            tap.value = act["name"]
            tap.bind(on_release=self.start)
            actions.add_widget(tap)

    def start(self, tap) -> None:
        form = self.app.start(tap.value)
        if form is not None:
            self.app.run_flow(form, tap)

    def lift(self, row, tap) -> None:
        if row.refused:
            self.app.refuse(row.refused, tap)
            return
        form = ActionForm(
            "unmortgage",
            {"player": row.player, "deed": row.deed},
            id=f"ui-lift-{self.desk.version}-{row.deed}",
            button="unmortgage",
            back="loans",
        )
        self.app.commit(form, tap)  # the row's Lift says who pays how much
        self.refresh()

    def back(self) -> None:
        self.app.to_table()
