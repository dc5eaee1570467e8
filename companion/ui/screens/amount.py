"""Amount entry: a big keypad with the pack's quick amounts, payer and payee as tiles, a clear confirm."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty


from ..amount_view import amount_field, amount_view
from ..keypad import Keypad
from ..widgets import side_row
from . import BankScreen, let_go_of_children

__all__ = ["AmountScreen"]


class AmountScreen(BankScreen):
    sides_shown: set = set()
    _keys_for: tuple | None = None  # what the keys and quick amounts were made for
    _sides_for: list[dict] | None = None  # what the rows of sides were made for
    form = ObjectProperty(None, allownone=True)
    keypad = ObjectProperty(None, allownone=True)
    title = StringProperty("")
    figure = StringProperty("")
    problem = StringProperty("")
    sentence = StringProperty("")
    ready = BooleanProperty(False)
    warning = BooleanProperty(False)
    has_sides = BooleanProperty(False)
    promise = ObjectProperty(None, allownone=True)  # the preview the confirm's sentence shows
    side_rows = NumericProperty(0)  # rows of tiles above the keypad (who acts, from, to)

    def ask(self, form) -> None:
        """Start entering the amount of ``form`` (fields already filled stay as they are)."""
        self.form = form
        self.keypad = Keypad(self.desk.currency)
        field = amount_field(self.desk, form)
        if field and form.values.get(field):
            self.keypad = self.keypad.set(int(form.values[field]))
            self.form = form.clear(field)

    def refresh(self) -> None:
        if self.form is None or self.desk is None:
            return
        view = amount_view(self.desk, self.form, self.keypad)
        self.title = view["title"]
        self.figure = view["figure"]
        self.problem = view["problem"]
        self.sentence = view["sentence"]
        self.ready = view["ready"]
        self.warning = bool(view["refused"])
        self.promise = view["promise"]
        self._show_keys(view["keys"], view["quick"])
        self._show_sides(view["sides"])
        self.has_sides = bool(view["sides"])
        self.side_rows = len(view["sides"])

    def set_back(self) -> int:
        """Done with (the table is back): no form, no amount, no sentence, no rows of who pays and who
        is paid (the next payment's are its own); the keys stay made."""
        self.form, self.keypad, self.promise = None, None, None
        self.title = self.figure = self.problem = self.sentence = ""
        self.ready = self.warning = False
        self._sides_for = None
        return let_go_of_children(self.ids.sides)

    def _show_keys(self, keys: list[str], quick: list[dict]) -> None:
        # the keys' size is set here, not in kv: a window resized meanwhile makes them again
        signature = (tuple(keys), tuple((q["amount"], q["label"]) for q in quick), self.app.u)
        if self._keys_for == signature:
            return
        self._keys_for = signature
        pad = self.ids.keygrid
        pad.clear_widgets()
        for key in keys:
            tap = Factory.Tap(
                text="Del" if key == "<" else key,
                name=f"key-{key}",
                guard=False,
                font_size=self.app.u * 32,
                size_hint_y=1,
            )
            tap.value = key
            tap.bind(on_release=self.press_key)
            pad.add_widget(tap)
        box = self.ids.quick
        box.clear_widgets()
        for q in quick:
            tap = Factory.Tap(text=q["label"], name=f"quick-{q['amount']}", guard=False, size_hint_y=1)
            tap.value = q["amount"]
            tap.bind(on_release=self.press_quick)
            box.add_widget(tap)

    def _show_sides(self, sides: list[dict]) -> None:
        """The rows of who pays and who is paid, made anew only when what they show changed (a key
        pressed changes the figure, not the sides: the tiles under the finger stay as they are)."""
        if self._sides_for == sides:
            return
        rows = self.ids.sides
        if self._sides_for is not None and _without_choosing(self._sides_for) == _without_choosing(sides):
            # the same players on the same rows, another one chosen (a side picked): the tiles stay
            # where the finger is and only show which is chosen now
            for row, side in zip(reversed(rows.children), sides):
                for tile, choice in zip(reversed(row.ids.tiles.children), side["choices"]):
                    tile.selected = choice["selected"]
            self._sides_for = sides
            return
        self._sides_for = sides
        self.sides_shown = {side["field"] for side in sides}
        rows.clear_widgets()
        for side in sides:
            rows.add_widget(side_row(side, self.pick_side))

    # -- taps --------------------------------------------------------------------------------------
    def press_key(self, tap) -> None:
        self.keypad = self.keypad.press(tap.value)
        self.refresh()

    def press_quick(self, tap) -> None:
        self.keypad = self.keypad.add(tap.value)
        self.refresh()

    def clear(self) -> None:
        self.keypad = self.keypad.set(None)
        self.refresh()

    def pick_side(self, tile) -> None:
        field = tile.value
        other = {"from": "to", "to": "from"}.get(field)
        form = self.form.fill(field, tile.account)
        if other and str(form.values.get(other, "")).casefold() == tile.account.casefold():
            form = form.fill(other, self.form.values.get(field))  # picking the other side swaps them
        self.form = form
        self.refresh()

    def confirm(self, tap) -> None:
        field = amount_field(self.desk, self.form)
        value = self.keypad.value()
        if not value:
            self.app.refuse(self.keypad.problem() or "type an amount first", tap)
            return
        form = self.form.fill(field, value)
        missing = self.desk.next_field(form.action, form.values)
        if missing is not None and missing.kind in ("account", "player") and missing.name in self.sides_shown:
            self.app.refuse(f"choose {missing.says.lower()} first", tap)
            return
        self.app.run_flow(form, tap)

    def cancel(self) -> None:
        self.form = None
        self.app.to_table()


def _without_choosing(sides: list[dict]) -> list:
    """The rows of sides as they are made, without which tile is chosen on each."""
    return [
        (side["field"], side["label"], [{k: v for k, v in c.items() if k != "selected"} for c in side["choices"]])
        for side in sides
    ]
