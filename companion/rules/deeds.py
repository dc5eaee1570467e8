"""Deeds of the property games: colour groups, rent, worth, and what a player could still raise.

Pure functions over a table (see :mod:`companion.core.model`). A deed's state holds ``owner``,
``mortgaged`` and ``houses`` (0-4) / ``hotel`` (bool); its card (price, mortgage, rent table, house cost)
lives in the pack's ``cards`` so the banker can correct it.
"""

from __future__ import annotations

from typing import cast

from companion.core.errors import BadAction, Refused
from companion.core.model import Table, card, cash

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
]


def group_of(table: Table, deed: str) -> str:
    return cast("str", card(table, deed)["group"])


def group_deeds(table: Table, group: str) -> list[str]:
    return [name for name, c in table["pack"]["cards"].items() if c["group"] == group]


def owned_by(table: Table, player: str, kind: str | None = None) -> list[str]:
    return [
        name
        for name, d in table["deeds"].items()
        if d.get("owner") == player and (kind is None or card(table, name).get("kind") == kind)
    ]


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
