"""Random actions for Monopoly City: mostly what the rules allow as the table stands, some not."""

from __future__ import annotations

import random

PACKS = ["monopoly-city"]

_KINDS = {
    "buy": 10,
    "auction": 3,
    "rent": 10,
    "spin": 3,
    "blocks": 14,
    "railroad": 2,
    "landmark": 5,
    "planning": 5,
    "remove_hazard": 2,
    "mortgage": 4,
    "unmortgage": 3,
    "trade": 3,
    "salary": 5,
    "tax": 2,
    "free_parking": 2,
    "jail": 3,
    "transfer": 4,
    "next_turn": 5,
    "cards": 2,
    "correct_card": 0.5,
    "bankrupt": 0.3,
    "end_game": 0.1,
}


def _current(table: dict) -> str:
    active = [p for p in table["order"] if not table["players"][p]["bankrupt"]] or table["order"]
    name = table["order"][table["turn"]["index"] % len(table["order"])]
    return name if name in active else active[0]


def _owned(table: dict, player: str | None = None) -> list[str]:
    return [d for d, s in table["deeds"].items() if s.get("owner") and (player is None or s["owner"] == player)]


def random_action(table: dict, rnd: random.Random) -> dict:
    players = list(table["order"])
    deeds = list(table["deeds"])
    p, q = rnd.choice(players), rnd.choice(players)
    now = _current(table)
    kind = rnd.choices(list(_KINDS), weights=list(_KINDS.values()))[0]
    owned = _owned(table)
    mine = _owned(table, now)
    if kind == "buy":
        free = [d for d in deeds if not table["deeds"][d].get("owner")]
        started = [d for d in free if _group_owner(table, d)]
        if started and rnd.random() < 0.6:  # complete a group someone began: skyscrapers and towers need it
            deed = rnd.choice(started)
            return {"action": "buy", "player": _group_owner(table, deed), "deed": deed}
        return {"action": "buy", "player": p, "deed": rnd.choice(free or deeds)}
    if kind == "auction":
        return {
            "action": "auction",
            "deed": rnd.choice(deeds),
            "winner": p,
            "bid": rnd.choice([5_000, 10_000, 400_000, "1.5M"]),
        }
    if kind == "rent" and owned:
        deed = rnd.choice(owned)
        payer = rnd.choice([x for x in players if x != table["deeds"][deed]["owner"]] or players)
        return {"action": "rent", "payer": payer, "deed": deed, **({"dodge": True} if rnd.random() < 0.1 else {})}
    if kind == "spin":
        return {
            "action": "spin",
            "player": now if rnd.random() < 0.9 else p,
            "result": rnd.choice([1, 2, 3, "3", "railroad"]),
        }
    if kind in ("blocks", "railroad"):
        spin = table["turn"].get("spin") or {}
        if spin.get("player") != now or spin.get("turn") != table["turn"]["number"]:
            return {"action": "spin", "player": now, "result": rnd.choice([1, 2, 3, 3, "railroad"])}
        spent = spin["used"] >= (1 if spin["result"] == "railroad" else spin["result"])
        if spent and rnd.random() < 0.8:  # this turn's allowance is used up: play on
            return {"action": "next_turn"}
        if spin["result"] == "railroad":
            bare = [d for d in deeds if not table["deeds"][d].get("railroad")]
            return {"action": "build", "player": now, "deed": rnd.choice(bare or deeds), "building": "railroad"}
        left = max(1, spin["result"] - spin["used"])
        room = [d for d in mine if not table["deeds"][d].get("mortgaged") and _blocks(table, d) + left <= 8]
        if not room and rnd.random() < 0.8:  # nowhere to build: the player buys somewhere first
            free = [d for d in deeds if not table["deeds"][d].get("owner")]
            if free:
                return {"action": "buy", "player": now, "deed": rnd.choice(free)}
        return {
            "action": "build",
            "player": now,
            "deed": rnd.choice(room or mine or deeds),
            "building": rnd.choice(["residential", "industrial"]),
            "count": rnd.randint(1, min(3, left)),
        }
    if kind == "landmark" and owned:
        building = rnd.choice(["stadium", "skyscraper", "tower"])
        fitting = [d for d in owned if _could_hold(table, d, building)]
        if not fitting and rnd.random() < 0.7:
            building = rnd.choice(["stadium", "skyscraper"])
            fitting = [d for d in owned if _could_hold(table, d, building)]
        deed = rnd.choice(fitting or owned)
        return {"action": "build", "player": table["deeds"][deed]["owner"], "deed": deed, "building": building}
    if kind == "remove_hazard":
        hazards = [d for d in owned if table["deeds"][d].get("hazard")]
        if hazards:
            deed = rnd.choice(hazards)
            return {"action": "remove_hazard", "player": table["deeds"][deed]["owner"], "deed": deed}
        kind = "planning"
    if kind == "planning":
        deed = rnd.choice(deeds)
        owner = table["deeds"][deed].get("owner")
        planning = table["pack"]["planning"]
        if rnd.random() < 0.5:
            return {
                "action": "planning_permission",
                "player": owner or p,
                "deed": deed,
                "building": rnd.choice(planning["bonus"]),
            }
        other = rnd.choice([x for x in players if x != owner] or players)
        return {
            "action": "planning_permission",
            "player": other,
            "deed": deed,
            "building": rnd.choice(list(planning["hazards"])),
        }
    if kind in ("mortgage", "unmortgage") and owned:
        pool = [d for d in owned if bool(table["deeds"][d].get("mortgaged")) == (kind == "unmortgage")]
        if not pool:
            kind = "mortgage" if kind == "unmortgage" else "unmortgage"
            pool = owned
        deed = rnd.choice(pool)
        return {"action": kind, "player": table["deeds"][deed]["owner"], "deed": deed}
    if kind == "trade":
        theirs = _owned(table, p)
        give = {"deeds": [rnd.choice(theirs)]} if theirs else {"cash": "500K"}
        return {"action": "trade", "a": p, "b": q, "give": give, "get": {"cash": rnd.choice([0, 100_000, "1M"])}}
    if kind == "salary":
        return {"action": "salary", "player": p}
    if kind == "tax":
        industry = [x for x in players if any(table["deeds"][d].get("industrial") for d in _owned(table, x))]
        return {"action": "tax", "player": rnd.choice(industry) if industry and rnd.random() < 0.9 else p}
    if kind == "free_parking":
        return {"action": "free_parking", "player": p}
    if kind == "jail":
        name = rnd.choice(["jail", "jail_fine", "leave_jail"])
        jailed = [x for x in players if table["players"][x]["in_jail"]]
        return {"action": name, "player": rnd.choice(jailed) if jailed and name != "jail" else p}
    if kind == "transfer":
        src, dst = rnd.choice(players + ["bank"]), rnd.choice(players + ["bank"])
        return {"action": "transfer", "from": src, "to": dst, "amount": rnd.choice(["10K", "500K", "2M", "50M"])}
    if kind == "cards":
        name = rnd.choice(["collect_from_all", "pay_to_all", "fine"])
        return {"action": name, "player": p, "amount": rnd.choice(["50K", "200K", "1M"])}
    if kind == "correct_card":
        key, value = rnd.choice(
            [
                ("price", 2_500_000),
                ("land_rent", 90_000),
                ("rent", [100_000 * (i + 1) for i in range(8)]),
                ("rent", [1, 2]),
                ("industrial_cost", 0),
            ]
        )
        return {"action": "correct_card", "deed": rnd.choice(deeds), "values": {key: value}}
    if kind == "bankrupt":
        return {"action": "bankrupt", "player": p, "creditor": rnd.choice([q, "bank"])}
    if kind == "end_game":
        return {"action": "end_game"}
    return {"action": "next_turn"}


