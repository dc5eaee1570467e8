"""Random actions for The Game of Life: careers first, then the highway's money with its spins, cards and
bets, and (late in a game, rarely) the Day of Reckoning and what follows it."""

from __future__ import annotations

import random

PACKS = ["game-of-life"]

_PROFESSIONS = ["Doctor", "Teacher", "Lawyer", "Journalist", "Physicist", "Bachelor's Degree"]
_ITEMS = ["Stock Certificate", "Life Insurance", "Auto Insurance", "Fire Insurance"]


def random_action(table: dict, rnd: random.Random) -> dict:
    players = list(table["order"])
    records = table["players"]
    road = [p for p in players if records[p].get("stage") not in ("acres", "poor_farm", "tycoon")] or players
    me = rnd.choice(road)
    other = rnd.choice([p for p in players if p != me] or players)
    no_route = [p for p in players if not records[p].get("route")]
    if no_route and rnd.random() < 0.8:
        return {"action": "career", "player": no_route[0], "route": rnd.choice(["business", "college"])}
    late = table["turn"]["number"] > 12
    kinds = [
        "pay_day",
        "next_turn",
        "borrow",
        "repay",
        "wedding",
        "baby",
        "bridge",
        "revenge",
        "lucky_day",
        "market",
        "spin",
        "collect",
        "pay",
        "buy",
        "profession",
        "reckoning",
        "acres",
        "tycoon",
        "transfer",
        "end_game",
    ]
    weights = [
        14,
        12,
        4,
        3,
        4,
        5,
        3,
        3,
        4,
        3,
        6,
        8,
        8,
        4,
        2,
        2 if late else 0.2,
        2 if late else 0.1,
        0.5 if late else 0.05,
        2,
        0.05,
    ]
    kind = rnd.choices(kinds, weights)[0]
    spin = rnd.randint(1, 10)
    if kind == "pay_day":
        return {"action": "pay_day", "player": me, "interest": rnd.random() < 0.4}
    if kind == "next_turn":
        return {"action": "next_turn"}
    if kind == "borrow":
        return {"action": "borrow", "player": me, "notes": rnd.randint(1, 3)}
    if kind == "repay":
        return {"action": "repay", "player": me, "notes": max(1, min(records[me].get("notes", 1), rnd.randint(1, 2)))}
    if kind == "wedding":
        return {"action": "wedding", "player": me, "spin": spin}
    if kind == "baby":
        return {"action": "baby", "player": me, "twins": rnd.random() < 0.2}
    if kind == "bridge":
        return {"action": "cross_bridge", "player": me}
    if kind == "revenge":
        return {
            "action": "revenge",
            "player": me,
            "victim": other,
            "choice": rnd.choice(["collect", "back"]),
            "over_bridge": rnd.random() < 0.2,
        }
    if kind == "lucky_day":
        if rnd.random() < 0.5:
            return {"action": "lucky_day", "player": me}
        return {"action": "lucky_day", "player": me, "speculate": rnd.sample(range(1, 11), 2), "spin": spin}
    if kind == "market":
        if "Stock Certificate" not in records[me].get("holdings", []):
            return {"action": "buy", "player": me, "item": "Stock Certificate"}
        return {"action": "play_market", "player": me, "spin": spin}
    if kind == "spin":
        bettors = [p for p in players if p != me and records[p].get("stage") != "poor_farm"]
        bets = [
            {"player": b, "number": rnd.randint(1, 10), "amount": rnd.choice([500, 1000, 5000])}
            for b in rnd.sample(bettors, min(len(bettors), rnd.randint(1, 2)))
        ]
        return {"action": "spin", "player": me, "number": spin, **({"bets": bets} if bets else {})}
    if kind == "collect":
        amount = rnd.choice([5000, 10000, 20000, 50000, 100000])
        card = {"collect_card": other, "exempt": rnd.random() < 0.2} if amount >= 10000 and rnd.random() < 0.3 else {}
        return {"action": "collect_space", "player": me, "amount": amount, **card}
    if kind == "pay":
        amount = rnd.choice([1000, 5000, 10000, 25000])
        extra = {}
        if amount >= 5000 and rnd.random() < 0.3:
            extra = {"pay_card": other}
        elif rnd.random() < 0.2:
            extra = {"unless_insured": rnd.choice(["Auto Insurance", "Fire Insurance"])}
        return {"action": "pay_space", "player": me, "amount": amount, **extra}
    if kind == "buy":
        return {"action": "buy", "player": me, "item": rnd.choice(_ITEMS)}
    if kind == "profession":
        return {"action": "profession", "player": me, "profession": rnd.choice(_PROFESSIONS)}
    if kind == "reckoning":
        return {"action": "reckoning", "player": me}
    if kind == "acres":
        return (
            {"action": "millionaire_acres", "player": me, "spin": spin}
            if not any(records[p].get("stage") == "acres" for p in players)
            else {"action": "millionaire_acres", "player": me}
        )
    if kind == "tycoon":
        return {"action": "tycoon", "player": me, "number": rnd.randint(1, 10), "spin": spin}
    if kind == "transfer":
        return {
            "action": "transfer",
            "from": rnd.choice(players + ["bank"]),
            "to": rnd.choice(players + ["bank"]),
            "amount": rnd.choice([500, 5000, 20000]),
        }
    return {"action": "end_game"}
