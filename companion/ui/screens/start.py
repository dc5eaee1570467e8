"""Start: resume a saved game (players, game, when) or begin a new one."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty

from ..games import delete_game, game_line, saved_games
from . import BankScreen

__all__ = ["StartScreen"]


class StartScreen(BankScreen):
    problem = StringProperty("")  # why the last game could not be opened
    has_game = BooleanProperty(False)

    def refresh(self) -> None:
        self.has_game = self.app.desk is not None
        box = self.ids.games
        box.clear_widgets()
        games = saved_games(self.app.folder)
        for game in games:
            tile = Factory.SavedGameTile()
            tile.screen = self
            tile.path = game["path"]
            tile.title_text = game["title"]
            tile.players_text = game["players_text"] or "(players unknown)"
            tile.file = game["file"]
            tile.when_text = game_line(game)
            tile.problem = game["problem"] or ""
            tile.disabled = bool(game["problem"])
            box.add_widget(tile)
        self.ids.none.opacity = 0 if games else 1

    def resume(self, tile) -> None:
        problem = self.app.open_game(tile.path)
        if problem:
            self.app.refuse(problem, tile)

    def delete(self, tile, tap) -> None:
        """Delete a game from the list, after asking; the file is kept in the games folder's deleted folder."""

        def gone() -> None:
            if self.app.desk is not None and str(self.app.desk.path) == tile.path:
                self.app.close_game()
            try:
                delete_game(tile.path)
            except OSError as e:
                self.app.refuse(f"cannot delete {tile.title_text}: {e.strerror or e}", tap)
            self.refresh()

        self.app.confirm(
            f"Delete {tile.title_text} ({tile.players_text})? A copy stays in the games folder's deleted folder.",
            "Delete",
            gone,
        )

    def new_game(self) -> None:
        self.app.show("setup")

    def back(self) -> None:
        self.app.to_table()
