"""More: every other action the game's rules offer (built from the rule family's declarations), the
other screens the family has, and ending the game, last and apart. On a finished game each action
is greyed, a tap saying the engine's reason (:meth:`companion.ui.desk.Desk.closed`), and Undo, naming
the end it takes back, stands beside the title."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty

from ..flows import more_view
from ..shown import face, taking_back
from . import BankScreen

__all__ = ["MoreScreen", "more_columns"]

#: Rows of buttons the screen shows at 800x480 with no scrolling (52 px each, the top bar and the row
#: of places and the ending around them).
ROWS_ON_ONE_SCREEN = 6


def more_columns(group_sizes: list[int]) -> int:
    """Buttons to a row: five (room for a long name on two lines) when the groups then fit the screen,
    else six."""
    return 5 if sum(-(-n // 5) for n in group_sizes) <= ROWS_ON_ONE_SCREEN else 6


class MoreScreen(BankScreen):
    can_end = BooleanProperty(False)
    ending_text = StringProperty("")
    ending_refused = StringProperty("")  # why the game cannot be ended now (it is over): greyed, a tap says it
    over = BooleanProperty(False)
    undo_text = StringProperty("")
    undo_promise = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        if self.desk is None:
            self.ids.actions.clear_widgets()
            self.ids.places.clear_widgets()
            self.can_end = self.over = False
            return
        desk = self.desk
        view = more_view(desk.specs)
        self._show_places(view["places"])
        ending = view["ending"]
        self.can_end = ending is not None
        self.ending_text = ending["label"] if ending else ""
        self.ending_refused = (desk.closed(ending["name"]) or "") if ending else ""
        self.over = bool(desk.table.get("over"))
        undo = taking_back(desk, "undo")
        self.undo_text, self.undo_promise = undo["text"], undo["promise"]
        actions = self.ids.actions
        # the buttons' size is set here, not in kv: a window resized makes them again
        shape = [self.app.u, *((g["title"], *(a["name"] for a in g["actions"])) for g in view["groups"])]
        if getattr(actions, "shape", None) == shape:
            self._show_money(actions)
            return
        actions.shape = shape
        actions.clear_widgets()
        cols = more_columns([len(g["actions"]) for g in view["groups"]])
        for group in view["groups"]:
            row = Factory.MoreGroup()
            row.title = group["title"]
            row.ids.grid.cols = cols
            for item in group["actions"]:
                tap = Factory.Tap(
                    text=item["label"],
                    name=f"action-{item['name']}",
                    kind="danger" if item["destructive"] else "button",
                )
                tap.font_size = self.app.u * 18  # after the kv rule: long names take two lines
                tap.value = item["name"]
                tap.label = item["label"]
                tap.usual_kind = tap.kind
                tap.bind(on_release=self.start)
                tap.bind(texture_size=lambda tap, _size, grid=row.ids.grid: self._fit_row(grid))
                row.ids.grid.add_widget(tap)
            for _ in range(-len(group["actions"]) % row.ids.grid.cols):
                row.ids.grid.add_widget(Factory.Widget())  # a short group's buttons keep the others' width
            actions.add_widget(row)
        self._show_money(actions)

    def _show_places(self, places: list[dict]) -> None:
        box = self.ids.places
        shape = (self.app.u, [p["name"] for p in places])  # their size is set here, as the actions'
        if getattr(box, "shape", None) == shape:
            return
        box.shape = shape
        box.clear_widgets()
        for place in places:
            if place["name"] not in self.app.screens:
                continue
            tap = Factory.Tap(text=place["label"], name=f"go-{place['name']}")
            tap.font_size, tap.height = self.app.u * 20, self.app.u * 52  # after the kv rule
            tap.value = place["name"]
            tap.bind(on_release=self.go)
            box.add_widget(tap)

    def _show_money(self, actions) -> None:
        """An action done in one tap says what it moves, for whom, now, below its name ("Bank loan" over
        "Ann gets $50,000"); its group's row grows to hold the lines (:meth:`_fit_row`). An action that
        cannot be done now whatever is chosen (a finished game) is greyed, and a tap says why."""
        player = self.app.player_to_play()
        for tap in actions.walk(restrict=True):
            if getattr(tap, "label", None) and str(tap.name).startswith("action-"):
                why = self.desk.closed(tap.value)
                tap.refused = why or ""
                tap.kind = "disabled" if why else tap.usual_kind
                if why:
                    tap.color = self.app.c["disabled_text"]  # after the kind: the kv rule has no colour for it
                    tap.text, tap.promise = tap.label, None
                    continue
                found = face(self.desk, tap.value, tap.label, player, apart=True)
                tap.text, tap.promise = found["text"], found["promise"]

    def _fit_row(self, grid) -> None:
        """A group's rows as tall as its tallest button's lines (a button with its money takes three or
        four at the smallest step), never below the usual 52 px."""
        u = self.app.u
        tallest = max((getattr(w, "texture_size", (0, 0))[1] for w in grid.children), default=0)
        height = max(u * 52, tallest + u * 8)
        grid.row_default_height = height
        for w in grid.children:
            w.height = height  # a Tap keeps its own height in a grid's row

    def on_pre_enter(self, *args):
        super().on_pre_enter(*args)
        self.ids.scroll.scroll_y = 1  # each visit starts at the top

    def set_back(self) -> int:
        """Done with: the buttons stay made (each visit shows what each moves and allows then), and the
        list goes back to its top as the next visit starts. Nothing is let go."""
        return 0

    def go(self, tap) -> None:
        self.app.show(tap.value)

    def start(self, tap) -> None:
        if getattr(tap, "refused", ""):
            self.app.refuse(tap.refused, tap)
            return
        form = self.app.start(tap.value)
        if form is not None:
            self.app.run_flow(form, tap)

    def end_game(self, tap) -> None:
        tap.value = "end_game"
        tap.refused = self.ending_refused
        self.start(tap)

    def undo(self, tap) -> None:
        self.app.undo(tap)

    def back(self) -> None:
        self.app.to_table()
