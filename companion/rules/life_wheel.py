"""The Wheel of Fate's money: side bets, the Lucky Number, Lucky Days, Playing the Market, the Tycoon.

The wheel stays on the table; each spin that moves money is a field of the action that records it
(1 to 10). Any spin made by an opponent of the Lucky Number's holder that shows that number costs the
spinner $10,000, paid to the holder; the app charges it in every action that carries a spin.
"""

from __future__ import annotations

from typing import Any

from companion.core import contract as c
from companion.core.engine import Tx, may_be_empty, ranking
from companion.core.errors import BadAction, NotEnoughMoney, Refused
from companion.core.said import does, joined, who, whose
from companion.core.model import BANK, Table, active_players, cash, find_player

from .life_bank import LIFE, amount_of, first_card, holds, in_play, obligation, retired, spin_of, stage_of

__all__ = ["lucky_fee", "settle_bets", "final_count", "check_end"]


def _bettors(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    """Who may bet on a spin: every player still playing but the spinner."""
    return [p for p in active_players(table) if p != partial.get("player") and stage_of(table, p) != "poor_farm"]


#: Opponents' side bets on one spin (asked on every spin: "No side bets" is one tap).
BETS = c.structured(
    "bets",
    "Side bets by the other players",
    {
        "type": "array",
        "maxItems": 40,
        "x-none": "No side bets",
        "items": {
            "type": "object",
            "title": "Bet",
            "additionalProperties": False,
            "required": ["player", "number", "amount"],
            "properties": {
                "player": {"type": "string", "maxLength": 120, "x-kind": "player", "title": "Who bets"},
                "number": {"type": "integer", "minimum": 1, "maximum": 10, "title": "Number"},
                "amount": {
                    "oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "maxLength": 32}],
                    "x-kind": "amount",
                    "x-maximum": "bet_limit",
                    "title": "Stake",
                },
            },
        },
    },
    required=False,
    when=lambda table, partial: True,
    only=_bettors,
    resolve=lambda table, bets: read_bets(table, bets),
)
#: The two numbers a Lucky Day's bills are put on, when the player speculates.
SPECULATE = c.structured(
    "speculate",
    "Speculate on two numbers",
    {
        "type": "array",
        "minItems": 2,
        "maxItems": 2,
        "uniqueItems": True,
        "title": "The two numbers",
        "x-none": "Keep the money",
        "items": {"type": "integer", "minimum": 1, "maximum": 10},
    },
    required=False,
    when=lambda table, partial: True,
)


def lucky_fee(tx: Tx, spinner: str, number: int) -> str:
    """The spinner spun the Lucky Number of another player: $10,000 to its holder."""
    for holder in active_players(tx.table):
        if holder != spinner and tx.table["players"][holder].get("lucky_number") == number:
            fee = amount_of(tx.table, "lucky_number_fee")
            borrowed = obligation(tx, spinner, holder, fee, f"{holder}'s Lucky Number")
            text = who(spinner) + " spun " + whose(holder) + f" Lucky Number {number} and paid {tx.fmt(fee)}"
            return text + (" (" + borrowed + ")" if borrowed else "")
    return ""


def read_bets(table: Table, bets: Any) -> list[dict[str, Any]]:
    """How the contract reads the side bets: each bet's player found, number and stake read."""
    if not isinstance(bets, list):
        raise BadAction('bets is a list of {"player", "number", "amount"}')
    read = []
    for bet in bets:
        if not isinstance(bet, dict) or set(bet) != {"player", "number", "amount"}:
            raise BadAction('each bet is {"player", "number", "amount"}')
        player = find_player(table, bet["player"])
        n = spin_of(bet["number"], "a bet's number")
        read.append({"player": player, "number": n, "amount": c.read_amount(table, bet["amount"], f"{player}'s bet")})
    return read


def settle_bets(tx: Tx, spinner: str, number: int, bets: list[dict[str, Any]]) -> str:
    """Side bets placed by the spinner's opponents (as :func:`read_bets` read them): stakes to the bank,
    ten times the stake on the number spun."""
    if not bets:
        raise BadAction('bets is a list of {"player", "number", "amount"}')
    limit, most, odds = (amount_of(tx.table, k) for k in ("bet_limit", "bet_numbers", "bet_odds"))
    per_player: dict[str, dict[int, int]] = {}
    for bet in bets:
        player = in_play(tx, bet["player"])
        if player == spinner:
            raise Refused(f"{player} is spinning and cannot bet on this spin")
        n = bet["number"]
        stakes = per_player.setdefault(player, {})
        stakes[n] = stakes.get(n, 0) + bet["amount"]
    for player, stakes in per_player.items():
        total = sum(stakes.values())
        if len(stakes) > most:
            raise Refused(f"{player} covers {len(stakes)} numbers; at most {most} a spin")
        if total > limit:
            raise Refused(f"{player} bets {tx.fmt(total)}; at most {tx.fmt(limit)} a spin")
        if cash(tx.table, player) < total:
            raise NotEnoughMoney(
                f"{player} has {tx.fmt(cash(tx.table, player))} but bets {tx.fmt(total)}: "
                "no promissory notes for side bets"
            )
    parts = []
    for player, stakes in per_player.items():
        tx.pay(player, BANK, sum(stakes.values()), "side bet on the wheel")
        if number in stakes:
            won = stakes[number] * odds
            tx.pay(BANK, player, won, f"side bet won on {number}")
            parts.append(who(player) + f" won {tx.fmt(won)}")
        else:
            parts.append(who(player) + f" lost {tx.fmt(sum(stakes.values()))}")
    return "bets: " + joined(", ", parts)


def final_count(tx: Tx) -> list[dict[str, Any]]:
    """Everyone counts their money; the Poor Farm's players come last."""
    rows = ranking(tx.table, tx.rules)
    return [r for r in rows if stage_of(tx.table, r["player"]) != "poor_farm"] + [
        r for r in rows if stage_of(tx.table, r["player"]) == "poor_farm"
    ]


def check_end(tx: Tx) -> str:
    """When the last player reaches Millionaire Acres or the Poor Farm, the final count decides."""
    if any(not retired(tx.table, p) for p in active_players(tx.table)):
        return ""
    rows = final_count(tx)
    winner = rows[0]["player"]
    tx.set(["over"], {"winner": winner, "reason": "the final count", "ranking": rows})
    return "Everyone has retired: " + who(winner, "wins") + f" the final count with {tx.fmt(rows[0]['worth'])}"


def _joined(*parts: str) -> str:
    return joined("; ", (p for p in parts if p))


@LIFE.action("spin", c.player(), c.dice("number", "The number spun", 1, 10), BETS, label="Spin", group="money")
def spin(tx: Tx, a: dict[str, Any]) -> str:
    """A spin of the wheel with money riding on it: opponents' side bets, and the Lucky Number."""
    player = in_play(tx, a["player"])
    number = spin_of(a["number"], "number")
    bets = settle_bets(tx, player, number, a["bets"]) if a.get("bets") is not None else ""
    fee = lucky_fee(tx, player, number)
    if not bets and not fee:
        raise Refused(f"nothing rides on {player}'s spin of {number}: no bets and nobody's Lucky Number")
    return _joined(who(player) + f" spun {number}", bets, fee)


@LIFE.action(
    "lucky_day",
    c.player(),
    SPECULATE,
    c.dice(
        "spin", "The number spun", 1, 10, required=False, when=lambda table, partial: bool(partial.get("speculate"))
    ),
    label="Lucky Day",
    group="money",
    own_turn="a Lucky Day is collected, or speculated, in the turn its player lands on it",
)
def lucky_day(tx: Tx, a: dict[str, Any]) -> str:
    """A Lucky Day: $10,000, or speculate both $5,000 bills on two numbers for $150,000 on the spin."""
    player = in_play(tx, a["player"])
    amount = amount_of(tx.table, "lucky_day")
    tx.pay(BANK, player, amount, "Lucky Day")
    numbers = a.get("speculate")
    if numbers is None:
        if a.get("spin") is not None:
            raise BadAction("spin goes with speculate: the two numbers the bills are on")
        return who(player) + f" collected {tx.fmt(amount)} on a Lucky Day and kept it"
    if not isinstance(numbers, list) or len(numbers) != 2:
        raise BadAction("speculate is two different numbers of the wheel, e.g. [3, 8]")
    picked = [spin_of(n, "a speculated number") for n in numbers]
    if picked[0] == picked[1]:
        raise BadAction("speculate puts each $5,000 bill on a different number")
    if a.get("spin") is None:
        raise BadAction("speculating needs the spin")
    number = spin_of(a["spin"])
    if cash(tx.table, player) < amount:
        raise tx.short_of(player, amount, "speculating")
    tx.pay(player, BANK, amount, f"speculated on {picked[0]} and {picked[1]}")
    text = (
        who(player) + f" speculated the Lucky Day's {tx.fmt(amount)} on {picked[0]} and {picked[1]} and spun {number}: "
    )
    if number in picked:
        win = amount_of(tx.table, "speculate_win")
        tx.pay(BANK, player, win, "speculation won")
        text += f"won {tx.fmt(win)}"
    else:
        text += "lost"
    return _joined(text, lucky_fee(tx, player, number))


@LIFE.action(
    "play_market",
    c.player(),
    c.dice("spin", "The number spun", 1, 10),
    label="Play the market",
    group="money",
    own_turn="a stockholder plays the market in the turn they land in or pass a market space",
)
@may_be_empty
def play_market(tx: Tx, a: dict[str, Any]) -> str:
    """A stockholder plays the market: 1-3 pay $25,000, 4-6 nothing, 7-10 collect $50,000."""
    player = in_play(tx, a["player"])
    stock = first_card(tx.table, "stock") or "stock certificate"
    if not holds(tx.table, player, stock):
        raise Refused(f"{player} has no {stock}: only stockholders play the market")
    number = spin_of(a["spin"])
    outcome = amount_of(tx.table, "market")[number - 1]
    if outcome > 0:
        tx.pay(BANK, player, outcome, "played the market")
        text: str = who(player) + f" played the market and spun {number}: the market is up, collected {tx.fmt(outcome)}"
    elif outcome < 0:
        text = who(player) + f" played the market and spun {number}: the market is down, paid {tx.fmt(-outcome)}"
        text = _joined(text, obligation(tx, player, BANK, -outcome, "the market is down"))
    else:
        text = who(player) + f" played the market and spun {number}: stable, no gain or loss"
    return _joined(text, lucky_fee(tx, player, number))


@LIFE.action(
    "tycoon",
    c.player(),
    c.dice("number", "The Lucky Number", 1, 10),
    c.dice("spin", "The number spun", 1, 10),
    label="Tycoon",
    group="game",
)
def tycoon(tx: Tx, a: dict[str, Any]) -> str:
    """After the Day of Reckoning: all the player's money on one number. The number spun makes a
    Millionaire Tycoon, who wins at once; any other sends the money to the bank and the player to the
    Poor Farm."""
    player = in_play(tx, a["player"])
    if stage_of(tx.table, player) != "reckoned":
        raise Refused(f"{player} may try to become a Tycoon only at the Day of Reckoning")
    number = spin_of(a["number"], "number")
    spun = spin_of(a["spin"])
    if spun == number:
        tx.set(["players", player, "stage"], "tycoon")
        tx.set(["over"], {"winner": player, "reason": "Millionaire Tycoon", "ranking": final_count(tx)})
        return (
            who(player)
            + f" put everything on {number}, spun {spun} and "
            + does(player, "is")
            + " a Millionaire Tycoon: "
            + who(player, "wins")
        )
    lost = cash(tx.table, player)
    tx.pay(player, BANK, lost, "lost the Tycoon gamble")
    tx.set(["players", player, "stage"], "poor_farm")
    tx.set(["players", player, "crossed"], None)
    text = (
        who(player) + f" put {tx.fmt(lost)} on {number}, spun {spun} and " + does(player, "goes") + " to the Poor Farm"
    )
    return _joined(text, check_end(tx))
