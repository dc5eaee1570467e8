"""The City Life turn: the rotation with every player's turns counted, missed turns, and Jail.

A turn ends only when the player whose turn it is owes nothing they could still sell to pay. At the
end of every turn the Bank collects the loans and mortgages that fall due (see
:mod:`.city_life_bank`), and what any player owes is settled as far as their cash allows.
"""

from __future__ import annotations

from typing import Any

from companion.core import contract as c
from companion.core.engine import Tx
from companion.core.errors import BadAction, NotEnoughMoney
from companion.core.said import joined, typed, who
from companion.core.model import active_players, cash, playing

from . import turns
from .city_life_bank import CITY, amount_of, collect_due, has_assets, sell_hint
from .city_life_debts import settle_owed

__all__ = ["next_turn", "miss_turns", "jail", "leave_jail"]


def _turns(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= 20:
        raise BadAction("turns must be a whole number from 1 to 20")
    return value


@CITY.action("next_turn", label="Next turn", group="turn")
def next_turn(tx: Tx, a: dict[str, Any]) -> str:
    """The turn ends: the rotation moves on, turns are counted and debts that fall due are collected."""
    ending = playing(tx.table)
    for player in active_players(tx.table):
        require_overdue_settled(tx, player)
    notes = settle_owed(tx, ending, strict=False)
    if tx.table["players"][ending].get("owes") and has_assets(tx.table, ending):
        settle_owed(tx, ending, strict=True)  # raises, saying what is owed and what to sell
    text = turns.end_turn(tx, other_misses_count=bool(tx.option("missed_turns_count")))
    for player in active_players(tx.table):
        if player != ending:
            notes += settle_owed(tx, player, strict=False)
        notes += collect_due(tx, player)
    return joined("; ", [text, *notes])


def require_overdue_settled(tx: Tx, player: str) -> None:
    """A loan or mortgage past its due date must be repaid by selling assets: no turn ends while its
    debtor is short of it and still has something to sell (with nothing left, the turn's end applies
    the rulebook's penalty instead)."""
    for debt in tx.table["players"][player].get("debts", []):
        if debt.get("overdue") and cash(tx.table, player) < debt["amount"] and has_assets(tx.table, player):
            raise NotEnoughMoney(
                f"{player}'s {debt['label']} of {tx.fmt(debt['amount'])} is overdue and {player} has "
                f"{tx.fmt(cash(tx.table, player))}: "
                + sell_hint(tx.table, player, tx.fmt)
                + ", then repay, before the turn ends"
            )


@CITY.action(
    "miss_turns",
    c.player(),
    c.count("turns", "How many turns", 1, 20),
    c.choice("reason", "Why", [("other", "Other"), ("debt", "To pay off a debt")], required=False),
    c.text(),
    label="Miss turns",
    group="turn",
    says="The player misses turns; turns missed to pay off a debt do not count toward a loan.",
)
def miss_turns(tx: Tx, a: dict[str, Any]) -> str:
    """The player misses turns; ``reason`` "debt" marks turns that do not count toward a loan."""
    player = a["player"]
    n = _turns(a["turns"])
    reason = a.get("reason", "other")
    if reason not in ("other", "debt"):
        raise BadAction('reason is "other" or "debt" (send a player to Jail with the jail action)')
    turns.miss(tx, player, n, reason)
    memo = a.get("memo")
    why = " (" + typed(" ".join(str(memo).split())[:120]) + ")" if memo else ""
    return who(player, "will") + f" miss {n} turn{'s' if n > 1 else ''}{why}"


@CITY.action(
    "jail",
    c.player(),
    c.count("turns", "How many turns in Jail", 1, 20, required=False),
    label="Go to Jail",
    group="turn",
    says="The player goes to Jail (3 turns unless the banker says otherwise); jail turns do not count toward loans.",
)
def jail(tx: Tx, a: dict[str, Any]) -> str:
    """The player goes to Jail for 3 turns (or ``turns``); jail turns do not count toward loans."""
    player = a["player"]
    n = _turns(a.get("turns", amount_of(tx.table, "jail_turns")))
    turns.send_to_jail(tx, player, n)
    tx.set(["players", player, "at"], 44)
    return who(player) + f" went to Jail for {n} turn{'s' if n > 1 else ''}"


@CITY.action(
    "leave_jail",
    c.player(),
    label="Leave Jail",
    group="turn",
    own_turn="a jailed player rolls for a six on their own turn",
)
def leave_jail(tx: Tx, a: dict[str, Any]) -> str:
    """The jailed player rolled a six on a jail turn: out of Jail at once, and this turn is played."""
    player = a["player"]
    left = turns.release_from_jail(tx, player)
    return who(player) + f" rolled a six and left Jail ({left} jail turn{'s' if left != 1 else ''} spared)"
