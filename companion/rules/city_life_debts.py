"""What a City Life player owes on a square or a card, and how it ends when the cash is short.

Every fine, bill and tax goes to the City Life Lottery; a Visitor's Fee goes to the proprietor. A
player who cannot pay must first sell Bank shares or property (to other players or to the Bank; a
visitor to the proprietor at the purchase price first). So a charge the player cannot meet while they
still own something is recorded as **owed**, fixed at the sum the square or card made it (a Property
Tax counts the properties owned on landing); the banker records the sales and ``settle`` pays it. A
player who has nothing left to sell meets the rest the rulebook's way, which the charge names:

``"turns"``     all the cash, then a missed turn per $500 still owed (at most ``cap``)
``"jail"``      the same, spent in Jail (a Tower's Visitor's Fee)
``"one_turn"``  one missed turn instead of paying (Ernie's Garage, Bob's Supermarket)
``"miss_two"``  the House visitor's two missed turns instead of the fee

Missed turns for a debt do not count toward a loan's seven turns. The turn cannot end while the
player whose turn it is still owes something they could sell to pay.
"""

from __future__ import annotations

from typing import Any, Callable

from companion.core import contract as c
from companion.core.engine import Tx
from companion.core.errors import NotEnoughMoney, Refused
from companion.core.said import does, joined, who
from companion.core.model import cash

from . import turns
from .city_life_bank import CITY, LOTTERY, amount_of, has_assets, sell_hint, turns_for

__all__ = ["charge", "settle_owed", "owed_view", "creditor"]

WHEN_BROKE = ("turns", "jail", "one_turn", "miss_two")


def creditor(account: str) -> str:
    """How a sentence names whom a debt is owed to: "the Lottery" or the player."""
    return "the Lottery" if account == LOTTERY else account


def _pay(tx: Tx, player: str, entry: dict[str, Any], amount: int) -> None:
    """Pay ``amount`` of the entry; a proprietor pays the Capital Gains Tax on what they received."""
    tx.pay(player, entry["to"], amount, entry["memo"])
    if entry.get("tax"):
        tax = entry["tax"] * amount // entry["amount"]
        tx.pay(entry["to"], LOTTERY, tax, f"Capital Gains Tax on the {entry['memo']}")


def _broke(tx: Tx, player: str, entry: dict[str, Any]) -> str:
    """Nothing left to sell: the rulebook's outcome for this charge."""
    have = cash(tx.table, player)
    what = f"the {tx.fmt(entry['amount'])} {entry['memo']}"
    if entry["broke"] == "one_turn":
        turns.miss(tx, player, 1, "debt")
        return (
            who(player, "has")
            + f" {tx.fmt(have)} and nothing to sell, so "
            + does(player, "misses")
            + f" a turn instead of paying {what}"
        )
    if entry["broke"] == "miss_two":
        n = amount_of(tx.table, "visitor_miss_turns")
        turns.miss(tx, player, n, "debt")
        return who(player, "cannot") + f" cover {what}, so " + does(player, "misses") + f" the next {n} turns instead"
    _pay(tx, player, entry, have)
    owed = entry["amount"] - have
    n = turns_for(tx.table, owed, entry.get("cap"))
    if entry["broke"] == "jail":
        turns.send_to_jail(tx, player, n)
        tx.set(["players", player, "at"], 44)
    else:
        turns.miss(tx, player, n, "debt")
    where = " in Jail" if entry["broke"] == "jail" else ""
    return (
        who(player)
        + " paid "
        + who(creditor(entry["to"]))
        + f" all {tx.fmt(have)} of {what}, "
        + does(player, "has")
        + " nothing to sell and "
        + does(player, "misses")
        + f" {n} turn{'s' if n != 1 else ''}{where} for the {tx.fmt(owed)} still owed"
    )


def _owed_text(tx: Tx, player: str, entry: dict[str, Any]) -> str:
    to = entry["to"] if entry["to"] != LOTTERY else None
    return (
        who(player, "has")
        + f" {tx.fmt(cash(tx.table, player))} but "
        + does(player, "owes")
        + " "
        + who(creditor(entry["to"]))
        + f" {tx.fmt(entry['amount'])} for the {entry['memo']}: "
        + sell_hint(tx.table, player, tx.fmt, to)
        + ", then settle"
    )


def charge(
    tx: Tx,
    player: str,
    amount: int,
    memo: str,
    *,
    payee: str = LOTTERY,
    when_broke: str = "turns",
    cap: int | None = None,
    tax: int = 0,
) -> str:
    """The player pays ``amount`` for ``memo`` to ``payee`` (``tax``: the payee's Capital Gains Tax on
    it). Short of cash, it is owed until settled, or met the ``when_broke`` way with nothing to sell.
    Returns "" when paid, else a sentence about what happened."""
    assert when_broke in WHEN_BROKE
    entry = {
        "to": payee,
        "amount": amount,
        "memo": memo,
        "broke": when_broke,
        **({"cap": cap} if cap else {}),
        **({"tax": tax} if tax else {}),
    }
    if cash(tx.table, player) >= amount:
        _pay(tx, player, entry, amount)
        return ""
    if has_assets(tx.table, player):
        tx.set(["players", player, "owes"], [*tx.table["players"][player].get("owes", []), entry])
        return _owed_text(tx, player, entry)
    return _broke(tx, player, entry)


def settle_owed(tx: Tx, player: str, *, strict: bool) -> list[str]:
    """Pay what the player owes, oldest first; with nothing left to sell, the rulebook's outcome.

    ``strict``: refuse (with what to sell) when something is still owed and could be sold for.
    """
    notes: list[str] = []
    while tx.table["players"][player].get("owes"):
        owes = list(tx.table["players"][player]["owes"])
        entry = owes[0]
        if cash(tx.table, player) >= entry["amount"]:
            _pay(tx, player, entry, entry["amount"])
            notes.append(
                who(player) + " paid " + who(creditor(entry["to"])) + f" the {tx.fmt(entry['amount'])} {entry['memo']}"
            )
        elif not has_assets(tx.table, player):
            notes.append(_broke(tx, player, entry))
        elif strict:
            raise NotEnoughMoney(_owed_text(tx, player, entry))
        else:
            break
        tx.set(["players", player, "owes"], owes[1:] or None)
    return notes


def owed_view(table: dict[str, Any], player: str, fmt: Callable[[int], str]) -> list[dict[str, Any]]:
    return [
        {
            "to": creditor(e["to"]),
            "amount": e["amount"],
            "amount_text": fmt(e["amount"]),
            "memo": e["memo"],
            "text": f"owes {creditor(e['to'])} {fmt(e['amount'])} for the {e['memo']}",
        }
        for e in table["players"][player].get("owes", [])
    ]


@CITY.action("settle", c.player(), label="Settle debts", group="loans")
def settle(tx: Tx, a: dict[str, Any]) -> str:
    """Pay what the player owes for a square or card once they have sold enough (or, with nothing left
    to sell, meet it with missed turns as the rulebook says)."""
    player = a["player"]
    if not tx.table["players"][player].get("owes"):
        raise Refused(f"{player} owes nothing for a square or card")
    return joined("; ", settle_owed(tx, player, strict=True))
