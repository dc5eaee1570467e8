"""Life's highway: the spaces that move money between players, the Share the Wealth cards, the Day of
Reckoning, Millionaire Acres and the turn.

Sums collected from every opponent (wedding presents, babies, the Toll Bridge) are obligations of
each opponent: one short of cash borrows the notes needed. Revenge is the exception: its $100,000 may
not be borrowed, and a victim who cannot pay goes back ten spaces instead.
"""

from __future__ import annotations

from typing import Any

from companion.core.common import advance_turn
from companion.core import contract as c
from companion.core.engine import Tx, may_be_empty
from companion.core.errors import BadAction, Refused
from companion.core.said import does, joined, typed, who, whose
from companion.core.model import BANK, active_players, card, cash, current_player, playing

from .life_bank import LIFE, amount_of, holds, in_play, notes_of, obligation, opponents, retired, spin_of, stage_of
from .life_wheel import check_end, lucky_fee

__all__ = ["toll_keeper"]


def _others(table: dict[str, Any], partial: dict[str, Any]) -> list[str]:
    return [p for p in table["order"] if not table["players"][p]["bankrupt"] and p != partial.get("player")]


def _policies(table: dict[str, Any], partial: dict[str, Any]) -> list[tuple[str, str]]:
    return [(n, n) for n, card_ in table["pack"]["cards"].items() if card_.get("kind") == "policy"]


#: A number of the Wheel of Fate.
SPIN = c.dice("spin", "The number spun", 1, 10)


def _joined(*parts: str) -> str:
    return joined("; ", (p for p in parts if p))


def _from_each(tx: Tx, player: str, amount: int, memo: str) -> str:
    """Every opponent pays the player ``amount``, borrowing notes if short."""
    if not amount:
        return ""
    others = opponents(tx.table, player)
    if not others:
        return who(player, "has") + " no opponents left to collect from"
    notes = [obligation(tx, p, player, amount, memo) for p in others]
    return _joined(who(player) + f" collected {tx.fmt(amount)} from each of " + joined(", ", map(who, others)), *notes)


def toll_keeper(table: dict[str, Any]) -> str | None:
    """Who collects the Toll Bridge's toll: the first across who is not at the Poor Farm and has not
    been sent back over the bridge."""
    across = [
        (r["crossed"], p)
        for p, r in table["players"].items()
        if r.get("crossed") and not r["bankrupt"] and r.get("stage") != "poor_farm"
    ]
    return min(across)[1] if across else None


@LIFE.action("wedding", c.player(), SPIN, label="Wedding", group="money")
def wedding(tx: Tx, a: dict[str, Any]) -> str:
    """Get Married: the spin decides the presents from each opponent (1-3 $1,000, 4-6 $500, 7-10 none)."""
    player = in_play(tx, a["player"])
    if tx.table["players"][player].get("married"):
        raise Refused(f"{player} is married already: there is a law against bigamy")
    number = spin_of(a["spin"])
    tx.set(["players", player, "married"], True)
    presents = amount_of(tx.table, "wedding_presents")[number - 1]
    text = (
        who(player)
        + f" got married and spun {number}: "
        + (_from_each(tx, player, presents, "wedding present") if presents else "no presents")
    )
    return _joined(text, lucky_fee(tx, player, number))


@LIFE.action(
    "baby", c.player(), c.yesno("twins", "Twins", when=lambda table, partial: True), label="Baby", group="money"
)
def baby(tx: Tx, a: dict[str, Any]) -> str:
    """A baby (or twins): $500 from each opponent for each child."""
    player = in_play(tx, a["player"])
    twins = a.get("twins", False)
    if not isinstance(twins, bool):
        raise BadAction("twins is true or false")
    n = 2 if twins else 1
    tx.set(["players", player, "children"], tx.table["players"][player].get("children", 0) + n)
    text = who(player) + f" had {'twins' if twins else 'a baby'}"
    return _joined(text, _from_each(tx, player, n * amount_of(tx.table, "baby"), "baby present"))


