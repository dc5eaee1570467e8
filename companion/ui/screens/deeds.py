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
        # Other deeds (the banker looks at another player's): the tiles already made are put back on the
        # board for the deeds now shown, each counting as a tile just put there (the tap guard's time
        # runs from when it is drawn again), and only the tiles missing are made.
        made = list(reversed(grid.children))
        grid.clear_widgets()
        # a name with a word too long for a third of the board (Prinzessinnengarten) gets half of it
        longest = max((len(word) for name in names for word in name.split()), default=0)
        grid.cols = 2 if longest > 13 else 3
        for i, (group, deed) in enumerate(shown):
            if i < len(made):
                tile = made[i]
            else:
                tile = Factory.DeedTile()
                tile.bind(on_release=self.pick)
            tile.text = deed["name"]
            tile.name = f"deed-{deed['name']}"
            tile.value = deed["name"]
            self._fill_tile(tile, group, deed)
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
        self._show_lines(card.get("lines", []))
        box = self.ids.actions
        acts = card.get("actions", [])
        trade = bool(card and "trade" in self.desk.specs and card.get("owner"))
        # the buttons' size is set here, not in kv: a window resized makes them again
        shape = (
            card.get("name"),
            card.get("owner"),
            self.app.u,
            [(a["action"], a["label"], a["who"], a["refused"] is None) for a in acts],
            trade,
        )
        if getattr(box, "shape", None) == shape:
            # the same deed's same actions, each still possible or still refused (an entry, another
            # player looked at): each button stays and says what it moves now; one whose money
            # changed counts as new, as a button just put there does (its promise)
            for tap, act in zip(reversed(box.children), acts):
                self._say(tap, act)
            return
        box.shape = shape
        box.clear_widgets()
        for act in acts:
            tap = Factory.Tap(name=f"do-{act['action']}")
            tap.font_size = self.app.u * 18  # after the kv rule, which sets its own: long names fit two lines
            tap.bind(texture_size=self._grow)  # a long preview takes a third line: the button grows to it
            tap.bind(on_release=self.do)
            self._say(tap, act)
            box.add_widget(tap)
        if trade:
            tap = Factory.Tap(text=f"Trade ({card['owner']})", name="do-trade")
            tap.font_size = self.app.u * 20  # after the kv rule, which sets its own
            tap.bind(on_release=self.trade)
            box.add_widget(tap)

    @staticmethod
    def _say(tap, act: dict) -> None:
        """What an action's button on the card says and does now."""
        tap.text = act["text"]
        tap.kind = "button" if act["refused"] else "accent"
        tap.opacity = 0.5 if act["refused"] else 1
        tap.value = act
        tap.promise = act.get("promise")

    def _show_lines(self, lines: list) -> None:
        """The card's lines (owner, rent now, buildings, ...): the rows already made show the new
        lines (plain words, nothing to tap), and only rows missing are made."""
        box = self.ids.lines
        rows = list(reversed(box.children))
        for row in rows[len(lines) :]:
            box.remove_widget(row)
        for i, (label, text) in enumerate(lines):
            if i < len(rows):
                row = rows[i]
            else:
                row = Factory.CardLine()
                box.add_widget(row)
            row.label, row.text = label, text

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
