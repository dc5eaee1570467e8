"""City Life's Bank: what a player's assets would fetch, and loans and mortgages due in counted turns.

Loans and mortgages (advanced rules) run for 7 counted turns (see :mod:`companion.rules.turns`); at
the end of the turn that uses the last of them the Bank collects, or the debt is marked overdue until
the player has sold enough, or, with nothing left to sell, the player goes back to square 3 and
misses the turns.
"""

from __future__ import annotations

from typing import Any, Callable, cast

from companion.core import contract as c
from companion.core.common import COMMON
from companion.core.engine import Registry, Tx
from companion.core.errors import BadAction, NotEnoughMoney, Refused
from companion.core.said import does, who, whose
from companion.core.model import BANK, Table, card, cash, find_deed, pot_account

from . import turns

__all__ = [
    "CITY",
    "LOTTERY",
    "amount_of",
    "is_advanced",
    "need_advanced",
    "find_property",
    "properties_of",
    "shares_of",
    "bank_value",
    "could_raise",
    "has_assets",
    "sell_hint",
    "mortgage_index",
    "settle_mortgage",
    "collect_due",
    "turns_for",
]

CITY = Registry(COMMON)


def _property_value(table: Table, value: object) -> str:
    return find_property(table, value)


def _own_properties(table: Table, partial: dict[str, Any]) -> list[str]:
    return [d for d, s in table["deeds"].items() if s.get("owner") == partial.get("player")]


def _debts(table: Table, partial: dict[str, Any]) -> list[tuple[str, str]]:
    player = partial.get("player")
    rows = []
    for debt in table["players"].get(player, {}).get("debts", []):
        value = "loan" if debt["kind"] == "loan" else debt.get("deed")
        rows.append((value, debt.get("label", value).capitalize()))
    return rows


def _debt_name(table: Table, value: object) -> object:
    """ "loan", or the House or Tower a mortgage is on (by name or square number)."""
    if isinstance(value, str) and value.strip().lower() == "loan":
        return "loan"
    return find_property(table, value)


#: A House or Tower, by name or square number: one of the player's own.
PROPERTY_OF_PLAYER = c.deed(only=_own_properties, resolve=_property_value)
LOTTERY = pot_account("lottery")


# -- reading the pack and the table -----------------------------------------------------------------
def amount_of(table: Table, key: str) -> int:
    return cast("int", table["pack"]["amounts"][key])


def is_advanced(table: Table) -> bool:
    return bool(table["options"].get("advanced"))


def need_advanced(tx: Tx, what: str) -> None:
    if not is_advanced(tx.table):
        raise Refused(f"{what} belong to the advanced rules; this game plays the basic rules")


def find_property(table: Table, value: object) -> str:
    """A House or Tower by its square number (4, "61") or its name ("Tower 61")."""
    if isinstance(value, bool):
        raise BadAction(f"name a House or Tower by its square number or its name, not {value!r}")
    if isinstance(value, int) or (isinstance(value, str) and value.strip().isdigit()):
        number = int(value)
        for name, c in table["pack"]["cards"].items():
            if c["square"] == number:
                return cast("str", name)
        raise Refused(f"square {number} is not a City Life House or Tower")
    return find_deed(table, value)


def properties_of(table: Table, player: str) -> list[str]:
    return [d for d, s in table["deeds"].items() if s.get("owner") == player]


def shares_of(table: Table, player: str) -> int:
    return cast("int", table["players"][player].get("shares", 0))


def mortgage_index(table: Table, player: str, deed: str) -> int | None:
    for i, debt in enumerate(table["players"][player].get("debts", [])):
        if debt["kind"] == "mortgage" and debt.get("deed") == deed:
            return i
    return None


def bank_value(table: Table, deed: str) -> int:
    """What selling the deed to the Bank leaves its owner: the price, less the Capital Gains Tax
    (advanced) and the repayment of a mortgage on it."""
    c = card(table, deed)
    value = c["price"] - (c["capital_gains_tax"] if is_advanced(table) else 0)
    owner = table["deeds"][deed].get("owner")
    index = mortgage_index(table, owner, deed) if owner else None
    if index is not None:
        value -= table["players"][owner]["debts"][index]["amount"]
    return cast("int", max(value, 0))


def could_raise(table: Table, player: str) -> int:
    """What the player would have after selling every share and property to the Bank."""
    per_share = amount_of(table, "share_price") - (amount_of(table, "share_capital_gains") if is_advanced(table) else 0)
    return shares_of(table, player) * per_share + sum(bank_value(table, d) for d in properties_of(table, player))


