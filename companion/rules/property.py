"""The property-game family: classic Monopoly and the games built on its money rules.

Buying and auctions, rent, mortgages, houses and hotels, trades, taxes, jail and bankruptcy. Each
handler checks every rule first and then records events; a refusal leaves the table untouched.
"""
from __future__ import annotations

from companion.core import contract as c
from companion.core.common import COMMON
from companion.core.engine import Registry, Rules, Tx, may_be_empty
from companion.core.errors import BadAction, Refused
from companion.core.model import BANK, card, cash, find_deed, find_player, pot_account, pot_enabled
from companion.core.money import Currency

from . import deeds as d
from .jail import jail_actions

__all__ = ["FAMILY", "PROPERTY", "DEEDS", "HOUSES", "JAIL", "rules", "fines_account", "check_card"]

FAMILY = "property"

#: Deeds and the money around them: salary, buying, auctions, rent, mortgages, taxes and fines (trades and
#: bankruptcy join from :mod:`.trade`). Every game of the property family lists it.
DEEDS = Registry()
#: Houses and hotels, for the games that build them.
HOUSES = Registry()


def fines_account(tx: Tx) -> str:
    """Where taxes and fines go: a family's own account (``extras["fines_to"]``), else the free-parking
    pot when the table plays that house rule, else the bank."""
    own = tx.rules.extras.get("fines_to")
    if own:
        return own
    if tx.option("free_parking") and "free parking" in tx.table["pots"] and pot_enabled(tx.table, "free parking"):
        return pot_account("free parking")
    return BANK


# -- what a screen may offer for each field -----------------------------------------------------------
def unowned(table: dict, partial: dict) -> list[str]:
    return [n for n, rec in table["deeds"].items() if rec.get("owner") is None]


def _player_of(partial: dict) -> object:
    return partial.get("player") or partial.get("payer")


def own_deeds(table: dict, partial: dict) -> list[str]:
    return [n for n, rec in table["deeds"].items() if rec.get("owner") == _player_of(partial)]


def own_mortgaged(table: dict, partial: dict) -> list[str]:
    return [n for n in own_deeds(table, partial) if table["deeds"][n].get("mortgaged")]


def own_streets(table: dict, partial: dict) -> list[str]:
    return [n for n in own_deeds(table, partial) if card(table, n).get("kind", "street") == "street"]


def own_built(table: dict, partial: dict) -> list[str]:
    return [n for n in own_deeds(table, partial) if d.buildings(table, n)]


def rent_deeds(table: dict, partial: dict) -> list[str]:
    """Deeds someone else owns: the ones the payer could owe rent on."""
    payer = _player_of(partial)
    return [n for n, rec in table["deeds"].items() if rec.get("owner") not in (None, payer)]


def rent_check(table: dict, partial: dict) -> None:
    d.rent_owner(table, partial["payer"], partial["deed"])


def is_utility(table: dict, partial: dict) -> bool:
    return card(table, partial["deed"]).get("kind") == "utility"


def tax_names(table: dict, partial: dict) -> list[tuple[str, str]]:
    return [(name, rule.get("label", f"{name} tax")) for name, rule in table["pack"].get("taxes", {}).items()]


def _tax_rule(table: dict, partial: dict) -> dict:
    taxes = table["pack"].get("taxes", {})
    return taxes.get(partial.get("tax") or next(iter(taxes), ""), {})


def tax_ways(table: dict, partial: dict) -> list[tuple[str, str]]:
    rule = _tax_rule(table, partial)
    ways = []
    if "flat" in rule:
        ways.append(("flat", f"Pay {Currency.from_pack(table['pack']).format(rule['flat'])}"))
    if "percent" in rule:
        ways.append(("percent", f"Pay {rule['percent']}% of worth"))
    return ways


TIMES = c.count("times", "How many times (2 when landing on the start square)", 1, 2, required=False)
MULTIPLIER = c.choice("multiplier", "Card multiplier", [(2, "Twice the rent (railroad card)"),
                                                        (10, "Ten times the dice (utility card)")], required=False)
