"""New game: the game in the box, 2 to 6 players with a colour each, the pack's options."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import ListProperty, ObjectProperty, StringProperty

from ..colours import player_colour, text_on
from ..games import MAX_PLAYERS, MIN_PLAYERS, NewGame, last_players, pack_choices, pack_label
from . import BankScreen

__all__ = ["SetupScreen", "pack_label"]  # pack_label lives in ..games (no Kivy), named here as before


class SetupScreen(BankScreen):
    form = ObjectProperty(None, allownone=True)
    pack_title = StringProperty("")
    count_text = StringProperty("")
    last_players = ListProperty([])

    def on_pre_enter(self, *args):
        if self.form is None:
            self.form = NewGame.start()
        self.last_players = last_players(self.app.folder)
        self.refresh()

    def same_players(self, tap) -> None:
        """The players of the game played last, with their colours."""
        if self.last_players:
            self.form = self.form.with_players(self.last_players)
            self.refresh()

    def refresh(self) -> None:
        self._packs = {p["name"]: p for p in pack_choices()}
        self._show_packs()
        self._show_players()
        self._show_options()

    # -- packs -------------------------------------------------------------------------------------
    def _show_packs(self) -> None:
        box = self.ids.packs
        box.clear_widgets()
        for name, pack in self._packs.items():
            tap = Factory.Tap(
                text=pack_label(name, pack.get("title", "")),
                name=f"pack-{name}",
                height=self.app.u * 60,
                selected=name == self.form.pack,
                disabled=bool(pack.get("problem")),
            )
            tap.font_size = self.app.u * 20  # after the kv rule, which sets its own: two lines fit
            tap.bind(on_release=self._pick_pack)
            tap.value = name
            box.add_widget(tap)
        chosen = self._packs.get(self.form.pack, {})
        self.pack_title = chosen.get("problem") or chosen.get("title", "")

    def _pick_pack(self, tap) -> None:
        self.form = self.form.choose_pack(tap.value)
        self.refresh()

    # -- players ---------------------------------------------------------------------------------
    def _show_players(self) -> None:
        box = self.ids.players
        box.clear_widgets()
        for i, person in enumerate(self.form.players):
            row = Factory.PlayerRow()
            row.screen = self
            row.index = i
            row.colour_name = person["colour"]
            row.colour_label = person["colour"].capitalize()
            row.colour = list(player_colour(person["colour"]))
            row.colour_text = list(text_on(player_colour(person["colour"])))
            row.ids.name.hint_text = f"Player {i + 1}"
            row.ids.name.text = person["name"]
            row.can_remove = len(self.form.players) > MIN_PLAYERS
            box.add_widget(row)
        self.count_text = f"{len(self.form.players)} players ({MIN_PLAYERS} to {MAX_PLAYERS})"
        self.ids.add.disabled = len(self.form.players) >= MAX_PLAYERS

    def add_player(self) -> None:
        self.form = self.form.add_player()
        self._show_players()

    def remove_player(self, row) -> None:
        self.form = self.form.remove_player(row.index)
        self._show_players()

    def next_colour(self, row) -> None:
        self.form = self.form.next_colour(row.index)
        self._show_players()

    def rename(self, row, text: str) -> None:
        if self.form is None:  # the game has started (or the form was left): a late echo of the box
            return
        if row.index < len(self.form.players) and self.form.players[row.index]["name"] != text:
            self.form = self.form.rename(row.index, text)

    # -- options ---------------------------------------------------------------------------------
    def _show_options(self) -> None:
        box = self.ids.options
        box.clear_widgets()
        options = self._packs.get(self.form.pack, {}).get("options", [])
        for opt in options:
            value = self.form.options.get(opt["key"], opt["default"])
            row = Factory.OptionRow()
            row.screen = self
            row.key = opt["key"]
            row.label = opt["label"]
            row.help = opt["help"]
            row.kind = opt["kind"]
            if opt["kind"] == "bool":
                row.on = bool(value)
            elif opt["key"] in self.form.options:
                row.ids.entry.text = str(value)  # what the banker typed stays as typed
            else:
                row.ids.entry.text = opt["default_text"]  # the pack's way: "₩37.7M", "$1,500"
            box.add_widget(row)
        self.ids.no_options.opacity = 0 if options else 1

    def toggle_option(self, row) -> None:
        row.on = not row.on
        self.form = self.form.set_option(row.key, row.on)

    def type_option(self, row, text: str) -> None:
        if self.form is None:  # the game has started (or the form was left): a late echo of the box
            return
        self.form = self.form.set_option(row.key, text)

    # -- start -----------------------------------------------------------------------------------
    def start(self, tap) -> None:
        problem = self.app.create_game(self.form)
        if problem:
            self.app.refuse(problem, tap)
        else:
            self.form = None

    def cancel(self) -> None:
        self.form = None
        self.app.show("start")
