"""The City Life family: the first player to reach square 100 wins; the bank's work is the money of the
squares, the City Life Lottery, Houses and Towers, and under the advanced rules (option
``advanced=true``) Bank shares with dividends, Bank loans and mortgages due in 7 counted turns, and the
Land Transfer and Capital Gains taxes.

Modules: :mod:`.city_life_bank` (assets, loans and mortgages), :mod:`.city_life_debts` (bills, fines,
taxes and fees a player cannot pay at once), :mod:`.city_life_turn` (the counted turn, Jail),
:mod:`.city_life_property` (Houses, Towers, shares), :mod:`.city_life_squares` (the board),
:mod:`.city_life_cards` (the Quiz and Traffic Violation cards); :mod:`.turns` keeps the turn clock and
the due dates.
"""

from __future__ import annotations

from typing import Any, cast

from companion.core.engine import Rules
from companion.core.errors import BadAction
from companion.core.model import Table, card, cash
from companion.core.money import Currency

from . import city_life_property as _property  # noqa: F401  (registers buy, sell, exchange, shares)
from . import city_life_squares as _squares  # noqa: F401  (registers land; its cards: quiz, violation)
from . import city_life_turn as _turn  # noqa: F401  (registers next_turn, miss_turns, jail, leave_jail)
from . import turns
from .city_life_bank import CITY, amount_of, could_raise, properties_of, shares_of
from .city_life_debts import owed_view

__all__ = ["FAMILY", "CITY", "rules", "worth", "player_view", "check_card"]

FAMILY = "city-life"

#: The values of a card that are money (the rest are counts, text or yes/no), for every screen that
#: shows a card: "Property tax $100", never "Property tax 100"; each a whole number a card must have.
CARD_MONEY = (
    "price",
    "visitor_fee",
    "visitor_capital_gains",
    "property_tax",
    "land_transfer_tax",
    "capital_gains_tax",
    "mortgage",
    "mortgage_cost",
)


def worth(table: Table, player: str) -> int:
    """Cash, shares and property at their purchase price, less what the player owes."""
    record = table["players"][player]
    owed = sum(d["amount"] for d in record.get("debts", [])) + sum(e["amount"] for e in record.get("owes", []))
    held = sum(card(table, d)["price"] for d in properties_of(table, player))
    return cast("int", cash(table, player) + shares_of(table, player) * amount_of(table, "share_price") + held - owed)


def player_view(table: Table, player: str) -> dict[str, Any]:
    """What the touchscreen and phones show for a City Life player, beyond cash and deeds."""
    record = table["players"][player]
    fmt = Currency.from_pack(table["pack"]).format
    return {
        "square": record.get("at", 1),
        "shares": shares_of(table, player),
        "shares_bought_from_bank": record.get("shares_bought", 0),
        "demerits": record.get("demerits", 0),
        # Loans and mortgages, then sums owed for a square or card (due now): every debt in one list.
        "loans": turns.loans_view(table, player, fmt)
        + [
            {
                "kind": "owed",
                "label": e["memo"],
                "amount": e["amount"],
                "amount_text": e["amount_text"],
                "due_in_turns": 0,
                "overdue": False,
                "text": e["text"],
            }
            for e in owed_view(table, player, fmt)
        ],
        "owes": owed_view(table, player, fmt),
        "jail_turns": record.get("jail_turns", 0),
        "turns_to_miss": record.get("skip", 0) + record.get("jail_turns", 0),
        "turns_counted": record.get("counted", 0),
        "may_borrow": not record.get("barred", False),
    }


def check_card(name: str, c: dict[str, Any]) -> None:
    """Refuse a House or Tower card whose values cannot be right."""
    if c.get("kind") not in ("house", "tower"):
        raise BadAction(f"{name}: kind is house or tower, not {c.get('kind')!r}")
    square = c.get("square")
    if isinstance(square, bool) or not isinstance(square, int) or not 1 <= square <= 100:
        raise BadAction(f"{name}: square must be a square number from 1 to 100, not {square!r}")
    for key in CARD_MONEY:
        v = c.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or v < (1 if key == "price" else 0):
            least = "above 0" if key == "price" else "of 0 or more"
            raise BadAction(f"{name}: {key} must be a whole number {least}, not {v!r}")


#: Every sum the family reads from the pack's [amounts] table.
AMOUNTS = (
    "dollar_sign",
    "dollar_sign_advanced",
    "dividend",
    "share_price",
    "share_capital_gains",
    "shares_from_bank",
    "quiz_answer",
    "quiz_questions",
    "garage",
    "supermarket",
    "hospital",
    "fire_department",
    "fire_department_capital_gains",
    "mall",
    "museum",
    "museum_capital_gains",
    "museum_roll",
    "museum_roll_capital_gains",
    "exchange_capital_gains",
    "exchange_land_transfer",
    "loan",
    "loan_cost",
    "loan_turns",
    "mortgage_turns",
    "turn_per",
    "violation_turn_cap",
    "demerit_limit",
    "insurance_increase",
    "jail_turns",
    "construction_turns",
    "visitor_miss_turns",
)
BOARD = ("dollar_sign", "advance", "school_next")


def check_pack(pack: dict[str, Any]) -> None:
    """Refuse a pack (say, an edited copy) that lacks a sum, the board, or the lottery pot."""
    amounts = pack.get("amounts", {})
    for key in AMOUNTS:
        v = amounts.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or v < 0:
            raise BadAction(f"{pack.get('name')}: amounts.{key} must be a whole number of 0 or more, not {v!r}")
    if amounts["turn_per"] < 1:
        raise BadAction(f"{pack.get('name')}: amounts.turn_per must be above 0")
    for key in BOARD:
        if key not in pack.get("board", {}):
            raise BadAction(f"{pack.get('name')}: the board needs {key}")
    if "lottery" not in {p.get("name") for p in pack.get("pots", [])}:
        raise BadAction(f"{pack.get('name')}: City Life needs the lottery pot")


def rules(pack: dict[str, Any]) -> Rules:
    check_pack(pack)
    return Rules(
        family=FAMILY,
        registry=CITY,
        could_raise=could_raise,
        worth=worth,
        check_card=check_card,
        extras={
            "player_view": player_view,
            "card_money": CARD_MONEY,
            "raise_hint": "selling shares and property to the Bank would bring {amount}",
            "no_raise_hint": "nothing left to sell",
        },
    )
