"""The Game of Life's bank: careers and pay days, promissory notes, and what a player may buy.

A player short of cash for an obligation borrows $20,000 promissory notes from the bank (with the
``auto_notes`` option, the app borrows just enough at once and says so). Notes are never borrowed for
bets on the wheel, nor to pay someone's Revenge. Each note costs $500 on an interest pay day, is repaid
with $20,000, and costs $25,000 if still held at the Day of Reckoning.

A player's record: ``route`` ("business" or "college"), ``profession`` (a profession card's name, or
absent for a college graduate who landed on no profession space: the Bachelor's Degree pays),
``notes``, ``holdings`` (the stock certificate and policies bought), ``married``, ``children``,
``stage`` ("reckoned", "acres", "poor_farm", "tycoon"), ``crossed`` (the order of crossing the Toll
Bridge) and ``lucky_number``.
"""

from __future__ import annotations

from typing import Any, cast

from companion.core.common import COMMON
from companion.core import contract as c
from companion.core.engine import Tx
from companion.core.engine import Registry
from companion.core.errors import BadAction, NotEnoughMoney, Refused
from companion.core.said import who, whose
from companion.core.model import BANK, Table, active_players, card, cash

__all__ = [
    "LIFE",
    "amount_of",
    "notes_of",
    "stage_of",
    "retired",
    "opponents",
    "take_notes",
    "obligation",
    "profession_of",
    "holds",
    "whole",
    "spin_of",
    "first_card",
]

LIFE = Registry(COMMON)


def _professions(table: Table, partial: dict[str, Any]) -> list[str]:
    return [n for n, card_ in table["pack"]["cards"].items() if card_.get("kind") == "profession"]


def _for_sale(table: Table, partial: dict[str, Any]) -> list[str]:
    return [n for n, card_ in table["pack"]["cards"].items() if card_.get("kind") in ("stock", "policy")]


def _has_notes(table: Table, partial: dict[str, Any]) -> bool:
    """Interest is only a question for a player holding notes."""
    return partial.get("player") in table["players"] and notes_of(table, partial["player"]) > 0


#: Promissory notes, counted one by one.
NOTES = c.count("notes", "How many notes", 1, 50)


def amount_of(table: Table, key: str) -> Any:
    return table["pack"]["amounts"][key]


def notes_of(table: Table, player: str) -> int:
    return cast("int", table["players"][player].get("notes", 0))


def stage_of(table: Table, player: str) -> str | None:
    return cast("str | None", table["players"][player].get("stage"))


def retired(table: Table, player: str) -> bool:
    """At Millionaire Acres or the Poor Farm: no more turns on the road."""
    return stage_of(table, player) in ("acres", "poor_farm", "tycoon")


def opponents(table: Table, player: str) -> list[str]:
    """Every other player still with money in the game (the Poor Farm's players sit out)."""
    return [p for p in active_players(table) if p != player and stage_of(table, p) != "poor_farm"]


def holds(table: Table, player: str, item: str) -> bool:
    return item in table["players"][player].get("holdings", [])


