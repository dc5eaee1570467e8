"""The City Life board: what landing on each square does to the money.

``land {player, square}`` takes the square the player's die brought them to, follows the squares that
send a player straight on (Faith, Hope, Charity, the Friend's Houses, the Park, ...) and applies the
money of the square reached, asking for the choices and die rolls it needs as fields. A square whose
outcome sends the player on to another square with instructions of its own (a School answered right,
the Museum's School choice) records where the player now stands and says so; that square is a
``land`` of its own. Squares that only move the piece record the square and move no money.
"""

from __future__ import annotations

from typing import Any, Callable, cast

from dataclasses import replace

from companion.core import contract as c
from companion.core.engine import Tx, ranking
from companion.core.errors import BadAction, Refused
from companion.core.said import does, joined, who
from companion.core.model import BANK, Table, active_players, card, cash, pot_seed

from . import turns
from .city_life_bank import (
    CITY,
    LOTTERY,
    _property_value,
    amount_of,
    could_raise,
    find_property,
    is_advanced,
    properties_of,
    shares_of,
)
from .city_life_cards import ANSWERS, pay_quiz, whole_number
from .city_life_debts import charge
from .city_life_property import take_property, unsold

__all__ = ["kind_of", "square_name", "win_lottery"]

#: Fields each kind of square takes beyond player and square.
FIELDS = {
    "house": {"choice"},
    "tower": {"choice", "house"},
    "hospital": {"house"},
    "amusement_park": {"roll"},
    "museum": {"choice", "roll"},
    "school": {"correct", "answers"},
}


def _landing(table: Table, partial: dict[str, Any]) -> str | None:
    """The kind of square the piece ends on (after any square that sends it straight on)."""
    square = partial.get("square")
    if not isinstance(square, int) or isinstance(square, bool):
        return None
    return kind_of(table, _follow(table, square)[-1])


def _owner_here(table: Table, partial: dict[str, Any]) -> str | None:
    square = _follow(table, partial["square"])[-1]
    deed = next((d for d, c in table["pack"]["cards"].items() if c["square"] == square), None)
    return table["deeds"][deed].get("owner") if deed else None


def _square_choices(table: Table, partial: dict[str, Any]) -> list[tuple[str, str]]:
    kind = _landing(table, partial)
    if kind == "museum":
        return [("school", "Go on to School"), ("collect", "Collect the prize"), ("roll", "Roll the die")]
    if kind in ("house", "tower"):
        owner = _owner_here(table, partial)
        if owner is None or owner == partial.get("player"):
            return []
        second = ("miss_turns", "Miss turns") if kind == "house" else ("send", "Send to one of the owner's Houses")
        return [("fee", "Visitor's fee"), second]
    return []


def _needs_roll(table: Table, partial: dict[str, Any]) -> bool:
    kind = _landing(table, partial)
    return kind == "amusement_park" or (kind == "museum" and partial.get("choice") == "roll")


def _needs_house(table: Table, partial: dict[str, Any]) -> bool:
    kind = _landing(table, partial)
    return (kind == "hospital" and bool(unsold(table, "house"))) or (
        kind == "tower" and partial.get("choice") == "send"
    )


def _house_options(table: Table, partial: dict[str, Any]) -> list[str]:
    if _landing(table, partial) == "hospital":
        return unsold(table, "house")
    owner = _owner_here(table, partial)
    return [d for d, s in table["deeds"].items() if s.get("owner") == owner and card(table, d)["kind"] == "house"]


def kind_of(table: Table, square: int) -> str:
    for deed in table["pack"]["cards"].values():
        if deed["square"] == square:
            return cast("str", deed["kind"])
    for kind, squares in table["pack"]["board"].items():
        if isinstance(squares, list) and square in squares:
            return cast("str", kind)
    return "plain"


def square_name(table: Table, square: int) -> str:
    for name, deed in table["pack"]["cards"].items():
        if deed["square"] == square:
            return f"square {square} ({name})"
    name = table["pack"]["board"].get("names", {}).get(str(square))
    kind = kind_of(table, square)
    if not name and kind != "plain":
        name = kind.replace("_", " ").title()
    return f"square {square} ({name})" if name else f"square {square}"


def _follow(table: Table, square: int) -> list[int]:
    """The square reached, through every square that sends a player straight on."""
    path = [square]
    advance = table["pack"]["board"].get("advance", {})
    while str(path[-1]) in advance and len(path) < 20:
        path.append(int(advance[str(path[-1])]))
    return path


