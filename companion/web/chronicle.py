"""The game over time, as the phones show it: each player's worth after every entry, and their story.

Built once from the log (the opening table folded through every entry) and then kept up to date from
the Banker's committed outcomes, one entry at a time; if an entry is ever missed (another process
wrote several), it rebuilds from the log. Worth is the rule family's own count, counted once per
entry by :func:`companion.views.worth` and shared with the state the pages and the touchscreen read. Each story
line and each chart point is also written as JSON text once, when it is made, so the pages splice
them instead of encoding them again after every action.
"""

from __future__ import annotations

from collections import deque

from companion.core import engine
from companion.core.money import Currency
from companion.views import worth as worth_at

from .jsontext import array, safe_text
from .roleview import signed
from .story import Reading, entry_lines, isolated, touched_by

__all__ = ["Chronicle", "story_reading", "stride", "thin", "whole_story"]

STORY_LINES = 25
STORY_SHOWN = 15
BANKER_LINES = 25
CHART_POINTS = 60


def stride(length: int, most: int = CHART_POINTS) -> int:
    """Every how many points a chart of ``length`` points keeps one: the smallest power of two that
    leaves at most ``most`` points, the last one included."""
    step = 1
    while step < length and (length - 2) // step + 2 > most:
        step *= 2
    return step


def thin(points: list, most: int = CHART_POINTS) -> list:
    """At most ``most`` points of the series, always the first and the last: every :func:`stride`-th
    point from the first, then the last. A new point leaves the points before it where they were (the
    chart does not shift under the players' eyes as the game goes on); only when the series has grown
    twice as long does every other one go."""
    if len(points) <= most:
        return list(points)
    kept = points[: len(points) - 1 : stride(len(points), most)]
    kept.append(points[-1])
    return kept


def _turn_of(table: dict) -> int | None:
    turn = table.get("turn")
    number = turn.get("number") if isinstance(turn, dict) else None
    return number if isinstance(number, int) and not isinstance(number, bool) else None


def _drop_point(points: list, texts: list, seq: int) -> None:
    """Take the point of an undone entry out of a worth series (it is the newest standing one)."""
    for i in range(len(points) - 1, 0, -1):  # the opening point always stays
        if points[i][0] == seq:
            del points[i]
            del texts[i]
            return


def whole_story(banker, me: str, known: Reading | None = None) -> list[dict]:
    """Every line of ``me``'s story from the first entry, newest first, each with its turn (the whole game,
    read from the log once when a player asks for it). ``known``: a reading of this game's log (the
    chronicle's), whose sentences are taken as they are instead of deciding their entries again."""
    table = banker.opening_table()
    currency = Currency.from_pack(table["pack"])
    reading = story_reading(banker)
    if known is not None:
        reading.said.update(known.said)
    lines: list[dict] = []
    for entry in banker.log():
        told = reading.of(entry, table)
        table = engine.fold(table, entry.events)
        turn = _turn_of(table)
        sentence = reading.sentence(entry)
        for line in entry_lines(entry, me, currency.format, told, sentence):
            lines.append({**line, "change_text": signed(currency, line["change"]), "turn": turn})
    return list(reversed(lines))


def story_reading(banker) -> Reading:
    """How the story reads each entry's action: from the family's declarations of its actions, and its
    sentence with the players it names from the family's own decision (an entry read back from the
    game file is decided again on the table before it)."""
    rules = banker.rules

    def retell(table: dict, action: dict) -> str:
        return engine.decide_full(table, action, rules).summary

    return Reading(rules.registry.specs.get, retell)


def _log_line(entry, sentence) -> str:
    """An entry's sentence on the banker's view: the rule's, with each name and memo that runs right to
    left isolated in its slot (an undo's or redo's after "Undone: "); plain text as it was logged."""
    if sentence is None:
        return str(entry.summary)
    prefix = {"undo": "Undone: ", "redo": "Redone: "}.get(entry.kind, "")
    return prefix + sentence.marked(isolated)


