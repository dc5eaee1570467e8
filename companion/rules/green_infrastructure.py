"""Greenopoly park infrastructure: improving parks level by level, evenly, and selling back at half price.

A park can be improved once its owner holds the whole colour group and no park of the group is
mortgaged. Every park of the group must reach a level before any goes higher, up to level four;
selling back goes down the same way. The bank's stock of each piece is finite: when a piece runs out
nobody can improve to that level until one comes back (or the last pieces are auctioned among the
buyers, recorded with ``price``).
"""
from __future__ import annotations

from companion.core import contract as c
from companion.core.engine import Registry, Tx
from companion.core.errors import BadAction, Refused
from companion.core.model import BANK, card, cash, find_deed, find_player

from . import deeds as d
from . import green_parks as gp

__all__ = ["INFRASTRUCTURE", "take_piece", "return_pieces"]

INFRASTRUCTURE = Registry()
LEVELS = c.count("count", "How many levels", 1, len(gp.LEVELS), required=False)


def own_parks(table: dict, partial: dict) -> list[str]:
    return [n for n, rec in table["deeds"].items()
            if rec.get("owner") == partial.get("player") and "infrastructure_cost" in card(table, n)]


def own_improved(table: dict, partial: dict) -> list[str]:
    return [n for n in own_parks(table, partial) if gp.level(table, n)]


def _count(a: dict) -> int:
    n = a.get("count", 1)
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= len(gp.LEVELS):
        raise BadAction(f"count must be a whole number of levels from 1 to {len(gp.LEVELS)}, not {n!r}")
    return n


def _stock(tx: Tx, n: int) -> int:
    return tx.table["stock"].get(gp.LEVELS[n - 1][1], 0)


def _add_stock(tx: Tx, n: int, change: int) -> None:
    key = gp.LEVELS[n - 1][1]
    tx.set(["stock", key], tx.table["stock"].get(key, 0) + change)


def take_piece(tx: Tx, deed: str, new_level: int) -> None:
    """Raise a park one level, taking the new piece from the bank (and, unless pieces stack, giving
    back the one it replaces)."""
    if _stock(tx, new_level) < 1:
        raise Refused(f"the bank has no {gp.LEVELS[new_level - 1][1]} left: wait until one is sold back, "
                      "or auction the last ones among the players who want them")
    _add_stock(tx, new_level, -1)
    if new_level > 1 and not gp.stacked(tx.table):
        _add_stock(tx, new_level - 1, +1)
    tx.set(["deeds", deed, "level"], new_level)


def drop_piece(tx: Tx, deed: str) -> None:
    """Lower a park one level, giving its top piece back to the bank (and, unless pieces stack, taking
    back the piece of the level below)."""
    now = gp.level(tx.table, deed)
    if now > 1 and not gp.stacked(tx.table):
        if _stock(tx, now - 1) < 1:
            raise Refused(f"the bank has no {gp.LEVELS[now - 2][1]} to put back on {deed}: sell down another park "
                          "first, or settle it as the table agrees")
        _add_stock(tx, now - 1, -1)
    _add_stock(tx, now, +1)
    tx.set(["deeds", deed, "level"], now - 1 or None)


def return_pieces(tx: Tx, deed: str) -> None:
    """Every piece on a park goes back to the bank (bankruptcy), without money."""
    for n in gp.pieces_on(tx.table, gp.level(tx.table, deed)):
        _add_stock(tx, n, +1)
    tx.set(["deeds", deed, "level"], None)


@INFRASTRUCTURE.action("improve", c.player(), c.deed(only=own_parks), LEVELS,
                       c.amount("price", "Total price paid at a shortage auction", required=False),
                       label="Improve a park", group="deeds")
def improve(tx: Tx, a: dict) -> str:
    """Buy infrastructure from the bank to raise a park of a complete, unmortgaged group, evenly.

    ``price`` is the total paid when a shortage of pieces was settled by auction among the buyers.
    """
    player = find_player(tx.table, a["player"])
    deed = find_deed(tx.table, a["deed"])
    count = _count(a)
    d.require_owner(tx.table, player, deed)
    c = card(tx.table, deed)
    group = d.require_whole_group(tx.table, player, deed, to="improve parks", before="improving")
    total = tx.amount(a["price"], "price") if a.get("price") is not None else c["infrastructure_cost"] * count
    if cash(tx.table, player) < total:
        raise tx.short_of(player, total, f"infrastructure on {deed}")
    for _ in range(count):
        now = gp.level(tx.table, deed)
        if now >= len(gp.LEVELS):
            raise Refused(f"{deed} is at level four (a {gp.piece(4)}): it cannot be improved further")
        lowest = min(gp.level(tx.table, g) for g in group)
        if now > lowest:
            behind = [g for g in group if gp.level(tx.table, g) < now]
            raise Refused(f"improve evenly: {', '.join(behind)} must reach level {now} before {deed} goes higher")
        take_piece(tx, deed, now + 1)
    tx.pay(player, BANK, total, f"infrastructure on {deed}")
    top = gp.level(tx.table, deed)
    return f"{player} improved {deed} to level {top} (a {gp.piece(top)}) for {tx.fmt(total)}"


@INFRASTRUCTURE.action("sell_infrastructure", c.player(), c.deed(only=own_improved), LEVELS,
                       label="Sell infrastructure", group="deeds")
def sell_infrastructure(tx: Tx, a: dict) -> str:
    """Sell a park's infrastructure back to the bank at half price, one level at a time, evenly."""
    player = find_player(tx.table, a["player"])
    deed = find_deed(tx.table, a["deed"])
    count = _count(a)
    d.require_owner(tx.table, player, deed)
    c = card(tx.table, deed)
    group = d.group_deeds(tx.table, c["group"])
    for _ in range(count):
        now = gp.level(tx.table, deed)
        if now == 0:
            raise Refused(f"{deed} has no infrastructure to sell")
        highest = max(gp.level(tx.table, g) for g in group)
        if now < highest:
            ahead = [g for g in group if gp.level(tx.table, g) > now]
            raise Refused(f"sell evenly: sell from {', '.join(ahead)} before {deed}")
        drop_piece(tx, deed)
    received = count * (c["infrastructure_cost"] // 2)
    tx.pay(BANK, player, received, f"sold infrastructure on {deed}")
    return f"{player} sold {count} level{'s' if count > 1 else ''} of infrastructure on {deed} for {tx.fmt(received)}"


def sell_all(tx: Tx, deed: str, note: str = "") -> int:
    """Sell every level on a park back at half price (bankruptcy to a player); returns the cash."""
    now = gp.level(tx.table, deed)
    if not now:
        return 0
    owner = tx.table["deeds"][deed]["owner"]
    value = now * (card(tx.table, deed)["infrastructure_cost"] // 2)
    return_pieces(tx, deed)
    tx.pay(BANK, owner, value, f"sold the infrastructure on {deed}{note}")
    return value
