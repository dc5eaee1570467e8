"""The Greenopoly family: classic money rules on parks, with characters, Night and a centre pot.

Buying, auctions, park access (rent), mortgages at 10% and deals come from the property family
unchanged. Greenopoly differs here: salaries come from each player's character card; taxes and money
paid because of Chance or Community Chest cards go to the centre of the board, which the player
landing on Free Access to Park takes; Night replaces jail and spares some characters; parks are
improved with infrastructure (:mod:`.green_infrastructure`); a bankruptcy ends the game, and the
most improved parks win.
"""

from __future__ import annotations

from typing import Any, cast

from companion.core import contract as c
from companion.core.common import COMMON
from companion.core.engine import Registry, Rules, Tx, may_be_empty
from companion.core.errors import BadAction, Refused
from companion.core.said import who, whose
from companion.core.model import BANK, cash, pot_account
from companion.core.money import LIMIT, Currency

from . import green_characters as gc
from . import green_parks as gp
from .owed import owed_view
from .green_infrastructure import INFRASTRUCTURE, return_pieces, sell_all
from .jail import jail_actions
from .property import DEEDS, TIMES
from .trade import BANKRUPT_FIELDS, LIFT_ON_BANKRUPTCY, go_bankrupt, pass_deed

__all__ = ["FAMILY", "GREEN", "CENTRE", "rules", "check_card"]

FAMILY = "greenopoly"
CENTRE = "centre"


def _night_fine(tx: Tx) -> int:
    return cast("int", tx.option("night_fine") or tx.table["pack"]["fines"]["night"])


def _spared(tx: Tx, player: str) -> str | None:
    if gc.affected(tx.table, player, "night"):
        return None
    return whose(player) + f" character ({gc.title_of(tx.table, player)}) is not affected by Night: no penalty, play on"


#: Night is the property game's jail under its own name, with its own fine, sparing some characters.
NIGHT = jail_actions(
    "night",
    "night_fine",
    "leave_night",
    fine=_night_fine,
    spared=_spared,
    freed_by="doubles, or a torch card",
    fine_on_own_turn="the Night fine is paid before rolling, on one of the player's own turns in Night",
)

#: Greenopoly: the property game's deeds with parks improved by infrastructure instead of houses, characters,
#: Night instead of jail, and its own salary, centre of the board and end of game below.
GREEN = Registry(COMMON, DEEDS, gc.CHARACTERS, INFRASTRUCTURE, NIGHT)

check_card = gp.check_card


def _centre(tx: Tx) -> str:
    return pot_account(CENTRE)


@GREEN.action(
    "salary",
    c.player(),
    TIMES,
    label="Salary",
    group="money",
    says="The bank pays the salary on the player's character card for passing GO.",
)
def salary(tx: Tx, a: dict[str, Any]) -> str:
    """The bank pays the salary on the player's character card for passing GO (``times``: 2 for twice)."""
    player = a["player"]
    times = a.get("times", 1)
    if isinstance(times, bool) or times not in (1, 2):
        raise BadAction(f"times is 1 or 2, not {times!r}")
    amount = gc.salary_of(tx.table, player) * times
    tx.pay(BANK, player, amount, "salary")
    return who(player) + f" collected {tx.fmt(amount)} salary ({gc.title_of(tx.table, player)})"


@GREEN.action("free_access", c.player(), label="Free Access to Park", group="money")
def free_access(tx: Tx, a: dict[str, Any]) -> str:
    """The player landing on Free Access to Park takes everything in the centre of the board."""
    player = a["player"]
    amount = cash(tx.table, _centre(tx))
    if amount <= 0:
        raise Refused("the centre of the board is empty: nothing to take")
    tx.pay(_centre(tx), player, amount, "Free Access to Park")
    return who(player) + f" took {tx.fmt(amount)} from the centre of the board"


def _game_over(tx: Tx, reason: str) -> list[dict[str, Any]]:
    rows = gp.ranking(tx.table)
    winner = rows[0]["player"] if rows and not rows[0]["bankrupt"] else None
    tx.set(["over"], {"winner": winner, "reason": reason, "ranking": rows})
    return rows


def _clear_park(tx: Tx, park: str, creditor: str) -> None:
    if creditor == BANK:
        return_pieces(tx, park)
    else:
        sell_all(tx, park, " (bankruptcy)")


