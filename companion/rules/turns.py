"""Turns that count: the rotation, missed turns by their reason, and debts due after counted turns.

Games whose Bank lends "for seven turns" count each player's turns and leave some missed turns out of
the count. This module keeps that clock on the player's record (all keys optional, absent means 0):

``counted``          turns counted toward the player's debts
``skip``             turns still to miss (the core's counter, consumed as the rotation passes)
``skip_uncounted``   how many of ``skip`` were imposed for a debt, so do not count (consumed first)
``jail_turns``       turns still to spend in jail; the rotation stops on a jailed player, who rolls for
                     a way out on each of them, and those turns do not count either
``jailed_on``        the table's turn number when the player was sent to jail (that turn is played)
``debts``            loans and mortgages: ``{"kind", "label", "amount", "turns", "since", "overdue"?}``
                     where ``since`` is the ``counted`` value when the debt was taken

Pure functions over a :class:`~companion.core.engine.Tx`; every change is an event.
"""

from __future__ import annotations

from typing import Any, Callable, cast

from companion.core.common import advance_turn
from companion.core.engine import Tx
from companion.core.errors import BadAction, Refused
from companion.core.said import who
from companion.core.model import Table, current_player, playing

__all__ = [
    "MISS_REASONS",
    "miss",
    "send_to_jail",
    "release_from_jail",
    "end_turn",
    "add_debt",
    "remove_debt",
    "turns_left",
    "debt_text",
    "due_debts",
    "loans_view",
]

#: Why a player misses turns: only "other" turns count toward debts (and only when the game says so).
MISS_REASONS = ("other", "debt", "jail")


def _get(table: Table, player: str, key: str, default: Any = 0) -> Any:
    return table["players"][player].get(key, default)


def miss(tx: Tx, player: str, turns: int, reason: str = "other") -> None:
    """The player will miss ``turns`` turns; a debt's missed turns are marked as not counting."""
    if reason not in MISS_REASONS:
        raise BadAction(f"reason is one of {', '.join(MISS_REASONS)}, not {reason!r}")
    if turns <= 0:
        return
    if reason == "jail":
        send_to_jail(tx, player, turns)
        return
    tx.set(["players", player, "skip"], _get(tx.table, player, "skip") + turns)
    if reason == "debt":
        tx.set(["players", player, "skip_uncounted"], _get(tx.table, player, "skip_uncounted") + turns)


def send_to_jail(tx: Tx, player: str, turns: int) -> None:
    """Jail for ``turns`` of the player's turns (added to any jail time already owed)."""
    tx.set(["players", player, "in_jail"], True)
    tx.set(["players", player, "jail_turns"], _get(tx.table, player, "jail_turns") + turns)
    tx.set(["players", player, "jailed_on"], tx.table["turn"]["number"])


def release_from_jail(tx: Tx, player: str) -> int:
    """Out of jail at once (a six on a jail turn); returns the jail turns that were left."""
    left = _get(tx.table, player, "jail_turns")
    if not tx.table["players"][player].get("in_jail"):
        raise Refused(f"{player} is not in jail")
    tx.set(["players", player, "in_jail"], False)
    tx.set(["players", player, "jail_turns"], None)
    tx.set(["players", player, "jailed_on"], None)
    return cast("int", left)