def _blocks(table: dict, deed: str) -> int:
    state = table["deeds"][deed]
    return state.get("residential", 0) + state.get("industrial", 0)


def _group(table: dict, deed: str) -> list[str]:
    group = table["pack"]["cards"][deed]["group"]
    return [d for d, c in table["pack"]["cards"].items() if c["group"] == group]


def _group_owner(table: dict, deed: str) -> str | None:
    """The one player owning districts of the deed's group, if exactly one has begun it."""
    owners = {table["deeds"][d].get("owner") for d in _group(table, deed)} - {None}
    return owners.pop() if len(owners) == 1 else None


def _complete(table: dict, player: str) -> set[str]:
    groups = {c["group"] for c in table["pack"]["cards"].values()}
    return {
        g
        for g in groups
        if all(table["deeds"][d].get("owner") == player for d, c in table["pack"]["cards"].items() if c["group"] == g)
    }


def _could_hold(table: dict, deed: str, building: str) -> bool:
    """Whether the deed's owner meets the conditions for a stadium, skyscraper or tower there."""
    owner = table["deeds"][deed]["owner"]
    group = _group(table, deed)
    if table["deeds"][deed].get("mortgaged"):
        return False
    if building == "stadium":
        return sum(table["deeds"][d].get("owner") == owner for d in group) >= 2 and not any(
            table["deeds"][d].get("stadium") for d in group
        )
    if building == "skyscraper":
        return all(table["deeds"][d].get("owner") == owner for d in group) and not any(
            table["deeds"][d].get("skyscraper") for d in group
        )
    complete = _complete(table, owner)
    return len(complete) >= 2 and table["pack"]["cards"][deed]["group"] in complete
