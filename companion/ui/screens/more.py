"""More: every other action the game's rules offer (built from the rule family's registry), and the
other screens."""
from __future__ import annotations

from kivy.factory import Factory

from ..flows import buttons_for, more_menu
from ..shown import face
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
        if self.desk is None:
            actions.clear_widgets()
            return
        _, more = buttons_for(self.desk.specs)
        menu = more_menu(more)
        shape = [(g["title"], *(a["name"] for a in g["actions"])) for g in menu]
        if getattr(actions, "shape", None) == shape:
            self._show_money(actions)
            return
        actions.shape = shape
        actions.clear_widgets()
        for group in menu:
            actions.add_widget(Factory.Heading(text=group["title"]))
            grid = Factory.MoreGrid()
            for item in group["actions"]:
                tap = Factory.Tap(text=item["label"], name=f"action-{item['name']}", font_size=self.app.u * 20,
                                  kind="danger" if item["destructive"] else "button")
                tap.value = item["name"]
                tap.label = item["label"]
                tap.bind(on_release=self.start)
                grid.add_widget(tap)
            actions.add_widget(grid)
        self._show_money(actions)

    def _show_money(self, actions) -> None:
        """An action done in one tap says what it moves, for whom, now ("Bank loan: Ann gets $50,000")."""
        player = self.app.player_to_play()
        for tap in actions.walk(restrict=True):
            if getattr(tap, "label", None) and str(tap.name).startswith("action-"):
                found = face(self.desk, tap.value, tap.label, player)
                tap.text, tap.promise = found["text"], found["promise"]

    def on_pre_enter(self, *args):
        self.refresh()
        self.ids.scroll.scroll_y = 1  # each visit starts at the top

    def go(self, tap) -> None:
        self.app.show(tap.value)

    def start(self, tap) -> None:
        form = self.app.start(tap.value)
        if form is not None:
            self.app.run_flow(form, tap)

    def back(self) -> None:
        self.app.to_table()
