"""The chooser: asks one field of an action (a player, a deed, a count, ...), greying out the answers
the rules would refuse and saying why when one is tapped anyway."""
from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty

from ..ask_view import ask_view
from ..flows import typed_value
from . import BankScreen

__all__ = ["AskScreen"]


class AskScreen(BankScreen):
    form = ObjectProperty(None, allownone=True)
    field = StringProperty("")
    title = StringProperty("")
    so_far = StringProperty("")
    text_entry = BooleanProperty(False)
    optional = BooleanProperty(False)
    show_all = BooleanProperty(False)
    hidden = StringProperty("")
    help = StringProperty("")  # "4 more the rules refuse now" when refused answers are hidden

    def ask(self, form, field: str) -> None:
        self.form, self.field, self.show_all = form, field, False
        self.ids.entry.text = ""

    def refresh(self) -> None:
        if self.form is None or self.desk is None:
            return
        view = ask_view(self.desk, self.form, self.field)
        self.title, self.so_far = view["title"], view["so_far"]
        self.text_entry, self.optional = view["text_entry"], view["optional"]
        self.help = view["help"]
        rows = view["choices"]
        allowed = [r for r in rows if r["refused"] is None]
        shown = rows if self.show_all or not allowed else allowed
        refused = len(rows) - len(allowed)
        self.hidden = "" if self.show_all or not allowed or not refused else f"Show {refused} more (not possible now)"
        grid = self.ids.choices
        grid.clear_widgets()
        grid.cols = 4 if view["kind"] == "deed" else (6 if view["kind"] in ("dice", "count") else 3)
        for row in shown:
            tile = Factory.ChoiceTile()
            tile.text = row["label"]
            tile.detail = str(row.get("detail") or "")
            tile.colour = list(row["colour"])
            tile.refused = row["refused"] or ""
            tile.value = row["value"]
            tile.name = f"choice-{row['value']}"
            tile.bind(on_release=self.choose)
            grid.add_widget(tile)
        self.ids.scroll.scroll_y = 1

    def choose(self, tile) -> None:
        if tile.refused:
            self.app.refuse(tile.refused, tile)
            return
        self.app.run_flow(self.form.fill(self.field, tile.value), tile)

    def type_done(self, tap) -> None:
        text = " ".join(self.ids.entry.text.split())
        if not text and not self.optional:
            self.app.refuse(f"type the {self.field.replace('_', ' ')} first", tap)
            return
        form = self.form.fill(self.field, typed_value(text)) if text else self.form.skip(self.field)
        self.app.run_flow(form, tap)

    def toggle_all(self) -> None:
        self.show_all = not self.show_all
        self.refresh()

    def cancel(self) -> None:
        self.form = None
        self.app.to_table()
