"""Deals between players and bankruptcy, for the property family."""

from __future__ import annotations

from typing import Any, Callable

from companion.core import contract as c
from companion.core.common import declare_out
from companion.core.engine import Tx
from companion.core.errors import BadAction, NotEnoughMoney, Refused
from companion.core.said import joined, who
from companion.core.money import Currency
from companion.core.model import BANK, account_name, card, cash, find_deed

from . import deeds as d
from .owed import pay_or_owe
from .property import DEEDS, sell_buildings_on

__all__ = [
    "BANKRUPT_FIELDS",
    "LIFT_ON_BANKRUPTCY",
    "TRADE_FIELDS",
    "trade",
    "bankrupt",
    "swap",
    "go_bankrupt",
    "hand_over_deed",
    "return_to_bank",
    "pass_deed",
]


#: One side of a trade: the cash and the deeds one player hands the other.
#: ``"x-from"`` names the field of the player whose cash and deeds they are.
SIDE = {
    "type": "object",
    "additionalProperties": False,
    "properties": {
        "cash": {"title": "Cash", "oneOf": [{"type": "integer", "minimum": 0}, {"type": "string", "maxLength": 32}]},
        "deeds": {"title": "Deeds", "type": "array", "maxItems": 64, "items": {"type": "string", "maxLength": 120}},
    },
}


