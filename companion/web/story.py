"""The game log told to one player, in words: "You paid Ann $22 rent for Mediterranean Avenue".

Pure functions over log entries (``seq``, ``kind``, ``action``, ``events``, ``summary``, ``target``)
and what the entry's action declares (:class:`Reading`). An entry is told to a player when it
concerns them:

* when one of its action's declared player or account fields names them (they bought, they paid the
  rent, they went to jail, the money was paid to them), the line is the rule's own sentence for the
  entry (its summary: "Ann bought Park Place for $350") told in the second person ("You bought Park
  Place for $350"), with what the entry did to their cash. The rule built that sentence with each
  player it names as a slot (:class:`companion.core.said.Said`), so telling it to Ann is the rule's
  own words with "you" in her slots. The game file keeps the sentence with its slots, so an entry read
  back is told as it was logged whatever the rules say today; one logged before the file kept them
  is decided again on the table before it, the same pure decision, to get them back (:class:`Reading`);
* otherwise, each payment that moved their money is a line from their side ("Bob paid you $22 rent for
  Boardwalk", "You paid Cy $10 (birthday)"): a memo that is the value of one of the action's declared
  text fields is people's words, told in brackets; any other memo is the rule's, told after the sum;
* an entry that moved none of their money but changes their record or hands them a deed is told by its
  summary in the second person.

A trade (an action whose fields declare what each side gives, ``x-from``) names every deed and sum from
the player's side. An undo or redo is told as the entry it takes back or does again ("Undone: ..."),
the money moving back or again. Nothing here works out a memo's meaning, or who a sentence names,
from its words.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from companion.core import events as ev
from companion.core.contract import ActionSpec
from companion.core.errors import BankerError
from companion.core.model import BANK
from companion.core.said import Said

__all__ = [
    "FSI",
    "PDI",
    "Reading",
    "Told",
    "account_name",
    "entry_lines",
    "isolated",
    "money_change",
    "paid_sentence",
    "touched_by",
    "trade_sentence",
]

FSI, PDI = "\u2068", "\u2069"  # first-strong isolate ... pop directional isolate
_TURNING = {"R", "AL", "AN", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"}

Fmt = Callable[[int], str]


def account_name(account: str, me: str | None = None, *, start: bool = False) -> str:
    """How a sentence names an account: "you", "the bank", "the free parking pot", "Ann"."""
    if me is not None and account == me:
        name = "you"
    elif account == BANK:
        name = "the bank"
    elif account.startswith("pot:"):
        name = f"the {account[4:]} pot"
    else:
        return account
    return name[:1].upper() + name[1:] if start else name


def _is_player(account: str) -> bool:
    return account != BANK and not account.startswith("pot:")


def money_change(events: Iterable[Any], me: str) -> int:
    """What ``events`` did to ``me``'s cash: what was paid to them less what they paid."""
    change = 0
    for e in events:
        if isinstance(e, dict) and e.get("type") == "Paid":
            if e["to"] == me:
                change += e["amount"]
            if e["from"] == me:
                change -= e["amount"]
    return change


def paid_sentence(event: dict, me: str, fmt: Fmt, words: Iterable[str] = ()) -> tuple[str, int] | None:
    """One Paid event from ``me``'s side: (sentence, change to my cash), or None if it is not mine.
    ``words``: the memos people typed (the values of the action's declared text fields), told in
    brackets; any other memo is the rule's name for the money, told after the sum."""
    if event.get("type") != "Paid" or me not in (event["from"], event["to"]):
        return None
    amount = event["amount"]
    money = fmt(amount)
    memo = " ".join(str(event.get("memo") or "").split())
    tail = (f" ({isolated(memo)})" if memo in words else f" {isolated(memo)}") if memo else ""
    if event["from"] == me:
        return f"You paid {isolated(account_name(event['to']))} {money}{tail}", -amount
    return f"{isolated(account_name(event['from'], start=True))} paid you {money}{tail}", amount


def touched_by(events: Iterable[Any]) -> set[str]:
    """The names whose money ``events`` move, whose record they change, or who are handed a deed or lose
    one: the players an entry can tell something without naming them (and the bank or pots it paid)."""
    touched: set[str] = set()
    for e in events:
        if not isinstance(e, dict):
            continue
        kind = e.get("type")
        if kind == "Paid":
            touched.update((e.get("from"), e.get("to")))  # type: ignore[arg-type]
        elif kind == "Changed":
            path: list[Any] = e.get("path") or []
            if len(path) >= 2:
                if path[0] == "players" and isinstance(path[1], str):
                    touched.add(path[1])
                elif path[0] == "deeds" and path[-1] == "owner":
                    touched.update((e.get("old"), e.get("new")))  # type: ignore[arg-type]
    touched.discard(None)
    return touched


