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

__all__ = ["account_name", "paid_sentence", "entry_lines", "player_story", "isolate", "FSI", "PDI"]

FSI, PDI = "\u2068", "\u2069"  # first-strong isolate ... pop directional isolate
_TURNING = {"R", "AL", "AN", "RLE", "RLO", "LRE", "LRO", "PDF", "RLI", "LRI", "FSI", "PDI"}

Fmt = Callable[[int], str]

# Memos that describe what the player did ("bought Park Place"): told as "You bought Park Place for $350".
_DEEDS = re.compile(r"^(bought|built|lifted|mortgaged|sold|won|lost|took|repaid|borrowed|cashed|redeemed)\b")
# Memos that name what the money is ("rent for Boardwalk", "salary"): told as they are; any other
# memo (free text typed by the banker or a player) is told in brackets: "You paid Cy $40 (the pizza)".
_NOUNS = re.compile(r"^(rent|salary|starting cash|.*\btax\b|repairs|fine\b|interest|dividend|bonus|fee|payday|pay day)",
                    re.IGNORECASE)
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


def entry_lines(entry, me: str, fmt: Fmt) -> list[dict]:
    """What one log entry means to ``me``: a list of ``{"seq", "text", "change"}`` (maybe empty)."""
    events = entry.events
    prefix = ""
    if entry.kind == "undo":
        events = [ev.reverse(e) for e in reversed(events)]  # the original payments
        prefix = "Undone: "
    elif entry.kind == "redo":
        prefix = "Redone: "
    lines = []
    for event in events:
        told = paid_sentence(event, me, fmt)
        if told:
            text, change = told
            if entry.kind == "undo":
                change = -change
            lines.append({"seq": entry.seq, "text": prefix + text, "change": change})
    if not lines and _mentions(entry.summary, me):
        lines.append({"seq": entry.seq, "text": entry.summary, "change": 0})
    return lines


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