@GREEN.action("bankrupt", *BANKRUPT_FIELDS, LIFT_ON_BANKRUPTCY, label="Bankrupt", group="game")
def bankrupt(tx: Tx, a: dict[str, Any]) -> str:
    """A player who cannot pay loses, and the game ends with the most improved parks winning.

    Their assets go to the creditor first as in classic Monopoly: to a player, infrastructure is sold
    to the bank at half price and the cash and parks pass (mortgaged parks with their 10% due); to the
    bank, the parks return unmortgaged."""
    player = a["player"]
    text = go_bankrupt(tx, a, clear=_clear_park, pass_on=pass_deed, noun="park")
    rows = _game_over(tx, f"{player} went bankrupt")
    lead = rows[0]
    return (
        text
        + ". Game over: "
        + who(lead["player"], "wins")
        + f" with {lead['improved_parks']} improved park{'s' if lead['improved_parks'] != 1 else ''}"
    )


@GREEN.action("end_game", c.text("reason", "Why the game ends"), label="End the game", group="game")
@may_be_empty
def end_game(tx: Tx, a: dict[str, Any]) -> str:
    """End the game now: the player with the most improved parks wins (worth shown beside)."""
    if tx.table.get("over"):
        raise Refused("the game is already over")
    reason = a.get("reason") or "the banker ended the game"
    if not isinstance(reason, str):
        raise BadAction("reason must be text")
    rows = _game_over(tx, reason[:120])
    lead = rows[0]
    return (
        "Game over: " + who(lead["player"], "wins") + f" with {lead['improved_parks']} improved "
        f"park{'s' if lead['improved_parks'] != 1 else ''} (worth {tx.fmt(lead['worth'])})"
    )


def player_view(table: dict[str, Any], player: str) -> dict[str, Any]:
    """Character, salary, Night and Detour, and the objective's count, for phones and the touchscreen."""
    key = gc.character_of(table, player)
    c = table["pack"]["characters"].get(key) if key else None
    return {
        "character": c["title"] if c else None,
        "salary": c["salary"] if c else None,
        "night_applies": c["night"] if c else None,
        "detour_applies": c["detour"] if c else None,
        "in_night": table["players"][player]["in_jail"],
        "improved_parks": len(gp.improved_parks(table, player)),
        "owes": owed_view(table, player, Currency.from_pack(table["pack"]).format),
    }


def _check_pack(pack: dict[str, Any]) -> None:
    """Refuse a pack (say, a table's edited copy) that lacks a number or a card the rules need."""
    label = pack.get("name", "pack")

    def money(value: object, what: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= LIMIT:
            raise BadAction(f"{label}: {what} must be a whole number above 0, not {value!r}")

    money(pack.get("fines", {}).get("night"), "fines.night")
    if not pack.get("taxes"):
        raise BadAction(f"{label}: the income tax is missing")
    for name, rule in pack["taxes"].items():
        money(rule.get("flat"), f"taxes.{name}.flat")
    characters = pack.get("characters")
    if not isinstance(characters, dict) or not characters:
        raise BadAction(f"{label}: the pack needs its character cards")
    for key, character in characters.items():
        gc.check_character(key, character)
    if CENTRE not in {p.get("name") for p in pack.get("pots", [])}:
        raise BadAction(f"{label}: the pack needs the {CENTRE!r} pot (the centre of the board)")
    for _, stock in gp.LEVELS:
        if not isinstance(pack.get("stock", {}).get(stock), int):
            raise BadAction(f"{label}: the bank's stock of {stock} is missing")


#: What a park holds besides its owner, as a phone's page gives it (docs/api.md).
DEED_FIELDS = {
    "mortgaged": {"type": "boolean", "default": False},
    "level": {"type": "integer", "minimum": 0, "maximum": 4, "default": 0},
}


#: The values of a card that are money (the rest are counts, text or yes/no), for every screen that
#: shows a card: "Property tax $100", never "Property tax 100".
CARD_MONEY = ("price", "mortgage", "rent", "infrastructure_cost")


def rules(pack: dict[str, Any]) -> Rules:
    _check_pack(pack)
    return Rules(
        family=FAMILY,
        registry=GREEN,
        could_raise=gp.could_raise,
        worth=gp.worth,
        check_card=check_card,
        marks=gp.marks,
        extras={
            "player_view": player_view,
            "deed_fields": DEED_FIELDS,
            "card_money": CARD_MONEY,
            "card_keys": ("stand_in",),
            "tax_worth": gp.tax_worth,
            "fines_to": pot_account(CENTRE),
            "fines_place": " into the centre of the board",
            "fine_memo": "card",
            "fine_words": "for a card",
        },
    )
