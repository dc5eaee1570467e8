"""City Life property: Houses and Towers by square, and (advanced rules) Bank shares.

A property is bought from the Bank on landing on its square, or from another player at any time; it
is sold back to the Bank at its purchase price, or to a player at a price they agree. Under the
advanced rules the buyer pays the Land Transfer Tax and the seller the Capital Gains Tax, to the City
Life Lottery (never the Bank); a mortgaged property's mortgage is repaid out of the sale at once.
"""

from __future__ import annotations

from typing import Any

from companion.core import contract as c
from companion.core.engine import Tx
from companion.core.errors import BadAction, NotEnoughMoney, Refused
from companion.core.said import joined, who
from companion.core.model import BANK, Table, card, cash

from .city_life_bank import (
    CITY,
    LOTTERY,
    PROPERTY_OF_PLAYER,
    _property_value,
    amount_of,
    find_property,
    is_advanced,
    mortgage_index,
    need_advanced,
    settle_mortgage,
    shares_of,
)

__all__ = ["landed_on", "unsold", "take_property"]


def landed_on(table: Table, player: str) -> int | None:
    """The square the player landed on in the turn being played (None if not this turn)."""
    record = table["players"][player]
    return record.get("at") if record.get("landed") == table["turn"]["number"] else None


def unsold(table: Table, kind: str) -> list[str]:
    """The Bank's Houses or Towers, in square order."""
    names = [d for d, c in table["pack"]["cards"].items() if c["kind"] == kind and not table["deeds"][d].get("owner")]
    return sorted(names, key=lambda d: table["pack"]["cards"][d]["square"])


def take_property(tx: Tx, player: str | None, deed: str) -> None:
    tx.set(["deeds", deed, "owner"], player)


def _tax(tx: Tx, deed: str, key: str) -> int:
    return card(tx.table, deed)[key] if is_advanced(tx.table) else 0


def _for_sale(table: Table, partial: dict[str, Any]) -> list[str]:
    return [d for d, s in table["deeds"].items() if s.get("owner") is None]


def _own_towers(table: Table, partial: dict[str, Any]) -> list[str]:
    return [
        d
        for d, s in table["deeds"].items()
        if s.get("owner") == partial.get("player") and card(table, d)["kind"] == "tower"
    ]


def _unsold_houses(table: Table, partial: dict[str, Any]) -> list[str]:
    return [d for d, s in table["deeds"].items() if s.get("owner") is None and card(table, d)["kind"] == "house"]


def _buyers(table: Table, partial: dict[str, Any]) -> list[str]:
    return [BANK, *(p for p in table["order"] if not table["players"][p]["bankrupt"] and p != partial.get("player"))]


def _to_player(table: Table, partial: dict[str, Any]) -> bool:
    return partial.get("to") not in (None, BANK)


def _count(a: dict[str, Any], most: int) -> int:
    n = a.get("count", 1)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= most:
        raise BadAction(f"count must be a whole number from 1 to {most}, not {n!r}")
    return n


def _buyer(tx: Tx, a: dict[str, Any], seller: str) -> str:
    buyer: str = a.get("to", BANK)
    if buyer == seller:
        raise Refused(f"{seller} cannot sell to {seller}")
    if buyer.startswith("pot:"):
        raise BadAction("sell to another player or to the bank")
    if buyer == BANK and a.get("price") is not None:
        raise BadAction("the Bank pays the purchase price: leave out price when selling to the Bank")
    if buyer != BANK and a.get("price") is None:
        raise BadAction(f"selling to {buyer} needs the price they agreed (0 for a gift)")
    return buyer


@CITY.action("buy", c.player(), c.deed(only=_for_sale, resolve=_property_value), label="Buy", group="deeds")
def buy(tx: Tx, a: dict[str, Any]) -> str:
    """Buy the unsold House or Tower the player has just landed on from the Bank."""
    player = a["player"]
    deed = find_property(tx.table, a["deed"])
    owner = tx.table["deeds"][deed].get("owner")
    if owner:
        raise Refused(f"{deed} belongs to {owner}; only {owner} can sell it now (sell, with to and price)")
    c = card(tx.table, deed)
    if landed_on(tx.table, player) != c["square"]:
        raise Refused(f"{player} can buy {deed} from the Bank only on landing on square {c['square']} this turn")
    ltt = _tax(tx, deed, "land_transfer_tax")
    if cash(tx.table, player) < c["price"] + ltt:
        raise NotEnoughMoney(
            f"{player} has {tx.fmt(cash(tx.table, player))} but {deed} costs "
            f"{tx.fmt(c['price'] + ltt)}" + (" with the Land Transfer Tax" if ltt else "")
        )
    tx.pay(player, BANK, c["price"], f"bought {deed}")
    tx.pay(player, LOTTERY, ltt, f"Land Transfer Tax on {deed}")
    take_property(tx, player, deed)
    tax = f" and paid {tx.fmt(ltt)} Land Transfer Tax" if ltt else ""
    return who(player) + f" bought {deed} for {tx.fmt(c['price'])}{tax}"


