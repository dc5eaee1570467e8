"""The structured form: a field such as side bets or answers by player, answered with tiles (players,
numbers, money steps, "Add a bet") read from the field's schema, then one confirming tap that reads
the log's sentence. A schema no tile can answer is typed, behind an explicit "Type it". A correction
(a character card) starts from the card's printed values and marks each one the banker changes."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty
from kivy.uix.modalview import ModalView

from companion.core.money import Currency

from .. import schema_form
from ..keypad import Keypad, keys_for, wide_keys
from ..structured_view import first_value, form_view, schema_of
from ..widgets import side_row
from . import BankScreen

__all__ = ["FormScreen", "FigureBox"]


def _name(path: tuple, *more) -> str:
    return "-".join(["form", *(str(p) for p in (*path, *more))])


def _key(row: dict) -> tuple:
    """What makes a row's widgets: the same key, the same tiles (only what is chosen may differ)."""
    return (
        row["kind"],
        row["path"],
        row["label"],
        tuple(c["value"] for c in row.get("choices", ())),
        tuple(c["amount"] for c in row.get("chips", ())),
    )


class FormScreen(BankScreen):
    form = ObjectProperty(None, allownone=True)
    field = StringProperty("")
    value = ObjectProperty(None, allownone=True)
    title = StringProperty("")
    so_far = StringProperty("")
    help = StringProperty("")
    note = StringProperty("")  # the field's line for people on this table (who judges the Quiz)
    sentence = StringProperty("")
    promise = ObjectProperty(None, allownone=True)  # the preview the confirm's sentence shows
    ready = BooleanProperty(False)
    typed = BooleanProperty(False)
    typing = BooleanProperty(False)
    _refused = _value = None

    def ask(self, form, field: str) -> None:
        """A new question, with nothing chosen yet, or what the card reads now."""
        self.form, self.field, self.typing = form, field, False
        self.value = first_value(self.desk, form, self.desk.specs[form.action].field(field))
        # "unknown", never None: a question with no strip of who acts must still clear the last one's
        self.ids.rows.shape = self.ids.who.shape = "unknown"
        self.ids.scroll.scroll_y = 1

    @property
    def schema(self) -> dict:
        return schema_of(self.desk, self.form, self.desk.specs[self.form.action].field(self.field))

    def refresh(self) -> None:
        if self.form is None or self.desk is None:
            return
        view = form_view(self.desk, self.form, self.field, self.value)
        self.title, self.so_far, self.help = view["title"], view["so_far"], view["help"]
        self.note = view["note"]
        self.sentence, self.ready, self.typed = view["sentence"], view["ready"], view["typed"]
        self._refused, self._value = view["refused"], view["value"]
        self.promise = view.get("promise")
        self._show_who(view["who"])
        if self.typed:
            self._show_entry()
        else:
            self._show_rows(view["rows"])

    def _show_entry(self) -> None:
        """The escape's one text box, once "Type it" is tapped."""
        box = self.ids.rows
        shape = ["typing" if self.typing else "escape"]
        if shape == getattr(box, "shape", None):
            return
        box.shape = shape
        box.clear_widgets()
        if self.typing:
            entry = Factory.Entry(text=self.value if isinstance(self.value, str) else "")
            entry.name = "form-typed"
            entry.hint_text = "As the phones' API describes it"
            entry.bind(text=self.write)
            box.add_widget(entry)
            entry.focus = True

    def _show_who(self, who) -> None:
        """The strip of who acts in this action, redrawn only when the choice changes."""
        box = self.ids.who
        shape = who and [who["field"], *((c["value"], c["selected"]) for c in who["choices"])]
        if shape == getattr(box, "shape", None):
            return
        box.shape = shape
        box.clear_widgets()
        if who is not None:
            box.add_widget(side_row(who, self.pick_who))

    def _show_rows(self, rows: list[dict]) -> None:
        """The rows: each tile only shows whether it is chosen, and stays where the finger is heading;
        a row is made only when it is new (the rows of a bet just added), the others are kept."""
        box = self.ids.rows
        shape = [_key(r) for r in rows]
        if shape == getattr(box, "shape", None):
            for widget, row in zip(reversed(box.children), rows):
                self._update(widget, row)
            return
        kept = getattr(box, "shape", None)
        made = dict(zip(kept, reversed(box.children))) if isinstance(kept, list) else {}
        box.shape = shape
        box.clear_widgets()
        for key, row in zip(shape, rows):
            widget = made.get(key)
            if widget is None:
                widget = self._row(row)
            else:
                self._update(widget, row)
            box.add_widget(widget)

    def _tap(self, text: str, name: str, value, handler, **kw):
        font_size = kw.pop("font_size", self.app.u * 20)
        tap = Factory.Tap(text=text, name=name, guard=False, size_hint_y=1, **kw)
        tap.font_size = font_size  # after the kv rule, which sets its own
        tap.value = value
        tap.bind(on_release=handler)
        return tap

    def _row(self, row: dict):
        kind, path = row["kind"], row["path"]
        if kind == "item":
            box = Factory.FormItem()
            box.label = row["label"]
            box.add_widget(
                self._tap(
                    "Remove",
                    _name(path, "remove"),
                    ("remove", path, None),
                    self.change,
                    size_hint_x=None,
                    width=self.app.u * 130,
                    font_size=self.app.u * 20,
                )
            )
            return box
        if kind == "add":
            box = Factory.FormRow()
            box.label = row["label"] if row["choices"] else ""
            for choice in row["choices"]:
                box.ids.tiles.add_widget(
                    self._tap(
                        choice["label"],
                        _name(path, "add", choice["value"]),
                        ("add", path, (row["part"], choice["value"])),
                        self.change,
                    )
                )
            if not row["choices"]:
                box.ids.tiles.add_widget(self._tap(row["label"], _name(path, "add"), ("add", path, None), self.change))
            return box
        box = Factory.FormRow()
        box.name, box.label = _name(path, "row"), row["label"]
        box.printed, box.changed = row.get("printed", ""), row.get("changed", False)
        printed = "printed" in row  # a card's value: a chosen tile stays chosen, C puts the sum at 0
        tiles = box.ids.tiles
        if kind in ("pick", "many"):
            how = "toggle" if kind == "many" else ("set" if printed else "pick")
            for choice in row["choices"]:
                tiles.add_widget(
                    self._tap(
                        choice["label"],
                        _name(path, choice["value"]),
                        (how, path, choice["value"]),
                        self.change,
                        selected=choice["selected"],
                    )
                )
        elif kind == "count":
            tiles.add_widget(
                self._tap("\u2212", _name(path, "less"), ("less", path, None), self.change, font_size=self.app.u * 32)
            )
            tiles.add_widget(Factory.Figure(text=row["text"], base_size=self.app.u * 32, halign="center"))
            tiles.add_widget(
                self._tap("+", _name(path, "more"), ("more", path, None), self.change, font_size=self.app.u * 32)
            )
        elif kind == "text":
            entry = Factory.Entry(text=row["text"])
            entry.name, entry.path = _name(path), path
            entry.hint_text = "Leave empty to keep it"
            entry.bind(text=self.type_text)
            tiles.add_widget(entry)
        elif kind == "amount":
            # the figure itself opens the pack's keypad: a salary is typed as printed (2, 5, 0, K)
            tiles.add_widget(
                self._tap(
                    row["text"],
                    _name(path, "figure"),
                    (path, row["label"]),
                    self.type_figure,
                    kind="tile",
                    size_hint_x=None,
                    width=self.app.u * 110,
                    font_size=self.app.u * 24,
                )
            )
            for chip in row["chips"]:  # each as wide as its words: "+$20,000" wider than "+$500"
                tiles.add_widget(
                    self._tap(
                        chip["label"],
                        _name(path, chip["amount"]),
                        ("add_amount", path, chip["amount"]),
                        self.change,
                        font_size=self.app.u * 18,
                        size_hint_x=len(chip["label"]) + 2,
                    )
                )
            tiles.add_widget(
                self._tap(
                    "C",
                    _name(path, "clear"),
                    ("set", path, 0) if printed else ("clear", path, None),
                    self.change,
                    size_hint_x=None,
                    width=self.app.u * 56,
                )
            )
        return box

    def _update(self, widget, row: dict) -> None:
        tiles = getattr(widget.ids, "tiles", None)
        if tiles is None:
            return
        widget.printed, widget.changed = row.get("printed", ""), row.get("changed", False)
        if row["kind"] in ("pick", "many"):
            for tap, choice in zip(reversed(tiles.children), row["choices"]):
                tap.selected = choice["selected"]
        elif row["kind"] in ("count", "amount"):
            figure = tiles.children[-1] if row["kind"] == "amount" else tiles.children[1]  # the figure's place
            figure.text = row["text"]

    # -- taps --------------------------------------------------------------------------------------
    def change(self, tap) -> None:
        how, path, arg = tap.value
        self.value = schema_form.change(self.schema, self.value, path, how, arg)
        self.refresh()

    def type_figure(self, tap) -> None:
        """The pack's keypad for a sum: what is typed replaces the figure."""
        path, label = tap.value
        FigureBox(self.desk.currency, label, tap.text, lambda amount: self.set_sum(path, amount)).open()

    def set_sum(self, path: tuple, amount: int) -> None:
        self.value = schema_form.change(self.schema, self.value, path, "set", amount)
        self.refresh()

    def type_text(self, entry, text: str) -> None:
        self.value = schema_form.change(self.schema, self.value, entry.path, "type", text)
        self.refresh()

    def pick_who(self, tile) -> None:
        """Someone other than the player to play acts in this action (only this one)."""
        self.form = self.form.fill(tile.value, tile.account)
        self.refresh()

    def write(self, entry, text: str) -> None:
        self.value = text
        self.refresh()

    def confirm(self, tap) -> None:
        if not self.ready:
            self.app.refuse(self._refused or self.sentence, tap)
            return
        self.app.run_flow(self.form.fill(self.field, self._value), tap)

    def type_it(self) -> None:
        """The escape for a schema no tile can answer: the value written out."""
        self.typing = True
        self.refresh()

    def cancel(self) -> None:
        self.form = None
        self.app.to_table()


