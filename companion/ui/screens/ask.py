"""The chooser: asks one field of an action (a player, a deed, a count, ...), greying out the answers
the rules would refuse and saying why when one is tapped anyway."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, NumericProperty, ObjectProperty, StringProperty

from .. import flows
from ..ask_view import ask_view, on_show
from ..spinner import SpinnerStrip  # noqa: F401  (the kv rule's class)
from ..widgets import Aimed, side_row, touched_at
from . import BankScreen, let_go_of_children

__all__ = ["AskScreen", "kept_places"]


def kept_places(was: list | None, now: list) -> int:
    """How many answers from the top keep their places from one list of answers to the next (each
    answer's value, label and chips)."""
    kept = 0
    for before, after in zip(was or [], now):
        if before != after:
            break
        kept += 1
    return kept


class AskScreen(BankScreen):
    form = ObjectProperty(None, allownone=True)
    field = StringProperty("")
    title = StringProperty("")
    so_far = StringProperty("")
    text_entry = BooleanProperty(False)
    optional = BooleanProperty(False)
    show_all = BooleanProperty(False)
    hidden = StringProperty("")
    help = StringProperty("")  # "4 more the rules refuse now" when refused answers are hidden
    both_ways = BooleanProperty(False)  # each candidate asked both ways (lift now or keep), then Done
    #: The least height of the rows the flow filled in: when the spinner stops, the rows it changes
    #: (fewer blocks, none for a railroad) keep their room, so the districts do not jump under a
    #: finger already on its way (and the tap guard does not swallow the tap that lands as they move).
    shown_floor = NumericProperty(0)

    def ask(self, form, field: str) -> None:
        """A new question: its answers from the top of the list."""
        self.form, self.field, self.show_all = form, field, False
        self._pending = None
        self._stop_making()
        self.shown_floor = 0
        self.ids.spinner.hide()
        self.ids.entry.text = ""
        self.ids.choices.shape = None
        self.ids.scroll.scroll_y = 1

    def set_back(self) -> int:
        """Done with (the table is back): no question, no answers, nothing typed or focused; the
        screen's own widgets stay made for the next question."""
        self._stop_making()
        self.form, self._pending, self._rows = None, None, []
        self.title = self.so_far = self.help = self.hidden = ""
        self.ids.spinner.hide()
        self.ids.entry.focus, self.ids.entry.text = False, ""
        let_go = 0
        for box in (self.ids.choices, self.ids.who, self.ids.shown):
            box.shape = None
            let_go += let_go_of_children(box)
        self.ids.scroll.scroll_y = 1
        return let_go

    def refresh(self) -> None:
        if self.form is None or self.desk is None:
            return
        spinner = self.ids.spinner
        if spinner.spinning:
            # The spin may be on the ledger already (the app lets the unit's time pass on its own pace, and
            # its redraw comes here): shown now with the pre-spin form, the districts would be made live
            # for a frame, then made again from the spin, under a finger already on its way to one.
            spinner.catch_up()
            if not spinner.spinning:
                return  # it stopped: _spun has filled the form from the spin and shown it
        view = ask_view(self.desk, self.form, self.field)
        self.title, self.so_far = view["title"], view["so_far"]
        if not view["choices"] and not view["text_entry"]:  # an empty screen would say nothing at all
            self.so_far = " ".join(filter(None, [self.so_far, "Nothing to choose here: no answer is possible now."]))
        self.text_entry, self.optional = view["text_entry"], view["optional"]
        self.help = view["help"]
        self._show_who(view["who"])
        self._show_filled(view["shown"])
        self.both_ways = view["kind"] == "both_ways"
        # asked both ways, the two answers of a candidate stay side by side, refused or not
        shown, refused = (view["choices"], 0) if self.both_ways else on_show(view["choices"], self.show_all)
        self.hidden = f"Show {refused} more (not possible now)" if refused else ""
        grid = self.ids.choices
        # numbers six to a row, unless what each means now needs the room of four
        narrow = view["kind"] in ("dice", "count") and all(len(str(r.get("detail") or "")) <= 16 for r in shown)
        grid.cols = (
            2
            if self.both_ways
            else 4
            if view["kind"] == "deed"
            else (6 if narrow else 4)
            if view["kind"] in ("dice", "count")
            else 3
        )
        shape = [
            (r["value"], r["label"], *((c["player"] for c in r["others"]) if "others" in r else ())) for r in shown
        ]
        self._rows = shown  # the answers still to make are made with what they mean now
        was = getattr(grid, "shape", None)
        if shape == was:
            # the same answers: the tiles stay where the finger may be heading, with what they mean now
            for answer, row in zip(reversed(grid.children), shown):
                self._mean_now(answer, row)
            return
        # Other answers: the tiles of those that keep their places stay (a finger held on one keeps it:
        # the spinner's stop may add a district after it), the rest are made anew.
        kept = kept_places(was, shape)
        grid.shape = shape
        made = list(reversed(grid.children))
        for tile in made[kept:]:
            grid.remove_widget(tile)
        for answer, row in zip(made[:kept], shown):
            self._mean_now(answer, row)
        self._stop_making()
        self.reserved = 0
        if any(r.get("others") for r in shown):
            self.made_all = True
            self._make_answers_with_others()
            return
        self.made_all = False
        self.make_shown()

    # -- plain answers, made as the list scrolls to them ---------------------------------------------
    #: Whether every answer of the question has its tile (False while the list holds more below the
    #: part made: City Life's Land asks among some 100 squares, and their tiles all at once, each with
    #: its two textures, were the evening's highest memory).
    made_all = BooleanProperty(True)
    #: The height the whole list will take, kept from the first tiles: the scroll bar tells the truth
    #: and the tiles made later never move the ones on show.
    reserved = NumericProperty(0)

    def make_shown(self, *_: object) -> None:
        """Make the plain answers down to one screenful below what the list shows (none already made
        moves: the grid holds its whole height from the start)."""
        if self.made_all or self.form is None:
            return
        grid, scroll = self.ids.choices, self.ids.scroll
        cols = max(1, grid.cols)
        made = len(grid.children)
        row = self._row_height()
        if made and row > 0:
            above = (1 - scroll.scroll_y) * max(0.0, grid.height - scroll.height)  # scrolled past
            wanted_rows = int((above + 2 * max(scroll.height, row)) // row) + 1
        else:  # nothing laid out yet: the rows a 800x480 screen shows, and as many again
            wanted_rows = self.FIRST_ROWS
        wanted = (
            len(self._rows) if scroll.scroll_y <= 0 else min(len(self._rows), wanted_rows * cols)
        )  # at the end: all
        if wanted <= made:
            self.made_all = made >= len(self._rows)  # no answers at all, or every one made
            return
        for r in self._rows[made:wanted]:
            tile = self._answer(r)
            tile.bind(wanted=self._even_heights)
            grid.add_widget(tile)
        self.made_all = len(grid.children) >= len(self._rows)
        self._even_heights()

    #: Rows made before the list is laid out: at 800x480 the list shows three, so this is the screen
    #: and one more below it.
    FIRST_ROWS = 6

    def _row_height(self) -> float:
        tiles = [t for t in self.ids.choices.children if hasattr(t, "wanted")]
        return (max(t.height for t in tiles) + self.ids.choices.spacing[1]) if tiles else 0.0

    def _even_heights(self, *_: object) -> None:
        """Every answer as tall as the tallest (a detail wrapped to a second line), so rows stay even;
        the list holds the room of the answers still to make at that height."""
        grid = self.ids.choices
        tiles = grid.children
        floor = self.app.u * 96 if self.both_ways else 0  # a candidate asked both ways takes three lines
        tallest = max([floor, *(t.wanted for t in tiles if hasattr(t, "wanted"))])
        for t in tiles:
            if hasattr(t, "wanted"):
                t.height = tallest
        plain = [t for t in tiles if hasattr(t, "wanted")]
        if not plain or len(plain) != len(tiles):
            self.reserved = 0  # answers with chips, or none: the grid's own height
            return
        rows = -(-len(self._rows) // max(1, grid.cols))
        spacing, padding = grid.spacing[1], grid.padding[1] + grid.padding[3]
        self.reserved = rows * tallest + max(0, rows - 1) * spacing + padding

    # -- answers with chips, made a few rows at a time -----------------------------------------------
    #: Answers with chips made at once: the two rows of four the display shows; the
    #: rest follow on the next frames, below the fold, a few at a time. Six players on every deed make
    #: some 140 chips, too many for one frame.
    AT_ONCE, THEN, FRAME = 8, 4, 1 / 30
    _rows: list = []
    _making = None

    def _make_answers_with_others(self, *later: object) -> None:
        self._making = None
        if later and self.get_root_window() is None:
            return  # left the window meanwhile (the action is done): nobody will see the rest
        grid = self.ids.choices
        made = len(grid.children)
        batch = self.AT_ONCE if made == 0 else self.THEN
        for row in self._rows[made : made + batch]:
            grid.add_widget(self._answer_with_others(row))
        self._even_rows(grid)
        if len(grid.children) < len(self._rows):
            # not 0: Kivy runs what a callback schedules at 0 in the same frame
            self._making = Clock.schedule_once(self._make_answers_with_others, self.FRAME)

    def _stop_making(self) -> None:
        if self._making is not None:
            self._making.cancel()
            self._making = None

    def _answer(self, row: dict):
        """One answer: a big tile, with what it means now (or, greyed, why not)."""
        tile = Factory.ChoiceTile()
        tile.text = row["label"]
        tile.value = row["value"]
        tile.name = f"choice-{row['value']}"
        if self.both_ways:  # the candidate, then what this way costs, on up to three lines
            value, inside = row["value"]
            tile.name = f"{'in' if inside else 'out'}-{value}"
            tile.max_lines, tile.height = 3, self.app.u * 96
        tile.bind(on_release=self.choose)
        self._mean_now(tile, row)
        return tile

    def _answer_with_others(self, row: dict):
        """A deed's tile for the acting player, and below it a chip for each other player who could act
        on it instead ("Cy $600"): a tap on a chip is the whole action for that player."""
        answer = Factory.ChoiceWithOthers()
        tile = self._answer(row)
        tile.size_hint_y = 1
        answer.tile_height = tile.wanted
        tile.bind(wanted=answer.setter("tile_height"))  # a long detail wraps: the answer grows with it
        answer.add_widget(tile, index=len(answer.children))  # on top of the chips
        chips = answer.ids.chips
        chips.cols = 2 if len(row["others"]) > 1 else 1
        for other in row["others"]:
            chip = Factory.OtherChip()
            chip.value = (other["field"], other["player"], row["value"])
            chip.name = f"{other['field']}-{other['player']}-on-{row['value']}"
            chip.bind(on_release=self.choose_other)
            chips.add_widget(chip)
        answer.tile, answer.chips = tile, chips
        self._mean_now(answer, row)
        return answer

    def _mean_now(self, answer, row: dict) -> None:
        """What an answer means on the table as it stands (its chips' amounts and refusals too)."""
        tile = getattr(answer, "tile", answer)
        tile.detail = str(row.get("detail") or "")
        tile.colour = list(row["colour"])
        tile.refused = row["refused"] or ""
        tile.promise = row.get("promise")
        tile.selected = self._chosen(row)
        chips = getattr(answer, "chips", None)
        if chips is None:
            return
        for chip, other in zip(reversed(chips.children), row["others"]):
            chip.text = f"{other['player']} {other['amount']}".strip()
            chip.colour = list(other["colour"])
            chip.refused = other["refused"] or ""
            chip.promise = other.get("promise")
            chip.opacity = 0.45 if other["refused"] else 1

    def _chosen(self, row: dict) -> bool:
        """Whether an answer shows as chosen: the flow's own choice, or the district tapped while the
        build spinner turns (it is asked, with the sentence, when the spinner stops)."""
        return bool(row.get("selected")) or (self._pending is not None and row["value"] == self._pending)

    def _show_pending(self) -> None:
        """Every made answer shows whether it is the one waiting for the spinner's stop."""
        for answer, row in zip(reversed(self.ids.choices.children), self._rows):
            getattr(answer, "tile", answer).selected = self._chosen(row)

    def _even_rows(self, grid) -> None:
        """Every answer in a row of the grid as tall as the tallest (the one with most chips)."""
        answers = list(reversed(grid.children))
        for start in range(0, len(answers), grid.cols):
            line = answers[start : start + grid.cols]
            tallest = max((len(a.chips.children) + 1) // 2 for a in line)  # two chips a row
            for answer in line:
                answer.chip_rows = tallest

    def _show_who(self, who: dict | None) -> None:
        """The strip of players: who acts in this one action (the player to play until changed)."""
        box = self.ids.who
        shape = who and [who["field"], who["label"], *((c["value"], c["selected"]) for c in who["choices"])]
        if shape == getattr(box, "shape", None):
            return
        box.shape = shape
        box.clear_widgets()
        if who is None:
            return
        box.add_widget(side_row(who, self.pick_who))

    def _show_filled(self, rows: list[dict]) -> None:
        """The rows of what the flow filled in (the kind of building, how many blocks): one tap changes it."""
        box = self.ids.shown
        shape = [(r["field"], *((c["value"], c["selected"]) for c in r["choices"])) for r in rows]
        if shape == getattr(box, "shape", None):
            return
        box.shape = shape
        box.clear_widgets()
        for r in rows:
            box.add_widget(
                side_row(
                    r,
                    self.pick_filled,
                    value=lambda row, choice: (row["field"], choice["value"]),
                    colour=(0.35, 0.4, 0.45, 1),
                )
            )

    def pick_filled(self, tile) -> None:
        name, value = tile.value
        self.form = flows.pick(self.form, name, value)
        self.refresh()

    # -- the build spinner (Monopoly City) ---------------------------------------------------------
    _pending = None

    def spin(self, link) -> None:
        """The trading unit's spinner turns on this screen; when it stops, the Build form is filled from
        the spin and a district tapped meanwhile is built on."""
        self.ids.spinner.follow(link, self._spun)

    def _spun(self) -> None:
        if self.form is None or self.desk is None:
            return
        spec = self.desk.specs[self.form.action]
        building = flows.spin_building(self.form, spec)
        spin = self.desk.build_spin(self.form.values.get(self.form.actor), building, this_roll=False)
        self.form = flows.with_spin(self.form, spin, spec)
        pending, self._pending = self._pending, None
        self._show_pending()  # asked now: no longer waiting
        self.shown_floor = self.ids.shown.height  # the districts stay where they were while it turned
        for tile in self.ids.choices.walk(restrict=True):
            if isinstance(tile, Aimed):  # a finger already on a district is asked with the sentence
                tile.changes_asking_first()
        if pending is not None and self.app.manager.current == self.name:
            self.app.run_flow(self.form.fill(self.field, pending))
            return
        self.refresh()

    def pick_who(self, tile) -> None:
        """Someone other than the player to play acts in this action (only this one)."""
        self.form = self.form.fill(tile.value, tile.account)
        self.refresh()

    def choose_other(self, chip) -> None:
        """Another player acts on this deed, in this action only: the whole action at once."""
        if chip.refused:
            self.app.refuse(chip.refused, chip)
            return
        actor, player, value = chip.value
        self.app.run_flow(self.form.fill(actor, player).fill(self.field, value), chip)

    def choose(self, tile) -> None:
        if self.ids.spinner.spinning:
            # built on (asked, with the sentence) the moment the spinner stops; it shows as chosen
            # meanwhile, so the banker sees the tap was taken and waits rather than taps again
            self._pending = tile.value
            self._show_pending()
            return
        if tile.refused:
            self.app.refuse(tile.refused, tile)
            return
        touch = tile.last_touch
        if touch is not None and tile.went_down_before_it_changed(touched_at(touch)):
            # the finger went down while the spinner turned and the list handed it on after the stop:
            # what the spin allows was not on the tile under the finger, so the build asks first
            self.app.run_flow(self.form.fill(self.field, tile.value))
            return
        if self.both_ways:  # one candidate in or out of the list; Done goes on
            value, inside = tile.value
            listed = [v for v in self.form.values.get(self.field) or [] if v != value] + [value] * inside
            self.form = self.form.fill(self.field, listed)
            self.refresh()
            return
        self.app.run_flow(self.form.fill(self.field, tile.value), tile)

    def both_ways_done(self, tap) -> None:
        """Every candidate answered both ways (left out unless chosen in): on to the confirming step."""
        self.app.run_flow(self.form.fill(self.field, list(self.form.values.get(self.field) or [])), tap)

    def type_done(self, tap) -> None:
        text = " ".join(self.ids.entry.text.split())
        if not text:
            says = self.desk.specs[self.form.action].field(self.field).says.lower()
            self.app.refuse(f"type the {says} first", tap)
            return
        self.app.run_flow(self.form.fill(self.field, text), tap)

    def toggle_all(self) -> None:
        self.show_all = not self.show_all
        self.refresh()

    def cancel(self) -> None:
        self._stop_making()
        self.form = None
        self._pending = None
        self.ids.spinner.hide()
        self.app.to_table()