def _arrive(tx: Tx, player: str, square: int) -> None:
    tx.set(["players", player, "at"], square)
    tx.set(["players", player, "landed"], tx.table["turn"]["number"])


def win_lottery(tx: Tx, player: str) -> str:
    """The player takes the City Life Lottery; the Bank puts its $1,000 back in."""
    amount = cash(tx.table, LOTTERY)
    tx.pay(LOTTERY, player, amount, "won the City Life Lottery")
    tx.pay(BANK, LOTTERY, pot_seed(tx.table, "lottery"), "the Bank refills the City Life Lottery")
    return who(player) + f" won the City Life Lottery: {tx.fmt(amount)}"


#: The squares a landing leads on to, one object each: a School's ``correct`` or ``answers``, the Museum's
#: ``choice`` and ``roll``.
THEN = {
    "type": "array",
    "maxItems": 4,
    "items": {
        "type": "object",
        "title": "Square",
        "maxProperties": 2,
        "properties": {
            "correct": {"type": "boolean", "title": "Answered right"},
            "answers": {**(ANSWERS.schema or {}), "title": "Answers"},
            "choice": {
                "oneOf": [
                    {"const": "school", "title": "School"},
                    {"const": "collect", "title": "Prize"},
                    {"const": "roll", "title": "Roll"},
                ],
                "title": "Museum",
            },
            "roll": {"type": "integer", "minimum": 1, "maximum": 6, "title": "The die"},
        },
        "additionalProperties": False,
    },
}

#: What a square that sends the player on says when the chain stops there.
_STOP = {"school": ": land there next", "museum": ": land there for its quiz"}


@CITY.action(
    "land",
    c.player(),
    c.square(label_of=lambda table, n: square_name(table, n)),
    c.choice(
        "choice",
        "The choice the square offers",
        options_from=_square_choices,
        required=False,
        when=lambda table, partial: bool(_square_choices(table, partial)),
    ),
    c.dice("roll", "The die", 1, 6, required=False, when=_needs_roll),
    c.yesno(
        "correct",
        "Answered correctly",
        when=lambda table, partial: _landing(table, partial) == "school" and not is_advanced(table),
    ),
    replace(
        ANSWERS, required=False, when=lambda table, partial: _landing(table, partial) == "school" and is_advanced(table)
    ),
    c.deed("house", "Which House", required=False, when=_needs_house, only=_house_options, resolve=_property_value),
    c.structured("then", "What happened on the squares it led to, in order", THEN, required=False),
    label="Land on a square",
    group="money",
    own_turn="only the player whose turn it is moves and lands on a square",
)
def land(tx: Tx, a: dict[str, Any]) -> str:
    """The player's piece lands on a square: its money happens (choices and die rolls as fields).

    A square that sends the player on to another square with instructions of its own (a School
    answered right, the Museum's School choice) is followed in the same action when ``then`` gives that
    square's fields (one object per square, in order); each step is said in the log."""
    player = a["player"]
    if tx.table["players"][player].get("in_jail"):
        raise Refused(f"{player} is in Jail: roll for a six (leave_jail) or end the turn")
    path = _follow(tx.table, whole_number(a["square"], "square", 1, 100))
    square = path[-1]
    kind = kind_of(tx.table, square)
    extra = sorted(
        k
        for k in ("choice", "roll", "correct", "answers", "house")
        if a.get(k) is not None and k not in FIELDS.get(kind, ())
    )
    if extra:
        raise BadAction(f"{square_name(tx.table, square)} takes no {', '.join(extra)}")
    steps = list(a.get("then") or [])
    _arrive(tx, player, square)
    text = SQUARES.get(kind, _plain)(tx, player, square, a)
    if len(path) == 1:
        told = who(player) + f" landed on {square_name(tx.table, square)}: " + text
    else:
        by = (" by " + ", ".join(str(s) for s in path[1:-1])) if len(path) > 2 else ""
        first, reached = square_name(tx.table, path[0]), square_name(tx.table, square)
        told = who(player) + f" landed on {first} and went on{by} to {reached}: " + text
    for _ in range(8):  # School 15, School 57, the Museum, School 82: a chain is at most four squares
        at = tx.table["players"][player]["at"]
        if kind not in _STOP or at == square:
            break
        nxt = kind_of(tx.table, at)
        if nxt in ("house", "tower"):  # a property to buy: the move already says so
            break
        if nxt not in SQUARES or not steps:
            told += _STOP[kind]
            break
        step = steps.pop(0)
        square, kind = at, nxt
        if not isinstance(step, dict) or set(step) - FIELDS.get(kind, set()):
            wrong = sorted(set(step) - FIELDS.get(kind, set())) if isinstance(step, dict) else [repr(step)]
            raise BadAction(f"then: {square_name(tx.table, square)} takes no {', '.join(wrong)}")
        _arrive(tx, player, square)
        told += f"; then at {square_name(tx.table, square)}: " + SQUARES[kind](tx, player, square, step)
    if steps:
        raise BadAction(f"then lists {len(steps)} square{'s' if len(steps) > 1 else ''} more than the landing leads to")
    return told