@LIFE.action("cross_bridge", c.player(), label="Cross the Toll Bridge", group="money")
def cross_bridge(tx: Tx, a: dict[str, Any]) -> str:
    """Across the Toll Bridge: the first across collects $20,000 from each player crossing after."""
    player = in_play(tx, a["player"])
    if tx.table["players"][player].get("crossed"):
        raise Refused(f"{player} is already across the Toll Bridge")
    order = 1 + max([r.get("crossed") or 0 for r in tx.table["players"].values()])
    keeper = toll_keeper(tx.table)
    tx.set(["players", player, "crossed"], order)
    if keeper is None:
        return (
            who(player, "is")
            + " the first across the Toll Bridge and "
            + does(player, "collects")
            + " its toll from every player crossing later"
        )
    toll = amount_of(tx.table, "toll")
    return _joined(
        who(player) + " crossed the Toll Bridge and paid " + who(keeper) + f" {tx.fmt(toll)}",
        obligation(tx, player, keeper, toll, "Toll Bridge"),
    )


@LIFE.action(
    "revenge",
    c.player(),
    c.player("victim", "On whom", role="", only=_others),
    c.choice("choice", "Take the money or send back", [("collect", "Collect the money"), ("back", "Back ten spaces")]),
    c.yesno("over_bridge", "Back across the Toll Bridge", when=lambda table, partial: partial.get("choice") == "back"),
    label="Revenge",
    group="money",
    says="A Revenge space: take $100,000 from another player (who goes back ten spaces when they cannot pay), "
    "or send them back ten spaces.",
)
@may_be_empty
def revenge(tx: Tx, a: dict[str, Any]) -> str:
    """A Revenge space: take $100,000 from a chosen player (who goes back ten spaces when they cannot
    pay, without borrowing), or send them back ten spaces. ``over_bridge``: back across the Toll Bridge."""
    player = in_play(tx, a["player"])
    victim = in_play(tx, a["victim"])
    if victim == player:
        raise Refused("Revenge is taken on another player")
    if stage_of(tx.table, victim) == "acres":
        raise Refused(f"{victim} is in Millionaire Acres, out of Revenge's reach")
    choice = a["choice"]
    if choice not in ("collect", "back"):
        raise BadAction('choice is "collect" ($100,000) or "back" (ten spaces)')
    over = a.get("over_bridge", False)
    if not isinstance(over, bool):
        raise BadAction("over_bridge is true when the ten spaces take the player back across the Toll Bridge")
    spaces = amount_of(tx.table, "revenge_spaces")
    if choice == "collect":
        amount = amount_of(tx.table, "revenge")
        if cash(tx.table, victim) >= amount:
            if over:
                raise BadAction("over_bridge goes with going back ten spaces")
            tx.pay(victim, player, amount, "Revenge")
            return who(player) + " took Revenge: " + who(victim) + f" paid {tx.fmt(amount)}"
        has = tx.fmt(cash(tx.table, victim))
        text = (
            who(player)
            + " took Revenge on "
            + who(victim)
            + ", who "
            + does(victim, "has")
            + f" {has} and may not borrow for it, so "
            + does(victim, "goes")
            + f" back {spaces} spaces"
        )
    else:
        text = who(player) + " took Revenge: " + who(victim, "goes") + f" back {spaces} spaces"
    if over and tx.table["players"][victim].get("crossed"):
        was = toll_keeper(tx.table) == victim
        tx.set(["players", victim, "crossed"], None)
        text += " and back over the Toll Bridge"
        if was:
            text += f"; the toll now goes to {toll_keeper(tx.table) or 'nobody yet'}"
    return text