def _other_players(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    return [p for p in table["order"] if not table["players"][p]["bankrupt"] and p != partial.get("a")]


def _creditors(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    """The bank or another player still in the game: never a pot, never the bankrupt player."""
    return [BANK, *(p for p in table["order"] if not table["players"][p]["bankrupt"] and p != partial.get("player"))]


def read_side(what: str) -> Callable[[dict[str, Any], Any], dict[str, Any]]:
    """How the contract reads one side of a trade (``what``: its field): ``{"cash": int, "deeds": [names]}``."""

    def read(table: dict[str, Any], side: Any) -> dict[str, Any]:
        if not isinstance(side, dict) or set(side) - {"cash", "deeds"}:
            raise BadAction(f'{what} is an object with "cash" and/or "deeds"')
        amount = c.read_amount(table, side.get("cash", 0) or 0, f"{what} cash", allow_zero=True)
        names = side.get("deeds", []) or []
        if not isinstance(names, list):
            raise BadAction(f"{what} deeds is a list of deed names")
        deeds = [find_deed(table, n) for n in names]
        if len(set(deeds)) != len(deeds):
            raise BadAction(f"{what} names a deed twice")
        return {"cash": amount, "deeds": deeds}

    return read


TRADE_FIELDS = (
    c.player("a", "First player"),
    c.player("b", "Second player", role="", only=_other_players),
    c.structured(
        "give", "What the first player gives", {**SIDE, "x-from": "a"}, required=False, resolve=read_side("give")
    ),
    c.structured(
        "get", "What the second player gives", {**SIDE, "x-from": "b"}, required=False, resolve=read_side("get")
    ),
)
BANKRUPT_FIELDS = (c.player(says="Who goes bankrupt"), c.account("creditor", "Owed to", role="payee", only=_creditors))


def _bankrupts_mortgaged(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    return [
        n for n, rec in table["deeds"].items() if rec.get("owner") == partial.get("player") and rec.get("mortgaged")
    ]


def _lift_or_keep(table: dict[str, Any], partial: dict[str, Any], deed: str, lift: bool) -> str:
    """What the creditor pays the bank for one mortgaged deed, each way: "Lift now: Ann pays $220"
    (the mortgage and the interest) or "Keep it mortgaged: Ann pays the 10% now, $20"."""
    who = account_name(partial.get("creditor") or "") or "the creditor"
    fmt = Currency.from_pack(table["pack"]).format
    charge = mortgage_charge(table, deed, lift)
    if lift:
        return f"Lift now: {who} pays {fmt(charge)}"
    return f"Keep it mortgaged: {who} pays the {table['pack'].get('mortgage_interest', 10)}% now, {fmt(charge)}"


#: The creditor's choice for each mortgaged deed received: lift it at once (the mortgage and the interest)
#: or keep it mortgaged (the interest now, and again when lifted later); asked when a player creditor
#: receives any.
LIFT_ON_BANKRUPTCY = c.deeds(
    "lift",
    "Lift each mortgage now, or keep it",
    only=_bankrupts_mortgaged,
    when=lambda table, partial: (
        partial.get("creditor") not in (None, BANK) and bool(_bankrupts_mortgaged(table, partial))
    ),
    in_or_out=_lift_or_keep,
)


def _side(tx: Tx, giver: str, side: dict[str, Any] | None, *, buildings_stay: bool = False) -> tuple[int, list[str]]:
    """One side of a trade as the contract read it (:func:`read_side`), checked against the table."""
    if side is None:
        return 0, []
    amount: int = side["cash"]
    deeds: list[str] = side["deeds"]
    for deed in deeds:
        d.require_owner(tx.table, giver, deed)
        if not buildings_stay and d.group_has_buildings(tx.table, deed):
            raise Refused(
                f"sell the buildings on the {d.group_of(tx.table, deed)} group before {deed} can change hands"
            )
    return amount, deeds


def mortgage_charge(table: dict[str, Any], deed: str, lift: bool) -> int:
    """What a new owner pays the bank on receiving a mortgaged deed: the interest, or the mortgage
    value and the interest when they lift it at once (nothing for an unmortgaged deed)."""
    if not table["deeds"][deed].get("mortgaged"):
        return 0
    if lift:
        return d.lift_cost(table, deed)
    return d.interest(card(table, deed)["mortgage"], table["pack"].get("mortgage_interest", 10))


def _lift_set(tx: Tx, a: dict[str, Any], part_of: set[str], noun: str) -> set[str]:
    lift: set[str] = set(a.get("lift") or ())  # deeds the contract found
    stray = lift - part_of
    if stray:
        raise BadAction(f"lift names {', '.join(sorted(stray))}, which is not part of the {noun}")
    for deed in sorted(lift):
        if not tx.table["deeds"][deed].get("mortgaged"):
            raise Refused(f"{deed} is not mortgaged, so there is nothing to lift")
    return lift


def _afford(tx: Tx, player: str, pays: int, gets: int, charges: int, noun: str) -> None:
    """Refuse a deal a side cannot pay for, counting the cash it receives in the same deal."""
    have = cash(tx.table, player)
    need = pays + charges
    if have + gets >= need:
        return
    parts = [f"{tx.fmt(pays)} in cash"] * bool(pays) + [f"{tx.fmt(charges)} to the bank for mortgages"] * bool(charges)
    gets_text = f" and receives {tx.fmt(gets)}" if gets else ""
    raise NotEnoughMoney(
        f"{player} has {tx.fmt(have)}{gets_text} but the {noun} takes {tx.fmt(need)} ({' and '.join(parts)})"
    )


def swap(
    tx: Tx,
    a: dict[str, Any],
    *,
    noun: str = "Trade",
    buildings_stay: bool = False,
    hand_over: Callable[[Tx, str, str, bool], str | None] | None = None,
) -> str:
    """Two players exchange cash and deeds. Families choose whether buildings may stand on traded deeds
    (they then stay with the deed) and how a deed changes hands (by default with the bank's interest
    on a mortgaged deed, or lifted at once when the action lists it under ``lift``)."""
    charged = hand_over is None
    give: Callable[[Tx, str, str, bool], str | None] = hand_over or (
        lambda tx, deed, to, lift: hand_over_deed(tx, deed, to, lift=lift)
    )
    pa = a["a"]
    pb = a["b"]
    if pa == pb:
        raise Refused(f"{pa} cannot trade with {pa}")
    give_cash, give_deeds = _side(tx, pa, a.get("give"), buildings_stay=buildings_stay)
    get_cash, get_deeds = _side(tx, pb, a.get("get"), buildings_stay=buildings_stay)
    if not (give_cash or give_deeds or get_cash or get_deeds):
        raise BadAction(f"a {noun.lower()} needs something to change hands")
    lift = _lift_set(tx, a, set(give_deeds) | set(get_deeds), noun.lower())
    if charged:
        _afford(
            tx, pa, give_cash, get_cash, sum(mortgage_charge(tx.table, x, x in lift) for x in get_deeds), noun.lower()
        )
        _afford(
            tx, pb, get_cash, give_cash, sum(mortgage_charge(tx.table, x, x in lift) for x in give_deeds), noun.lower()
        )
    else:
        _afford(tx, pa, give_cash, get_cash, 0, noun.lower())
        _afford(tx, pb, get_cash, give_cash, 0, noun.lower())
    # Whoever can pay from their own cash pays first, so the other may use what they receive.
    first = [(pa, pb, give_cash), (pb, pa, get_cash)]
    if cash(tx.table, pa) < give_cash:
        first.reverse()
    for payer, payee, amount in first:
        tx.pay(payer, payee, amount, noun.lower())
    notes = [give(tx, deed, pb, deed in lift) for deed in give_deeds]
    notes += [give(tx, deed, pa, deed in lift) for deed in get_deeds]
    parts = []
    if give_cash or give_deeds:
        parts.append(who(pa) + f" gave {', '.join([tx.fmt(give_cash)] * bool(give_cash) + give_deeds)}")
    if get_cash or get_deeds:
        parts.append(who(pb) + f" gave {', '.join([tx.fmt(get_cash)] * bool(get_cash) + get_deeds)}")
    # what a mortgaged deed cost its new owner besides the deal: "Dan paid $20 interest on mortgaged ..."
    return f"{noun}: " + joined("; ", parts + [n for n in notes if n])


def hand_over_deed(tx: Tx, deed: str, to: str, *, lift: bool = False, owe: bool = False) -> str:
    """Give a deed to a new owner; a mortgaged deed costs them the bank's interest at once, or the
    full lifting price if they lift the mortgage straight away. ``owe``: what they cannot pay is
    recorded as owed instead of refused (a bankruptcy). Returns a note on the mortgage, or ""."""
    tx.set(["deeds", deed, "owner"], to)
    charge = mortgage_charge(tx.table, deed, lift)
    if not charge:
        return ""
    memo = f"lifting the mortgage on {deed}" if lift else f"interest on mortgaged {deed}"
    if lift:
        tx.pay(to, BANK, charge, memo)
        tx.set(["deeds", deed, "mortgaged"], False)
        return who(to) + f" lifted the mortgage on {deed} for {tx.fmt(charge)}"
    if owe:
        short = pay_or_owe(tx, to, BANK, charge, memo)
        if short:
            return who(to, "owes") + f" the bank {tx.fmt(short)} of the {tx.fmt(charge)} interest on {deed}"
    else:
        tx.pay(to, BANK, charge, memo)
    return who(to) + f" paid {tx.fmt(charge)} interest on mortgaged {deed}"


@DEEDS.action(
    "trade", *TRADE_FIELDS, c.deeds("lift", "Mortgages the receiver lifts at once"), label="Trade", group="deeds"
)
def trade(tx: Tx, a: dict[str, Any]) -> str:
    """Two players swap cash and deeds; mortgaged deeds bring their interest due (or are lifted at once)."""
    return swap(tx, a)


def go_bankrupt(
    tx: Tx,
    a: dict[str, Any],
    *,
    clear: Callable[[Tx, str, str], None],
    pass_on: Callable[[Tx, str, str, bool], str | None],
    noun: str = "deed",
) -> str:
    """What every bankruptcy does, with the family's own steps for each deed.

    ``clear(tx, deed, creditor)`` deals with what stands on a deed before the cash is counted (sold to
    the bank for a player creditor, returned to the bank's stock for the bank); ``pass_on(tx, deed,
    creditor, lift)`` hands the deed over and may return a note for the log. Then all the player's
    cash goes to the creditor and the player is out of the game (the game ends when one player is
    left). A bankruptcy is never refused for the creditor's want of money: what they cannot pay on a
    mortgaged deed they receive is recorded as owed."""
    player = a["player"]
    creditor = a["creditor"]
    if creditor == player:
        raise Refused(f"{player} cannot go bankrupt to {player}")
    if creditor.startswith("pot:"):
        raise BadAction("a bankrupt player's creditor is another player or the bank")
    owned = d.owned_by(tx.table, player)
    lift = _lift_set(tx, a, set(owned), "bankruptcy")
    if lift and creditor == BANK:
        raise BadAction("lift is for a player creditor; the bank takes its deeds back unmortgaged")
    lifting = sum(mortgage_charge(tx.table, x, True) for x in lift)
    for deed in owned:
        clear(tx, deed, creditor)
    everything = cash(tx.table, player)
    if lifting and cash(tx.table, creditor) + everything < lifting:
        raise NotEnoughMoney(
            f"{creditor} has {tx.fmt(cash(tx.table, creditor) + everything)} with {player}'s cash, "
            f"not the {tx.fmt(lifting)} it takes to lift {', '.join(sorted(lift))}: "
            "leave lift out to pay only the interest"
        )
    tx.pay(player, creditor, everything, "bankruptcy")
    notes = [pass_on(tx, deed, creditor, deed in lift) for deed in owned]
    tx.set(["players", player, "in_jail"], False)
    tx.set(["players", player, "owes"], None)
    declare_out(tx, player)
    to = account_name(creditor)
    back = (
        f"; {len(owned)} {noun}{'s' if len(owned) != 1 else ''} return to the bank for auction"
        if creditor == BANK and owned
        else ""
    )
    said = who(player) + " went bankrupt to " + who(to) + f", handing over {tx.fmt(everything)}{back}"
    return joined("; ", [said, *(n for n in notes if n)])


def return_to_bank(tx: Tx, deed: str) -> None:
    """A deed goes back to the bank, unmortgaged, ready for auction."""
    tx.set(["deeds", deed, "owner"], None)
    tx.set(["deeds", deed, "mortgaged"], None)


def _clear_buildings(tx: Tx, deed: str, creditor: str) -> None:
    if creditor != BANK:
        sell_buildings_on(tx, deed, " (bankruptcy)")
        return
    level = d.buildings(tx.table, deed)
    if level == 5:
        tx.set(["deeds", deed, "hotel"], None)
        tx.set(["stock", "hotels"], tx.table["stock"]["hotels"] + 1)
    elif level:
        tx.set(["deeds", deed, "houses"], None)
        tx.set(["stock", "houses"], tx.table["stock"]["houses"] + level)


def pass_deed(tx: Tx, deed: str, creditor: str, lift: bool = False) -> str:
    """A bankrupt player's deed goes to a player creditor (with interest due if mortgaged, or lifted at
    once when chosen) or back to the bank."""
    if creditor == BANK:
        return_to_bank(tx, deed)
        return ""
    return hand_over_deed(tx, deed, creditor, lift=lift, owe=True)


@DEEDS.action(
    "bankrupt",
    *BANKRUPT_FIELDS,
    LIFT_ON_BANKRUPTCY,
    label="Bankrupt",
    group="game",
    says="A player who cannot pay retires: a player creditor gets everything (buildings sold first, mortgaged "
    "deeds with their interest due or lifted at once); to the bank, deeds go back for auction.",
)
def bankrupt(tx: Tx, a: dict[str, Any]) -> str:
    """A player who cannot pay retires: to a player creditor everything passes (buildings sold to the
    bank at half price first, mortgaged deeds with their interest due, or lifted at once for the
    mortgage and the interest when listed under ``lift``); to the bank, deeds go back unmortgaged
    for auction."""
    return go_bankrupt(tx, a, clear=_clear_buildings, pass_on=pass_deed)