BUILDING = c.choice("building", "House or hotel", [("house", "House"), ("hotel", "Hotel")], required=False)
#: Which tax (asked when the pack has more than one) and how it is paid (asked when it offers a percentage).
TAX_FIELDS = (
    c.choice("tax", "Which tax", options_from=tax_names, required=False,
             when=lambda table, partial: len(table["pack"].get("taxes", {})) > 1),
    c.choice("choice", "Flat sum or percentage", options_from=tax_ways, required=False,
             when=lambda table, partial: "percent" in _tax_rule(table, partial)),
)


def _count(a: dict, field: str = "count", most: int = 5) -> int:
    n = a.get(field, 1)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= most:
        raise BadAction(f"{field} must be a whole number from 1 to {most}, not {n!r}")
    return n


@DEEDS.action("salary", c.player(), TIMES, label="Salary", group="money")
def salary(tx: Tx, a: dict) -> str:
    """The bank pays a player's salary for passing the start square."""
    player = find_player(tx.table, a["player"])
    times = _count(a, "times", 2)
    amount = tx.table["pack"]["salary"] * times
    tx.pay(BANK, player, amount, "salary")
    return f"{player} collected {tx.fmt(amount)} salary"


@DEEDS.action("buy", c.player(), c.deed(only=unowned), label="Buy", group="deeds")
def buy(tx: Tx, a: dict) -> str:
    """A player buys an unowned deed from the bank at its printed price."""
    player = find_player(tx.table, a["player"])
    deed = find_deed(tx.table, a["deed"])
    owner = tx.table["deeds"][deed].get("owner")
    if owner is not None:
        raise Refused(f"{deed} already belongs to {owner}")
    price = card(tx.table, deed)["price"]
    tx.pay(player, BANK, price, f"bought {deed}")
    tx.set(["deeds", deed, "owner"], player)
    return f"{player} bought {deed} for {tx.fmt(price)}"


@DEEDS.action("auction", c.deed(only=unowned), c.player("winner", "Who won"), c.amount("bid", "Winning bid"),
              label="Auction", group="deeds")
def auction(tx: Tx, a: dict) -> str:
    """An unowned deed goes to the highest bidder, who pays the bid to the bank (from the pack's
    smallest bid, if it sets one)."""
    deed = find_deed(tx.table, a["deed"])
    winner = find_player(tx.table, a["winner"])
    owner = tx.table["deeds"][deed].get("owner")
    if owner is not None:
        raise Refused(f"{deed} already belongs to {owner}; only the bank's deeds are auctioned")
    bid = tx.amount(a["bid"], "bid")
    least = tx.table["pack"].get("auction_min_bid", 1)
    if bid < least:
        raise Refused(f"bids start at {tx.fmt(least)}, not {tx.fmt(bid)}")
    tx.pay(winner, BANK, bid, f"won the auction for {deed}")
    tx.set(["deeds", deed, "owner"], winner)
    return f"{winner} won {deed} at auction for {tx.fmt(bid)}"


@DEEDS.action("rent", c.player("payer", "Who pays"), c.deed(only=rent_deeds, check=rent_check),
              c.dice(required=False, when=is_utility), MULTIPLIER, label="Rent", group="money")
def rent(tx: Tx, a: dict) -> str:
    """A player landing on an owned deed pays its owner the rent the card says."""
    payer = find_player(tx.table, a["payer"])
    deed = find_deed(tx.table, a["deed"])
    owner = d.rent_owner(tx.table, payer, deed)
    multiplier = a.get("multiplier")
    amount = d.rent_due(tx.table, deed, a.get("dice"), multiplier=multiplier)
    tx.pay(payer, owner, amount, f"rent for {deed}")
    return f"{payer} paid {owner} {tx.fmt(amount)} rent for {deed}"


@DEEDS.action("mortgage", c.player(), c.deed(only=own_deeds), label="Mortgage", group="deeds")
def mortgage(tx: Tx, a: dict) -> str:
    """The bank lends the mortgage value on an unimproved deed."""
    player = find_player(tx.table, a["player"])
    deed = find_deed(tx.table, a["deed"])
    d.require_owner(tx.table, player, deed)
    if tx.table["deeds"][deed].get("mortgaged"):
        raise Refused(f"{deed} is already mortgaged")
    if d.group_has_buildings(tx.table, deed):
        raise Refused(f"sell the buildings on the {d.group_of(tx.table, deed)} group before mortgaging {deed}")
    value = card(tx.table, deed)["mortgage"]
    tx.set(["deeds", deed, "mortgaged"], True)
    tx.pay(BANK, player, value, f"mortgaged {deed}")
    return f"{player} mortgaged {deed} for {tx.fmt(value)}"


