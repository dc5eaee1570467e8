"""The auction screen's view-model: the lot, the bidders, the bid being called, and what "Sold" will do.

The trading unit keeps the auction's time and its bids (:class:`companion.trading_unit.TradingUnit`);
this view only puts together what the screen shows around it. Pure: no Kivy.
"""

from __future__ import annotations

from typing import Any

from .ask_view import account_choices
from .colours import group_colour, text_on
from .desk import Desk
from .keypad import quick_amounts

__all__ = ["auction_view", "opening_bid", "unowned_deeds"]


def unowned_deeds(desk: Desk) -> list[str]:
    """The deeds still with the bank (the lots an auction can sell), in board order."""
    return [d["name"] for d in desk.state()["deeds"] if not d.get("owner")]


def opening_bid(desk: Desk, best_bid: int | None) -> tuple[int, str]:
    """Where a newly chosen bidder's bid starts, and how the screen says so: the highest bid plus the
    pack's smallest step ("the highest $200 + $1"), or nothing before the first bid (the steps then add up
    from zero, so +$200 +$20 is a bid of $220)."""
    if not best_bid:
        return 0, ""
    step = min(quick_amounts(desk.pack))
    return best_bid + step, f"the highest {desk.fmt(best_bid)} + {desk.fmt(step)}"


def auction_view(
    desk: Desk, lot: str, bidder: str | None, amount: int | None, unit: dict | None, start: str = ""
) -> dict[str, Any]:
    """What the auction screen shows: ``unit`` is the trading unit's view (mode, bidder, bid, ...);
    ``start`` says where the bid being entered started (see :func:`opening_bid`)."""
    state = desk.state()
    deed = next((d for d in state["deeds"] if d["name"] == lot), None)
    running = bool(unit and unit.get("mode") == "auction")
    best_bidder = unit.get("bidder") if running and unit else None
    best_bid = unit.get("bid") if running and unit else None
    bidders = []
    for row in account_choices(state, accounts=False):
        row["selected"] = row["value"] == bidder
        row["leading"] = row["value"] == best_bidder
        bidders.append(row)
    winner = best_bidder if running and best_bidder else bidder
    price = best_bid if running and best_bid else amount
    colour = group_colour(deed.get("group", ""), deed.get("colour")) if deed else (0.4, 0.4, 0.4, 1)
    check = None
    if deed and winner and price:
        result = desk.check({"action": "auction", "deed": lot, "winner": winner, "bid": price})
        check = None if result.ok else result.text
    return {
        "lot": lot,
        "lot_text": lot or "Choose a deed to auction",
        "lot_colour": colour,
        "lot_colour_text": text_on(colour),
        "price_text": (
            f"{bidder} starts at {start}"
            if bidder and start
            else f"Printed price {desk.fmt(deed['price'])}"
            if deed and isinstance(deed.get("price"), int)
            else ""
        ),
        "owned": bool(deed and deed.get("owner")),
        "bidders": bidders,
        "amount_text": desk.fmt(amount or 0),
        "best_text": (
            f"Highest: {best_bidder} {desk.fmt(best_bid)}" if best_bidder and best_bid is not None else "No bids yet"
        )
        if running
        else "",
        "running": running,
        "sold_text": f"Sold to {winner} for {desk.fmt(price)}"
        if winner and price
        else "Sold: choose a bidder and a bid",
        "ready": bool(deed and winner and price and not deed.get("owner")),
        "refused": check,
        "bid_text": f"Record: {bidder} bids {desk.fmt(amount)}" if bidder and amount else "Record the bid",
    }
