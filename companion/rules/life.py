"""The Game of Life family: salaries and pay days, promissory notes, sums from every opponent, the
wheel's bets and gambles, the Day of Reckoning, Millionaire Acres, the Poor Farm and the final count.

Modules: :mod:`.life_bank` (careers, pay days, notes, purchases), :mod:`.life_road` (the spaces that
move money between players, Share the Wealth cards, the Day of Reckoning, the turn) and
:mod:`.life_wheel` (bets, the Lucky Number, Lucky Days, the market, the Tycoon).
"""

from __future__ import annotations

from typing import Any, cast

from companion.core.engine import Rules
from companion.core.errors import BadAction
from companion.core.model import Table, card, cash
from companion.core.money import Currency

from . import life_road as _road  # noqa: F401  (registers the road's actions)
from . import life_wheel as _wheel  # noqa: F401  (registers the wheel's actions)
from .life_bank import LIFE, amount_of, notes_of, profession_of
from .life_road import toll_keeper

__all__ = ["FAMILY", "LIFE", "rules", "worth", "player_view", "check_card"]

FAMILY = "game-of-life"

_STAGES = {
    None: "on the road",
    "reckoned": "at the Day of Reckoning",
    "acres": "at Millionaire Acres",
    "poor_farm": "at the Poor Farm",
    "tycoon": "Millionaire Tycoon",
}


def worth(table: Table, player: str) -> int:
    """The final count: cash, the stock certificate and life insurance at their worth, less each
    promissory note still held at the Day of Reckoning's rate."""
    held = sum(card(table, item)["value"] for item in table["players"][player].get("holdings", []))
    return cast("int", cash(table, player) + held - notes_of(table, player) * amount_of(table, "reckoning_note"))


def player_view(table: Table, player: str) -> dict[str, Any]:
    """What the touchscreen and phones show for a player of Life, beyond cash."""
    record = table["players"][player]
    fmt = Currency.from_pack(table["pack"]).format
    job = profession_of(table, player)
    n = notes_of(table, player)
    loans = []
    if n:
        owed = n * amount_of(table, "note")
        loans.append(
            {
                "kind": "promissory note",
                "amount": owed,
                "amount_text": fmt(owed),
                "notes": n,
                "due_in_turns": None,
                "overdue": False,
                "text": f"{n} promissory note{'s' if n > 1 else ''}: {fmt(owed)}",
                "detail": f"{fmt(n * amount_of(table, 'note_interest'))} interest on interest pay days, "
                f"{fmt(n * amount_of(table, 'reckoning_note'))} at the Day of Reckoning",
            }
        )
    return {
        "profession": job,
        "salary": card(table, job)["salary"] if job else 0,
        "notes": n,
        "loans": loans,
        "holdings": list(record.get("holdings", [])),
        "married": bool(record.get("married")),
        "children": record.get("children", 0),
        "stage": record.get("stage"),
        "stage_text": _STAGES.get(record.get("stage"), ""),
        "lucky_number": record.get("lucky_number"),
        "toll_keeper": toll_keeper(table) == player,
        "across_bridge": bool(record.get("crossed")),
    }


def _whole(name: str, c: dict[str, Any], key: str, *, zero: bool) -> None:
    v = c.get(key)
    if isinstance(v, bool) or not isinstance(v, int) or v < (0 if zero else 1):
        raise BadAction(f"{name}: {key} must be a whole number {'of 0 or more' if zero else 'above 0'}, not {v!r}")


def check_card(name: str, c: dict[str, Any]) -> None:
    """Refuse a profession, stock or policy card whose values cannot be right."""
    kind = c.get("kind")
    if kind == "profession":
        _whole(name, c, "salary", zero=False)
        if c.get("route") not in ("business", "college"):
            raise BadAction(f"{name}: route is business or college, not {c.get('route')!r}")
    elif kind in ("stock", "policy"):
        _whole(name, c, "price", zero=False)
        _whole(name, c, "value", zero=True)
    else:
        raise BadAction(f"{name}: kind is profession, stock or policy, not {kind!r}")


#: Every sum the family reads from the pack's [amounts] table (the two lists run over the spin 1..10).
AMOUNTS = (
    "note",
    "note_interest",
    "reckoning_note",
    "reckoning_child",
    "baby",
    "toll",
    "revenge",
    "revenge_spaces",
    "lucky_day",
    "speculate_win",
    "bet_limit",
    "bet_numbers",
    "bet_odds",
    "lucky_number_fee",
    "acres_bonus",
    "collect_card_from",
    "pay_card_from",
)
BY_SPIN = ("wedding_presents", "market")


def check_pack(pack: dict[str, Any]) -> None:
    """Refuse a pack (say, an edited copy) that lacks a sum, the business road, the Bachelor's Degree or
    the stock certificate."""
    name = pack.get("name")
    amounts = pack.get("amounts", {})
    for key in AMOUNTS:
        v = amounts.get(key)
        if isinstance(v, bool) or not isinstance(v, int) or v < (1 if key == "note" else 0):
            raise BadAction(f"{name}: amounts.{key} must be a whole number of 0 or more, not {v!r}")
    for key in BY_SPIN:
        v = amounts.get(key)
        if not isinstance(v, list) or len(v) != 10 or any(isinstance(x, bool) or not isinstance(x, int) for x in v):
            raise BadAction(f"{name}: amounts.{key} lists 10 whole sums, one for each number of the wheel")
    cards = pack.get("cards", {}).values()
    if not any(c.get("kind") == "profession" and c.get("route") == "business" for c in cards):
        raise BadAction(f'{name}: a profession card needs route = "business"')
    if not any(c.get("kind") == "profession" and c.get("route") == "college" and c.get("default") for c in cards):
        raise BadAction(f"{name}: a college profession card needs default = true (the Bachelor's Degree)")
    if not any(c.get("kind") == "stock" for c in cards):
        raise BadAction(f"{name}: the pack needs the stock certificate card")


#: The values of a card that are money (the rest are counts, text or yes/no), for every screen that
#: shows a card: "Property tax $100", never "Property tax 100".
CARD_MONEY = ("salary", "price", "value")


def rules(pack: dict[str, Any]) -> Rules:
    check_pack(pack)
    return Rules(
        family=FAMILY,
        registry=LIFE,
        worth=worth,
        check_card=check_card,
        extras={
            "player_view": player_view,
            "card_money": CARD_MONEY,
            "no_raise_hint": "borrow promissory notes from the bank",
        },
    )
