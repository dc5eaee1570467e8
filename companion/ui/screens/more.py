"""More: every other action the game's rules offer (built from the rule family's registry), and the
other screens."""
from __future__ import annotations

from kivy.factory import Factory

from ..flows import buttons_for
from . import BankScreen

__all__ = ["MoreScreen"]

#: The other screens, in the order a banker needs them.
PLACES = [
    ("deeds", "Deeds"), ("auction", "Auction"), ("unit", "Trading unit"), ("loans", "Loans"), ("history", "History"),
    ("requests", "Requests"), ("join", "Phones"), ("settings", "Settings"), ("over", "Scores"), ("start", "Games"),
]


class MoreScreen(BankScreen):
    def refresh(self) -> None:
        places = self.ids.places
        places.clear_widgets()
        for name, label in PLACES:
            if name in self.app.screens:
                tap = Factory.Tap(text=label, name=f"go-{name}")
                tap.value = name
                tap.bind(on_release=self.go)
                places.add_widget(tap)
        actions = self.ids.actions
        actions.clear_widgets()
        if self.desk is None:
            return
        _, more = buttons_for(self.desk.specs)
        for item in more:
            row = Factory.ActionRow()
            row.name = item["name"]
            row.label = item["label"]
            row.summary = item["summary"]
            row.destructive = item["destructive"]
            actions.add_widget(row)

    def go(self, tap) -> None:
        self.app.show(tap.value)

    def start(self, row, tap) -> None:
        form = self.app.start(row.name)
        if form is not None:
            self.app.run_flow(form, tap)

    def back(self) -> None:
        self.app.to_table()
