"""History: every action in words, newest first, with undo and redo (what they would take back or
bring back is written on the buttons)."""

from __future__ import annotations

from kivy.core.window import Window
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty

from ..history_view import history_view
from ..shown import taking_back
from ..widgets import lines_needed
from . import BankScreen

__all__ = ["HistoryScreen"]

#: Rows shown at once: a long game's first hours are in the game file and `companion log`.
SHOWN = 500


class HistoryScreen(BankScreen):
    undo_text = StringProperty("")
    redo_text = StringProperty("")
    can_undo = BooleanProperty(False)
    can_redo = BooleanProperty(False)
    count_text = StringProperty("")
    undo_promise = ObjectProperty(None, allownone=True)  # the entry Undo names (companion.ui.shown.taking_back)
    redo_promise = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        desk = self.desk
        if desk is None:
            return
        view = history_view(
            desk.banker.log(max(0, desk.version - SHOWN)), undo_text=desk.undo_text(), redo_text=desk.redo_text()
        )
        self.undo_text, self.can_undo = view["undo_text"], view["can_undo"]
        self.redo_text, self.can_redo = view["redo_text"], view["can_redo"]
        self.undo_promise = taking_back(desk, "undo")["promise"]
        self.redo_promise = taking_back(desk, "redo")["promise"]
        self.count_text = view["count_text"]
        self._rows_for = (Window.width, self.app.u)
        self.ids.rows.data = [
            {
                "number": r["number"],
                "time": r["time"],
                "words": r["text"],
                "note": r["note"],
                "undone": r["undone"],
                "height": self._row_height(r),
            }
            for r in view["rows"]
        ]

    def _row_height(self, row: dict) -> float:
        """A row as tall as its sentence's lines (the history.kv row: time 64, note 120, padding, bar)."""
        u = self.app.u
        room = Window.width - u * (8 + 8 + 12 + 64 + 16 + (128 if row["note"] else 0))
        lines = lines_needed(row["text"], u * 20, room)
        return max(u * 44, lines * u * 24 + u * 10)

    #: The window's width and scale the rows were made for (their heights follow the sentences' lines).
    _rows_for: tuple[float, float] | None = None

    def on_size(self, *_):
        # another window size: the rows wrap anew (not the screen's first layout, just after it was filled)
        if self.desk is not None and self.ids.rows.data and self._rows_for != (Window.width, self.app.u):
            self.refresh()

    def undo(self, tap) -> None:
        self.app.undo(tap)

    def redo(self, tap) -> None:
        self.app.redo(tap)

    def back(self) -> None:
        self.app.to_table()