@CITY.action(
    "sell",
    c.player(role="owner"),
    PROPERTY_OF_PLAYER,
    c.account("to", "Who buys", role="", required=False, only=_buyers),
    c.amount("price", "The agreed price", required=False, allow_zero=True, when=_to_player),
    label="Sell",
    group="deeds",
    says="Sell a House or Tower to the Bank at its purchase price, or to a player at the agreed price.",
)
def sell(tx: Tx, a: dict[str, Any]) -> str:
    """Sell a House or Tower to the Bank at its purchase price, or to a player (``to``) at ``price``."""
    seller = a["player"]
    deed = find_property(tx.table, a["deed"])
    owner = tx.table["deeds"][deed].get("owner")
    if owner != seller:
        raise Refused(f"{deed} belongs to {owner or 'the Bank'}, not {seller}")
    buyer = _buyer(tx, a, seller)
    c = card(tx.table, deed)
    price = c["price"] if buyer == BANK else a["price"]
    cgt = _tax(tx, deed, "capital_gains_tax")
    ltt = 0 if buyer == BANK else _tax(tx, deed, "land_transfer_tax")
    index = mortgage_index(tx.table, seller, deed)
    owed = tx.table["players"][seller]["debts"][index]["amount"] if index is not None else 0
    if buyer != BANK and cash(tx.table, buyer) < price + ltt:
        raise NotEnoughMoney(
            f"{buyer} has {tx.fmt(cash(tx.table, buyer))} but buying {deed} takes "
            f"{tx.fmt(price + ltt)}" + (" with the Land Transfer Tax" if ltt else "")
        )
    if cash(tx.table, seller) + price < cgt + owed:
        raise NotEnoughMoney(
            f"selling {deed} for {tx.fmt(price)} does not cover its "
            + " and ".join(x for x in ("Capital Gains Tax" * bool(cgt), "mortgage" * bool(owed)) if x)
        )
    tx.pay(buyer, seller, price, f"sold {deed}")
    tx.pay(seller, LOTTERY, cgt, f"Capital Gains Tax on {deed}")
    tx.pay(buyer, LOTTERY, ltt, f"Land Transfer Tax on {deed}")
    note = settle_mortgage(tx, seller, deed)
    take_property(tx, None if buyer == BANK else buyer, deed)
    to = "the Bank" if buyer == BANK else buyer
    taxes = []
    if cgt:
        taxes.append(who(seller) + f" paid {tx.fmt(cgt)} Capital Gains Tax")
    if ltt:
        taxes.append(who(buyer) + f" paid {tx.fmt(ltt)} Land Transfer Tax")
    return joined("; ", [who(seller) + f" sold {deed} to " + who(to) + f" for {tx.fmt(price)}", *taxes]) + note


@CITY.action(
    "exchange",
    c.player(role="owner"),
    c.deed("tower", "Which of the player's Towers", only=_own_towers, resolve=_property_value),
    c.deed("house", "Which unsold House", only=_unsold_houses, resolve=_property_value),
    label="Exchange a Tower",
    group="deeds",
    own_turn="a Tower is exchanged for an unsold House only on its proprietor's own turn",
)
def exchange(tx: Tx, a: dict[str, Any]) -> str:
    """On the proprietor's turn: a Tower goes back to the Bank for an unsold House (no price changes
    hands; the advanced rules charge $200 Capital Gains and $200 Land Transfer Tax)."""
    player = a["player"]
    tower = find_property(tx.table, a["tower"])
    house = find_property(tx.table, a["house"])
    if card(tx.table, tower)["kind"] != "tower" or card(tx.table, house)["kind"] != "house":
        raise BadAction("tower names a City Life Tower and house a City Life House")
    if tx.table["deeds"][tower].get("owner") != player:
        raise Refused(f"{tower} does not belong to {player}")
    if tx.table["deeds"][tower].get("mortgaged"):
        raise Refused(f"repay the mortgage on {tower} before exchanging it")
    if tx.table["deeds"][house].get("owner"):
        raise Refused(
            f"{house} belongs to {tx.table['deeds'][house]['owner']}; only an unsold House can be had in exchange"
        )
    taxes = (0, 0)
    if is_advanced(tx.table):
        taxes = (amount_of(tx.table, "exchange_capital_gains"), amount_of(tx.table, "exchange_land_transfer"))
    if cash(tx.table, player) < sum(taxes):
        raise NotEnoughMoney(
            f"{player} has {tx.fmt(cash(tx.table, player))} but the exchange's taxes are {tx.fmt(sum(taxes))}"
        )
    tx.pay(player, LOTTERY, taxes[0], f"Capital Gains Tax on {tower}")
    tx.pay(player, LOTTERY, taxes[1], f"Land Transfer Tax on {house}")
    take_property(tx, None, tower)
    take_property(tx, player, house)
    return (
        who(player)
        + f" exchanged {tower} for {house}"
        + (f", paying {tx.fmt(sum(taxes))} in taxes" if sum(taxes) else "")
    )