def has_assets(table: Table, player: str) -> bool:
    return bool(shares_of(table, player) or properties_of(table, player))


def sell_hint(table: Table, player: str, fmt: Callable[[int], str], to: str | None = None) -> str:
    things = "Bank shares or property" if shares_of(table, player) else "property"
    buyers = "to " + who(to) + " at the purchase price, to other players" if to else "to other players"
    return f"sell {things} first (" + buyers + f", or to the Bank for {fmt(could_raise(table, player))})"


def turns_for(table: Table, owed: int, cap: int | None = None) -> int:
    """Missed turns for a debt left after selling everything: one per $500 owed, rounded up."""
    per = amount_of(table, "turn_per")
    n = -(-owed // per)
    return min(n, cap) if cap else n


# -- loans and mortgages ---------------------------------------------------------------------------
def _pick_debt(tx: Tx, player: str, which: object) -> int:
    debts = tx.table["players"][player].get("debts", [])
    if not debts:
        raise Refused(f"{player} owes the Bank nothing")
    if which is None:
        if len(debts) > 1:
            raise BadAction(f'{player} has {len(debts)} debts: say which ("loan" or the mortgaged square)')
        return 0
    if isinstance(which, str) and which.strip().lower() == "loan":
        for i, d in enumerate(debts):
            if d["kind"] == "loan":
                return i
        raise Refused(f"{player} has no Bank loan")
    deed = find_property(tx.table, which)
    index = mortgage_index(tx.table, player, deed)
    if index is None:
        raise Refused(f"{player} has no mortgage on {deed}")
    return index


def _pay_off(tx: Tx, player: str, index: int) -> str:
    debt = tx.table["players"][player]["debts"][index]
    tx.pay(player, BANK, debt["amount"], f"repaid the {debt['label']}")
    turns.remove_debt(tx, player, index)
    if debt["kind"] == "mortgage":
        tx.set(["deeds", debt["deed"], "mortgaged"], None)
    return who(player) + f" repaid the {debt['label']} ({tx.fmt(debt['amount'])})"


def _default(tx: Tx, player: str, index: int) -> str:
    """Nothing left to sell: all the cash to the Bank, back to square 3, a missed turn per $500 owed."""
    debt = tx.table["players"][player]["debts"][index]
    have = cash(tx.table, player)
    tx.pay(player, BANK, have, f"part of the {debt['label']}")
    owed = debt["amount"] - have
    n = turns_for(tx.table, owed)
    turns.remove_debt(tx, player, index)
    if debt["kind"] == "mortgage":
        tx.set(["deeds", debt["deed"], "mortgaged"], None)
    tx.set(["players", player, "at"], 3)
    turns.miss(tx, player, n, "debt")
    text = (
        who(player)
        + f" could not repay the {debt['label']}: paid {tx.fmt(have)}, "
        + does(player, "has")
        + " nothing to sell, "
        + does(player, "goes")
        + " back to square 3 and "
        + does(player, "misses")
        + f" {n} turn{'s' if n != 1 else ''} for the {tx.fmt(owed)} still owed"
    )
    if debt["kind"] == "loan":
        tx.set(["players", player, "barred"], True)
        text += "; no more Bank loans"
    return text


def settle_mortgage(tx: Tx, player: str, deed: str) -> str:
    """A mortgaged property is being sold: its mortgage is repaid out of the seller's cash at once."""
    index = mortgage_index(tx.table, player, deed)
    return "" if index is None else "; " + _pay_off(tx, player, index)


def collect_due(tx: Tx, player: str) -> list[str]:
    """At a turn's end: the Bank collects every debt of the player that has fallen due."""
    notes = []
    i = 0
    while i < len(tx.table["players"][player].get("debts", [])):
        debt = tx.table["players"][player]["debts"][i]
        if not (debt.get("overdue") or turns.turns_left(tx.table, player, debt) <= 0):
            i += 1
        elif cash(tx.table, player) >= debt["amount"]:
            notes.append(_pay_off(tx, player, i) + ", due after 7 turns")
        elif not has_assets(tx.table, player):
            notes.append(_default(tx, player, i))
        else:
            if not debt.get("overdue"):
                debts = [dict(d) for d in tx.table["players"][player]["debts"]]
                debts[i]["overdue"] = True
                tx.set(["players", player, "debts"], debts)
                have = tx.fmt(cash(tx.table, player))
                notes.append(
                    whose(player)
                    + f" {debt['label']} of {tx.fmt(debt['amount'])} is due and "
                    + who(player, "has")
                    + f" {have}: "
                    + sell_hint(tx.table, player, tx.fmt)
                    + ", then repay"
                )
            i += 1
    return notes


# -- actions ----------------------------------------------------------------------------------------
@CITY.action("borrow", c.player(), label="Bank loan", group="loans", offered=is_advanced)
def borrow(tx: Tx, a: dict[str, Any]) -> str:
    """Advanced: a Bank loan of $1,000, to be repaid with its $200 cost within 7 counted turns."""
    need_advanced(tx, "Bank loans")
    player = a["player"]
    if tx.table["players"][player].get("barred"):
        raise Refused(f"{player} could not repay a Bank loan and may no longer borrow from the Bank")
    if any(d["kind"] == "loan" for d in tx.table["players"][player].get("debts", [])):
        raise Refused(
            f"{player} already has a Bank loan: nobody may owe the Bank more than "
            f"{tx.fmt(amount_of(tx.table, 'loan'))} in loans"
        )
    loan, cost, n = (amount_of(tx.table, k) for k in ("loan", "loan_cost", "loan_turns"))
    tx.pay(BANK, player, loan, "Bank loan")
    turns.add_debt(tx, player, "loan", "Bank loan", loan + cost, n, short="loan")
    return who(player) + f" borrowed {tx.fmt(loan)} from the Bank: {tx.fmt(loan + cost)} due in {n} turns"


@CITY.action(
    "mortgage", c.player(role="owner"), PROPERTY_OF_PLAYER, label="Mortgage", group="loans", offered=is_advanced
)
def mortgage(tx: Tx, a: dict[str, Any]) -> str:
    """Advanced: the Bank lends $400 on a House or $2,000 on a Tower, repaid with its cost in 7 turns."""
    need_advanced(tx, "Bank mortgages")
    player = a["player"]
    deed = find_property(tx.table, a["deed"])
    owner = tx.table["deeds"][deed].get("owner")
    if owner != player:
        raise Refused(f"{deed} belongs to {owner or 'the Bank'}, not {player}")
    if tx.table["deeds"][deed].get("mortgaged"):
        raise Refused(f"{deed} is already mortgaged")
    c = card(tx.table, deed)
    n = amount_of(tx.table, "mortgage_turns")
    tx.set(["deeds", deed, "mortgaged"], True)
    tx.pay(BANK, player, c["mortgage"], f"mortgaged {deed}")
    due = c["mortgage"] + c["mortgage_cost"]
    turns.add_debt(tx, player, "mortgage", f"mortgage on {deed}", due, n, deed=deed, short=f"mortgage {deed}")
    return who(player) + f" mortgaged {deed} for {tx.fmt(c['mortgage'])}: {tx.fmt(due)} due in {n} turns"


@CITY.action(
    "repay",
    c.player(),
    c.choice(
        "debt",
        "Which debt",
        options_from=_debts,
        required=False,
        when=lambda table, partial: len(_debts(table, partial)) > 1,
        resolve=lambda table, value: _debt_name(table, value),
    ),
    label="Repay",
    group="loans",
    says="Repay a Bank loan or a mortgage, with its cost.",
)
def repay(tx: Tx, a: dict[str, Any]) -> str:
    """Repay a Bank loan or a mortgage (``debt``: "loan" or the mortgaged square) with its cost.

    A debt that has fallen due, owed by a player with too little cash and nothing left to sell, ends
    the rulebook's way: all the cash to the Bank, back to square 3, a missed turn per $500 owed.
    """
    player = a["player"]
    index = _pick_debt(tx, player, a.get("debt"))
    debt = tx.table["players"][player]["debts"][index]
    have = cash(tx.table, player)
    if have >= debt["amount"]:
        return _pay_off(tx, player, index)
    due = debt.get("overdue") or turns.turns_left(tx.table, player, debt) <= 0
    if not due:
        raise NotEnoughMoney(f"{player} has {tx.fmt(have)} but the {debt['label']} takes {tx.fmt(debt['amount'])}")
    if has_assets(tx.table, player):
        raise NotEnoughMoney(
            f"{player} has {tx.fmt(have)} but the {debt['label']} takes {tx.fmt(debt['amount'])}: "
            + sell_hint(tx.table, player, tx.fmt)
        )
    return _default(tx, player, index)
