"""Correct a card: pick a deed, edit the printed values to match the card in the box, save. The
printed values are what ``correct_card`` declares the card holds now; only the ones edited are sent,
and the change goes into the log like any action, so it can be undone."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import StringProperty

from ..ask_view import deed_groups
from ..settings_view import card_fields, changed_values
from . import BankScreen

__all__ = ["CardScreen"]


class CardScreen(BankScreen):
    deed = StringProperty("")

    def refresh(self) -> None:
        desk = self.desk
        if desk is None:
            return
        grid = self.ids.deeds
        grid.clear_widgets()
        for group in deed_groups(desk.state()):
            for d in group["deeds"]:
                tile = Factory.DeedTile()
                tile.text, tile.name, tile.value = d["name"], f"card-{d['name']}", d["name"]
                tile.band = list(group["colour"])
                tile.selected = d["name"] == self.deed
                tile.bind(on_release=self.pick)
                grid.add_widget(tile)
        box = self.ids.fields
        box.clear_widgets()
        if self.deed:
            for row in card_fields(self.printed(), desk.currency):
                line = Factory.CardField()
                line.key, line.label, line.kind = row["key"], row["label"], row["kind"]
                line.ids.entry.text, line.ids.entry.name = row["text"], f"card-field-{row['key']}"
                box.add_widget(line)

    def printed(self) -> dict:
        """The chosen deed's card as it reads now, as the correction declares it."""
        return self.desk.current("correct_card", "values", {"deed": self.deed}) or {}

    def pick(self, tile) -> None:
        self.deed = tile.value
        self.refresh()

    def save(self, tap) -> None:
        if not self.deed:
            self.app.refuse("choose the deed to correct first", tap)
            return
        edited = {line.key: (line.kind, line.ids.entry.text) for line in self.ids.fields.children}
        try:
            values = changed_values(self.printed(), edited, self.desk.currency)
        except ValueError as e:
            self.app.refuse(str(e), tap)
            return
        if not values:
            self.app.refuse("nothing was changed on the card", tap)
            return
        result = self.app.act({"action": "correct_card", "deed": self.deed, "values": values}, tap)
        if result.ok:
            self.refresh()

    def back(self) -> None:
        self.app.show("settings")
