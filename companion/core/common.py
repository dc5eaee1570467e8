"""Actions every game has: moving money, the turn, pots, and the end of the game."""

from __future__ import annotations

from typing import Any

from . import contract as c
from .engine import Registry, Tx, may_be_empty, ranking
from .errors import BadAction, Refused
from .said import Said, Typed, Who, does, joined, named, typed, who, whose
from .model import (
    BANK,
    account_name,
    pot_seed,
    active_players,
    cash,
    playing,
    pot_account,
)

__all__ = [
    "COMMON",
    "MONEY",
    "POTS",
    "TURNS",
    "GAME",
    "CARD_VALUES",
    "TABLE_SWITCHES",
    "advance_turn",
    "declare_out",
    "switch_is_on",
]

#: Money between any accounts, pots, the turn, and the game itself: small sets a family lists whole.
MONEY = Registry()
POTS = Registry()
TURNS = Registry()
GAME = Registry()

#: The shape of a card correction: card keys and their new values (money as text or a number, rents a list).
CARD_VALUES = {
    "type": "object",
    "maxProperties": 16,
    "additionalProperties": {
        "oneOf": [
            {"type": "integer"},
            {"type": "string", "maxLength": 32},
            {"type": "boolean"},
            {"type": "array", "maxItems": 16, "items": {"type": ["integer", "string"]}},
        ]
    },
}


