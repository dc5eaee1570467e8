"""City Life's cards: the Quiz Card round and the Traffic Violation cards.

The cards are not printed in the rulebook, so their sums are fields: the right answers each player
gave (at $300 each, tax free) and the Traffic Violation card's fine, award and demerit points. Fines go
to the City Life Lottery; a fine the player cannot pay is owed until they have sold enough (see
:mod:`.city_life_debts`), and with nothing left to sell costs a missed turn per $500, at most 5.
"""

from __future__ import annotations

from typing import Any

from companion.core import contract as c
from companion.core.engine import Tx
from companion.core.errors import BadAction, Refused
from companion.core.said import joined, who, whose
from companion.core.model import BANK, Table, active_players, current_player, playing, find_player

from .city_life_bank import CITY, amount_of, is_advanced
from .city_life_debts import charge


def _answering(table: Table, partial: dict[str, Any]) -> list[str]:
    """Who may answer a Quiz Card: the player who rolled (basic rules), or everyone but the Judge."""
    if not is_advanced(table):
        return [playing(table)]
    judge = judge_of(table)
    return [p for p in active_players(table) if p != judge]


def _who_judges(table: Table, partial: dict[str, Any]) -> str:
    """Who reads the questions and judges the answers, said where the answers are asked."""
    player = current_player(table)
    if not is_advanced(table):
        return f"Another player reads the card and checks the answers; only {player}, who rolled, answers"
    judge = judge_of(table)
    return f"{judge} is the Judge (the player before {player}): {judge} asks, checks the answers and does not answer"


#: A Quiz Card round: each player who answered, with how many answers they got right.
ANSWERS = c.structured(
    "answers",
    "Correct answers by player",
    {
        "type": "object",
        "maxProperties": 8,
        "propertyNames": {"x-kind": "player"},
        "additionalProperties": {"type": "integer", "minimum": 0, "maximum": 20, "x-maximum": "quiz_questions"},
    },
    only=_answering,
    note=_who_judges,
    resolve=lambda table, answers: read_answers(table, answers),
)

__all__ = ["whole_number", "judge_of", "pay_quiz"]


def whole_number(value: object, what: str, low: int, high: int) -> int:
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadAction(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def judge_of(table: Table) -> str | None:
    """The Quiz Card round's Judge: the player before the one playing, in the rotation."""
    active = active_players(table)
    if len(active) < 2:
        return None
    return active[active.index(playing(table)) - 1]


def read_answers(table: Table, answers: Any) -> dict[str, int]:
    """How the contract reads a Quiz Card round's answers: each player found, their correct answers counted
    (two spellings of one player add up)."""
    if not isinstance(answers, dict) or not answers:
        raise BadAction('answers is an object of player names and their correct answers, e.g. {"Ann": 2}')
    most = amount_of(table, "quiz_questions")
    counts: dict[str, int] = {}
    for name, n in answers.items():
        player = find_player(table, name)
        counts[player] = counts.get(player, 0) + whole_number(n, f"{player}'s correct answers", 0, most)
    return counts


def pay_quiz(tx: Tx, counts: dict[str, int], *, only: str | None) -> tuple[str, dict[str, int]]:
    """$300 from the Bank for every correct answer (``counts``: as :func:`read_answers` read them);
    ``only``: the one player allowed to answer. Says who got what ("Ann $600, Bob $300"; empty when
    nobody answered right)."""
    most = amount_of(tx.table, "quiz_questions")
    judge = None if only else judge_of(tx.table)
    for player in counts:
        if only and player != only and counts[player]:
            raise Refused(f"only {only} answers the Quiz Card under the basic rules")
        if player == judge and counts[player]:
            raise Refused(f"{judge} is the Judge of this Quiz Card round and cannot answer")
    if sum(counts.values()) > most:
        raise Refused(f"a Quiz Card has {most} questions, so at most {most} correct answers")
    each = amount_of(tx.table, "quiz_answer")
    paid = []
    for player, n in counts.items():
        if n:
            tx.pay(BANK, player, n * each, f"{n} correct quiz answer{'s' if n > 1 else ''}")
            paid.append(who(player) + f" {tx.fmt(n * each)}")
    return joined(", ", paid), counts


@CITY.action("quiz", ANSWERS, label="Quiz card", group="money")
def quiz(tx: Tx, a: dict[str, Any]) -> str:
    """A Quiz Card round (a roll of 3): $300 tax free for each correct answer, per player."""
    player = current_player(tx.table)
    text, counts = pay_quiz(tx, a["answers"], only=None if is_advanced(tx.table) else player)
    if not any(counts.values()):
        raise Refused("nobody answered correctly: the quiz pays nothing")
    return "Quiz Card round for " + whose(player or "") + " roll of 3: " + text


@CITY.action(
    "violation",
    c.player(),
    c.amount("fine", "The card's fine", required=False),
    c.amount("award", "The card's award", required=False),
    c.count("demerits", "Demerit points", 1, 15, required=False),
    label="Traffic violation",
    group="money",
)
def violation(tx: Tx, a: dict[str, Any]) -> str:
    """A Traffic Violation card: its fine to the Lottery, its award from the Bank, its demerit points."""
    player = a["player"]
    if all(a.get(k) is None for k in ("fine", "award", "demerits")):
        raise BadAction("violation needs the card's fine, award or demerits")
    parts: list[str] = []
    if a.get("award") is not None:
        award = a["award"]
        tx.pay(BANK, player, award, "Traffic Violation card")
        parts.append(who(player) + f" collected {tx.fmt(award)}")
    if a.get("fine") is not None:
        fine = a["fine"]
        cap = amount_of(tx.table, "violation_turn_cap")
        outcome = charge(tx, player, fine, "traffic fine", when_broke="turns", cap=cap)
        parts.append(outcome or who(player) + f" paid a {tx.fmt(fine)} traffic fine to the Lottery")
    if a.get("demerits") is not None:
        n = whole_number(a["demerits"], "demerits", 1, 15)
        total = tx.table["players"][player].get("demerits", 0) + n
        limit = amount_of(tx.table, "demerit_limit")
        if total < limit:
            tx.set(["players", player, "demerits"], total)
            parts.append(who(player, "has") + f" {total} demerit points")
        else:
            tx.set(["players", player, "demerits"], None)
            tx.set(["players", player, "at"], 10)
            parts.append(
                who(player)
                + f" reached {limit} demerit points: the cards go back and "
                + who(player, "returns")
                + " to square 10"
            )
            if is_advanced(tx.table):
                rise = amount_of(tx.table, "insurance_increase")
                outcome = charge(tx, player, rise, "motor insurance increase", when_broke="turns")
                parts.append(outcome or who(player) + f" paid {tx.fmt(rise)} more for motor insurance")
    return "Traffic Violation: " + joined("; ", parts)