@DEEDS.action("unmortgage", c.player(), c.deed(only=own_mortgaged), label="Lift a mortgage", group="deeds")
def unmortgage(tx: Tx, a: dict) -> str:
    """The owner lifts a mortgage: the mortgage value plus the bank's interest."""
    player = find_player(tx.table, a["player"])
    deed = find_deed(tx.table, a["deed"])
    d.require_owner(tx.table, player, deed)
    if not tx.table["deeds"][deed].get("mortgaged"):
        raise Refused(f"{deed} is not mortgaged")
    cost = d.lift_cost(tx.table, deed)
    tx.pay(player, BANK, cost, f"lifted the mortgage on {deed}")
    tx.set(["deeds", deed, "mortgaged"], False)
    return f"{player} lifted the mortgage on {deed} for {tx.fmt(cost)}"


def _check_can_build(tx: Tx, player: str, deed: str) -> list[str]:
    c = card(tx.table, deed)
    if c.get("kind", "street") != "street":
        raise Refused(f"nothing can be built on {deed}")
    d.require_owner(tx.table, player, deed)
    return d.require_whole_group(tx.table, player, deed)


@HOUSES.action("build", c.player(), c.deed(only=own_streets), BUILDING, c.count("count", "How many", 1, 4, required=False),
               c.amount("price", "Total price paid at a shortage auction", required=False), label="Build", group="deeds")
def build(tx: Tx, a: dict) -> str:
    """Buy houses or a hotel from the bank for a street of a complete, unmortgaged group, evenly.

    ``price`` is the total paid when a shortage of buildings was settled by auction among buyers.
    """
    player = find_player(tx.table, a["player"])
    deed = find_deed(tx.table, a["deed"])
    kind = a.get("building") or ("hotel" if d.buildings(tx.table, deed) == 4 else "house")
    count = _count(a, most=4 if kind == "house" else 1)
    group = _check_can_build(tx, player, deed)
    c = card(tx.table, deed)
    each = c["house_cost"] if kind == "house" else c.get("hotel_cost", c["house_cost"])
    total = tx.amount(a["price"], "price") if a.get("price") is not None else each * count
    if cash(tx.table, player) < total:
        raise tx.short_of(player, total, f"{count} {kind}{'s' if count > 1 else ''} on {deed}")
    for _ in range(count):
        level = d.buildings(tx.table, deed)
        levels = {g: d.buildings(tx.table, g) for g in group}
        if kind == "house":
            if level >= 4:
                raise Refused(f"{deed} has {'a hotel' if level == 5 else '4 houses'}; {'no more can go there' if level == 5 else 'next comes a hotel'}")
            if level > min(levels.values()):
                behind = [g for g, n in levels.items() if n < level]
                raise Refused(f"build evenly: {', '.join(behind)} need{'s' if len(behind) == 1 else ''} a house before {deed} gets another")
            if tx.table["stock"].get("houses", 0) < 1:
                raise Refused("the bank has no houses left: wait until someone sells some, or auction them among buyers")
            tx.set(["deeds", deed, "houses"], level + 1)
            tx.set(["stock", "houses"], tx.table["stock"]["houses"] - 1)
        else:
            if level == 5:
                raise Refused(f"{deed} already has a hotel")
            short = [g for g, n in levels.items() if n < 4]
            if short:
                raise Refused(f"a hotel needs 4 houses on every street of the group first ({', '.join(short)} short)")
            if tx.table["stock"].get("hotels", 0) < 1:
                raise Refused("the bank has no hotels left: wait until someone sells one, or auction it among buyers")
            tx.set(["deeds", deed, "houses"], None)
            tx.set(["deeds", deed, "hotel"], True)
            tx.set(["stock", "hotels"], tx.table["stock"]["hotels"] - 1)
            tx.set(["stock", "houses"], tx.table["stock"]["houses"] + 4)
    tx.pay(player, BANK, total, f"built on {deed}")
    what = "a hotel" if kind == "hotel" else f"{count} house{'s' if count > 1 else ''}"
    return f"{player} built {what} on {deed} for {tx.fmt(total)}"


