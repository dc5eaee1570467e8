"""Sums a player of the property games owes and could not pay on the spot.

A bankruptcy the table must record is never refused: when the creditor receives a mortgaged deed and
cannot pay the bank's interest on it, they pay what they have and owe the rest. The debt sits on the
player's record under ``owes`` (``{"to", "amount", "memo"}``), shows on their tile, and is asked for:
the debtor's turn cannot end until it is settled (by raising money and ``settle``) or they go bankrupt.
"""

from __future__ import annotations

from typing import Any, Callable

from companion.core.engine import Tx
from companion.core.errors import NotEnoughMoney
from companion.core.said import joined, who
from companion.core.model import Table, account_name, cash

__all__ = ["pay_or_owe", "owed", "settle_all", "require_nothing_owed", "owed_view"]


def owed(table: Table, player: str) -> list[dict[str, Any]]:
    return list(table["players"][player].get("owes", []))


def pay_or_owe(tx: Tx, payer: str, payee: str, amount: int, memo: str) -> int:
    """Pay what the payer can of ``amount``; the rest is recorded as owed. Returns the sum still owed."""
    paid = min(cash(tx.table, payer), amount)
    tx.pay(payer, payee, paid, memo)
    short = amount - paid
    if short:
        tx.set(["players", payer, "owes"], [*owed(tx.table, payer), {"to": payee, "amount": short, "memo": memo}])
    return short


def settle_all(tx: Tx, player: str) -> str:
    """Pay every sum the player owes, oldest first, or refuse saying what is missing."""
    debts = owed(tx.table, player)
    total = sum(e["amount"] for e in debts)
    have = cash(tx.table, player)
    if have < total:
        raise NotEnoughMoney(
            f"{player} has {tx.fmt(have)} but owes {tx.fmt(total)} ({_listing(tx.fmt, debts)}): "
            "raise it by selling buildings or mortgaging, or go bankrupt"
        )
    for e in debts:
        tx.pay(player, e["to"], e["amount"], e["memo"])
    tx.set(["players", player, "owes"], None)
    return who(player) + " paid what was owed: " + _listing(tx.fmt, debts)


def require_nothing_owed(tx: Tx, player: str) -> None:
    """The turn of a player who still owes cannot end."""
    debts = owed(tx.table, player)
    if debts:
        raise NotEnoughMoney(
            f"{player} still owes {_listing(tx.fmt, debts)}: raise the money and settle, "
            "or go bankrupt, before the turn ends"
        )


def _listing(fmt: Callable[[int], str], debts: list[dict[str, Any]]) -> str:
    return joined(", ", (who(account_name(e["to"])) + f" {fmt(e['amount'])} for {e['memo']}" for e in debts))


def owed_view(table: Table, player: str, fmt: Callable[[int], str]) -> list[dict[str, Any]]:
    """What the player owes, as the touchscreen and phones show it."""
    return [
        {
            "to": account_name(e["to"]),
            "amount": e["amount"],
            "amount_text": fmt(e["amount"]),
            "memo": e["memo"],
            "text": f"owes {account_name(e['to'])} {fmt(e['amount'])} for {e['memo']}",
        }
        for e in owed(table, player)
    ]
