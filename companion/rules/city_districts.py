"""Monopoly City districts: colour groups, blocks, the rent value, and what a player is worth.

Pure functions over a table. A district's card (in the pack's ``cards``) holds ``group``, ``price``,
``land_rent``, ``rent`` (the rent for 1 to 8 blocks), ``residential_cost``, ``industrial_cost`` and
``skyscraper_cost``. Its state (in ``table["deeds"]``) may hold:

``owner``, ``mortgaged`` and ``mortgage`` (the sum the bank paid, which is what buying it back costs),
``residential`` and ``industrial`` (block counts), ``stadium``, ``skyscraper``, ``tower``, ``railroad``
(booleans), ``bonus`` or ``hazard`` (the name of the planning-permission building standing there).

The rent value is both what a visitor pays and what the district is worth at the end of the game.
"""

from __future__ import annotations

from typing import cast

from companion.core.model import Table, card, cash

from .deeds import CardShape, require_owner

__all__ = [
    "MAX_BLOCKS",
    "RENT_LENGTH",
    "group_of",
    "group_deeds",
    "owned_by",
    "owns_group",
    "complete_groups",
    "blocks",
    "counted_blocks",
    "rent_doubled",
    "rent_value",
    "stadiums_of",
    "worth",
    "could_raise",
    "require_owner",
    "holds_industry",
    "check_card",
]

#: Residential and industrial blocks a district can hold (stadiums, skyscrapers, the tower and
#: planning-permission buildings do not count).
MAX_BLOCKS = 8
#: A district card prints the rent for 1, 2, ... 8 blocks.
RENT_LENGTH = MAX_BLOCKS

_MONEY_KEYS = ("price", "land_rent", "residential_cost", "industrial_cost", "skyscraper_cost")


def marks(table: Table, deed: str) -> list[str]:
    """A district's state in Monopoly City's words: "mortgaged", "2 residential", "stadium", "hazard: prison"."""
    state = table["deeds"][deed]
    out = ["mortgaged"] if state.get("mortgaged") or state.get("mortgage") else []
    for kind in ("residential", "industrial"):
        if state.get(kind):
            out.append(f"{state[kind]} {kind}")
    out += [kind for kind in ("railroad", "stadium", "skyscraper", "tower") if state.get(kind) is True]
    for kind in ("bonus", "hazard"):
        if state.get(kind):
            out.append(f"{kind}: {state[kind]}" if isinstance(state[kind], str) else kind)
    return out


def group_of(table: Table, deed: str) -> str:
    return cast("str", card(table, deed)["group"])


def group_deeds(table: Table, group: str) -> list[str]:
    return [name for name, c in table["pack"]["cards"].items() if c["group"] == group]


def owned_by(table: Table, player: str) -> list[str]:
    return [name for name, state in table["deeds"].items() if state.get("owner") == player]


def owns_group(table: Table, player: str, group: str) -> bool:
    return all(table["deeds"][d].get("owner") == player for d in group_deeds(table, group))


def complete_groups(table: Table, player: str) -> list[str]:
    """The colour groups of which the player owns every district, in board order."""
    groups = dict.fromkeys(c["group"] for c in table["pack"]["cards"].values())
    return [g for g in groups if owns_group(table, player, g)]


def blocks(table: Table, deed: str) -> int:
    """Residential plus industrial blocks standing on the district (the 8-block limit counts these)."""
    state = table["deeds"][deed]
    return cast("int", state.get("residential", 0) + state.get("industrial", 0))


def counted_blocks(table: Table, deed: str) -> int:
    """Blocks that count for rent: residential blocks are worthless while a hazard stands there."""
    state = table["deeds"][deed]
    residential = 0 if state.get("hazard") else state.get("residential", 0)
    return cast("int", residential + state.get("industrial", 0))


def rent_doubled(table: Table, deed: str) -> bool:
    """A skyscraper anywhere in the district's group, or the owner's Monopoly Tower, doubles the rent
    (once: both together still double it only once)."""
    owner = table["deeds"][deed].get("owner")
    group = group_of(table, deed)
    if any(table["deeds"][d].get("skyscraper") for d in group_deeds(table, group)):
        return True
    return owner is not None and any(table["deeds"][d].get("tower") for d in owned_by(table, owner))


def rent_value(table: Table, deed: str) -> int:
    """What a visitor would pay the owner now: land rent with no blocks that count, else the card's
    rent for the counted blocks, doubled by a skyscraper or the tower. Nothing for an unowned or
    mortgaged district."""
    state = table["deeds"][deed]
    if state.get("owner") is None or state.get("mortgaged"):
        return 0
    c = card(table, deed)
    n = counted_blocks(table, deed)
    base = c["land_rent"] if n == 0 else c["rent"][n - 1]
    return cast("int", base * 2 if rent_doubled(table, deed) else base)


def stadiums_of(table: Table, player: str) -> int:
    return sum(1 for d in owned_by(table, player) if table["deeds"][d].get("stadium"))


def holds_industry(table: Table, player: str) -> bool:
    return any(table["deeds"][d].get("industrial", 0) for d in owned_by(table, player))


def worth(table: Table, player: str) -> int:
    """The end-of-game count: cash plus the rent value of every district the player owns (a mortgaged
    district's value was already taken as cash, so it adds nothing)."""
    return cash(table, player) + sum(rent_value(table, d) for d in owned_by(table, player))


def could_raise(table: Table, player: str) -> int:
    """Cash the player could still raise: mortgaging each unmortgaged district at its rent value."""
    return sum(rent_value(table, d) for d in owned_by(table, player))


#: A district card: its group, five sums of money and the rents for 1 to 8 blocks.
CARD = CardShape("a district card", "a district", _MONEY_KEYS, RENT_LENGTH, "rents", f"(for 1 to {MAX_BLOCKS} blocks)")
check_card = CARD.check