def whole(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadAction(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def spin_of(value: object, what: str = "spin") -> int:
    """A number of the Wheel of Fate, 1 to 10."""
    return whole(value, what, 1, 10)


def in_play(tx: Tx, player: str) -> str:
    """A player (named as the contract found them) who is still playing (not sitting out at the Poor Farm)."""
    if stage_of(tx.table, player) == "poor_farm":
        raise Refused(f"{player} is at the Poor Farm and sits out the rest of the game")
    return player


def take_notes(tx: Tx, player: str, n: int) -> None:
    tx.pay(BANK, player, n * amount_of(tx.table, "note"), f"{n} promissory note{'s' if n > 1 else ''}")
    tx.set(["players", player, "notes"], notes_of(tx.table, player) + n)


def obligation(tx: Tx, payer: str, payee: str, amount: int, memo: str) -> str:
    """The payer pays what they owe, borrowing the notes needed (when the table plays auto_notes).

    Returns a sentence about the borrowing, or "" when the cash was there.
    """
    have = cash(tx.table, payer)
    if have < amount:
        note = amount_of(tx.table, "note")
        n = -(-(amount - have) // note)
        if not tx.option("auto_notes"):
            raise NotEnoughMoney(
                f"{payer} has {tx.fmt(have)} but owes {tx.fmt(amount)} for {memo}: "
                f"borrow {n} promissory note{'s' if n > 1 else ''} first"
            )
        take_notes(tx, payer, n)
        tx.pay(payer, payee, amount, memo)
        return who(payer) + f" borrowed {n} promissory note{'s' if n > 1 else ''} ({tx.fmt(n * note)}) to pay"
    tx.pay(payer, payee, amount, memo)
    return ""


def first_card(table: Table, kind: str, **values: Any) -> str | None:
    """The first card of ``kind`` whose fields have ``values`` (None if the cards have none)."""
    for name, fields in table["pack"]["cards"].items():
        if fields.get("kind") == kind and all(fields.get(k) == v for k, v in values.items()):
            return cast("str | None", name)
    return None


def profession_of(table: Table, player: str) -> str | None:
    """The profession whose salary the player draws (None before a route is chosen)."""
    record = table["players"][player]
    if record.get("profession"):
        return cast("str | None", record["profession"])
    if record.get("route") == "college":
        return first_card(table, "profession", route="college", default=True)
    return None


def _profession(tx: Tx, deed: str) -> str:
    if card(tx.table, deed)["kind"] != "profession":
        raise Refused(f"{deed} is not a profession")
    return deed


def _joined(text: str, extra: str) -> str:
    return text + "; " + extra if extra else text


@LIFE.action(
    "career",
    c.player(),
    c.choice("route", "Which road", [("business", "Business"), ("college", "College")]),
    label="Choose a career",
    group="game",
)
def career(tx: Tx, a: dict[str, Any]) -> str:
    """At the start: the short road to business ($5,000 a pay day) or the long road through college."""
    player = in_play(tx, a["player"])
    route = a["route"]
    if route not in ("business", "college"):
        raise BadAction('route is "business" or "college"')
    if tx.table["players"][player].get("route"):
        road = tx.table["players"][player]["route"]
        raise Refused(f"{player} took the {road} road already; the salary never changes")
    tx.set(["players", player, "route"], route)
    if route == "business":
        job = first_card(tx.table, "profession", route="business")
        if job is None:
            raise Refused('no profession card has route "business": correct the cards first')
        tx.set(["players", player, "profession"], job)
        return who(player, "goes") + f" into business at {tx.fmt(card(tx.table, job)['salary'])} a pay day"
    return who(player, "goes") + " to college (the Bachelor's Degree salary until a profession space)"


@LIFE.action(
    "profession",
    c.player(),
    c.deed("profession", "Which profession", only=_professions),
    label="Profession",
    group="game",
)
def profession(tx: Tx, a: dict[str, Any]) -> str:
    """A college graduate lands on a profession space (or passes the Bachelor's Degree): theirs for life."""
    player = in_play(tx, a["player"])
    job = _profession(tx, a["profession"])
    record = tx.table["players"][player]
    if record.get("route") != "college":
        raise Refused(
            f"professions are for the college road; {player} "
            + (
                "went into business"
                if record.get("route")
                else "has not chosen a road yet: record it with Choose a career"
            )
        )
    if card(tx.table, job).get("route") != "college":
        raise Refused(f"{job} is the business road's salary")
    if record.get("profession"):
        raise Refused(f"{player} is {record['profession']} for the whole game and keeps that salary")
    tx.set(["players", player, "profession"], job)
    return whose(player) + f" profession: {job}, {tx.fmt(card(tx.table, job)['salary'])} every pay day"


@LIFE.action(
    "pay_day",
    c.player(),
    c.yesno("interest", "An interest-due pay day", when=_has_notes),
    label="Pay day",
    group="money",
)
def pay_day(tx: Tx, a: dict[str, Any]) -> str:
    """Landing on or passing a Pay Day: the salary; on an interest space then $500 per note owed."""
    player = in_play(tx, a["player"])
    if retired(tx.table, player):
        raise Refused(f"{player} has retired from the road: no more pay days")
    job = profession_of(tx.table, player)
    if job is None:
        if tx.table["players"][player].get("route"):
            raise Refused(
                "no college profession card has default = true (the Bachelor's Degree): correct the cards first"
            )
        raise Refused(f"{player} has not chosen the business or the college road yet: record it with Choose a career")
    interest = a.get("interest", False)
    if not isinstance(interest, bool):
        raise BadAction("interest is true on a PAY DAY - INTEREST DUE space")
    salary = card(tx.table, job)["salary"]
    tx.pay(BANK, player, salary, f"salary ({job})")
    text: str = who(player) + f" collected a {tx.fmt(salary)} pay day ({job})"
    n = notes_of(tx.table, player)
    if interest and n:
        due = n * amount_of(tx.table, "note_interest")
        text += f" and paid {tx.fmt(due)} interest on {n} note{'s' if n > 1 else ''}"
        text = _joined(text, obligation(tx, player, BANK, due, "interest on promissory notes"))
    elif interest:
        text += " (no notes, no interest)"
    return text


@LIFE.action("borrow", c.player(), NOTES, label="Borrow", group="loans")
def borrow(tx: Tx, a: dict[str, Any]) -> str:
    """Borrow $20,000 promissory notes from the bank to meet an obligation (never for bets or Revenge)."""
    player = in_play(tx, a["player"])
    n = whole(a["notes"], "notes", 1, 50)
    take_notes(tx, player, n)
    return (
        who(player)
        + f" borrowed {tx.fmt(n * amount_of(tx.table, 'note'))} on {n} promissory note{'s' if n > 1 else ''}"
    )


@LIFE.action("repay", c.player(), NOTES, label="Repay notes", group="loans")
def repay(tx: Tx, a: dict[str, Any]) -> str:
    """Give back promissory notes with $20,000 each (and save the interest)."""
    player = in_play(tx, a["player"])
    n = whole(a["notes"], "notes", 1, 50)
    held = notes_of(tx.table, player)
    if held < n:
        raise Refused(f"{player} holds {held} promissory note{'s' if held != 1 else ''}, not {n}")
    amount = n * amount_of(tx.table, "note")
    if cash(tx.table, player) < amount:
        raise tx.short_of(player, amount, f"{n} promissory note{'s' if n > 1 else ''}")
    tx.pay(player, BANK, amount, f"repaid {n} promissory note{'s' if n > 1 else ''}")
    tx.set(["players", player, "notes"], held - n or None)
    return who(player) + f" repaid {n} promissory note{'s' if n > 1 else ''} with {tx.fmt(amount)}"


@LIFE.action("buy", c.player(), c.deed("item", "What to buy", only=_for_sale), label="Buy", group="deeds")
def buy(tx: Tx, a: dict[str, Any]) -> str:
    """On a blue option space: buy the stock certificate or an insurance policy (one of each)."""
    player = in_play(tx, a["player"])
    item = a["item"]
    c = card(tx.table, item)
    if c["kind"] not in ("stock", "policy"):
        raise Refused(f"{item} is not for sale: buy the stock certificate or an insurance policy")
    if holds(tx.table, player, item):
        raise Refused(f"{player} already has {item}: one of each")
    if cash(tx.table, player) < c["price"]:
        raise NotEnoughMoney(
            f"{player} has {tx.fmt(cash(tx.table, player))} but {item} costs {tx.fmt(c['price'])}: "
            "borrow promissory notes first"
        )
    tx.pay(player, BANK, c["price"], f"bought {item}")
    tx.set(["players", player, "holdings"], [*tx.table["players"][player].get("holdings", []), item])
    return who(player) + f" bought {item} for {tx.fmt(c['price'])}"
