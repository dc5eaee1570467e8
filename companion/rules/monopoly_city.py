"""The Monopoly City family: districts with blocks, hazards and skyscrapers, money in thousands and millions.

Buying districts is as in the property family; the rest differs and is here: wages with a bonus per
stadium, auctions from a minimum bid, rent from the district's blocks (with the Rent Dodge card),
the industry tax, mortgages worth the current rent value, deals in which buildings stay with their
district, bankruptcy and the end-of-game count. Building lives in :mod:`.city_building`, the pure
district arithmetic in :mod:`.city_districts`.
"""

from __future__ import annotations

from typing import Any, cast

from companion.core import contract as c
from companion.core.common import GAME, MONEY, TURNS, advance_turn
from companion.core.engine import Registry, Rules, Tx, may_be_empty
from companion.core.errors import BadAction, Refused
from companion.core.said import who, whose
from companion.core.model import BANK
from companion.core.money import LIMIT

from . import city_districts as cd
from .city_building import BUILDING, build_spin, describe_spin, spin_of
from .deeds import MortgageTerms, lift_mortgage, mortgage_deed, rent_owner
from .jail import jail_actions
from .property import DEEDS, TAX_FIELDS, TIMES, find_tax, own_deeds, rent_check, rent_deeds
from .trade import BANKRUPT_FIELDS, TRADE_FIELDS, go_bankrupt, return_to_bank, swap

__all__ = ["FAMILY", "CITY", "rules", "check_card", "rent_dodge_holder"]

FAMILY = "monopoly-city"

#: Monopoly City: the property game's deeds and jail (its fine to the bank) with districts built by the
#: spinner instead of houses, and no pots; its own wages, rent, tax, mortgages and deals below.
CITY = Registry(MONEY, TURNS, GAME, DEEDS, jail_actions(), BUILDING)

check_card = cd.check_card

#: The bank lends a district's rent value, buildings and all, and sells it back for that same sum.
MORTGAGE = MortgageTerms(
    value=cd.rent_value,
    lift_cost=lambda table, deed: cast("int", table["deeds"][deed]["mortgage"]),
    sell_buildings_first=False,
    keeps_sum=True,
    lifted="bought back {deed}",
    lifting="buying back {deed}",
    value_said=", its rent value",
)


def _wages(tx: Tx) -> int:
    return cast("int", tx.option("wages") or tx.table["pack"]["salary"])


def _holds_dodge(table: dict[str, Any], partial: dict[str, Any]) -> bool:
    return bool(table["players"].get(partial.get("payer"), {}).get("rent_dodge"))


