"""Game over: the pack's ranks (or the standings so far) and each player's worth over the game."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, ObjectProperty, StringProperty

from companion.core.engine import ranking

from ..over_view import WorthHistory, over_view, sample
from ..shown import taking_back
from . import BankScreen

__all__ = ["OverScreen"]


class OverScreen(BankScreen):
    title = StringProperty("")
    reason = StringProperty("")
    top_text = StringProperty("")
    over = BooleanProperty(False)
    undo_text = StringProperty("")  # names what it takes back: the end, or the last entry while the game goes on
    undo_promise = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        desk = self.desk
        if desk is None:
            return
        history = getattr(self, "_history", None)
        if history is None or getattr(self, "_for", None) is not desk:
            history, self._for = WorthHistory(), desk
            self._history = history
        series = {p: sample(v, 150) for p, v in history.update(desk.banker).items()}
        view = over_view(desk.state(), ranking(desk.table, desk.rules), desk.fmt, series)
        self.title, self.reason, self.top_text, self.over = (
            view["title"],
            view["reason"],
            view["top_text"],
            view["over"],
        )
        undo = taking_back(desk, "undo")
        self.undo_text, self.undo_promise = undo["text"], undo["promise"]
        box = self.ids.ranks
        box.clear_widgets()
        for row in view["rows"]:
            line = Factory.RankRow()
            line.rank, line.player, line.colour = row["rank"], row["player"], list(row["colour"])
            line.worth_text = row["worth_text"]
            box.add_widget(line)
        chart = self.ids.chart
        chart.axis_colour = list(self.app.c["line"])
        chart.top_value = view["top"]
        chart.lines = view["lines"]

    def undo(self, tap) -> None:
        self.app.undo(tap)

    def back(self) -> None:
        self.app.to_table()

    def new_game(self) -> None:
        self.app.show("start")