def _share_the_wealth(tx: Tx, a: dict[str, Any], player: str, amount: int, field: str) -> str:
    """A Collect card (given to a player collecting $10,000 or more: half to the giver) or a Pay card
    (given by a player paying $5,000 or more: the receiver pays the giver half); an Exemption voids it."""
    exempt = a.get("exempt", False)
    if not isinstance(exempt, bool):
        raise BadAction("exempt is true when the card's receiver shows an Exemption card")
    other = a.get(field)
    if other is None:
        if exempt:
            raise BadAction(f"exempt goes with {field}")
        return ""
    other = in_play(tx, other)
    if other == player:
        raise Refused("a Share the Wealth card is given to an opponent")
    least = amount_of(tx.table, "collect_card_from" if field == "collect_card" else "pay_card_from")
    if amount < least:
        raise Refused(f"a {'Collect' if field == 'collect_card' else 'Pay'} card needs {tx.fmt(least)} or more")
    half = amount // 2
    if field == "collect_card":
        if exempt:
            return who(other) + " gave " + who(player) + " a Collect card; " + who(player) + " showed an Exemption card"
        tx.pay(player, other, half, "Share the Wealth: Collect card")
        return whose(other) + " Collect card: " + who(player) + " gave " + who(other) + f" half, {tx.fmt(half)}"
    if exempt:
        return who(player) + " gave " + who(other) + " a Pay card; " + who(other) + " showed an Exemption card"
    return _joined(
        whose(player) + " Pay card: " + who(other) + " paid " + who(player) + f" half, {tx.fmt(half)}",
        obligation(tx, other, player, half, "Share the Wealth: Pay card"),
    )


def _memo(a: dict[str, Any], default: str) -> str:
    memo = a.get("memo") or default
    if not isinstance(memo, str):
        raise BadAction("memo must be text")
    return " ".join(memo.split())[:120]


@LIFE.action(
    "collect_space",
    c.player(),
    c.amount(),
    c.text(),
    c.player("collect_card", "Who hands over a Collect card", role="", required=False, only=_others),
    c.yesno("exempt", "Shows an Exemption card"),
    label="Collect",
    group="money",
    says="A white space pays the player; an opponent may hand over a Collect card.",
)
def collect_space(tx: Tx, a: dict[str, Any]) -> str:
    """A white space pays the player; an opponent may hand over a Collect card (``collect_card``)."""
    player = in_play(tx, a["player"])
    amount = a["amount"]
    memo = _memo(a, "white space")
    tx.pay(BANK, player, amount, memo)
    card_text = _share_the_wealth(tx, a, player, amount, "collect_card")
    return _joined(who(player) + f" collected {tx.fmt(amount)} (" + typed(memo) + ")", card_text)


@LIFE.action(
    "pay_space",
    c.player(),
    c.amount(),
    c.text(),
    c.player("pay_card", "Who receives a Pay card", role="", required=False, only=_others),
    c.yesno("exempt", "Shows an Exemption card"),
    c.choice("unless_insured", "Spared with this insurance", options_from=_policies, required=False),
    label="Pay",
    group="money",
    says="A white space costs the player (nothing when it spares the insured and the player is insured); "
    "the player may hand an opponent a Pay card.",
)
@may_be_empty
def pay_space(tx: Tx, a: dict[str, Any]) -> str:
    """A white space costs the player (nothing if it spares the insured and the player is); the player
    may hand an opponent a Pay card (``pay_card``)."""
    player = in_play(tx, a["player"])
    amount = a["amount"]
    memo = _memo(a, "white space")
    if a.get("unless_insured") is not None:
        policy = a["unless_insured"]
        if card(tx.table, policy)["kind"] != "policy":
            raise BadAction(f"unless_insured names an insurance policy, not {policy}")
        if holds(tx.table, player, policy):
            if a.get("pay_card") is not None:
                raise Refused(f"{player} pays nothing, so has no Pay card to give")
            return who(player, "has") + f" {policy}: nothing to pay (" + typed(memo) + ")"
    text: str = who(player) + f" paid {tx.fmt(amount)} (" + typed(memo) + ")"
    text = _joined(text, obligation(tx, player, BANK, amount, memo))
    return _joined(text, _share_the_wealth(tx, a, player, amount, "pay_card"))


