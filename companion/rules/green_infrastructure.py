"""Greenopoly park infrastructure: improving parks level by level, evenly, and selling back at half price.

A park can be improved once its owner holds the whole colour group and no park of the group is
mortgaged. Every park of the group must reach a level before any goes higher, up to level four;
selling back goes down the same way. The bank's stock of each piece is finite: when a piece runs out
nobody can improve to that level until one comes back (or the last pieces are auctioned among the
buyers, recorded with ``price``).
"""

from __future__ import annotations

from typing import Any, cast

from companion.core import contract as c
from companion.core.engine import Registry, Tx
from companion.core.errors import BadAction, Refused
from companion.core.said import who
from companion.core.model import BANK, card, cash

from . import deeds as d
from . import green_parks as gp

__all__ = ["INFRASTRUCTURE", "take_piece", "drop_to", "return_pieces", "sell_all"]

INFRASTRUCTURE = Registry()
LEVELS = c.count("count", "How many levels", 1, len(gp.LEVELS), required=False)


def own_parks(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    return [
        n
        for n, rec in table["deeds"].items()
        if rec.get("owner") == partial.get("player") and "infrastructure_cost" in card(table, n)
    ]


def own_improved(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    return [n for n in own_parks(table, partial) if gp.level(table, n)]


def _count(a: dict[str, Any]) -> int:
    n = a.get("count", 1)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(gp.LEVELS):
        raise BadAction(f"count must be a whole number of levels from 1 to {len(gp.LEVELS)}, not {n!r}")
    return n


def _stock(tx: Tx, n: int) -> int:
    return cast("int", tx.table["stock"].get(gp.LEVELS[n - 1][1], 0))


def _add_stock(tx: Tx, n: int, change: int) -> None:
    key = gp.LEVELS[n - 1][1]
    tx.set(["stock", key], tx.table["stock"].get(key, 0) + change)


def _set_paid(tx: Tx, deed: str, paid: list[int]) -> None:
    tx.set(["deeds", deed, "paid"], paid or None)


def take_piece(tx: Tx, deed: str, new_level: int, paid: int | None = None) -> None:
    """Raise a park one level, taking the new piece from the bank (and, unless pieces stack, giving
    back the one it replaces); ``paid`` is what the level cost, when not the card's price."""
    if _stock(tx, new_level) < 1:
        raise Refused(
            f"the bank has no {gp.LEVELS[new_level - 1][1]} left: wait until one is sold back, "
            "or auction the last ones among the players who want them"
        )
    before = gp.paid_for(tx.table, deed)
    _add_stock(tx, new_level, -1)
    if new_level > 1 and not gp.stacked(tx.table):
        _add_stock(tx, new_level - 1, +1)
    tx.set(["deeds", deed, "level"], new_level)
    _set_paid(tx, deed, before + [card(tx.table, deed)["infrastructure_cost"] if paid is None else paid])


def drop_to(tx: Tx, deed: str, target: int) -> None:
    """Bring a park down to level ``target``: its pieces above go back to the bank and, unless pieces
    stack, the piece of the new level comes from the bank. Refused if the bank has none of it."""
    now = gp.level(tx.table, deed)
    paid = gp.paid_for(tx.table, deed)
    for n in gp.pieces_on(tx.table, now):
        if n > target or not gp.stacked(tx.table):
            _add_stock(tx, n, +1)
    if target and not gp.stacked(tx.table):
        if _stock(tx, target) < 1:
            raise Refused(f"the bank has no {gp.LEVELS[target - 1][1]} to put on {deed}: sell it down further")
        _add_stock(tx, target, -1)
    tx.set(["deeds", deed, "level"], target or None)
    _set_paid(tx, deed, paid[:target])


def lowest_reachable(tx: Tx, deed: str, wanted: int) -> int:
    """The level a park selling down to ``wanted`` can stand at: ``wanted`` when the bank can put its
    piece there (or pieces stack), else the highest lower level whose piece the bank holds, else bare
    land. So selling back is always possible."""
    if gp.stacked(tx.table):
        return wanted
    now = gp.level(tx.table, deed)
    for n in range(wanted, 0, -1):
        # The piece coming off the park goes back first, so it counts as in the bank.
        if _stock(tx, n) + (n == now) >= 1:
            return n
    return 0


def drop_piece(tx: Tx, deed: str) -> int:
    """Lower a park one level (further, when the bank lacks the piece for the level below); returns
    the levels it came down."""
    now = gp.level(tx.table, deed)
    target = lowest_reachable(tx, deed, now - 1)
    drop_to(tx, deed, target)
    return now - target


def return_pieces(tx: Tx, deed: str) -> None:
    """Every piece on a park goes back to the bank (bankruptcy), without money."""
    for n in gp.pieces_on(tx.table, gp.level(tx.table, deed)):
        _add_stock(tx, n, +1)
    tx.set(["deeds", deed, "level"], None)
    tx.set(["deeds", deed, "paid"], None)


def _shares(total: int, count: int) -> list[int]:
    """An auction's total spread over the levels it bought (the odd units on the first)."""
    each, rest = divmod(total, count)
    return [each + (i < rest) for i in range(count)]


def _improved_evenly(behind: list[str], deed: str, level: int) -> str:
    return f"improve evenly: {', '.join(behind)} must reach level {level} before {deed} goes higher"


@INFRASTRUCTURE.action(
    "improve",
    c.player(role="owner"),
    c.deed(only=own_parks),
    LEVELS,
    c.amount("price", "Total price paid at a shortage auction", required=False),
    label="Improve a park",
    group="deeds",
)
def improve(tx: Tx, a: dict[str, Any]) -> str:
    """Buy infrastructure from the bank to raise a park of a complete, unmortgaged group, evenly.

    ``price`` is the total paid when a shortage of pieces was settled by auction among the buyers;
    selling those levels back brings half of that price.
    """
    player = a["player"]
    deed = a["deed"]
    count = _count(a)
    d.require_owner(tx.table, player, deed)
    c = card(tx.table, deed)
    group = d.require_whole_group(tx.table, player, deed, to="improve parks", before="improving")
    auctioned = a.get("price") is not None
    total = a["price"] if auctioned else c["infrastructure_cost"] * count
    if cash(tx.table, player) < total:
        raise tx.short_of(player, total, f"infrastructure on {deed}")
    shares = _shares(total, count) if auctioned else [None] * count
    for share in shares:
        now = gp.level(tx.table, deed)
        if now >= len(gp.LEVELS):
            raise Refused(f"{deed} is at level four (a {gp.piece(4)}): it cannot be improved further")
        d.require_even(tx.table, group, deed, gp.level, up=True, refusal=_improved_evenly)
        take_piece(tx, deed, now + 1, share)
    tx.pay(player, BANK, total, f"infrastructure on {deed}")
    top = gp.level(tx.table, deed)
    return who(player) + f" improved {deed} to level {top} (a {gp.piece(top)}) for {tx.fmt(total)}"


@INFRASTRUCTURE.action(
    "sell_infrastructure",
    c.player(role="owner"),
    c.deed(only=own_improved),
    LEVELS,
    label="Sell infrastructure",
    group="deeds",
)
def sell_infrastructure(tx: Tx, a: dict[str, Any]) -> str:
    """Sell a park's infrastructure back to the bank at half the price paid, a level at a time, evenly.

    When the bank has no piece for the level below, the park comes down to the highest lower level it
    has a piece for (or to bare land), so a player can always sell."""
    player = a["player"]
    deed = a["deed"]
    count = _count(a)
    d.require_owner(tx.table, player, deed)
    c = card(tx.table, deed)
    group = d.group_deeds(tx.table, c["group"])
    start = gp.level(tx.table, deed)
    received = 0
    while start - gp.level(tx.table, deed) < count:
        now = gp.level(tx.table, deed)
        if now == 0:
            raise Refused(f"{deed} has no infrastructure to sell")
        d.require_even(tx.table, group, deed, gp.level, up=False)
        target = lowest_reachable(tx, deed, now - 1)
        received += gp.sell_back_value(tx.table, deed, now - target)
        drop_to(tx, deed, target)
    sold = start - gp.level(tx.table, deed)
    tx.pay(BANK, player, received, f"sold infrastructure on {deed}")
    note = ""
    if sold > count:
        note = (
            f" (the bank had no piece for level {start - count}, so {deed} came down to "
            f"{'bare land' if not gp.level(tx.table, deed) else 'level ' + str(gp.level(tx.table, deed))})"
        )
    return (
        who(player)
        + f" sold {sold} level{'s' if sold > 1 else ''} of infrastructure on {deed} for {tx.fmt(received)}{note}"
    )


def _level_field(a: dict[str, Any], low: int, high: int) -> int:
    n = a.get("level")
    if isinstance(n, bool) or not isinstance(n, int) or not low <= n <= high:
        raise BadAction(f"level must be a whole number from {low} to {high}, not {n!r}")
    return n


@INFRASTRUCTURE.action(
    "improve_group",
    c.player(role="owner"),
    c.deed(only=own_parks, says="Which group (any park of it)"),
    c.count("level", "Up to which level on every park", 1, len(gp.LEVELS)),
    label="Improve the whole group",
    group="deeds",
)
def improve_group(tx: Tx, a: dict[str, Any]) -> str:
    """Improve every park of a complete, unmortgaged group evenly to a level, in one go: all of it or none.

    ``level`` is 1-4; if the money or the bank's pieces fall short, nothing is improved."""
    player = a["player"]
    deed = a["deed"]
    target = _level_field(a, 1, len(gp.LEVELS))
    d.require_owner(tx.table, player, deed)
    group = d.require_whole_group(tx.table, player, deed, to="improve parks", before="improving")
    name = card(tx.table, deed)["group"]
    d.require_room_to_build(
        tx.table,
        group,
        target,
        gp.level,
        reached=f"every park of the {name} group is already at level {target} or higher",
        above=lambda above: (
            f"{', '.join(above)} {'is' if len(above) == 1 else 'are'} above level {target}: sell the group down instead"
        ),
    )
    steps = sum(target - gp.level(tx.table, g) for g in group)
    total = sum(card(tx.table, g)["infrastructure_cost"] * (target - gp.level(tx.table, g)) for g in group)
    if cash(tx.table, player) < total:
        raise tx.short_of(player, total, f"infrastructure on the {name} group")
    for _ in range(steps):
        park = min(group, key=lambda g: gp.level(tx.table, g))  # the lowest first: evenly
        take_piece(tx, park, gp.level(tx.table, park) + 1)
    tx.pay(player, BANK, total, f"infrastructure on the {name} group")
    return (
        who(player)
        + f" improved the {name} group to level {target} (a {gp.piece(target)} on each park) for {tx.fmt(total)}"
    )


@INFRASTRUCTURE.action(
    "sell_group",
    c.player(role="owner"),
    c.deed(only=own_improved, says="Which group (any park of it)"),
    c.count("level", "Down to which level on every park", 0, len(gp.LEVELS) - 1),
    label="Sell the group down",
    group="deeds",
)
def sell_group(tx: Tx, a: dict[str, Any]) -> str:
    """Sell infrastructure back at half the price paid until no park of the group stands above a level.

    ``level`` is 0-3. Parks come down together, so the group stays even; when the bank has no piece for
    the level asked, the sale is refused and says so (down to bare land always works)."""
    player = a["player"]
    deed = a["deed"]
    target = _level_field(a, 0, len(gp.LEVELS) - 1)
    d.require_owner(tx.table, player, deed)
    name = card(tx.table, deed)["group"]
    group = [g for g in d.group_deeds(tx.table, name) if gp.level(tx.table, g) > target]
    if not group:
        raise Refused(f"no park of the {name} group is above level {target}")
    others = [g for g in group if tx.table["deeds"][g].get("owner") != player]
    if others:
        raise Refused(f"{', '.join(others)} belong{'s' if len(others) == 1 else ''} to someone else")
    received = sum(gp.sell_back_value(tx.table, g, gp.level(tx.table, g) - target) for g in group)
    for park in group:  # every piece comes back before the new ones are taken
        for n in gp.pieces_on(tx.table, gp.level(tx.table, park)):
            if n > target or not gp.stacked(tx.table):
                _add_stock(tx, n, +1)
    if target and not gp.stacked(tx.table):
        if _stock(tx, target) < len(group):
            raise Refused(
                f"the bank has {_stock(tx, target)} {gp.LEVELS[target - 1][1]} for the {len(group)} "
                f"parks coming down to level {target}: sell down to a lower level (bare land always works)"
            )
        _add_stock(tx, target, -len(group))
    for park in group:
        tx.set(["deeds", park, "paid"], gp.paid_for(tx.table, park)[:target] or None)
        tx.set(["deeds", park, "level"], target or None)
    tx.pay(BANK, player, received, f"sold infrastructure on the {name} group")
    where = f"level {target}" if target else "bare land"
    return who(player) + f" sold the {name} group down to {where} for {tx.fmt(received)}"


def sell_all(tx: Tx, deed: str, note: str = "") -> int:
    """Sell every level on a park back at half the price paid (bankruptcy to a player); returns the cash."""
    now = gp.level(tx.table, deed)
    if not now:
        return 0
    owner = tx.table["deeds"][deed]["owner"]
    value = gp.sell_back_value(tx.table, deed, now)
    return_pieces(tx, deed)
    tx.pay(BANK, owner, value, f"sold the infrastructure on {deed}{note}")
    return value
