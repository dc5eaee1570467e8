"""The property-game family: classic Monopoly and the games built on its money rules.

Buying and auctions, rent, mortgages, houses and hotels, trades, taxes, jail and bankruptcy. Each
handler checks every rule first and then records events; a refusal leaves the table untouched.
"""

from __future__ import annotations

from typing import Any, cast

from companion.core import contract as c
from companion.core.common import COMMON, advance_turn
from companion.core.engine import Registry, Rules, Tx, may_be_empty
from companion.core.errors import BadAction, Refused
from companion.core.said import typed, who
from companion.core.model import BANK, card, cash, playing, pot_account, pot_enabled
from companion.core.money import Currency

from . import deeds as d
from . import owed
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
        return cast("str", own)
    if tx.option("free_parking") and "free parking" in tx.table["pots"] and pot_enabled(tx.table, "free parking"):
        return pot_account("free parking")
    return BANK


# -- what a screen may offer for each field -----------------------------------------------------------
def unowned(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    return [n for n, rec in table["deeds"].items() if rec.get("owner") is None]


def own_deeds(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    """The deeds of the action's owner (its ``player`` field, declared with the role "owner")."""
    return [n for n, rec in table["deeds"].items() if rec.get("owner") == partial.get("player")]


def own_mortgaged(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    return [n for n in own_deeds(table, partial) if table["deeds"][n].get("mortgaged")]


def own_streets(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    return [n for n in own_deeds(table, partial) if card(table, n).get("kind", "street") == "street"]


def own_built(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    return [n for n in own_deeds(table, partial) if d.buildings(table, n)]


def rent_deeds(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    """Deeds someone else owns: the ones the payer could owe rent on."""
    payer = partial.get("payer")
    return [n for n, rec in table["deeds"].items() if rec.get("owner") not in (None, payer)]


def rent_check(table: dict[str, Any], partial: dict[str, Any]) -> None:
    d.rent_owner(table, partial["payer"], partial["deed"])


def is_utility(table: dict[str, Any], partial: dict[str, Any]) -> bool:
    return card(table, partial["deed"]).get("kind") == "utility"


def tax_names(table: dict[str, Any], partial: dict[str, Any]) -> list[tuple[str, str]]:
    return [(name, rule.get("label", f"{name} tax")) for name, rule in table["pack"].get("taxes", {}).items()]


def _tax_rule(table: dict[str, Any], partial: dict[str, Any]) -> dict[str, Any]:
    taxes = table["pack"].get("taxes", {})
    return cast("dict[str, Any]", taxes.get(partial.get("tax") or next(iter(taxes), ""), {}))


def tax_ways(table: dict[str, Any], partial: dict[str, Any]) -> list[tuple[str, str]]:
    rule = _tax_rule(table, partial)
    ways = []
    if "flat" in rule:
        ways.append(("flat", f"Pay {Currency.from_pack(table['pack']).format(rule['flat'])}"))
    if "percent" in rule:
        ways.append(("percent", f"Pay {rule['percent']}% of worth"))
    return ways


TIMES = c.count("times", "How many times (2 when landing on the start square)", 1, 2, required=False)
MULTIPLIER = c.choice(
    "multiplier",
    "Card multiplier",
    [(2, "Twice the rent (railroad card)"), (10, "Ten times the dice (utility card)")],
    required=False,
)
BUILDING = c.choice("building", "House or hotel", [("house", "House"), ("hotel", "Hotel")], required=False)
#: Which tax (asked when the pack has more than one) and how it is paid (asked when it offers a percentage).
TAX_FIELDS = (
    c.choice(
        "tax",
        "Which tax",
        options_from=tax_names,
        required=False,
        resolve=lambda table, raw: find_tax(table["pack"].get("taxes", {}), raw),  # its key or its board name
        when=lambda table, partial: len(table["pack"].get("taxes", {})) > 1,
    ),
    c.choice(
        "choice",
        "Flat sum or percentage",
        options_from=tax_ways,
        required=False,
        when=lambda table, partial: "percent" in _tax_rule(table, partial),
    ),
)


def _count(a: dict[str, Any], field: str = "count", most: int = 5) -> int:
    n = a.get(field, 1)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= most:
        raise BadAction(f"{field} must be a whole number from 1 to {most}, not {n!r}")
    return n


@DEEDS.action("salary", c.player(), TIMES, label="Salary", group="money")
def salary(tx: Tx, a: dict[str, Any]) -> str:
    """The bank pays a player's salary for passing the start square."""
    player = a["player"]
    times = _count(a, "times", 2)
    amount = tx.table["pack"]["salary"] * times
    label = tx.table["pack"].get("names", {}).get("salary", "salary")
    tx.pay(BANK, player, amount, label)
    return who(player) + f" collected {tx.fmt(amount)} {label}"


@DEEDS.action("buy", c.player(), c.deed(only=unowned), label="Buy", group="deeds")
def buy(tx: Tx, a: dict[str, Any]) -> str:
    """A player buys an unowned deed from the bank at its printed price."""
    player = a["player"]
    deed = a["deed"]
    owner = tx.table["deeds"][deed].get("owner")
    if owner is not None:
        raise Refused(f"{deed} already belongs to {owner}")
    price = card(tx.table, deed)["price"]
    if cash(tx.table, player) < price:
        raise tx.short_of(player, price, deed)
    tx.pay(player, BANK, price, f"bought {deed}")
    tx.set(["deeds", deed, "owner"], player)
    return who(player) + f" bought {deed} for {tx.fmt(price)}"


@DEEDS.action(
    "auction",
    c.deed(only=unowned),
    c.player("winner", "Who won", role=""),
    c.amount("bid", "Winning bid"),
    label="Auction",
    group="deeds",
)
def auction(tx: Tx, a: dict[str, Any]) -> str:
    """An unowned deed goes to the highest bidder, who pays the bid to the bank (from the pack's
    smallest bid, if it sets one)."""
    deed = a["deed"]
    winner = a["winner"]
    owner = tx.table["deeds"][deed].get("owner")
    if owner is not None:
        raise Refused(f"{deed} already belongs to {owner}; only the bank's deeds are auctioned")
    bid = a["bid"]
    least = tx.table["pack"].get("auction_min_bid", 1)
    if bid < least:
        raise Refused(f"bids start at {tx.fmt(least)}, not {tx.fmt(bid)}")
    if cash(tx.table, winner) < bid:
        raise tx.short_of(winner, bid, f"the bid on {deed}")
    tx.pay(winner, BANK, bid, f"won the auction for {deed}")
    tx.set(["deeds", deed, "owner"], winner)
    return who(winner) + f" won {deed} at auction for {tx.fmt(bid)}"


@DEEDS.action(
    "rent",
    c.player("payer", "Who pays", role="payer"),
    c.deed(only=rent_deeds, check=rent_check),
    c.dice(required=False, when=is_utility),
    MULTIPLIER,
    label="Rent",
    group="money",
)
def rent(tx: Tx, a: dict[str, Any]) -> str:
    """A player landing on an owned deed pays its owner the rent the card says."""
    payer = a["payer"]
    deed = a["deed"]
    owner = d.rent_owner(tx.table, payer, deed)
    multiplier = a.get("multiplier")
    amount = d.rent_due(tx.table, deed, a.get("dice"), multiplier=multiplier)
    tx.pay(payer, owner, amount, f"rent for {deed}")
    return who(payer) + " paid " + who(owner) + f" {tx.fmt(amount)} rent for {deed}"


@DEEDS.action("mortgage", c.player(role="owner"), c.deed(only=own_deeds), label="Mortgage", group="deeds")
def mortgage(tx: Tx, a: dict[str, Any]) -> str:
    """The bank lends the mortgage value on an unimproved deed."""
    return d.mortgage_deed(tx, d.CLASSIC_MORTGAGE, a["player"], a["deed"])


@DEEDS.action("unmortgage", c.player(role="owner"), c.deed(only=own_mortgaged), label="Lift a mortgage", group="deeds")
def unmortgage(tx: Tx, a: dict[str, Any]) -> str:
    """The owner lifts a mortgage: the mortgage value plus the bank's interest."""
    return d.lift_mortgage(tx, d.CLASSIC_MORTGAGE, a["player"], a["deed"])


def _built_evenly(behind: list[str], deed: str, level: int) -> str:
    return f"build evenly: {', '.join(behind)} need{'s' if len(behind) == 1 else ''} a house before {deed} gets another"


def _check_can_build(tx: Tx, player: str, deed: str) -> list[str]:
    c = card(tx.table, deed)
    if c.get("kind", "street") != "street":
        raise Refused(f"nothing can be built on {deed}")
    d.require_owner(tx.table, player, deed)
    return d.require_whole_group(tx.table, player, deed)


@HOUSES.action(
    "build",
    c.player(role="owner"),
    c.deed(only=own_streets),
    BUILDING,
    c.count("count", "How many", 1, 4, required=False),
    c.amount("price", "Total price paid at a shortage auction", required=False),
    label="Build",
    group="deeds",
)
def build(tx: Tx, a: dict[str, Any]) -> str:
    """Buy houses or a hotel from the bank for a street of a complete, unmortgaged group, evenly.

    ``price`` is the total paid when a shortage of buildings was settled by auction among buyers.
    """
    player = a["player"]
    deed = a["deed"]
    kind = a.get("building") or ("hotel" if d.buildings(tx.table, deed) == 4 else "house")
    count = _count(a, most=4 if kind == "house" else 1)
    group = _check_can_build(tx, player, deed)
    c = card(tx.table, deed)
    each = c["house_cost"] if kind == "house" else c.get("hotel_cost", c["house_cost"])
    total = a["price"] if a.get("price") is not None else each * count
    if cash(tx.table, player) < total:
        raise tx.short_of(player, total, f"{count} {kind}{'s' if count > 1 else ''} on {deed}")
    for _ in range(count):
        level = d.buildings(tx.table, deed)
        levels = {g: d.buildings(tx.table, g) for g in group}
        if kind == "house":
            if level >= 4:
                raise Refused(
                    f"{deed} has {'a hotel' if level == 5 else '4 houses'}; {'no more can go there' if level == 5 else 'next comes a hotel'}"
                )
            d.require_even(tx.table, group, deed, d.buildings, up=True, refusal=_built_evenly)
            if tx.table["stock"].get("houses", 0) < 1:
                raise Refused(
                    "the bank has no houses left: wait until someone sells some, or auction them among buyers"
                )
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
    return who(player) + f" built {what} on {deed} for {tx.fmt(total)}"


def houses_text(n: int) -> str:
    """ "no houses", "only 1 house", "only 3 houses"."""
    return "no houses" if n == 0 else f"only {n} house{'s' if n != 1 else ''}"


def _level(a: dict[str, Any], low: int, high: int) -> int:
    n = a.get("level")
    if isinstance(n, bool) or not isinstance(n, int) or not low <= n <= high:
        raise BadAction(f"level must be a whole number from {low} to {high}, not {n!r}")
    return n


def level_text(level: int) -> str:
    """A street's buildings in words: "no buildings", "1 house", "3 houses", "a hotel"."""
    if level == 5:
        return "a hotel"
    return "no buildings" if level == 0 else f"{level} house{'s' if level != 1 else ''}"


@HOUSES.action(
    "improve_group",
    c.player(role="owner"),
    c.deed(only=own_streets, says="Which group (any street of it)"),
    c.count("level", "Up to how many houses on every street (5: a hotel)", 1, 5),
    label="Build on the whole group",
    group="deeds",
)
def improve_group(tx: Tx, a: dict[str, Any]) -> str:
    """Build evenly on every street of a complete, unmortgaged group up to a level, in one go: all of it or none.

    ``level`` is 1-4 houses or 5 for a hotel; if the money or the bank's buildings fall short, nothing
    is built."""
    player = a["player"]
    deed = a["deed"]
    target = _level(a, 1, 5)
    group = _check_can_build(tx, player, deed)
    name = card(tx.table, deed)["group"]
    d.require_room_to_build(
        tx.table,
        group,
        target,
        d.buildings,
        reached=f"every street of the {name} group already has {level_text(target)} or more",
        above=lambda above: (
            f"{', '.join(above)} already {'has' if len(above) == 1 else 'have'} more than "
            f"{level_text(target)}: sell the group down instead"
        ),
    )
    total = 0
    houses, hotels = tx.table["stock"].get("houses", 0), tx.table["stock"].get("hotels", 0)
    levels = {g: d.buildings(tx.table, g) for g in group}
    while min(levels.values()) < target:
        street = min(group, key=lambda g: levels[g])  # the lowest first, so the group stays even
        c = card(tx.table, street)
        if levels[street] < 4:
            if houses < 1:
                raise Refused(
                    f"the bank runs out of houses before the {name} group reaches {level_text(target)} "
                    "on every street: build fewer, or auction the last ones among buyers"
                )
            houses -= 1
            total += c["house_cost"]
        else:
            if hotels < 1:
                raise Refused(
                    f"the bank has no hotels left for the {name} group: wait until someone sells one, "
                    "or auction it among buyers"
                )
            hotels, houses = hotels - 1, houses + 4
            total += c.get("hotel_cost", c["house_cost"])
        levels[street] += 1
    if cash(tx.table, player) < total:
        raise tx.short_of(player, total, f"building on the {name} group")
    for street in group:
        if levels[street] == 5:
            tx.set(["deeds", street, "houses"], None)
            tx.set(["deeds", street, "hotel"], True)
        else:
            tx.set(["deeds", street, "houses"], levels[street] or None)
    tx.set(["stock", "houses"], houses)
    tx.set(["stock", "hotels"], hotels)
    tx.pay(player, BANK, total, f"built on the {name} group")
    return who(player) + f" built the {name} group up to {level_text(target)} a street for {tx.fmt(total)}"


@HOUSES.action(
    "sell_group",
    c.player(role="owner"),
    c.deed(only=own_built, says="Which group (any street of it)"),
    c.count("level", "Down to how many houses on every street", 0, 4),
    label="Sell the group down",
    group="deeds",
)
def sell_group(tx: Tx, a: dict[str, Any]) -> str:
    """Sell buildings back at half price, evenly, until no street of the group stands above a level.

    ``level`` is 0-4 houses. A hotel comes down straight to the level, so only the houses left standing
    come from the bank; all of it or none of it."""
    player = a["player"]
    deed = a["deed"]
    target = _level(a, 0, 4)
    d.require_owner(tx.table, player, deed)
    name = card(tx.table, deed)["group"]
    group = d.group_deeds(tx.table, name)
    others = [g for g in group if tx.table["deeds"][g].get("owner") != player and d.buildings(tx.table, g)]
    if others:
        raise Refused(
            f"{', '.join(others)} of the {name} group belong{'s' if len(others) == 1 else ''} to someone else"
        )
    before = {g: d.buildings(tx.table, g) for g in group}
    if all(n <= target for n in before.values()):
        raise Refused(f"no street of the {name} group has more than {level_text(target)}")
    houses, hotels, received = tx.table["stock"].get("houses", 0), tx.table["stock"].get("hotels", 0), 0
    for street, n in before.items():
        if n <= target:
            continue
        value = d.building_value(tx.table, street)
        if n == 5:
            hotels += 1
            houses -= target
        else:
            houses += n - target
        c = card(tx.table, street)
        received += (value - target * c["house_cost"]) // 2
    if houses < 0:
        raise Refused(
            f"the bank has {houses_text(houses + sum(target for n in before.values() if n == 5))}, not "
            f"enough to leave {level_text(target)} where the hotels stand: sell down to a lower level"
        )
    for street, n in before.items():
        if n > target:
            tx.set(["deeds", street, "hotel"], None)
            tx.set(["deeds", street, "houses"], target or None)
    tx.set(["stock", "houses"], houses)
    tx.set(["stock", "hotels"], hotels)
    tx.pay(BANK, player, received, f"sold buildings on the {name} group")
    each = " a street" if target else ""
    return who(player) + f" sold the {name} group down to {level_text(target)}{each} for {tx.fmt(received)}"


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


@HOUSES.action(
    "sell_building",
    c.player(role="owner"),
    c.deed(only=own_built),
    BUILDING,
    c.count("count", "How many", 1, 4, required=False),
    label="Sell buildings",
    group="deeds",
)
def sell_building(tx: Tx, a: dict[str, Any]) -> str:
    """Sell houses or a hotel back to the bank at half their price, evenly across the group."""
    player = a["player"]
    deed = a["deed"]
    kind = a.get("building") or ("hotel" if d.buildings(tx.table, deed) == 5 else "house")
    count = _count(a, most=4 if kind == "house" else 1)
    d.require_owner(tx.table, player, deed)
    c = card(tx.table, deed)
    group = d.group_deeds(tx.table, c["group"])
    received = 0
    for _ in range(count):
        level = d.buildings(tx.table, deed)
        if kind == "hotel":
            if level != 5:
                raise Refused(f"{deed} has no hotel")
            if tx.table["stock"].get("houses", 0) < 4:
                raise Refused(
                    f"the bank has {houses_text(tx.table['stock'].get('houses', 0))}, so the hotel on {deed} cannot "
                    "be broken back into 4 houses: sell the group down to a level the bank's houses allow "
                    "(sell_group; down to no buildings needs none)"
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
            d.require_even(tx.table, group, deed, d.buildings, up=False)
            tx.set(["deeds", deed, "houses"], level - 1 or None)
            tx.set(["stock", "houses"], tx.table["stock"]["houses"] + 1)
            received += c["house_cost"] // 2
    tx.pay(BANK, player, received, f"sold buildings on {deed}")
    what = "a hotel" if kind == "hotel" else f"{count} house{'s' if count > 1 else ''}"
    return who(player) + f" sold {what} on {deed} for {tx.fmt(received)}"


@DEEDS.action("tax", c.player(), *TAX_FIELDS, label="Tax", group="money")
def tax(tx: Tx, a: dict[str, Any]) -> str:
    """Pay a tax square: a flat sum, or where the card allows, a percentage of worth chosen beforehand."""
    player = a["player"]
    taxes = tx.table["pack"].get("taxes", {})
    name = find_tax(taxes, a.get("tax"))
    rule = taxes[name]
    choice = a.get("choice") or ("flat" if "percent" not in rule else None)
    if choice not in ("flat", "percent") or choice not in rule:
        options = [k for k in ("flat", "percent") if k in rule]
        raise BadAction(
            f'the {name} tax needs "choice": {" or ".join(repr(o) for o in options)}, chosen before counting'
        )
    counted = tx.rules.extras.get("tax_worth", d.tax_worth)(tx.table, player) if choice == "percent" else 0
    amount = rule["flat"] if choice == "flat" else counted * rule["percent"] // 100
    label = rule.get("label", f"{name} tax")
    tx.pay(player, fines_account(tx), amount, label)
    how = f" ({rule['percent']}% of {tx.fmt(counted)})" if choice == "percent" else ""
    return who(player) + f" paid {tx.fmt(amount)} {label}{tx.rules.extras.get('fines_place', '')}{how}"


def find_tax(taxes: dict[str, Any], wanted: object) -> str:
    """A tax by its key ("income") or by the name the board prints ("Hospital Bills"), any case."""
    if wanted is None or wanted == "":
        if taxes:
            return next(iter(taxes))
    elif isinstance(wanted, str):
        key = " ".join(wanted.split()).casefold()
        for name, rule in taxes.items():
            if key in (name.casefold(), str(rule.get("label", "")).casefold()):
                return name
    names = [
        f"{n} ({r['label']})" if r.get("label") and r["label"].casefold() != f"{n} tax" else n for n, r in taxes.items()
    ]
    raise BadAction(f"tax is one of {', '.join(names) or 'nothing in this game'}, not {wanted!r}")


@DEEDS.action("fine", c.player(), c.amount(), c.text(), label="Pay a fine", group="money")
def fine(tx: Tx, a: dict[str, Any]) -> str:
    """A player pays a card or penalty to the bank (or wherever the table's fines go)."""
    player = a["player"]
    amount = a["amount"]
    memo = a.get("memo") or tx.rules.extras.get("fine_memo", "fine")
    tx.pay(player, fines_account(tx), amount, memo)
    place = tx.rules.extras.get("fines_place", "")
    if a.get("memo"):
        return who(player) + f" paid {tx.fmt(amount)}{place} (" + typed(memo) + ")"
    return who(player) + f" paid {tx.fmt(amount)}{place} {tx.rules.extras.get('fine_words', 'as a fine')}"


@HOUSES.action(
    "repairs",
    c.player(),
    c.amount("per_house", "Per house", allow_zero=True),
    c.amount("per_hotel", "Per hotel", allow_zero=True),
    label="Repairs",
    group="money",
)
@may_be_empty
def repairs(tx: Tx, a: dict[str, Any]) -> str:
    """A repairs card: pay a sum for every house and every hotel the player owns."""
    player = a["player"]
    per_house = a["per_house"]
    per_hotel = a["per_hotel"]
    houses = hotels = 0
    for deed in d.owned_by(tx.table, player):
        level = d.buildings(tx.table, deed)
        hotels += level == 5
        houses += level if level < 5 else 0
    total = houses * per_house + hotels * per_hotel
    tx.pay(player, fines_account(tx), total, "repairs")
    counted = [f"{n} {w}{'s' if n != 1 else ''}" for n, w in ((houses, "house"), (hotels, "hotel")) if n]
    return who(player) + f" paid {tx.fmt(total)} for repairs on " + (" and ".join(counted) or "no buildings")


from . import trade as _trade  # noqa: E402, F401  (registers trade and bankrupt on DEEDS)

#: Jail: the fine goes where the table's fines go.
JAIL = jail_actions(fine_to=lambda tx: fines_account(tx))

#: Sums a bankruptcy left a creditor owing: asked for before their turn ends, paid with ``settle``.
OWED = Registry()


@OWED.action("settle", c.player(), label="Settle what is owed", group="money")
def settle(tx: Tx, a: dict[str, Any]) -> str:
    """The player pays what they owe (the interest on a mortgaged deed received in a bankruptcy they
    could not pay at once), once they have raised the money."""
    player = a["player"]
    if not owed.owed(tx.table, player):
        raise Refused(f"{player} owes nothing")
    return owed.settle_all(tx, player)


@OWED.action("next_turn", label="Next turn", group="turn")
def next_turn(tx: Tx, a: dict[str, Any]) -> str:
    """The current player's turn ends (not while they still owe what a bankruptcy left them to pay)
    and the next player in the game plays."""
    owed.require_nothing_owed(tx, playing(tx.table))
    return advance_turn(tx)


#: Classic Monopoly and its variants: every action of the property game.
PROPERTY = Registry(COMMON, DEEDS, HOUSES, JAIL, OWED)


def player_view(table: dict[str, Any], player: str) -> dict[str, Any]:
    """What the touchscreen and phones show besides cash: what the player still owes."""
    return {"owes": owed.owed_view(table, player, Currency.from_pack(table["pack"]).format)}


#: The values of a card that are money (the rest are counts, text or yes/no), for every screen that
#: shows a card: "Property tax $100", never "Property tax 100".
CARD_MONEY = ("price", "mortgage", "rent", "house_cost")


def rules(pack: dict[str, Any]) -> Rules:
    return Rules(
        family="property",
        registry=PROPERTY,
        could_raise=d.could_raise,
        worth=d.worth,
        check_card=check_card,
        marks=d.marks,
        extras={"player_view": player_view, "deed_fields": DEED_FIELDS, "card_money": CARD_MONEY},
    )


#: What a deed of this family holds besides its owner, as a phone's page gives it (docs/api.md).
DEED_FIELDS = {
    "mortgaged": {"type": "boolean", "default": False},
    "houses": {"type": "integer", "minimum": 0, "maximum": 4, "default": 0},
    "hotel": {"type": "boolean", "default": False},
}


_RENT_LENGTH = {"street": 6, "railroad": 4, "utility": 2}


def check_card(name: str, c: dict[str, Any]) -> None:
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
    if "hotel_cost" in c and (
        isinstance(c["hotel_cost"], bool) or not isinstance(c["hotel_cost"], int) or c["hotel_cost"] <= 0
    ):
        raise BadAction(f"{name}: hotel_cost must be a whole number above 0")
    rent = c.get("rent")
    if not isinstance(rent, list) or len(rent) != _RENT_LENGTH[kind]:
        raise BadAction(f"{name}: a {kind} has {_RENT_LENGTH[kind]} rents, not {rent!r}")
    if any(isinstance(r, bool) or not isinstance(r, int) or r < 0 for r in rent):
        raise BadAction(f"{name}: rents are whole numbers of 0 or more")