def _own_mortgaged(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    return [n for n in own_deeds(table, partial) if table["deeds"][n].get("mortgage")]


def rent_dodge_holder(table: dict[str, Any]) -> str | None:
    """Who holds the Rent Dodge card (None: it lies beside Free Parking)."""
    return next((p for p in table["order"] if table["players"][p].get("rent_dodge")), None)


def opening(tx: Tx) -> str:
    """Every player receives the starting money from the bank."""
    amount = tx.option("start_cash") or tx.table["pack"]["start_cash"]
    for player in tx.table["order"]:
        tx.pay(BANK, player, amount, "starting money")
    return f"New Monopoly City game: {', '.join(tx.table['order'])} start with {tx.fmt(amount)} each"


@CITY.action("salary", c.player(), TIMES, label="Wages", group="money")
def salary(tx: Tx, a: dict[str, Any]) -> str:
    """Wages for passing GO, plus a bonus for every stadium the player owns."""
    player = a["player"]
    times = a.get("times", 1)
    if isinstance(times, bool) or times not in (1, 2):
        raise BadAction(f"times is 1 or 2, not {times!r}")
    stadiums = cd.stadiums_of(tx.table, player)
    bonus = stadiums * tx.table["pack"]["stadium_bonus"]
    amount = (_wages(tx) + bonus) * times
    tx.pay(
        BANK, player, amount, "wages" + (f" and {stadiums} stadium{'s' if stadiums > 1 else ''}" if stadiums else "")
    )
    extra = f" (with {tx.fmt(bonus * times)} for {stadiums} stadium{'s' if stadiums > 1 else ''})" if stadiums else ""
    return who(player) + f" collected {tx.fmt(amount)} wages{extra}"


def dodging(table: dict[str, Any], player: str) -> bool:
    """Whether the player played the Rent Dodge card in the turn being played: it covers the whole
    turn, every roll of it."""
    dodge = table["turn"].get("dodge")
    return bool(dodge) and dodge["player"] == player and dodge["turn"] == table["turn"]["number"]


@CITY.action(
    "rent",
    c.player("payer", "Who pays", role="payer"),
    c.deed(only=rent_deeds, check=rent_check),
    c.yesno("dodge", "Play the Rent Dodge card", when=_holds_dodge),
    label="Rent",
    group="money",
)
@may_be_empty
def rent(tx: Tx, a: dict[str, Any]) -> str:
    """A visitor pays the district's rent value to its owner, or plays the Rent Dodge card instead:
    it makes the whole turn rent-free (a second rent after a double or a railroad jump too)."""
    payer = a["payer"]
    deed = a["deed"]
    owner = rent_owner(tx.table, payer, deed)
    dodge = a.get("dodge", False)
    amount = cd.rent_value(tx.table, deed)
    if dodging(tx.table, payer):
        return (
            whose(payer)
            + " Rent Dodge covers this turn: "
            + who(payer, "owes")
            + " "
            + who(owner)
            + f" nothing for {deed} (instead of {tx.fmt(amount)})"
        )
    if dodge:
        if not tx.table["players"][payer].get("rent_dodge"):
            holder = rent_dodge_holder(tx.table)
            raise Refused(
                f"{payer} does not hold the Rent Dodge card ({holder + ' has it' if holder else 'it is beside Free Parking'})"
            )
        tx.set(["players", payer, "rent_dodge"], None)
        tx.set(["turn", "dodge"], {"player": payer, "turn": tx.table["turn"]["number"]})
        return (
            who(payer)
            + f" played the Rent Dodge card on {deed} and paid "
            + who(owner)
            + f" nothing instead of {tx.fmt(amount)}"
        )
    tx.pay(payer, owner, amount, f"rent for {deed}")
    return who(payer) + " paid " + who(owner) + f" {tx.fmt(amount)} rent for {deed}"


@CITY.action("free_parking", c.player(), label="Free Parking", group="money")
def free_parking(tx: Tx, a: dict[str, Any]) -> str:
    """The player landing on Free Parking takes the Rent Dodge card (from the board or its holder)."""
    player = a["player"]
    holder = rent_dodge_holder(tx.table)
    if holder == player:
        raise Refused(f"{player} already holds the Rent Dodge card")
    if holder:
        tx.set(["players", holder, "rent_dodge"], None)
    tx.set(["players", player, "rent_dodge"], True)
    return (
        who(player) + " took the Rent Dodge card" + (" from " + who(holder) + ", who had not used it" if holder else "")
    )


@CITY.action(
    "tax",
    c.player(),
    TAX_FIELDS[0],
    c.amount(says="The sum printed on the board", required=False),
    label="Industry tax",
    group="money",
)
def tax(tx: Tx, a: dict[str, Any]) -> str:
    """Industry tax: a player who owns industrial blocks pays the sum on the space to the bank.

    The sum is the game's option ``industry_tax`` (set once, as printed on the table's board), or
    ``amount`` for this once."""
    player = a["player"]
    taxes = tx.table["pack"]["taxes"]
    name = find_tax(taxes, a.get("tax") or "industry")
    rule = taxes[name]
    amount = a["amount"] if a.get("amount") is not None else (tx.option(f"{name}_tax") or rule["flat"])
    label = rule.get("label", f"{name} tax")
    if not cd.holds_industry(tx.table, player):
        raise Refused(f"{player} owns no industrial blocks, so no {label} is due")
    tx.pay(player, BANK, amount, label)
    return who(player) + f" paid {tx.fmt(amount)} {label}"


@CITY.action("mortgage", c.player(role="owner"), c.deed(only=own_deeds), label="Mortgage", group="deeds")
def mortgage(tx: Tx, a: dict[str, Any]) -> str:
    """The bank pays the district's current rent value; the buildings stay, and so does the sum owed."""
    return mortgage_deed(tx, MORTGAGE, a["player"], a["deed"])


@CITY.action("unmortgage", c.player(role="owner"), c.deed(only=_own_mortgaged), label="Buy back", group="deeds")
def unmortgage(tx: Tx, a: dict[str, Any]) -> str:
    """The owner buys a mortgaged district back for exactly what the bank paid for it."""
    return lift_mortgage(tx, MORTGAGE, a["player"], a["deed"])


@CITY.action("next_turn", label="Next turn", group="turn")
def next_turn(tx: Tx, a: dict[str, Any]) -> str:
    """The turn passes on, and the build spinner may turn again."""
    tx.set(["turn", "spin"], None)
    tx.set(["turn", "roll"], None)
    tx.set(["turn", "dodge"], None)
    return advance_turn(tx)


def _hand_over(tx: Tx, deed: str, to: str, lift: bool) -> None:
    tx.set(["deeds", deed, "owner"], to)  # buildings and any mortgage stay with the district


@CITY.action("trade", *TRADE_FIELDS, label="Deal", group="deeds")
def trade(tx: Tx, a: dict[str, Any]) -> str:
    """A deal: two players swap cash and districts; buildings (and any mortgage) stay with the district."""
    return swap(tx, a, noun="Deal", buildings_stay=True, hand_over=_hand_over)


def _pass_district(tx: Tx, deed: str, creditor: str, lift: bool = False) -> str:
    if creditor == BANK:
        return_to_bank(tx, deed)
        tx.set(["deeds", deed, "mortgage"], None)  # the sum kept for buying back is cancelled too
    else:
        tx.set(["deeds", deed, "owner"], creditor)
    return ""


@CITY.action("bankrupt", *BANKRUPT_FIELDS, label="Bankrupt", group="game")
def bankrupt(tx: Tx, a: dict[str, Any]) -> str:
    """A player who cannot pay is out; their cash and districts go to the creditor.

    To a player creditor pass the cash and the districts (buildings and mortgages with them); to the
    bank, the cash goes and the districts return, mortgage cancelled, for the banker to auction with
    whatever stands on them."""
    player = a["player"]
    text = go_bankrupt(tx, a, clear=lambda tx, deed, creditor: None, pass_on=_pass_district, noun="district")
    tx.set(["players", player, "rent_dodge"], None)
    return text


def player_view(table: dict[str, Any], player: str) -> dict[str, Any]:
    """What the phones and the touchscreen show besides cash: the Rent Dodge card, stadiums, this turn's spin."""
    spin = spin_of(table, player)
    return {
        "rent_dodge": bool(table["players"][player].get("rent_dodge")),
        "stadiums": cd.stadiums_of(table, player),
        "district_value": sum(cd.rent_value(table, d) for d in cd.owned_by(table, player)),
        "build_allowance": describe_spin(spin) if spin else None,
    }


def _check_pack(pack: dict[str, Any]) -> None:
    """Refuse a pack (say, a table's edited copy) that lacks a number the rules need."""

    def money(value: object, what: str) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= LIMIT:
            raise BadAction(f"{pack.get('name', 'pack')}: {what} must be a whole number above 0, not {value!r}")

    for key in ("start_cash", "salary", "stadium_bonus", "stadium_cost", "tower_cost", "auction_min_bid"):
        money(pack.get(key), key)
    money(pack.get("fines", {}).get("jail"), "fines.jail")
    for name, rule in pack.get("taxes", {}).items():
        money(rule.get("flat"), f"taxes.{name}.flat")
    planning = pack.get("planning", {})
    if not isinstance(planning.get("bonus"), list) or not isinstance(planning.get("hazards"), dict):
        raise BadAction(f"{pack.get('name', 'pack')}: planning needs a bonus list and a hazards table")
    money(planning.get("removal_per_block"), "planning.removal_per_block")
    for hazard, size in planning["hazards"].items():
        money(size, f"the size of the {hazard}")


#: What a district holds besides its owner, as a phone's page gives it (docs/api.md).
DEED_FIELDS = {
    "mortgaged": {"type": "boolean", "default": False},
    "residential": {"type": "integer", "minimum": 0, "default": 0},
    "industrial": {"type": "integer", "minimum": 0, "default": 0},
    **{building: {"type": "boolean", "default": False} for building in ("railroad", "stadium", "skyscraper", "tower")},
    "bonus": {"type": "string", "nullable": True, "default": None, "description": "a bonus building on it"},
    "hazard": {"type": "string", "nullable": True, "default": None, "description": "a hazard built on it"},
}


#: The values of a card that are money (the rest are counts, text or yes/no), for every screen that
#: shows a card: "Property tax $100", never "Property tax 100".
CARD_MONEY = ("price", "land_rent", "rent", "residential_cost", "industrial_cost", "skyscraper_cost")


def rules(pack: dict[str, Any]) -> Rules:
    _check_pack(pack)
    return Rules(
        family=FAMILY,
        registry=CITY,
        could_raise=cd.could_raise,
        worth=cd.worth,
        check_card=check_card,
        opening=opening,
        marks=cd.marks,
        extras={
            "player_view": player_view,
            "deed_fields": DEED_FIELDS,
            "card_money": CARD_MONEY,
            "card_keys": ("stand_in",),
            "raise_hint": "mortgaging districts could raise {amount} more",
            "build_spin": build_spin,
        },
    )