def sell_buildings_on(tx: Tx, deed: str, payee_note: str = "") -> int:
    """Sell every building on a deed back to the bank at half price, keeping stock right; returns the cash."""
    owner = tx.table["deeds"][deed].get("owner")
    level = d.buildings(tx.table, deed)
    if not level:
        return 0
    value = d.building_value(tx.table, deed) // 2
    if level == 5:
        tx.set(["deeds", deed, "hotel"], None)
        tx.set(["stock", "hotels"], tx.table["stock"]["hotels"] + 1)
    else:
        tx.set(["deeds", deed, "houses"], None)
        tx.set(["stock", "houses"], tx.table["stock"]["houses"] + level)
    tx.pay(BANK, owner, value, f"sold the buildings on {deed}{payee_note}")
    return value


@HOUSES.action("sell_building", c.player(), c.deed(only=own_built), BUILDING, c.count("count", "How many", 1, 4, required=False),
               label="Sell buildings", group="deeds")
def sell_building(tx: Tx, a: dict) -> str:
    """Sell houses or a hotel back to the bank at half their price, evenly across the group."""
    player = find_player(tx.table, a["player"])
    deed = find_deed(tx.table, a["deed"])
    kind = a.get("building") or ("hotel" if d.buildings(tx.table, deed) == 5 else "house")
    count = _count(a, most=4 if kind == "house" else 1)
    d.require_owner(tx.table, player, deed)
    c = card(tx.table, deed)
    group = d.group_deeds(tx.table, c["group"])
    received = 0
    for _ in range(count):
        level = d.buildings(tx.table, deed)
        levels = {g: d.buildings(tx.table, g) for g in group}
        if kind == "hotel":
            if level != 5:
                raise Refused(f"{deed} has no hotel")
            if tx.table["stock"].get("houses", 0) < 4:
                raise Refused(
                    f"the bank has only {tx.table['stock'].get('houses', 0)} houses, so the hotel on {deed} cannot "
                    "be broken back into 4: sell the other hotels of the group first, or settle it as the table agrees"
                )
            tx.set(["deeds", deed, "hotel"], None)
            tx.set(["deeds", deed, "houses"], 4)
            tx.set(["stock", "hotels"], tx.table["stock"]["hotels"] + 1)
            tx.set(["stock", "houses"], tx.table["stock"]["houses"] - 4)
            received += c.get("hotel_cost", c["house_cost"]) // 2
        else:
            if level == 5:
                raise Refused(f"{deed} has a hotel: sell the hotel first")
            if level == 0:
                raise Refused(f"{deed} has no houses to sell")
            if level < max(levels.values()):
                ahead = [g for g, n in levels.items() if n > level]
                raise Refused(f"sell evenly: sell from {', '.join(ahead)} before {deed}")
            tx.set(["deeds", deed, "houses"], level - 1 or None)
            tx.set(["stock", "houses"], tx.table["stock"]["houses"] + 1)
            received += c["house_cost"] // 2
    tx.pay(BANK, player, received, f"sold buildings on {deed}")
    what = "a hotel" if kind == "hotel" else f"{count} house{'s' if count > 1 else ''}"
    return f"{player} sold {what} on {deed} for {tx.fmt(received)}"


@DEEDS.action("tax", c.player(), *TAX_FIELDS, label="Tax", group="money")
def tax(tx: Tx, a: dict) -> str:
    """Pay a tax square: a flat sum, or where the card allows, a percentage of worth chosen beforehand."""
    player = find_player(tx.table, a["player"])
    taxes = tx.table["pack"].get("taxes", {})
    name = a.get("tax") or next(iter(taxes), None)
    if name not in taxes:
        raise BadAction(f"tax is one of {', '.join(taxes) or 'nothing in this game'}")
    rule = taxes[name]
    choice = a.get("choice") or ("flat" if "percent" not in rule else None)
    if choice not in ("flat", "percent") or choice not in rule:
        options = [k for k in ("flat", "percent") if k in rule]
        raise BadAction(f"the {name} tax needs \"choice\": {' or '.join(repr(o) for o in options)}, chosen before counting")
    counted = tx.rules.extras.get("tax_worth", d.tax_worth)(tx.table, player) if choice == "percent" else 0
    amount = rule["flat"] if choice == "flat" else counted * rule["percent"] // 100
    label = rule.get("label", f"{name} tax")
    tx.pay(player, fines_account(tx), amount, label)
    how = f" ({rule['percent']}% of {tx.fmt(counted)})" if choice == "percent" else ""
    return f"{player} paid {tx.fmt(amount)} {label}{tx.rules.extras.get('fines_place', '')}{how}"