@CITY.action(
    "buy_shares",
    c.player(),
    c.count("count", "How many shares", 1, 5, required=False),
    label="Buy shares",
    group="deeds",
    offered=is_advanced,
)
def buy_shares(tx: Tx, a: dict[str, Any]) -> str:
    """Advanced: on landing on a Dollar Sign square, buy Bank shares at $500 (at most 5 from the Bank
    in a whole game, and none once the player has sold shares to another player)."""
    need_advanced(tx, "Bank shares")
    player = a["player"]
    n = _count(a, amount_of(tx.table, "shares_from_bank"))
    record = tx.table["players"][player]
    if landed_on(tx.table, player) not in tx.table["pack"]["board"]["dollar_sign"]:
        raise Refused(
            f"{player} can buy shares from the Bank only on landing on a Dollar Sign square (from players at any time)"
        )
    if record.get("sold_shares"):
        raise Refused(f"{player} has sold shares to another player, so can buy shares only from players now")
    bought, most = record.get("shares_bought", 0), amount_of(tx.table, "shares_from_bank")
    if bought + n > most:
        raise Refused(f"{player} has bought {bought} of the {most} shares a player may buy from the Bank in a game")
    tx.pay(player, BANK, n * amount_of(tx.table, "share_price"), "Bank shares")
    tx.set(["players", player, "shares"], shares_of(tx.table, player) + n)
    tx.set(["players", player, "shares_bought"], bought + n)
    return (
        who(player)
        + f" bought {n} Bank share{'s' if n > 1 else ''} for {tx.fmt(n * amount_of(tx.table, 'share_price'))}"
    )


@CITY.action(
    "sell_shares",
    c.player(),
    c.count("count", "How many shares", 1, 100, required=False),
    c.account("to", "Who buys", role="", required=False, only=_buyers),
    c.amount("price", "The agreed price", required=False, allow_zero=True, when=_to_player),
    label="Sell shares",
    group="deeds",
    says="Advanced rules: sell Bank shares to the Bank at $500 each, or to a player at the agreed price; "
    "the seller pays $100 Capital Gains Tax a share to the Lottery.",
)
def sell_shares(tx: Tx, a: dict[str, Any]) -> str:
    """Sell Bank shares to the Bank at $500 each, or to a player (``to``) at ``price``; under the
    advanced rules the seller pays $100 Capital Gains Tax a share to the City Life Lottery (the basic
    rules' shares come from the Dollar Sign squares and are sold tax free)."""
    seller = a["player"]
    n = _count(a, 100)
    held = shares_of(tx.table, seller)
    if held < n:
        raise Refused(f"{seller} holds {held} Bank share{'s' if held != 1 else ''}, not {n}")
    buyer = _buyer(tx, a, seller)
    price = n * amount_of(tx.table, "share_price") if buyer == BANK else a["price"]
    cgt = n * amount_of(tx.table, "share_capital_gains") if is_advanced(tx.table) else 0
    if buyer != BANK and cash(tx.table, buyer) < price:
        raise NotEnoughMoney(f"{buyer} has {tx.fmt(cash(tx.table, buyer))}, not the {tx.fmt(price)} agreed")
    if cash(tx.table, seller) + price < cgt:
        raise NotEnoughMoney(f"{seller} cannot pay the {tx.fmt(cgt)} Capital Gains Tax on the sale")
    tx.pay(buyer, seller, price, f"sold {n} Bank share{'s' if n > 1 else ''}")
    tx.pay(seller, LOTTERY, cgt, "Capital Gains Tax on Bank shares")
    tx.set(["players", seller, "shares"], held - n or None)
    if buyer != BANK:
        tx.set(["players", buyer, "shares"], shares_of(tx.table, buyer) + n)
        tx.set(["players", seller, "sold_shares"], True)
    to = "the Bank" if buyer == BANK else buyer
    shares = f"{n} Bank share{'s' if n > 1 else ''}"
    return (
        who(seller)
        + f" sold {shares} to "
        + who(to)
        + f" for {tx.fmt(price)}"
        + (f" and paid {tx.fmt(cgt)} Capital Gains Tax" if cgt else "")
    )