# -- the squares ------------------------------------------------------------------------------------
def _plain(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    return "no money moves"


def _move_text(kind: str) -> Callable[[Tx, str, int, dict[str, Any]], str]:
    texts = {
        "express_way": "along the Express Way on the next turns",
        "detour": "along the Detour on the next turns",
        "dead_end": "along the Dead End (69, 52, 49) on the next turns",
        "gas_station": "an extra turn",
        "traffic_violation": "draw a Traffic Violation card (record it with violation)",
    }
    return lambda tx, player, square, a: texts[kind]


def _dollar_sign(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    if not is_advanced(tx.table):
        # The basic rules give a $500 Bank share, an asset the player may sell to the Bank or to others.
        held = shares_of(tx.table, player) + 1
        tx.set(["players", player, "shares"], held)
        return (
            who(player)
            + f" received a {tx.fmt(amount_of(tx.table, 'share_price'))} Bank share from the Bank ("
            + who(player)
            + f" holds {held})"
        )
    amount = amount_of(tx.table, "dollar_sign_advanced")
    tx.pay(BANK, player, amount, "Dollar Sign square")
    parts = [who(player) + f" collected {tx.fmt(amount)}"]
    per = amount_of(tx.table, "dividend")
    for holder in active_players(tx.table):
        n = shares_of(tx.table, holder)
        if n:
            tx.pay(BANK, holder, n * per, f"dividend on {n} Bank share{'s' if n > 1 else ''}")
            parts.append(who(holder) + f" {tx.fmt(n * per)} dividend")
    return joined("; ", parts) + "; " + who(player, "may") + " buy Bank shares"


def _property(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    deed = next(d for d, c in tx.table["pack"]["cards"].items() if c["square"] == square)
    c = card(tx.table, deed)
    owner = tx.table["deeds"][deed].get("owner")
    if owner is None:
        if a.get("choice") is not None or a.get("house") is not None:
            raise BadAction(f"nobody owns {deed}: there is no proprietor's choice")
        tax = c["land_transfer_tax"] if is_advanced(tx.table) else 0
        with_tax = f" + {tx.fmt(tax)} Land Transfer Tax" if tax else ""
        return f"{deed} is for sale: " + who(player, "may") + f" buy it for {tx.fmt(c['price'])}{with_tax}"
    if owner == player:
        return who(player, "owns") + f" {deed}"
    choices = ("fee", "miss_turns") if c["kind"] == "house" else ("fee", "send")
    choice = a.get("choice")
    if choice not in choices:
        raise BadAction(f"{owner} owns {deed}: choice is {' or '.join(map(repr, choices))} (the proprietor's choice)")
    if choice == "miss_turns":
        n = amount_of(tx.table, "visitor_miss_turns")
        turns.miss(tx, player, n, "other")
        return who(owner) + " chose to make " + who(player) + f" miss the next {n} turns"
    if choice == "send":
        house = a.get("house")
        if house is None:
            raise BadAction(f"send needs house: the square of a House {owner} owns")
        target = find_property(tx.table, house)
        if card(tx.table, target)["kind"] != "house" or tx.table["deeds"][target].get("owner") != owner:
            raise Refused(f"{target} is not a House of {owner}'s")
        tx.set(["players", player, "at"], card(tx.table, target)["square"])
        return who(owner) + " sent " + who(player) + f" to {target}"
    if a.get("house") is not None:
        raise BadAction('house goes with the choice "send"')
    return _visitor_fee(tx, player, owner, deed)


def _visitor_fee(tx: Tx, player: str, owner: str, deed: str) -> str:
    """The visitor pays; the proprietor pays Capital Gains Tax on it (advanced). A House's visitor who
    could not cover the fee even by selling everything misses two turns instead; a Tower's visitor left
    owing after selling everything goes to Jail for a turn per $500."""
    c = card(tx.table, deed)
    fee = c["visitor_fee"]
    cgt = c["visitor_capital_gains"] if is_advanced(tx.table) else 0
    memo = f"Visitor's Fee at {deed}"
    house = c["kind"] == "house"
    if house and cash(tx.table, player) + could_raise(tx.table, player) < fee:
        n = amount_of(tx.table, "visitor_miss_turns")
        turns.miss(tx, player, n, "debt")
        return (
            who(player, "cannot")
            + f" cover the {tx.fmt(fee)} Visitor's Fee, so "
            + does(player, "misses")
            + f" the next {n} turns instead"
        )
    outcome = charge(tx, player, fee, memo, payee=owner, when_broke="miss_two" if house else "jail", tax=cgt)
    return outcome or (
        who(player)
        + " paid "
        + who(owner)
        + f" a {tx.fmt(fee)} Visitor's Fee"
        + ("; " + who(owner) + f" paid {tx.fmt(cgt)} Capital Gains Tax" if cgt else "")
    )


def _bill(key: str, memo: str) -> Callable[[Tx, str, int, dict[str, Any]], str]:
    def square(tx: Tx, player: str, sq: int, a: dict[str, Any]) -> str:
        amount = amount_of(tx.table, key)
        outcome = charge(tx, player, amount, memo, when_broke="one_turn")
        return outcome or who(player) + f" paid the {tx.fmt(amount)} {memo} to the Lottery"

    return square


def _city_hall(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    owned = properties_of(tx.table, player)
    tax = sum(card(tx.table, d)["property_tax"] for d in owned)
    if not tax:
        return who(player, "owns") + " no property: no Property Tax"
    outcome = charge(tx, player, tax, "Property Tax", when_broke="turns")
    what = f"{len(owned)} propert{'ies' if len(owned) > 1 else 'y'}"
    return outcome or who(player) + f" paid {tx.fmt(tax)} Property Tax on {what} to the Lottery"


def _hospital(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    houses = unsold(tx.table, "house")
    if not houses:
        if a.get("house") is not None:
            raise Refused("every City Life House is sold: the Hospital pays cash instead")
        amount = amount_of(tx.table, "hospital")
        tx.pay(BANK, player, amount, "the Hospital")
        return "no House is left, so " + who(player) + f" collected {tx.fmt(amount)}"
    if a.get("house") is None:
        squares = ", ".join(str(card(tx.table, h)["square"]) for h in houses)
        raise BadAction(f"{player} wins an unsold House: house is one of squares {squares}")
    deed = find_property(tx.table, a["house"])
    if deed not in houses:
        raise Refused(f"{deed} is not an unsold City Life House")
    take_property(tx, player, deed)
    return who(player) + f" won {deed}, tax free"


def _to_tower(tx: Tx, player: str) -> str:
    """On to the nearest unsold Tower (to buy it), or stay and collect when none is left.

    The player advances: the nearest unsold Tower ahead; when none lies ahead, the nearest one behind."""
    towers = unsold(tx.table, "tower")
    here = tx.table["players"][player]["at"]
    if towers:
        ahead = [t for t in towers if card(tx.table, t)["square"] > here]
        tower = ahead[0] if ahead else max(towers, key=lambda t: card(tx.table, t)["square"])
        c = card(tx.table, tower)
        tx.set(["players", player, "at"], c["square"])
        return who(player, "advances") + f" to {tower}, which is for sale for {tx.fmt(c['price'])}"
    amount = amount_of(tx.table, "fire_department")
    tx.pay(BANK, player, amount, "no Tower left")
    text = "no Tower is left, so " + who(player) + f" collected {tx.fmt(amount)}"
    if is_advanced(tx.table):
        cgt = amount_of(tx.table, "fire_department_capital_gains")
        tx.pay(player, LOTTERY, cgt, "Capital Gains Tax")
        text += f" and paid {tx.fmt(cgt)} Capital Gains Tax"
    return text


def _fire_department(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    return _to_tower(tx, player)


def _amusement_park(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    roll = whole_number(a.get("roll"), "roll (the die at the Lottery)", 1, 6)
    tx.set(["players", player, "at"], 58)
    if roll == 6:
        return "on to the Lottery; " + who(player) + " rolled a six: " + win_lottery(tx, player)
    return "on to the Lottery; " + who(player) + f" rolled {roll}, not a six: no win"


def _lottery(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    return win_lottery(tx, player)


def _jail(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    n = amount_of(tx.table, "jail_turns")
    turns.send_to_jail(tx, player, n)
    return who(player, "misses") + f" {n} turns in Jail (a six on any of them gets " + who(player) + " out)"


def _construction(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    n = amount_of(tx.table, "construction_turns")
    turns.miss(tx, player, n, "other")
    return who(player, "loses") + f" {n} turn{'s' if n > 1 else ''}"


def _mall(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    amount = amount_of(tx.table, "mall")
    tx.pay(BANK, player, amount, "advertising contest")
    return who(player) + f" won {tx.fmt(amount)} in the advertising contest"


def _museum(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    choice = a.get("choice")
    if choice not in ("school", "collect", "roll"):
        raise BadAction('at the Museum choice is "school", "collect" or "roll"')
    if choice != "roll" and a.get("roll") is not None:
        raise BadAction('roll goes with the choice "roll"')
    adv = is_advanced(tx.table)
    if choice == "school":
        tx.set(["players", player, "at"], 82)
        return who(player, "goes") + " on to School (82)"
    if choice == "collect":
        amount = amount_of(tx.table, "museum")
        cgt = amount_of(tx.table, "museum_capital_gains") if adv else 0
    else:
        roll = whole_number(a.get("roll"), "roll", 1, 6)
        if roll == 6:
            return who(player) + " rolled a six: nothing"
        amount = amount_of(tx.table, "museum_roll") * roll
        cgt = amount_of(tx.table, "museum_roll_capital_gains") * roll if adv else 0
    tx.pay(BANK, player, amount, "the Museum")
    tx.pay(player, LOTTERY, cgt, "Capital Gains Tax")
    return who(player) + f" collected {tx.fmt(amount)}" + (f" and paid {tx.fmt(cgt)} Capital Gains Tax" if cgt else "")


def _school(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    if is_advanced(tx.table):
        if a.get("answers") is None:
            raise BadAction(
                "the School's Quiz Card round needs answers: each player's correct answers, e.g. {\"Ann\": 3}"
            )
        paid, counts = pay_quiz(tx, a["answers"], only=None)
        text = "quiz: " + paid if paid else "no correct answers"
        every = amount_of(tx.table, "quiz_questions")
        correct = a.get("correct")
        if correct is None:
            correct = counts.get(player, 0) == every and sum(counts.values()) == every
    else:
        if a.get("answers") is not None:
            raise BadAction("under the basic rules the School takes correct: true or false")
        correct = a.get("correct")
        text = "no correct answer"
        if correct is True:
            each = amount_of(tx.table, "quiz_answer")
            tx.pay(BANK, player, each, "correct quiz answer")
            text = "quiz: " + who(player) + f" {tx.fmt(each)}"
    if not isinstance(correct, bool):
        raise BadAction("correct is true or false: did the player answer the Quiz Card right")
    if not correct:
        return text + "; " + who(player, "stays")
    nxt = tx.table["pack"]["board"]["school_next"].get(str(square))
    if nxt is None:
        return text + "; this School sends nobody on"
    if nxt == "tower":
        return text + "; " + _to_tower(tx, player)
    path = _follow(tx.table, int(nxt))
    tx.set(["players", player, "at"], path[-1])
    by = f" by {square_name(tx.table, path[0])}" if len(path) > 1 else ""
    return text + "; " + who(player, "goes") + f" on{by} to {square_name(tx.table, path[-1])}"


def _winner(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    rows = ranking(tx.table, tx.rules)
    tx.set(["over"], {"winner": player, "reason": f"{player} reached square 100", "ranking": rows})
    return who(player) + " reached square 100 and " + does(player, "wins") + " the game"


def _wrong_turn(tx: Tx, player: str, square: int, a: dict[str, Any]) -> str:
    tx.set(["players", player, "at"], square - 30)
    return who(player, "moves") + f" back 30 squares to square {square - 30}"


SQUARES = {
    "dollar_sign": _dollar_sign,
    "house": _property,
    "tower": _property,
    "garage": _bill("garage", "motor vehicle repair bill"),
    "supermarket": _bill("supermarket", "grocery bill"),
    "city_hall": _city_hall,
    "hospital": _hospital,
    "fire_department": _fire_department,
    "amusement_park": _amusement_park,
    "lottery": _lottery,
    "jail": _jail,
    "construction_zone": _construction,
    "mall": _mall,
    "museum": _museum,
    "school": _school,
    "winner": _winner,
    "wrong_turn": _wrong_turn,
    **{k: _move_text(k) for k in ("express_way", "detour", "dead_end", "gas_station", "traffic_violation")},
}