@DEEDS.action("fine", c.player(), c.amount(), c.text(), label="Pay a fine", group="money")
def fine(tx: Tx, a: dict) -> str:
    """A player pays a card or penalty to the bank (or wherever the table's fines go)."""
    player = find_player(tx.table, a["player"])
    amount = tx.amount(a["amount"])
    memo = a.get("memo") or tx.rules.extras.get("fine_memo", "fine")
    tx.pay(player, fines_account(tx), amount, memo)
    return f"{player} paid {tx.fmt(amount)}{tx.rules.extras.get('fines_place', '')} ({memo})"


@HOUSES.action("repairs", c.player(), c.amount("per_house", "Per house", allow_zero=True),
               c.amount("per_hotel", "Per hotel", allow_zero=True), label="Repairs", group="money")
@may_be_empty
def repairs(tx: Tx, a: dict) -> str:
    """A repairs card: pay a sum for every house and every hotel the player owns."""
    player = find_player(tx.table, a["player"])
    per_house = tx.amount(a["per_house"], "per_house", allow_zero=True)
    per_hotel = tx.amount(a["per_hotel"], "per_hotel", allow_zero=True)
    houses = hotels = 0
    for deed in d.owned_by(tx.table, player):
        level = d.buildings(tx.table, deed)
        hotels += level == 5
        houses += level if level < 5 else 0
    total = houses * per_house + hotels * per_hotel
    tx.pay(player, fines_account(tx), total, "repairs")
    return f"{player} paid {tx.fmt(total)} for repairs on {houses} houses and {hotels} hotels"


from . import trade as _trade  # noqa: E402  (registers trade and bankrupt on DEEDS)

#: Jail: the fine goes where the table's fines go.
JAIL = jail_actions(fine_to=lambda tx: fines_account(tx))

#: Classic Monopoly and its variants: every action of the property game.
PROPERTY = Registry(COMMON, DEEDS, HOUSES, JAIL)


def rules(pack: dict) -> Rules:
    return Rules(family="property", registry=PROPERTY, could_raise=d.could_raise, worth=d.worth, check_card=check_card,
                 marks=d.marks)


_RENT_LENGTH = {"street": 6, "railroad": 4, "utility": 2}


def check_card(name: str, c: dict) -> None:
    """Refuse a deed card whose values cannot be right (used at load and when the banker corrects one)."""
    kind = c.get("kind", "street")
    if kind not in _RENT_LENGTH:
        raise BadAction(f"{name}: kind is street, railroad or utility, not {kind!r}")
    if not isinstance(c.get("group"), str) or not c["group"]:
        raise BadAction(f"{name}: a deed needs a group")
    for key in ("price", "mortgage") + (("house_cost",) if kind == "street" else ()):
        v = c.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise BadAction(f"{name}: {key} must be a whole number above 0, not {v!r}")
    if "hotel_cost" in c and (isinstance(c["hotel_cost"], bool) or not isinstance(c["hotel_cost"], int) or c["hotel_cost"] <= 0):
        raise BadAction(f"{name}: hotel_cost must be a whole number above 0")
    rent = c.get("rent")
    if not isinstance(rent, list) or len(rent) != _RENT_LENGTH[kind]:
        raise BadAction(f"{name}: a {kind} has {_RENT_LENGTH[kind]} rents, not {rent!r}")
    if any(isinstance(r, bool) or not isinstance(r, int) or r < 0 for r in rent):
        raise BadAction(f"{name}: rents are whole numbers of 0 or more")
