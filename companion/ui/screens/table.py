"""Table: every player's tile and balance, the pots, whose turn, the big buttons, undo and redo, and a
badge with the number of things from the phones waiting for the banker's tap."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, DictProperty, NumericProperty, ObjectProperty, StringProperty

from .. import flows
from ..city_build import start_build
from ..shown import face, taking_back
from ..table_view import table_view
from ..widgets import PlayerTile
from . import BankScreen

__all__ = ["TableScreen"]


class TableScreen(BankScreen):
    view = DictProperty({}, rebind=True)
    turn_text = StringProperty("")
    pots_text = StringProperty("")
    undo_text = StringProperty("")
    redo_text = StringProperty("")
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    undo_promise = ObjectProperty(None, allownone=True)  # the entry Undo names (companion.ui.shown.taking_back)
    redo_promise = ObjectProperty(None, allownone=True)
    unit_text = StringProperty("Unit")
    unit_busy = BooleanProperty(False)
    has_deeds = BooleanProperty(True)
    has_unit = BooleanProperty(True)
    phones_waiting = NumericProperty(0)  # what the phones ask that waits for the banker's tap
    _ticker = None

    def on_pre_enter(self, *args):
        self.refresh()
        if self._ticker is None:  # an entry that never left (an interrupted transition) keeps its one ticker
            self._ticker = Clock.schedule_interval(self._tick, 0.5)

    def on_leave(self, *args):
        if self._ticker is not None:
            self._ticker.cancel()
            self._ticker = None

    def _tick(self, *_):
        """The Unit button shows a running auction or deal's seconds, so the table sees the timer."""
        link = self.app.unit_link
        if link is None:
            return
        view = link.unit.view(link.clock())
        busy = view["mode"] != "idle"
        self.unit_busy = busy
        self.unit_text = f"{view['mode'].capitalize()} {view['seconds_left']}s" if busy else "Unit"

    def note_y(self) -> float | None:
        """Over the pots' line between the tiles and the big buttons: the turn, Deeds and History
        above, the balances and the buttons themselves stay in sight while the note is up."""
        pots = self.ids.pots
        return pots.to_window(pots.center_x, pots.center_y)[1]

    def refresh(self) -> None:
        desk = self.desk
        if desk is None:
            return
        view = table_view(
            desk.state(),
            desk.specs,
            undo_text=desk.undo_text(),
            redo_text=desk.redo_text(),
            names=desk.pack.get("names"),
        )
        self.view = view
        self.turn_text = view["turn_text"]
        self.pots_text = view["pots_text"]
        self.has_deeds, self.has_unit = view["has_deeds"], view["has_unit"]
        self.undo_text, self.can_undo = view["undo_text"], view["can_undo"]
        self.redo_text, self.can_redo = view["redo_text"], view["can_redo"]
        self.undo_promise = taking_back(desk, "undo")["promise"]
        self.redo_promise = taking_back(desk, "redo")["promise"]
        self._show_tiles(view["players"])
        self._show_buttons(view["buttons"])
        self.phones_waiting = self.app.phones.waiting_count()

    def _show_tiles(self, tiles: list[dict]) -> None:
        grid = self.ids.tiles
        if [w.name for w in reversed(grid.children)] != [t["name"] for t in tiles]:
            grid.clear_widgets()
            for _ in tiles:
                tile = PlayerTile()
                tile.bind(on_release=self.select)
                grid.add_widget(tile)
            grid.cols = 3 if len(tiles) > 4 else 2
        for widget, player in zip(reversed(grid.children), tiles):
            widget.show(player)

    def _show_buttons(self, buttons: list[dict]) -> None:
        grid = self.ids.buttons
        names = [b["name"] for b in buttons] + ["more"]
        shape = (names, [b.get("refused") for b in buttons])
        if getattr(grid, "shape", None) != shape:
            grid.shape = shape
            grid.clear_widgets()
            for b in buttons:
                refused = b.get("refused") or ""
                kind = "disabled" if refused else "accent" if b["name"] == "next_turn" else "button"
                tap = Factory.Tap(text=b["label"], name=b["name"], kind=kind)
                tap.refused = refused  # a finished game's buttons: greyed, a tap says why
                if refused:
                    tap.color = self.app.c["disabled_text"]
                tap.bind(on_release=self.press)
                grid.add_widget(tap)
            more = Factory.Tap(text="More...", name="more")
            more.bind(on_release=self.more)
            grid.add_widget(more)
            grid.cols = max(1, (len(names) + 1) // 2)
        # a button done in one tap says what it moves, for whom, now ("Salary: Ann gets $200")
        player = self.app.player_to_play()
        for tap, b in zip(reversed(grid.children), buttons):
            if b.get("refused"):
                continue
            found = face(self.desk, b["name"], b["label"], player)
            tap.text, tap.promise = found["text"], found["promise"]
            tap.font_size = self.app.u * (20 if found["promise"] else 24)

    # -- taps --------------------------------------------------------------------------------------
    def select(self, tile) -> None:
        """Look at this player's deeds (who acts does not change: looking never changes who pays)."""
        self.app.look_at(tile.name)

    def press(self, tap) -> None:
        if getattr(tap, "refused", ""):
            self.app.refuse(tap.refused, tap)
            return
        if tap.name == "build" and self.desk is not None and flows.spins_first(self.desk.specs):
            start_build(self.app, tap)  # Build, then the district: the spinner turns in between
            return
        self.app.press(tap.name, tap)

    def to_phones(self, tap) -> None:
        """The badge leads to what waits: the players' actions and requests, to approve or decline."""
        self.app.show("requests")

    def more(self, tap) -> None:
        self.app.show("more")

    def undo(self, tap) -> None:
        self.app.undo(tap)

    def redo(self, tap) -> None:
        self.app.redo(tap)

    def go(self, name: str) -> None:
        self.app.show(name)