def _not_payer(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    """Everyone but the account already paying: nobody pays themself."""
    accounts = [BANK, *active_players(table), *(pot_account(p) for p in table["pots"])]
    return [a for a in accounts if a != partial.get("from")]


def _memo(a: dict[str, Any], default: str = "") -> str:
    """The memo the contract has already cleaned, or the action's own default."""
    return a.get("memo") or default


@MONEY.action(
    "transfer",
    c.account("from", "Who pays", role="payer"),
    c.account("to", "Who receives", role="payee", only=_not_payer),
    c.amount(),
    c.text(),
    label="Transfer",
    group="money",
)
def transfer(tx: Tx, a: dict[str, Any]) -> str:
    """Move money between the bank, players and pots."""
    payer = a["from"]
    payee = a["to"]
    if payer == payee:
        raise Refused(f"{account_name(payer)} cannot pay {account_name(payee)}")
    amount = a["amount"]
    memo = _memo(a)
    if payer != BANK and cash(tx.table, payer) < amount:
        raise tx.short_of(payer, amount)
    tx.pay(payer, payee, amount, memo)
    # who(payer) + " paid " + who(payee) + " $1" (+ " (" + typed(memo) + ")"), made in one step
    paid = f" {tx.currency.format(amount)}"
    if memo:
        return Said(_slot(payer), " paid ", _slot(payee), paid, " (", Typed(memo), ")")
    return Said(_slot(payer), " paid ", _slot(payee), paid)


_SLOTS: dict[str, Who] = {}


def _slot(account: str) -> Who:
    """``named(account_name(account))``, made once per account (a slot never changes)."""
    found = _SLOTS.get(account)
    if found is None:
        found = named(account_name(account))
        if len(_SLOTS) < 1024:
            _SLOTS[account] = found
    return found


def _round_the_table(says: str, each: str) -> tuple[c.Field, ...]:
    """The fields of one sum between a player and each other player (a birthday, a round of drinks):
    who, the sum each, a memo."""
    return (c.player(says=says), c.amount(says=each), c.text())


def _each_other_player(tx: Tx, a: dict[str, Any], memo: str, refused: str) -> tuple[str, int, str, list[str]]:
    """The player, the sum each, the memo (``memo`` when none was typed) and every other player still in
    the game; refused, saying the player has nobody left to ``refused``, when no one else is."""
    player = a["player"]
    others = [p for p in active_players(tx.table) if p != player]
    if not others:
        raise Refused(f"{player} has no opponents left to {refused}")
    return player, a["amount"], _memo(a, memo), others


@MONEY.action(
    "collect_from_all", *_round_the_table("Who collects", "From each player"), label="Collect from all", group="money"
)
def collect_from_all(tx: Tx, a: dict[str, Any]) -> str:
    """Every other player pays the player the same sum (a birthday, a card); each pays what they can
    and the log says who fell short (they settle it with the player as the table agrees)."""
    player, amount, memo, others = _each_other_player(tx, a, "from every player", "collect from")
    if not any(cash(tx.table, p) for p in others):
        raise Refused(f"{', '.join(others)} {'has' if len(others) == 1 else 'have'} no cash to pay {player}")
    full, short = [], []
    for p in others:
        part = min(cash(tx.table, p), amount)
        tx.pay(p, player, part, memo)
        if part == amount:
            full.append(p)
        else:
            short.append(who(p) + f" paid {tx.fmt(part)} and " + does(p, "is") + f" {tx.fmt(amount - part)} short")
    parts = (
        [f"{tx.fmt(amount)} from " + (who(full[0]) if len(full) == 1 else "each of " + joined(", ", map(who, full)))]
        if full
        else []
    )
    head = who(player) + " collected " + (parts[0] if parts else "what each could pay")
    return joined("; ", [head, *short])


@MONEY.action("pay_to_all", *_round_the_table("Who pays", "To each player"), label="Pay everyone", group="money")
def pay_to_all(tx: Tx, a: dict[str, Any]) -> str:
    """The player pays every other player the same sum."""
    player, amount, memo, others = _each_other_player(tx, a, "to every player", "pay")
    total = amount * len(others)
    if cash(tx.table, player) < total:
        raise tx.short_of(
            player, total, f"{tx.fmt(amount)} to each of {len(others)} player{'s' if len(others) != 1 else ''}"
        )
    for p in others:
        tx.pay(player, p, amount, memo)
    return who(player) + f" paid {tx.fmt(amount)} to each of " + joined(", ", map(who, others))


@POTS.action("win_pot", c.player(says="Who wins the pot"), c.pot(), label="Win a pot", group="money")
def win_pot(tx: Tx, a: dict[str, Any]) -> str:
    """A player takes everything in a pot (free parking, the lottery, the centre)."""
    player = a["player"]
    pot = a["pot"]
    account = pot_account(pot)
    amount = cash(tx.table, account)
    if amount <= 0:
        raise Refused(f"the {pot} pot is empty")
    tx.pay(account, player, amount, f"won the {pot} pot")
    seed = pot_seed(tx.table, pot)
    if seed:
        tx.pay(BANK, account, int(seed), f"the bank refills the {pot} pot")
    return who(player) + f" won {tx.fmt(amount)} from the {pot} pot"


def advance_turn(tx: Tx) -> str:
    """Hand the turn to the next player who is in the game; players owing missed turns skip."""
    active = active_players(tx.table)
    if not active:
        raise Refused("nobody is left in the game")
    order = tx.table["order"]
    now = playing(tx.table)
    tx.set(["players", now, "turns"], tx.table["players"][now]["turns"] + 1)
    index = order.index(now)
    skipped = []
    for _ in range(len(order) * 8):
        index = (index + 1) % len(order)
        name = order[index]
        record = tx.table["players"][name]
        if record["bankrupt"]:
            continue
        owed = record.get("skip", 0)
        if owed > 0 and len(active) > 1:
            tx.set(["players", name, "skip"], owed - 1 or None)
            tx.set(["players", name, "missed"], record["missed"] + 1)
            skipped.append(name)
            continue
        break
    tx.set(["turn", "index"], index)
    tx.set(["turn", "number"], tx.table["turn"]["number"] + 1)
    nxt = order[index]
    note = " (" + joined(", ", map(who, skipped)) + " missed a turn)" if skipped else ""
    return whose(now) + " turn ended; " + who(nxt) + " to play" + note


@TURNS.action("next_turn", label="Next turn", group="turn")
def next_turn(tx: Tx, a: dict[str, Any]) -> str:
    """The current player's turn ends and the next player in the game plays."""
    return advance_turn(tx)


@TURNS.action(
    "miss_turns", c.player(), c.count("turns", "How many turns", 1, 20), c.text(), label="Miss turns", group="turn"
)
def miss_turns(tx: Tx, a: dict[str, Any]) -> str:
    """The player must miss some turns (jail, a construction zone): counted, not played."""
    player = a["player"]
    turns = a["turns"]
    owed = tx.table["players"][player].get("skip", 0)
    tx.set(["players", player, "skip"], owed + turns)
    return (
        who(player, "will")
        + f" miss {turns} turn{'s' if turns > 1 else ''}"
        + (" (" + typed(_memo(a)) + ")" if a.get("memo") else "")
    )


def declare_out(tx: Tx, player: str) -> None:
    """Mark a player out of the game, and end the game when one player is left."""
    tx.set(["players", player, "bankrupt"], True)
    left = active_players(tx.table)
    if tx.table["order"][tx.table["turn"]["index"]] == player and left:
        order = tx.table["order"]
        i = order.index(player)
        while order[i] not in left:
            i = (i + 1) % len(order)
        tx.set(["turn", "index"], i)
    if len(left) == 1 and len(tx.table["order"]) > 1:
        tx.set(["over"], {"winner": left[0], "reason": "last player standing", "ranking": ranking(tx.table, tx.rules)})


def game_started(table: dict[str, Any]) -> bool:
    """Whether play has begun: a deed has an owner, or the first turn has ended."""
    return table["turn"]["number"] > 1 or any(state.get("owner") for state in table["deeds"].values())


def printed_card(table: dict[str, Any], partial: dict[str, Any]) -> dict[str, Any]:
    """The chosen deed's card as it reads now: what a correction starts from."""
    from .model import find_deed

    return {k: v for k, v in table["pack"]["cards"][find_deed(table, partial["deed"])].items() if k != "name"}


@GAME.action(
    "correct_card",
    c.deed(),
    c.structured("values", "The card's values to correct", CARD_VALUES, current=printed_card),
    label="Correct a card",
    group="game",
)
def correct_card(tx: Tx, a: dict[str, Any]) -> str:
    """The banker corrects a deed's printed values to match the card on the table (money already moved
    stays). Money is typed the pack's way ("110K", "[6K, 30K]"); a deed's group is fixed once play begins."""
    from .card_text import card_value, shown

    deed = a["deed"]
    values = a["values"]
    if not isinstance(values, dict) or not values:
        raise BadAction("values is an object of card keys and their new values")
    current = tx.table["pack"]["cards"][deed]
    fields = sorted(k for k in current if k != "name")
    fixed = dict(current)
    for key, value in values.items():
        if key in ("name",) or not isinstance(key, str):
            raise BadAction(f"{key!r} cannot be corrected")
        if key not in current and key not in tx.rules.extras.get("card_keys", ()):
            raise BadAction(f"{deed} has no field {key!r}; its fields are {', '.join(fields)}")
        if key == "group" and value != current.get("group") and game_started(tx.table):
            raise Refused(
                f"{deed}'s group cannot change once play has begun (it would change which groups are "
                "complete); correct it in a copy of the pack for the next game"
            )
        fixed[key] = card_value(key, current.get(key), value, tx.currency.parse)
    tx.rules.check_card(deed, fixed)
    for key in values:
        tx.set(["pack", "cards", deed, key], fixed[key])
    told = ", ".join(f"{k} = {shown(fixed[k], tx.fmt)}" for k in values)
    return f"The banker corrected {deed}: {told}"


#: The game's options about the table rather than the rules, with what each lets happen: the banker may
#: turn them on and off while playing (the rules' own options are fixed when the game is made).
TABLE_SWITCHES = {
    "phone_actions": "players' actions from their phones",
    "phone_requests": "players' payment requests from their phones",
    "trust_table": "money from the bank to a player without the banker's tap",
}
#: Each one's value in a game made before it existed.
SWITCHES_ON_AT_FIRST = ("phone_actions", "phone_requests")


def switch_is_on(table: dict[str, Any], key: str) -> bool:
    """Whether a table option is on now (a game made before the option existed has it as it starts)."""
    value = table.get("options", {}).get(key, key in SWITCHES_ON_AT_FIRST)
    return value not in (False, "false", "no", "off", 0)


@GAME.action(
    "set_option",
    c.choice("option", "Which option", tuple((k, w[:1].upper() + w[1:]) for k, w in TABLE_SWITCHES.items())),
    c.yesno("on", "On", required=True),
    label="Turn a table option on or off",
    group="game",
)
def set_option(tx: Tx, a: dict[str, Any]) -> str:
    """The banker turns one of the table's options on or off while playing (players' actions from
    their phones, say); like every action it goes in the log and can be undone."""
    key = a["option"]
    if key not in TABLE_SWITCHES:
        raise BadAction(f"{key!r} cannot change while playing; the options that can are {', '.join(TABLE_SWITCHES)}")
    on = a["on"] is True
    what = TABLE_SWITCHES[key]
    if switch_is_on(tx.table, key) == on:
        raise Refused(f"{what} {'are' if key != 'trust_table' else 'is'} already {'on' if on else 'off'}")
    tx.set(["options", key], on)
    return f"The banker turned {'on' if on else 'off'} {what}"


@GAME.action("end_game", c.text("reason", "Why the game ends"), label="End the game", group="game")
@may_be_empty
def end_game(tx: Tx, a: dict[str, Any]) -> str:
    """End the game now (a timed game): the richest player by the pack's count wins."""
    if tx.table.get("over"):
        raise Refused("the game is already over")
    rows = ranking(tx.table, tx.rules)
    reason = a.get("reason") or "the banker ended the game"
    winner = rows[0]["player"] if rows else None
    tx.set(["over"], {"winner": winner, "reason": reason, "ranking": rows})
    return "Game over: " + who(winner, "wins") + f" with {tx.fmt(rows[0]['worth'])}" if rows and winner else "Game over"


#: What every game has: the sets above, whole.
COMMON = Registry(MONEY, POTS, TURNS, GAME)