@LIFE.action("reckoning", c.player(), label="Day of Reckoning", group="game")
def reckoning(tx: Tx, a: dict[str, Any]) -> str:
    """The Day of Reckoning: $20,000 per child, then $25,000 for every promissory note still held."""
    player = in_play(tx, a["player"])
    if stage_of(tx.table, player):
        raise Refused(f"{player} has had the Day of Reckoning already")
    children = tx.table["players"][player].get("children", 0)
    parts: list[str] = []
    if children:
        gift = children * amount_of(tx.table, "reckoning_child")
        tx.pay(BANK, player, gift, f"{children} child{'ren' if children > 1 else ''}")
        parts.append(who(player) + f" received {tx.fmt(gift)} for {children} child{'ren' if children > 1 else ''}")
    held = notes_of(tx.table, player)
    each = amount_of(tx.table, "reckoning_note")
    paid = min(held, cash(tx.table, player) // each)
    if paid:
        tx.pay(player, BANK, paid * each, f"{paid} promissory note{'s' if paid > 1 else ''} at the Day of Reckoning")
        tx.set(["players", player, "notes"], held - paid or None)
        parts.append(f"paid {tx.fmt(paid * each)} for {paid} note{'s' if paid > 1 else ''}")
    if held - paid:
        parts.append(
            f"{held - paid} note{'s' if held - paid > 1 else ''} left unpaid for want of cash "
            f"(each counts {tx.fmt(each)} against " + who(player) + " at the final count)"
        )
    tx.set(["players", player, "stage"], "reckoned")
    return (
        "Day of Reckoning for "
        + who(player)
        + ": "
        + (joined("; ", parts) if parts else "no children and no notes")
        + "; next: Millionaire Acres or the Tycoon's number"
    )


@LIFE.action(
    "millionaire_acres",
    c.player(),
    c.dice("spin", "The spin, for the Tycoon's last chance", 1, 10, required=False),
    label="Millionaire Acres",
    group="game",
)
def millionaire_acres(tx: Tx, a: dict[str, Any]) -> str:
    """Millionaire Acres: the first to arrive collects $100,000 and spins a Lucky Number."""
    player = in_play(tx, a["player"])
    if stage_of(tx.table, player) != "reckoned":
        raise Refused(f"{player} heads for Millionaire Acres from the Day of Reckoning")
    first = not any(stage_of(tx.table, p) in ("acres",) for p in tx.table["order"])
    tx.set(["players", player, "stage"], "acres")
    if first:
        if a.get("spin") is None:
            raise BadAction(f"{player} is the first at Millionaire Acres: spin for the Lucky Number (spin)")
        number = spin_of(a["spin"])
        bonus = amount_of(tx.table, "acres_bonus")
        tx.pay(BANK, player, bonus, "first at Millionaire Acres")
        tx.set(["players", player, "lucky_number"], number)
        text = who(player, "is") + f" the first at Millionaire Acres: {tx.fmt(bonus)} and the Lucky Number {number}"
    else:
        if a.get("spin") is not None:
            raise BadAction("only the first player at Millionaire Acres spins a Lucky Number")
        text = who(player, "retires") + " to Millionaire Acres"
    return _joined(text, check_end(tx))


@LIFE.action("next_turn", label="Next turn", group="turn")
def next_turn(tx: Tx, a: dict[str, Any]) -> str:
    """The turn ends: the next player still on the road plays (Millionaire Acres and the Poor Farm
    do not take turns)."""
    ended = current_player(tx.table)
    advance_turn(tx)
    order = tx.table["order"]
    for _ in range(len(order)):
        now = playing(tx.table)
        if not retired(tx.table, now):
            break
        nxt = order[(order.index(now) + 1) % len(order)]
        tx.set(["turn", "index"], order.index(nxt))
    road = [p for p in active_players(tx.table) if not retired(tx.table, p)]
    if not road:
        return whose(ended or "") + " turn ended; everyone has retired"
    return whose(ended or "") + " turn ended; " + who(current_player(tx.table) or "") + " to play"
