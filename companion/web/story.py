"""The game log told to one player, in words: "You paid Ann $22 rent for Mediterranean Avenue".

Pure functions over log entries (``seq``, ``kind``, ``events``, ``summary``). Each ``Paid`` event that
touches the player becomes one sentence with the signed change to their cash; an entry that moved none
of their money but names them (a trip to jail, a deed handed over) is told by its summary. Undone
entries read "Undone: ..." and tell the original payment, not its mirror image.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Callable, Iterable

from companion.core import events as ev
from companion.core.model import BANK

__all__ = [
    "FSI",
    "PDI",
    "account_name",
    "entry_lines",
    "isolate",
    "paid_sentence",
    "player_story",
    "second_person",
    "trade_sentence",
]

FSI, PDI = "\u2068", "\u2069"  # first-strong isolate ... pop directional isolate
_TURNING = {"R", "AL", "AN", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"}

Fmt = Callable[[int], str]

# Memos that describe what the player did ("bought Park Place"): told as "You bought Park Place for $350".
_DEEDS = re.compile(r"^(bought|built|lifted|mortgaged|sold|won|lost|took|repaid|borrowed|cashed|redeemed)\b")
# Memos that name what the money is ("rent for Boardwalk", "salary"): told as they are; any other
# memo (free text typed by the banker or a player) is told in brackets: "You paid Cy $40 (the pizza)".
_NOUNS = re.compile(
    r"^(rent|salary|starting cash|.*\btax\b|repairs|fine\b|interest|dividend|bonus|fee|payday|pay day)", re.IGNORECASE
)
# Memos that only say why money moved between two players.
_BETWEEN = {"trade": "in a trade", "bankruptcy": "on going bankrupt"}


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


def paid_sentence(event: dict, me: str, fmt: Fmt) -> tuple[str, int] | None:
    """One Paid event from ``me``'s side: (sentence, change to my cash), or None if it is not mine."""
    if event.get("type") != "Paid" or me not in (event["from"], event["to"]):
        return None
    amount = event["amount"]
    money = fmt(amount)
    memo = " ".join(str(event.get("memo") or "").split())
    outgoing = event["from"] == me
    other = event["to"] if outgoing else event["from"]
    change = -amount if outgoing else amount
    if memo in _BETWEEN:
        if outgoing:
            return f"You paid {account_name(other)} {money} {_BETWEEN[memo]}", change
        return f"{account_name(other, start=True)} paid you {money} {_BETWEEN[memo]}", change
    if _DEEDS.match(memo) and (other == BANK or other.startswith("pot:")):
        if memo.startswith("won the ") and not outgoing:
            return f"You won {money} from {memo[4:]}", change
        return f"You {memo} for {money}", change
    tail = (f" {memo}" if _NOUNS.match(memo) else f" ({memo})") if memo else ""
    if outgoing:
        return f"You paid {account_name(other)} {money}{tail}", change
    return f"{account_name(other, start=True)} paid you {money}{tail}", change


@lru_cache(maxsize=64)
def _name_pattern(name: str) -> re.Pattern:
    return re.compile(rf"(?<!\w){re.escape(name)}(?!\w)")


def _mentions(summary: str, me: str) -> bool:
    return me in summary and _name_pattern(me).search(summary) is not None


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
    got $150", with the change to my cash; None when the entry is no trade of mine."""
    gave, got, others = _owner_moves(events, me)
    out = inn = 0
    for e in events:
        if isinstance(e, dict) and e.get("type") == "Paid" and e.get("memo") == "trade":
            if e["from"] == me:
                out += e["amount"]
                others.add(e["to"])
            elif e["to"] == me:
                inn += e["amount"]
                others.add(e["from"])
    if not (gave or got or out or inn):
        return None
    gives = [*gave, *([fmt(out)] if out else [])]
    gets = [*got, *([fmt(inn)] if inn else [])]
    parts = [f"you gave {_listed(gives)}" if gives else "", f"you got {_listed(gets)}" if gets else ""]
    who = _listed(sorted(others)) if others else "another player"
    return f"Trade with {who}: " + "; ".join(p for p in parts if p), inn - out


