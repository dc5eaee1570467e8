"""Greenopoly parks: infrastructure levels, the bank's stock of each piece, worth and the ranking.

Pure functions over a table. A park's card holds ``group``, ``price``, ``mortgage``, ``rent`` (the
access for an unimproved park, then for levels one to four) and ``infrastructure_cost`` (the price
of each piece). Its state holds ``owner``, ``mortgaged`` and ``level`` (0-4), which the property
family's rent, mortgage and deal rules read as the park's buildings.

Level one is a fountain, two a playground, three a sports ground, four a collective space. By
default a park shows one piece, the one of its level (improving swaps it for the next); the option
``stacked_infrastructure`` keeps every lower piece standing too. Either way each step up costs one
``infrastructure_cost`` (or its share of an auction's bid, kept under ``paid``), and each step down is
sold back for half the price paid for it.
"""

from __future__ import annotations

from typing import Any, cast

from companion.core.model import Table, active_players, card, cash

from . import deeds as d

__all__ = [
    "LEVELS",
    "RENT_LENGTH",
    "level",
    "piece",
    "pieces_on",
    "infrastructure_value",
    "improved_parks",
    "worth",
    "tax_worth",
    "could_raise",
    "ranking",
    "check_card",
]

#: (piece, the bank's stock key) for levels one to four.
LEVELS = (
    ("fountain", "fountains"),
    ("playground", "playgrounds"),
    ("sports ground", "sports grounds"),
    ("collective space", "collective spaces"),
)
#: A park's card prints the access for an unimproved park and for each of the four levels.
RENT_LENGTH = 1 + len(LEVELS)

_MONEY_KEYS = ("price", "mortgage", "infrastructure_cost")


def level(table: Table, deed: str) -> int:
    return cast("int", table["deeds"][deed].get("level", 0))


def piece(n: int) -> str:
    """The piece that marks level ``n`` (1-4)."""
    return LEVELS[n - 1][0]


def marks(table: Table, deed: str) -> list[str]:
    """A park's state in Greenopoly's words: "mortgaged", "level 2 (a playground)"."""
    out = ["mortgaged"] if table["deeds"][deed].get("mortgaged") else []
    n = level(table, deed)
    if n:
        out.append(f"level {n} ({piece(n)})")
    return out


def stacked(table: Table) -> bool:
    return bool(table["options"].get("stacked_infrastructure"))


def pieces_on(table: Table, n: int) -> list[int]:
    """The levels whose pieces stand on a park at level ``n``."""
    if n == 0:
        return []
    return list(range(1, n + 1)) if stacked(table) else [n]


def paid_for(table: Table, deed: str) -> list[int]:
    """What was paid for each level standing on the park, lowest first: the card's price, or the share
    of an auction's winning bid when the pieces were auctioned in a shortage."""
    n = level(table, deed)
    paid = list(table["deeds"][deed].get("paid", []))[:n]
    return [card(table, deed)["infrastructure_cost"]] * (n - len(paid)) + paid


def sell_back_value(table: Table, deed: str, levels: int) -> int:
    """What selling the top ``levels`` levels of a park back to the bank brings: half the price paid."""
    return sum(p // 2 for p in paid_for(table, deed)[level(table, deed) - levels :]) if levels else 0


def infrastructure_value(table: Table, deed: str) -> int:
    """What the infrastructure on a park cost to put up."""
    return cast("int", level(table, deed) * card(table, deed)["infrastructure_cost"])


def improved_parks(table: Table, player: str) -> list[str]:
    return [p for p in d.owned_by(table, player) if level(table, p) > 0]


def worth(table: Table, player: str) -> int:
    """Net worth: cash, printed price of unmortgaged parks, mortgage value of mortgaged ones, and what
    the infrastructure cost."""
    total = cash(table, player)
    for park in d.owned_by(table, player):
        c = card(table, park)
        total += c["mortgage"] if table["deeds"][park].get("mortgaged") else c["price"]
        total += infrastructure_value(table, park)
    return total


def tax_worth(table: Table, player: str) -> int:
    """Total worth for the income tax: cash, printed prices of every park (mortgaged or not), and the
    cost of all infrastructure."""
    total = cash(table, player)
    for park in d.owned_by(table, player):
        total += card(table, park)["price"] + infrastructure_value(table, park)
    return total


def could_raise(table: Table, player: str) -> int:
    """Cash the player could still raise: infrastructure sold at half price, then every park mortgaged."""
    total = 0
    for park in d.owned_by(table, player):
        total += sell_back_value(table, park, level(table, park))
        if not table["deeds"][park].get("mortgaged"):
            total += card(table, park)["mortgage"]
    return total


def ranking(table: Table) -> list[dict[str, Any]]:
    """Players by the game's objective, the most improved parks first; then the most levels, then
    worth. Players out of the game come last."""
    rows = []
    for player in table["order"]:
        parks = improved_parks(table, player)
        rows.append(
            {
                "player": player,
                "improved_parks": len(parks),
                "levels": sum(level(table, p) for p in parks),
                "worth": worth(table, player),
                "cash": cash(table, player),
                "bankrupt": player not in active_players(table),
            }
        )
    rows.sort(key=lambda r: (r["bankrupt"], -r["improved_parks"], -r["levels"], -r["worth"]))
    return rows


#: A park's Access Right card: its group, three sums of money and the access for each level.
CARD = d.CardShape(
    "an Access Right card", "a park", _MONEY_KEYS, RENT_LENGTH, "access charges", "(unimproved, then levels 1 to 4)"
)
check_card = CARD.check