class FigureBox(ModalView):
    """The pack's keypad for one sum of the form, over it: the banker types the figure printed on the
    card (2, 5, 0, K) rather than counting it up. *Set* puts it on the form; *Cancel* leaves the form
    as it was."""

    label = StringProperty("")
    figure = StringProperty("")
    problem = StringProperty("")
    ready = BooleanProperty(False)

    def __init__(self, currency: Currency, label: str, was: str, on_set, **kw) -> None:
        super().__init__(**kw)
        self.keypad, self.label, self.was, self.on_set = Keypad(currency), label, was, on_set
        keys = wide_keys(keys_for(currency))
        grid = self.ids.pad
        grid.cols = max(4, -(-len(keys) // 3))  # three rows of keys
        for key in keys:
            tap = Factory.Tap(text="Del" if key == "<" else key, name=f"key-{key}", guard=False, size_hint_y=1)
            tap.value = key
            tap.bind(on_release=self.press)
            grid.add_widget(tap)
        self.show()

    def show(self) -> None:
        """The figure typed so far (what the card read, until a key is pressed), and why it is not one yet."""
        self.figure = self.keypad.display() if self.keypad.text else self.was
        self.problem = self.keypad.problem() or ""
        self.ready = self.keypad.value() is not None

    def press(self, tap) -> None:
        self.keypad = self.keypad.press(tap.value)
        self.show()

    def put(self) -> None:
        amount = self.keypad.value()
        if amount is None:
            return
        self.dismiss()
        self.on_set(amount)