_AGREE = (
    (re.compile(r"\b(you|You) is\b"), r"\1 are"),
    (re.compile(r"\b(you|You) was\b"), r"\1 were"),
    (re.compile(r"\b(you|You) has\b"), r"\1 have"),
    (re.compile(r"\b(you|You) goes\b"), r"\1 go"),
    (re.compile(r"\b(you|You) misses\b"), r"\1 miss"),
    (re.compile(r"\b(you|You) leaves\b"), r"\1 leave"),
    (re.compile(r"\byou's\b"), "your"),
    (re.compile(r"\bYou's\b"), "Your"),
)


def second_person(summary: str, me: str) -> str:
    """A log summary that names ``me``, told to ``me``: "Cat went to jail" reads "You went to jail"."""

    def name(m: re.Match) -> str:
        at_start = m.start() == 0 or summary[: m.start()].rstrip().endswith((":", ".", ";"))
        return "You" if at_start else "you"

    text = _name_pattern(me).sub(name, summary)
    for pattern, repl in _AGREE:
        text = pattern.sub(repl, text)
    return text


def entry_lines(entry, me: str, fmt: Fmt) -> list[dict]:
    """What one log entry means to ``me``: a list of ``{"seq", "text", "change"}`` (maybe empty)."""
    events = entry.events
    prefix = ""
    if entry.kind == "undo":
        events = [ev.reverse(e) for e in reversed(events)]  # the original payments
        prefix = "Undone: "
    elif entry.kind == "redo":
        prefix = "Redone: "
    traded = trade_sentence(events, me, fmt) if _is_trade(entry, events) else None
    if traded:
        text, change = traded
        return [{"seq": entry.seq, "text": prefix + text, "change": -change if entry.kind == "undo" else change}]
    lines = []
    for event in events:
        told = paid_sentence(event, me, fmt)
        if told:
            text, change = told
            if entry.kind == "undo":
                change = -change
            lines.append({"seq": entry.seq, "text": prefix + text, "change": change})
    if not lines and _mentions(entry.summary, me):
        lines.append({"seq": entry.seq, "text": second_person(entry.summary, me), "change": 0})
    return lines


def _is_trade(entry, events: list) -> bool:
    """A trade (or the undo or redo of one): the action says so, or its payments are a trade's."""
    action = entry.action if isinstance(entry.action, dict) else {}
    return (
        action.get("action") == "trade"
        or "Trade:" in entry.summary
        or any(isinstance(e, dict) and e.get("type") == "Paid" and e.get("memo") == "trade" for e in events)
    )


def player_story(entries: Iterable, me: str, fmt: Fmt, *, last: int = 20) -> list[dict]:
    """The latest ``last`` lines of the player's story, newest first."""
    lines: list[dict] = []
    for entry in entries:
        lines.extend(entry_lines(entry, me, fmt))
    return list(reversed(lines[-last:]))


def _needs_isolation(word: str) -> bool:
    """True for text that could turn the words around it: right-to-left letters or direction controls."""
    return not word.isascii() and any(unicodedata.bidirectional(c) in _TURNING for c in word)


def isolate(text: str, words) -> str:
    """``text`` with each of ``words`` (names, memos) that could reorder its neighbours wrapped in
    FSI ... PDI, so it reads as one unit - in any browser or screen, not only where the page adds
    ``<bdi>``. Plain left-to-right words are left as they are.
    """
    wanted = sorted({w for w in words if w and _needs_isolation(w) and w in text}, key=len, reverse=True)
    if not wanted:
        return text
    pattern = "|".join(re.escape(w) for w in wanted)
    return re.sub(rf"(?<!\w)(?:{pattern})(?!\w)", lambda m: FSI + m.group(0) + PDI, text)