def end_turn(tx: Tx, *, other_misses_count: bool) -> str:
    """The current turn ends: the rotation moves on and every player's count is kept.

    A played turn counts. A jail turn (the rotation stopped on a jailed player who did not roll their
    way out) is recorded as missed and does not count. A turn skipped for a debt does not count; any
    other skipped turn counts when ``other_misses_count``.
    """
    ended = playing(tx.table)
    record = tx.table["players"][ended]
    # A jail turn: the rotation stopped on a player already in jail (not the turn that sent them there).
    jailed = (
        bool(record.get("in_jail"))
        and record.get("jail_turns", 0) > 0
        and record.get("jailed_on") != tx.table["turn"]["number"]
    )
    missed_before = {p: tx.table["players"][p]["missed"] for p in tx.table["order"]}
    text = advance_turn(tx)
    if jailed:
        left = record["jail_turns"] - 1
        tx.set(["players", ended, "turns"], tx.table["players"][ended]["turns"] - 1)
        tx.set(["players", ended, "missed"], tx.table["players"][ended]["missed"] + 1)
        tx.set(["players", ended, "jail_turns"], left or None)
        if not left:
            tx.set(["players", ended, "in_jail"], False)
            tx.set(["players", ended, "jailed_on"], None)
        text += " (" + who(ended) + " spent a turn in jail" + ("; free next turn)" if not left else f", {left} to go)")
    else:
        tx.set(["players", ended, "counted"], _get(tx.table, ended, "counted") + 1)
    for player in tx.table["order"]:
        skipped = tx.table["players"][player]["missed"] - missed_before[player] - (player == ended and jailed)
        for _ in range(skipped):
            uncounted = _get(tx.table, player, "skip_uncounted")
            if uncounted:
                tx.set(["players", player, "skip_uncounted"], uncounted - 1 or None)
            elif other_misses_count:
                tx.set(["players", player, "counted"], _get(tx.table, player, "counted") + 1)
    return text


# -- debts counted in turns ------------------------------------------------------------------------
def add_debt(tx: Tx, player: str, kind: str, label: str, amount: int, turns: int, **extra: Any) -> dict[str, Any]:
    """Record a debt due after ``turns`` counted turns of the player (the turn it is taken in aside)."""
    # A debt taken during the player's own turn starts counting with the next one.
    since = _get(tx.table, player, "counted") + (current_player(tx.table) == player)
    debt = {"kind": kind, "label": label, "amount": amount, "turns": turns, "since": since, **extra}
    tx.set(["players", player, "debts"], [*_get(tx.table, player, "debts", []), debt])
    return debt


def remove_debt(tx: Tx, player: str, index: int) -> dict[str, Any]:
    debts = list(_get(tx.table, player, "debts", []))
    debt = debts.pop(index)
    tx.set(["players", player, "debts"], debts or None)
    return cast("dict[str, Any]", debt)


def turns_left(table: Table, player: str, debt: dict[str, Any]) -> int:
    """Counted turns left before the debt falls due (0 or less: due now)."""
    return cast("int", debt["turns"] - max(_get(table, player, "counted") - debt["since"], 0))


def due_debts(table: Table, player: str) -> list[int]:
    """Indexes of the player's debts that have fallen due (overdue ones included)."""
    debts = _get(table, player, "debts", [])
    return [i for i, d in enumerate(debts) if d.get("overdue") or turns_left(table, player, d) <= 0]


def debt_text(table: Table, player: str, debt: dict[str, Any], fmt: Callable[[int], str]) -> str:
    """ "loan $1,200 due in 3 turns", "... due now", "... overdue" (short: it fits a player's tile)."""
    left = turns_left(table, player, debt)
    what = f"{debt.get('short') or debt['label']} {fmt(debt['amount'])}"
    if debt.get("overdue"):
        return f"{what} overdue"
    if left <= 0:
        return f"{what} due now"
    return f"{what} due in {left} turn{'s' if left != 1 else ''}"


def loans_view(table: Table, player: str, fmt: Callable[[int], str]) -> list[dict[str, Any]]:
    """The player's debts as the touchscreen and phones show them."""
    rows = []
    for debt in _get(table, player, "debts", []):
        rows.append(
            {
                "kind": debt["kind"],
                "label": debt["label"],
                "amount": debt["amount"],
                "amount_text": fmt(debt["amount"]),
                "due_in_turns": max(turns_left(table, player, debt), 0),
                "overdue": bool(debt.get("overdue")),
                "text": debt_text(table, player, debt, fmt),
                "says_when": True,  # the text ends with when it falls due: "... due in 3 turns"
                **({"deed": debt["deed"]} if "deed" in debt else {}),
            }
        )
    return rows
