"""Every sentence the banker reads is whole: the log line of every action and the reason of every refusal.

For every pack, a long random evening at the table plus a probe of every action the family takes (with
rich and with broke players) gathers the summaries and refusals; none may hold a broken phrase.
"""

from __future__ import annotations

import random
import re

import pytest

from companion.core.errors import BankerError
from companion.core.model import current_player
from companion.rules import pack_names
from tests.random_actions import GENERATORS, players_for, variants

#: Phrases that show a sentence was glued together wrongly.
BAD = {
    "a past tense after 'for'": re.compile(r"\bfor (bought|won|lifted|sold|built|mortgaged|asked|from|to|paid)\b"),
    "a plural after one": re.compile(
        r"(?<![\d,.])1 (houses|hotels|levels|turns|blocks|shares|players|parks|"
        r"districts|deeds|properties|Bank shares|squares|answers)\b"
    ),
    "a count of nothing made plural": re.compile(r"\bonly 0\b"),
    "a fraction of a thousand": re.compile(r"\d\.\d+K\b"),
    "a value left unformatted": re.compile(r"\bNone\b|\{|\}|\bTrue\b|\bFalse\b"),
    "a doubled prefix": re.compile(r"^(Undone|Redone): (Undone|Redone):"),
    "an empty bracket or a stray gap": re.compile(r"\(\)|\s,|;;|  |\s$|^\s"),
    "a sign after the symbol": re.compile(r"[$€₩]-"),
}


def broken(text: str) -> list[str]:
    return [name for name, pattern in BAD.items() if pattern.search(text)]


def test_the_patterns_catch_the_phrases_once_seen():
    for text in (
        "Ann has $10 but needs $110 for lifted the mortgage on Boardwalk",
        "needs $2,000 for from every player",
        "repairs on 1 hotels",
        "the bank has only 1 houses",
        "needs $1,400 for asked from a phone",
        "₩1,000.001K",
        "Undone: Redone: Ann paid",
    ):
        assert broken(text), text
    assert not broken("Ann paid $50 for repairs on 2 houses and 1 hotel; Bob owes ₩1.5M, ₩11,000")


def _probe_value(field: str, table: dict, rnd: random.Random, rich: bool):
    players = [p for p in table["order"] if not table["players"][p]["bankrupt"]] or table["order"]
    deeds = list(table["deeds"]) or ["nothing"]
    amount = rnd.choice([10**6, 5 * 10**6, 10**9]) if rich else rnd.choice([1, 50, 500])
    values = {
        "player": current_player(table) or players[0],
        "payer": rnd.choice(players),
        "winner": rnd.choice(players),
        "a": players[0],
        "b": players[-1],
        "creditor": rnd.choice(players + ["bank"]),
        "from": rnd.choice(players),
        "to": rnd.choice(players + ["bank"]),
        "deed": rnd.choice(deeds),
        "amount": amount,
        "bid": amount,
        "price": amount,
        "count": rnd.choice([1, 2, 3]),
        "level": rnd.choice([0, 1, 2, 3, 4, 5]),
        "turns": 1,
        "times": 1,
        "building": rnd.choice(["house", "hotel", "residential", "industrial", "stadium", "park"]),
        "result": rnd.choice([1, 2, 3, "railroad"]),
        "square": rnd.randint(1, 100),
        "pot": "lottery",
        "values": rnd.choice([{"price": "110K"}, {"colour": "red"}, {"group": "red"}, {"rent": "1, 2"}]),
        "character": rnd.choice(["Gardener", "Student", "Nobody"]),
        "tower": 61,
        "house": 4,
        "tax": "income",
        "per_house": 25,
        "per_hotel": 100,
        "answers": {players[0]: 1},
        "demerits": 3,
        "reason": "time is up",
        "choice": rnd.choice(["flat", "percent", "fee", "collect"]),
        "dice": 7,
        "memo": "a card",
    }
    return values.get(field, rnd.choice(players))


def _evening(pack: str, options: dict, new_game, seed: int) -> list[tuple[str, str]]:
    """(action, text) for every summary and refusal of a random evening and a probe of every action."""
    t = new_game(pack, *players_for(pack), **options)
    rnd = random.Random(seed)
    texts = []

    def tap(action: dict) -> None:
        try:
            texts.append((action["action"], t.banker.do(action).summary))
        except BankerError as e:
            texts.append((action["action"], str(e)))

    specs = t.banker.rules.registry.specs
    for step in range(300):
        tap(GENERATORS[pack](t.table, rnd))
        if step % 30 == 29:
            for name, spec in specs.items():
                for rich in (True, False):
                    fields = {f: _probe_value(f, t.table, rnd, rich) for f in spec.required}
                    tap({"action": name, **fields})
        if t.table.get("over") and t.banker.can_undo:
            t.banker.undo()
    return texts


@pytest.mark.parametrize("seed", [13, 2026])
@pytest.mark.parametrize("pack, options", [v for v in variants() if v[0] in pack_names()])
def test_no_summary_or_refusal_holds_a_broken_phrase(pack, options, seed, new_game):
    texts = _evening(pack, options, new_game, seed=seed)
    seen = {action for action, _ in texts}
    families = set(new_game(pack, *players_for(pack), **options).banker.rules.registry.specs)
    assert families <= seen, f"never tried: {sorted(families - seen)}"
    bad = sorted({(action, text, ", ".join(broken(text))) for action, text in texts if broken(text)})
    assert not bad, "\n".join(f"{a}: {t!r} ({why})" for a, t, why in bad[:20])