class Chronicle:
    """Worth series and recent lines per player, for a :class:`~companion.service.Banker`."""

    def __init__(self, banker) -> None:
        self.banker = banker
        self.rebuild()

    def rebuild(self) -> None:
        banker = self.banker
        table = banker.opening_table()
        self.table = table
        self.seq = 0
        self.worth: dict[str, list[list[int]]] = {name: [] for name in table["order"]}
        self.worth_json: dict[str, list[str]] = {name: [] for name in table["order"]}  # each point as JSON, once
        self.stories: dict[str, deque] = {name: deque(maxlen=STORY_LINES) for name in table["order"]}
        self.stories_json: dict[str, deque] = {name: deque(maxlen=STORY_LINES) for name in table["order"]}
        self.told: dict[str, int] = dict.fromkeys(table["order"], 0)  # lines told to each player so far
        self.summaries: deque = deque(maxlen=BANKER_LINES)  # (entry, sentence): read out when asked
        self._log_text: dict[int, str] = {}  # each line's text once it was asked for, by its entry's seq
        self._thinned: dict[str, tuple] = {}
        self._series_text: dict[str, tuple[int, str]] = {}  # each player's chart as JSON, at seq
        self._story_text: dict[str, tuple] = {}
        self._pack: dict | None = None
        self._currency: Currency | None = None
        known = getattr(self, "reading", None)  # what an earlier build read: kept for the entries it read
        self.reading = story_reading(banker)
        if known is not None:
            self.reading.said.update(known.said)
        for entry in banker.log():
            self._see(entry)

    def see(self, entry) -> None:
        """Take in one committed entry (from a Banker subscription)."""
        if entry.seq <= self.seq:
            return
        if entry.seq != self.seq + 1:
            self.rebuild()
            return
        self._see(entry)

    def _see(self, entry) -> None:
        banker = self.banker
        before = self.table
        # the Banker has just folded the same entry: its table is the one after it (tables are never
        # changed in place); an entry caught up among several is folded here
        self.table = banker.table if banker.version == entry.seq else engine.fold(self.table, entry.events)
        self.seq = entry.seq
        rules = banker.rules
        currency = self._currency_of(self.table["pack"])
        fmt = currency.format
        turn = _turn_of(self.table)
        counted = worth_at(self.table, rules)
        told = self.reading.of(entry, before)  # what the entry's action declares, read once for every player
        sentence = self.reading.sentence(entry)
        touched = touched_by(entry.events)  # whom the entry can tell something: read once for every player
        for name in self.table["order"]:
            worth = counted[name]
            if entry.kind == "undo" and entry.target is not None:
                _drop_point(self.worth[name], self.worth_json[name], entry.target)  # the chart shows what stands
            else:
                self.worth[name].append([entry.seq, worth])
                self.worth_json[name].append(f"[{int(entry.seq)},{worth}]")
            for line in entry_lines(entry, name, fmt, told, sentence, touched):
                line = {**line, "change_text": signed(currency, line["change"]), "turn": turn}
                self.stories[name].append(line)
                self.stories_json[name].append(safe_text(line))
                self.told[name] += 1
        self.summaries.append((entry, sentence))  # written only when a banker's page asks for it

    def forget(self, entry) -> None:
        """``entry`` was taken in before its COMMIT, which failed: it never happened. Built again from the
        log, without the sentence read for it (another entry will take its number)."""
        self.reading.said.pop(entry.seq, None)
        self.rebuild()

    def _currency_of(self, pack: dict) -> Currency:
        if pack is not self._pack or self._currency is None:  # the pack changes only when the banker corrects it
            self._pack, self._currency = pack, Currency.from_pack(pack)
        return self._currency

    def worth_now(self) -> dict[str, int]:
        """Each player's worth after the latest entry (as of :attr:`seq`)."""
        return {name: series[-1][1] for name, series in self.worth.items() if series}

    def worth_of(self, player: str) -> list[list[int]]:
        """``[[seq, worth], ...]`` thinned for a small chart (worked out once per entry)."""
        key = (player, self.seq)
        if self._thinned.get(player, (None,))[0] != key:
            self._thinned[player] = (key, thin(self.worth.get(player, [])))
        return self._thinned[player][1]

    def worth_series_json(self, player: str) -> str:
        """:meth:`worth_of` as JSON text, joined from points written once each (the chart is the
        biggest part of a player's page to encode, and only its last point is new)."""
        cached = self._series_text.get(player)
        if cached is None or cached[0] != self.seq:
            cached = self._series_text[player] = (self.seq, array(thin(self.worth_json.get(player, []))))
        return cached[1]

    def first_worth(self, player: str) -> list[list[int]]:
        """The chart's first point alone (where the player started), for a page whose chart is
        spliced in as :meth:`worth_series_json`."""
        return self.worth.get(player, [])[:1]

    def story_of(self, player: str, last: int = STORY_SHOWN) -> list[dict]:
        """The player's latest lines, newest first."""
        lines = list(self.stories.get(player, ()))
        return list(reversed(lines[-last:]))

    def story_json(self, player: str, last: int = STORY_SHOWN) -> str:
        """:meth:`story_of` as JSON text, joined from lines written once each, and once per new line for
        the player (an entry that tells them nothing leaves it as it was)."""
        key = (player, self.told.get(player), last)
        cached = self._story_text.get(player)
        if cached is None or cached[0] != key:
            lines = list(self.stories_json.get(player, ()))
            cached = self._story_text[player] = (key, array(reversed(lines[-last:])))
        return cached[1]

    def log_lines(self, last: int = 20) -> list[dict]:
        """The latest log summaries, newest first (the banker's view). Each line is written when a
        banker's page first asks for it, not after every entry: most evenings no phone is the banker's."""
        texts = self._log_text
        if len(texts) > 2 * BANKER_LINES:  # the lines that scrolled off go
            standing = {entry.seq for entry, _ in self.summaries}
            self._log_text = texts = {seq: text for seq, text in texts.items() if seq in standing}
        lines = []
        for entry, sentence in list(self.summaries)[-last:]:
            text = texts.get(entry.seq)
            if text is None:
                text = texts[entry.seq] = _log_line(entry, sentence)
            lines.append({"seq": entry.seq, "text": text, "kind": entry.kind})
        return list(reversed(lines))
