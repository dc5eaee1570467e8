"""Deeds: the colour groups as the board shows them; a deed's card with owner, buildings, rent now,
mortgage state and the actions the rules allow for it now (refused ones say why when tapped)."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import DictProperty, StringProperty

from ..deeds_view import deed_card, deed_to_show, deeds_view
from ..flows import ActionForm, acting_field, acting_role
from . import BankScreen

__all__ = ["DeedsScreen"]


class DeedsScreen(BankScreen):
    deed = StringProperty("")  # the deed whose card is open
    whose = StringProperty("")  # the player whose deeds are shown ("" for every deed)
    card = DictProperty({}, rebind=True)

    def look_at(self, player: str) -> None:
        """Show this player's deeds (looking never changes who acts)."""
        self.whose = player
        if self.desk is not None:
            self.deed = deed_to_show(self.desk.table, player or None, self.deed)

    def open_deed(self, name: str) -> None:
        self.deed = name
        self.refresh()

    def refresh(self) -> None:
        if self.desk is None:
            return
        state = self.desk.state()
        if self.whose and self.whose not in state["active"]:
            self.whose = ""
        if self.deed not in self.desk.table["deeds"] or (not self.deed and not self.whose):
            self.deed = deed_to_show(self.desk.table, self.whose or None, self.deed)
        self._show_players(state)
        self._show_board(deeds_view(self.desk, self.deed, whose=self.whose or None))
        self._show_card(
            deed_card(self.desk, self.deed, self.app.player_to_play())
            if self.deed
            else {"owner_text": f"{self.whose} owns no deeds yet"}
        )

    def _show_players(self, state: dict) -> None:
        box = self.ids.players
        names = ["", *(p["name"] for p in state["players"] if not p["bankrupt"])]
        shape = (names, self.app.u)  # their size is set here, not in kv: a window resized makes them again
        if getattr(box, "shape", None) != shape:
            box.shape = shape
            box.clear_widgets()
            for name in names:
                tap = Factory.Tap(
                    text=name or "All",
                    name=f"whose-{name or 'all'}",
                    guard=False,
                    size_hint_y=1,
                    font_size=self.app.u * 20,
                )
                tap.value = name
                tap.bind(on_release=self.choose_player)
                box.add_widget(tap)
        for tap in box.children:
            tap.selected = tap.value == self.whose

    def _show_board(self, view: dict) -> None:
        grid = self.ids.board
        shown = [(group, deed) for group in view["groups"] for deed in group["deeds"]]
        names = [deed["name"] for _group, deed in shown]
        if names == getattr(grid, "shape", None):
            # the same deeds (a deed tapped, an entry): the tiles stay and show what each holds now,
            # instead of the whole board made again on every tap
            for tile, (group, deed) in zip(reversed(grid.children), shown):
                self._fill_tile(tile, group, deed)
            return
        grid.shape = names
        grid.clear_widgets()
        # a name with a word too long for a third of the board (Prinzessinnengarten) gets half of it
        longest = max((len(word) for name in names for word in name.split()), default=0)
        grid.cols = 2 if longest > 13 else 3
        for group, deed in shown:
            tile = Factory.DeedTile()
            tile.text = deed["name"]
            tile.name = f"deed-{deed['name']}"
            tile.value = deed["name"]
            self._fill_tile(tile, group, deed)
            tile.bind(on_release=self.pick)
            grid.add_widget(tile)

    @staticmethod
    def _fill_tile(tile, group: dict, deed: dict) -> None:
        """What a deed's tile shows of it now: its group's band, its owner, its marks."""
        tile.band = list(group["colour"])
        tile.owner_colour = list(deed["owner_colour"])
        tile.detail = deed["detail"]
        tile.selected = deed["selected"]
        tile.mortgaged = deed["mortgaged"]

    def _show_card(self, card: dict) -> None:
        self.card = card
        lines = self.ids.lines
        lines.clear_widgets()
        for label, text in card.get("lines", []):
            row = Factory.CardLine()
            row.label, row.text = label, text
            lines.add_widget(row)
        box = self.ids.actions
        box.clear_widgets()
        for act in card.get("actions", []):
            tap = Factory.Tap(
                text=act["text"], name=f"do-{act['action']}", kind="button" if act["refused"] else "accent"
            )
            tap.font_size = self.app.u * 18  # after the kv rule, which sets its own: long names fit two lines
            tap.opacity = 0.5 if act["refused"] else 1
            tap.bind(texture_size=self._grow)  # a long preview takes a third line: the button grows to it
            tap.value = act
            tap.promise = act.get("promise")
            tap.bind(on_release=self.do)
            box.add_widget(tap)
        if card and "trade" in self.desk.specs and card.get("owner"):
            tap = Factory.Tap(text=f"Trade ({card['owner']})", name="do-trade")
            tap.font_size = self.app.u * 20  # after the kv rule, which sets its own
            tap.bind(on_release=self.trade)
            box.add_widget(tap)

    def _grow(self, tap, size) -> None:
        tap.height = max(self.app.u * 56, size[1] + self.app.u * 8)

    # -- taps --------------------------------------------------------------------------------------
    def pick(self, tile) -> None:
        self.open_deed(tile.value)

    def choose_player(self, tap) -> None:
        self.look_at(tap.value)
        self.refresh()

    def do(self, tap) -> None:
        act = tap.value
        if act["refused"]:
            self.app.refuse(act["refused"], tap)
            return
        if act["action"] == "auction":
            self.app.open_auction(self.deed)
            return
        spec = self.desk.specs[act["action"]]
        form = ActionForm(
            act["action"],
            dict(act["values"]),
            id=f"ui-{self.desk.version}-{act['action']}-{self.deed}",
            button=act["action"],
            back="deeds",
            actor=acting_field(spec),
            actor_role=acting_role(spec),
        )
        self.app.run_flow(form, tap)

    def trade(self, tap) -> None:
        self.app.screens["trade"].start(self.card["owner"], give=[self.deed])
        self.app.show("trade")

    def back(self) -> None:
        self.app.to_table()
