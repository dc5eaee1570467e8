"""Deeds of the property games: colour groups, rent, worth, and what a player could still raise.

Pure functions over a table (see :mod:`companion.core.model`). A deed's state holds ``owner``,
``mortgaged`` and ``houses`` (0-4) / ``hotel`` (bool); its card (price, mortgage, rent table, house cost)
lives in the pack's ``cards`` so the banker can correct it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterable, cast

from companion.core.errors import BadAction, Refused
from companion.core.said import who
from companion.core.model import BANK, Table, card, cash

if TYPE_CHECKING:  # pragma: no cover
    from companion.core.engine import Tx

__all__ = [
    "group_of",
    "group_deeds",
    "owns_group",
    "owned_by",
    "buildings",
    "rent_due",
    "lift_cost",
    "interest",
    "worth",
    "tax_worth",
    "could_raise",
    "building_value",
    "rent_owner",
    "require_whole_group",
    "CardShape",
    "MortgageTerms",
    "CLASSIC_MORTGAGE",
    "mortgage_deed",
    "lift_mortgage",
    "require_even",
    "require_room_to_build",
]


def whole_positive(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value > 0


@dataclass(frozen=True)
class CardShape:
    """What a family's deed card must hold, and how its refusals name things: one card check serves every
    family whose cards are a group, sums of money above 0 and a fixed-length row of rents."""

    card: str  # the card as people call it: "a district card"
    thing: str  # the deed itself: "a district"
    money_keys: tuple[str, ...]
    rent_length: int
    rents: str  # what the row of rents is called: "rents", "access charges"
    rents_read: str  # what the row says, after its length: "(for 1 to 8 blocks)"

    def check(self, name: str, c: dict[str, Any]) -> None:
        """Refuse a card whose values cannot be right (at load, and when the banker corrects one)."""
        unknown = sorted(set(c) - {"group", "rent", "stand_in", *self.money_keys})
        if unknown:
            raise BadAction(f"{name}: {self.card} has no {', '.join(map(repr, unknown))}")
        if not isinstance(c.get("group"), str) or not c["group"].strip():
            raise BadAction(f"{name}: {self.thing} needs a colour group")
        for key in self.money_keys:
            if not whole_positive(c.get(key)):
                raise BadAction(f"{name}: {key} must be a whole number above 0, not {c.get(key)!r}")
        rent = c.get("rent")
        if not isinstance(rent, list) or len(rent) != self.rent_length:
            raise BadAction(f"{name}: {self.thing} has {self.rent_length} {self.rents} {self.rents_read}, not {rent!r}")
        if not all(whole_positive(r) for r in rent):
            raise BadAction(f"{name}: {self.rents} are whole numbers above 0, not {rent!r}")
        if "stand_in" in c and not isinstance(c["stand_in"], bool):
            raise BadAction(f"{name}: stand_in is true or false")


def group_of(table: Table, deed: str) -> str:
    return cast("str", card(table, deed)["group"])


def group_deeds(table: Table, group: str) -> list[str]:
    return [name for name, c in table["pack"]["cards"].items() if c["group"] == group]


_owners: tuple[Any, dict[str, list[str]]] | None = None  # (the deeds it was worked out from, each owner's)


def owned_by(table: Table, player: str, kind: str | None = None) -> list[str]:
    """The deeds ``player`` owns (of ``kind``), in board order. Who owns what is worked out once per deeds'
    state: a table is never changed in place and shares its ``deeds`` with the table before it until
    a deed changes (a player's worth after a payment asks again for every player)."""
    global _owners
    deeds = table["deeds"]
    kept = _owners
    if kept is None or kept[0] is not deeds:
        owners: dict[str, list[str]] = {}
        for name, d in deeds.items():
            owner = d.get("owner")
            if owner is not None:
                owners.setdefault(owner, []).append(name)
        kept = _owners = (deeds, owners)  # held, so the mapping cannot be freed and its id reused
    names = kept[1].get(player, ())
    if kind is None:
        return list(names)
    return [name for name in names if card(table, name).get("kind") == kind]


def owns_group(table: Table, player: str, group: str) -> bool:
    return all(table["deeds"][d].get("owner") == player for d in group_deeds(table, group))


def buildings(table: Table, deed: str) -> int:
    """Buildings on a street as a level: 0-4 houses, 5 for a hotel. Families that improve a deed by
    levels instead (Greenopoly's park infrastructure, 0-4) keep the level under ``level``."""
    d = table["deeds"][deed]
    return 5 if d.get("hotel") else d.get("houses", 0) or d.get("level", 0)


def interest(amount: int, percent: int = 10) -> int:
    """The bank's interest on a mortgage, rounded up to the whole unit."""
    return -(-amount * percent // 100)


def lift_cost(table: Table, deed: str) -> int:
    value = card(table, deed)["mortgage"]
    return cast("int", value + interest(value, table["pack"].get("mortgage_interest", 10)))


def rent_due(table: Table, deed: str, dice: int | None = None, *, multiplier: int | None = None) -> int:
    """What a visitor owes the owner of ``deed`` now (0 when mortgaged or unowned).

    Streets: the rent table by buildings, doubled on an unimproved street whose owner holds the whole
    group (even when another deed of the group is mortgaged). Railroads: the table by how many the
    owner holds. Utilities: the dice times 4 or 10 by how many the owner holds. ``multiplier`` serves the
    cards that send a player to the nearest railroad (pay double) or utility (pay ten times the dice).
    """
    state = table["deeds"][deed]
    owner = state.get("owner")
    if owner is None or state.get("mortgaged"):
        return 0
    c = card(table, deed)
    kind = c.get("kind", "street")
    rents = c["rent"]
    if kind == "railroad":
        n = len(owned_by(table, owner, "railroad"))
        rent = rents[min(n, len(rents)) - 1]
        return cast("int", rent * (multiplier or 1))
    if kind == "utility":
        if dice is None:
            raise BadAction(f'rent for {deed} needs the dice total ("dice": 2 to 12)')
        if isinstance(dice, bool) or not isinstance(dice, int) or not 2 <= dice <= 12:
            raise BadAction(f"dice must be a total from 2 to 12, not {dice!r}")
        n = len(owned_by(table, owner, "utility"))
        times = multiplier or rents[min(n, len(rents)) - 1]
        return dice * times
    level = buildings(table, deed)
    if level == 0 and owns_group(table, owner, c["group"]):
        return cast("int", rents[0] * 2)
    return cast("int", rents[level])


def building_value(table: Table, deed: str) -> int:
    """What the buildings on a street cost to put up (a hotel counts as five buildings)."""
    c = card(table, deed)
    level = buildings(table, deed)
    if level == 5:
        return cast("int", 4 * c.get("house_cost", 0) + c.get("hotel_cost", c.get("house_cost", 0)))
    return cast("int", level * c.get("house_cost", 0))


def marks(table: Table, deed: str) -> list[str]:
    """A deed's state in the property game's words: "mortgaged", "3 houses", "hotel"."""
    state = table["deeds"][deed]
    out = ["mortgaged"] if state.get("mortgaged") else []
    n = buildings(table, deed)
    if n == 5:
        out.append("hotel")
    elif n:
        out.append(f"{n} house{'s' if n > 1 else ''}")
    return out


def worth(table: Table, player: str) -> int:
    """Net worth for a timed end: cash, printed price of unmortgaged deeds, the mortgage value of
    mortgaged ones, and what the buildings cost."""
    total = cash(table, player)
    for deed in owned_by(table, player):
        c = card(table, deed)
        total += c["mortgage"] if table["deeds"][deed].get("mortgaged") else c["price"]
        total += building_value(table, deed)
    return total


def tax_worth(table: Table, player: str) -> int:
    """Total worth for the percentage income tax: cash, printed prices (mortgaged or not), buildings."""
    total = cash(table, player)
    for deed in owned_by(table, player):
        total += card(table, deed)["price"] + building_value(table, deed)
    return total


def could_raise(table: Table, player: str) -> int:
    """Cash the player could still raise: buildings sold at half price, then every deed mortgaged."""
    total = 0
    for deed in owned_by(table, player):
        total += building_value(table, deed) // 2
        if not table["deeds"][deed].get("mortgaged"):
            total += card(table, deed)["mortgage"]
    return total


def require_owner(table: Table, player: str, deed: str) -> None:
    owner = table["deeds"][deed].get("owner")
    if owner != player:
        raise Refused(f"{deed} belongs to {owner or 'the bank'}, not {player}")


def rent_owner(table: Table, payer: str, deed: str) -> str:
    """The owner a visitor on ``deed`` owes rent to, or a refusal saying why no rent is due."""
    state = table["deeds"][deed]
    owner = state.get("owner")
    if owner is None:
        raise Refused(f"nobody owns {deed}: no rent is due (it can be bought or auctioned)")
    if owner == payer:
        raise Refused(f"{payer} owns {deed}: no rent is due")
    if state.get("mortgaged"):
        raise Refused(f"{deed} is mortgaged: no rent is due")
    return cast("str", owner)


def require_whole_group(
    table: Table, player: str, deed: str, *, to: str = "build", before: str = "building on"
) -> list[str]:
    """The deed's group, if ``player`` owns all of it and none of it is mortgaged; else a refusal
    ("Ann needs the whole dark blue group to build (missing Park Place)"). Returns the group's deeds."""
    c = card(table, deed)
    group = group_deeds(table, c["group"])
    missing = [g for g in group if table["deeds"][g].get("owner") != player]
    if missing:
        raise Refused(f"{player} needs the whole {c['group']} group to {to} (missing {', '.join(missing)})")
    mortgaged = [g for g in group if table["deeds"][g].get("mortgaged")]
    if mortgaged:
        raise Refused(f"lift the mortgage on {', '.join(mortgaged)} before {before} the {c['group']} group")
    return group


def group_has_buildings(table: Table, deed: str) -> bool:
    return any(buildings(table, d) for d in group_deeds(table, group_of(table, deed)))


# -- one mortgage and one lift for every family that borrows on its deeds ------------------------------
@dataclass(frozen=True)
class MortgageTerms:
    """How a family's bank lends on a deed and is paid back: classic lends the card's mortgage value and
    takes it back with interest; Monopoly City lends the district's rent value and takes back that sum."""

    #: What the bank lends on the deed now.
    value: Callable[[Table, str], int]
    #: What lifting the mortgage costs now.
    lift_cost: Callable[[Table, str], int]
    #: Whether the buildings of the deed's group must be sold first (classic), or stay (Monopoly City).
    sell_buildings_first: bool = True
    #: Whether the sum lent is kept on the deed (``mortgage``): what buying it back costs.
    keeps_sum: bool = False
    #: The lift in the family's words, with ``{deed}``: "lifted the mortgage on {deed}", "bought back {deed}".
    lifted: str = "lifted the mortgage on {deed}"
    lifting: str = "lifting the mortgage on {deed}"
    #: Said after the sum lent ("", ", its rent value").
    value_said: str = ""


def mortgage_deed(tx: Tx, terms: MortgageTerms, player: str, deed: str) -> str:
    """The bank lends on an owned, unmortgaged deed."""
    require_owner(tx.table, player, deed)
    if tx.table["deeds"][deed].get("mortgaged"):
        raise Refused(f"{deed} is already mortgaged")
    if terms.sell_buildings_first and group_has_buildings(tx.table, deed):
        raise Refused(f"sell the buildings on the {group_of(tx.table, deed)} group before mortgaging {deed}")
    value = terms.value(tx.table, deed)
    tx.set(["deeds", deed, "mortgaged"], True)
    if terms.keeps_sum:
        tx.set(["deeds", deed, "mortgage"], value)
    tx.pay(BANK, player, value, f"mortgaged {deed}")
    return who(player) + f" mortgaged {deed} for {tx.fmt(value)}{terms.value_said}"


def lift_mortgage(tx: Tx, terms: MortgageTerms, player: str, deed: str) -> str:
    """The owner pays the bank back and the deed is free of its mortgage."""
    require_owner(tx.table, player, deed)
    if not tx.table["deeds"][deed].get("mortgaged"):
        raise Refused(f"{deed} is not mortgaged")
    cost = terms.lift_cost(tx.table, deed)
    if cash(tx.table, player) < cost:
        raise tx.short_of(player, cost, terms.lifting.format(deed=deed))
    lifted = terms.lifted.format(deed=deed)
    tx.pay(player, BANK, cost, lifted)
    tx.set(["deeds", deed, "mortgaged"], False)
    if terms.keeps_sum:
        tx.set(["deeds", deed, "mortgage"], None)
    return who(player) + f" {lifted} for {tx.fmt(cost)}"


#: Classic's terms (and Greenopoly's): the card's mortgage value, lifted with the bank's interest.
CLASSIC_MORTGAGE = MortgageTerms(
    value=lambda table, deed: cast("int", card(table, deed)["mortgage"]), lift_cost=lift_cost
)


# -- building evenly --------------------------------------------------------------------------------
Level = Callable[[Table, str], int]


#: How a refusal to build or sell out of turn is worded: ``(deeds in the way, the deed, its level now)``.
Uneven = Callable[[list[str], str, int], str]


def sold_evenly(ahead: list[str], deed: str, level: int) -> str:
    """Every family says a sale out of turn the same way."""
    return f"sell evenly: sell from {', '.join(ahead)} before {deed}"


def require_even(
    table: Table, group: Iterable[str], deed: str, level_of: Level, *, up: bool, refusal: Uneven = sold_evenly
) -> None:
    """A group is built evenly: a deed goes up a level only from the group's lowest level, and comes
    down only from its highest. ``refusal`` words the refusal in the family's words."""
    now = level_of(table, deed)
    levels = {g: level_of(table, g) for g in group}
    if up and now > min(levels.values()):
        raise Refused(refusal([g for g, n in levels.items() if n < now], deed, now))
    if not up and now < max(levels.values()):
        raise Refused(refusal([g for g, n in levels.items() if n > now], deed, now))


def require_room_to_build(
    table: Table, group: list[str], target: int, level_of: Level, *, reached: str, above: Callable[[list[str]], str]
) -> None:
    """Building a whole group up to ``target`` in one go: refused when every deed is there already
    (``reached``) or when some stand above it (``above(deeds)``: they are sold down, not built up)."""
    if all(level_of(table, g) >= target for g in group):
        raise Refused(reached)
    higher = [g for g in group if level_of(table, g) > target]
    if higher:
        raise Refused(above(higher))