def _owner_moves(events: list, me: str) -> tuple[list[str], list[str], set[str]]:
    """Deeds ``me`` gave and got in ``events`` (owner changes), and the other players they went to or came from."""
    gave, got, others = [], [], set()
    for e in events:
        if (
            isinstance(e, dict)
            and e.get("type") == "Changed"
            and len(e.get("path", ())) == 3
            and e["path"][0] == "deeds"
            and e["path"][2] == "owner"
        ):
            old, new = e.get("old"), e.get("new")
            if old == me and new and new != BANK:
                gave.append(e["path"][1])
                others.add(new)
            elif new == me and old and old != BANK:
                got.append(e["path"][1])
                others.add(old)
    return gave, got, others


def _listed(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def trade_sentence(events: list, me: str, fmt: Fmt) -> tuple[str, int] | None:
    """A trade from ``me``'s side, naming every deed and sum: "Trade with Dan: you gave Park Place; you
    got $150", with the change to my cash; None when it neither gave nor got me anything. Sums paid
    between the players are the trade's; what ``me`` paid the bank besides (lifting a mortgage taken
    over) is said after them."""
    gave, got, others = _owner_moves(events, me)
    out = inn = 0
    besides: dict[str, int] = {}
    for e in events:
        if not (isinstance(e, dict) and e.get("type") == "Paid"):
            continue
        if e["from"] == me and _is_player(e["to"]):
            out += e["amount"]
            others.add(e["to"])
        elif e["to"] == me and _is_player(e["from"]):
            inn += e["amount"]
            others.add(e["from"])
        elif e["from"] == me:
            besides[e["to"]] = besides.get(e["to"], 0) + e["amount"]
    if not (gave or got or out or inn):
        return None
    gives = [*gave, *([fmt(out)] if out else [])]
    gets = [*got, *([fmt(inn)] if inn else [])]
    parts = [f"you gave {_listed(gives)}" if gives else "", f"you got {_listed(gets)}" if gets else ""]
    parts += [f"you paid {isolated(account_name(to))} {fmt(n)}" for to, n in besides.items()]
    who = _listed([isolated(o) for o in sorted(others)]) if others else "another player"
    return f"Trade with {who}: " + "; ".join(p for p in parts if p), inn - out - sum(besides.values())


def is_trade(spec: ActionSpec | None) -> bool:
    """Whether an action is a trade as its declaration says: fields of what each side gives (``x-from``)."""
    return spec is not None and sum(1 for f in spec.fields if (f.schema or {}).get("x-from")) >= 2


@dataclass(frozen=True)
class Told:
    """What the story reads of one entry's action from its declaration."""

    trade: bool = False  # the action declares what each side gives
    named: frozenset[str] = frozenset()  # the players and accounts its declared player and account fields name
    words: frozenset[str] = frozenset()  # what people typed into its declared text fields (memos)


#: Decides an action again on the table before it and returns its sentence: ``(table, action) -> str``.
Retell = Callable[[dict, dict], str]


@dataclass
class Reading:
    """Reads each entry's action from its declaration (``spec_of``: the family's declaration of an
    action by name, or None), and keeps each entry's sentence with the players it names as slots. An
    undo or redo is read as the entry it takes back or does again: feed it the entries in log order.

    An entry committed here carries the rule's :class:`Said` already, and one read back from the game
    file the sentence the file kept with its slots (told as logged, whatever the rules say today). One
    logged before the file kept them (file format 2 or older) holds only its text: ``retell`` decides
    its action again on the table before it (``before``, given to :meth:`of`) and its sentence is used
    when it reads exactly as the logged one (rules that changed since leave the logged text as it is,
    told as written)."""

    spec_of: Callable[[str], ActionSpec | None]
    retell: Retell | None = None
    seen: dict[int, Told] = field(default_factory=dict)
    #: Each entry's sentence with its slots (an undo's or redo's: the sentence of the action it takes back).
    said: dict[int, Said] = field(default_factory=dict)
    #: One copy of each reading (most entries read alike: the same few players, no memo), so a long
    #: game's ``seen`` holds a reference per entry, not a reading per entry; by its three parts.
    _alike: dict[tuple, Told] = field(default_factory=dict)
    #: What each action's declaration says the story reads of it, by the action's name: whether it is a
    #: trade, its player and account fields, its text fields (the family's declarations stay all game).
    _fields: dict[str, tuple[bool, tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)

    def of(self, entry: Any, before: dict | None = None) -> Told:
        if entry.kind in ("undo", "redo"):
            told = self.seen.get(entry.target, Told()) if entry.target is not None else Told()
            said = self.said.get(entry.target) if entry.target is not None else None
        else:
            action = entry.action if isinstance(entry.action, dict) else {}
            told = self._read(action)
            said = self._said(entry, action, before) if entry.kind == "do" else None
        self.seen[entry.seq] = told
        if said is not None:
            self.said[entry.seq] = said
        return told

    def sentence(self, entry: Any) -> Said | None:
        """The entry's sentence as the rule built it, with its slots (an undo's or redo's: the sentence
        of what it takes back or does again), or None when they are not known."""
        return self.said.get(entry.seq)

    def _said(self, entry: Any, action: dict, before: dict | None) -> Said | None:
        if isinstance(entry.summary, Said):  # committed here, or kept by the game file with its slots
            return entry.summary
        known = self.said.get(entry.seq)  # handed over by another reading of the same log
        if known is not None and known == entry.summary:
            return known
        if self.retell is None or before is None:
            return None
        try:
            again = self.retell(before, action)
        except (BankerError, LookupError, TypeError, ValueError, AssertionError):
            return None  # rules that changed since the entry was logged: its text stays as written
        return again if isinstance(again, Said) and again == entry.summary else None

    def _read(self, action: dict) -> Told:
        name = action.get("action")
        if not isinstance(name, str):
            return Told()
        fields = self._fields.get(name)
        if fields is None:
            spec = self.spec_of(name)
            if spec is None:
                return Told()
            fields = self._fields[name] = (
                is_trade(spec),
                tuple(f.name for f in spec.fields if f.kind in ("player", "account")),
                tuple(f.name for f in spec.fields if f.kind == "text"),
            )
        trade, named_fields, text_fields = fields
        named = frozenset([value for f in named_fields if isinstance(value := action.get(f), str)])
        words = frozenset([" ".join(value.split()) for f in text_fields if isinstance(value := action.get(f), str)])
        told = self._alike.get((trade, named, words))
        if told is None:
            told = self._alike[trade, named, words] = Told(trade, named, words)
        return told


def entry_lines(
    entry: Any,
    me: str,
    fmt: Fmt,
    told: Told = Told(),
    sentence: Said | None = None,
    touched: set[str] | None = None,
) -> list[dict]:
    """What one log entry means to ``me``: a list of ``{"seq", "text", "change"}`` (empty when it does
    not concern them). ``told``: what :class:`Reading` read of the entry's action; ``sentence``: the
    rule's sentence with its slots (:meth:`Reading.sentence`; an undo's is the sentence of what it takes
    back), told to ``me`` in the second person. Without it, a summary built with slots is told from
    them, and plain text as it was logged. Names and memos that run right to left are isolated where
    each line is built (:func:`isolated`). ``touched``: :func:`touched_by` of the entry's events when the
    caller reads it for every player (worked out here otherwise)."""
    if touched is None:
        touched = touched_by(entry.events)
    if not told.trade and me not in told.named and me not in touched:
        return []  # nothing moved of theirs and the sentence does not name them
    change = money_change(entry.events, me)
    prefix = {"undo": "Undone: ", "redo": "Redone: "}.get(entry.kind, "")
    original = entry.events
    if entry.kind == "undo":
        original = [ev.reverse(e) for e in reversed(entry.events)]  # what was done, as it was done
    if told.trade:
        traded = trade_sentence(original, me, fmt)
        if traded is not None:
            return [{"seq": entry.seq, "text": prefix + traded[0], "change": change}]
    if me in told.named or (not change and me in touched):
        if sentence is not None:
            text = sentence.told(me, isolated)
            text = prefix + text[:1].upper() + text[1:]
        else:  # an undo's or redo's summary already says so; plain text is told as it was logged
            text = entry.summary.told(me, isolated) if isinstance(entry.summary, Said) else str(entry.summary)
        return [{"seq": entry.seq, "text": text[:1].upper() + text[1:], "change": change}]
    lines = []
    for event in original:
        paid = paid_sentence(event, me, fmt, told.words) if isinstance(event, dict) else None
        if paid is not None:
            text, moved = paid
            lines.append({"seq": entry.seq, "text": prefix + text, "change": -moved if entry.kind == "undo" else moved})
    return lines


def _needs_isolation(word: str) -> bool:
    """True for text that could turn the words around it: right-to-left letters or direction controls."""
    return not word.isascii() and any(unicodedata.bidirectional(c) in _TURNING for c in word)


def isolated(word: str) -> str:
    """A name or memo set in a sentence: wrapped in FSI ... PDI when it could reorder its neighbours
    (right-to-left letters or direction controls), so it reads as one unit in any browser or screen,
    not only where the page adds ``<bdi>``; plain left-to-right words are left as they are. Each line
    here puts its names and memos through it where it builds them (a rule's sentence: its slots, see
    :meth:`Said.told`); no sentence is searched for them afterwards."""
    return FSI + word + PDI if _needs_isolation(word) else word
