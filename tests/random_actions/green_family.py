"""Random actions for Greenopoly: mostly what the rules allow as the table stands, some not."""

from __future__ import annotations

import random

PACKS = ["greenopoly"]

_KINDS = {
    "character": 1,
    "buy": 12,
    "auction": 3,
    "rent": 10,
    "improve": 12,
    "sell": 3,
    "mortgage": 4,
    "unmortgage": 3,
    "trade": 3,
    "salary": 8,
    "tax": 4,
    "card": 4,
    "free_access": 3,
    "night": 4,
    "transfer": 4,
    "next_turn": 5,
    "collect": 2,
    "correct": 0.7,
    "bankrupt": 0.1,
    "end_game": 0.05,
}


def _owned(table: dict, player: str | None = None) -> list[str]:
    return [d for d, s in table["deeds"].items() if s.get("owner") and (player is None or s["owner"] == player)]


def _group(table: dict, deed: str) -> list[str]:
    group = table["pack"]["cards"][deed]["group"]
    return [d for d, c in table["pack"]["cards"].items() if c["group"] == group]


def _improvable(table: dict) -> list[str]:
    """Parks of complete, unmortgaged groups at their group's lowest level, below level four."""
    out = []
    for deed, state in table["deeds"].items():
        owner = state.get("owner")
        group = _group(table, deed)
        if not owner or any(
            table["deeds"][g].get("owner") != owner or table["deeds"][g].get("mortgaged") for g in group
        ):
            continue
        level = state.get("level", 0)
        if level < 4 and level == min(table["deeds"][g].get("level", 0) for g in group):
            out.append(deed)
    return out


def random_action(table: dict, rnd: random.Random) -> dict:
    players = list(table["order"])
    deeds = list(table["deeds"])
    p, q = rnd.choice(players), rnd.choice(players)
    owned = _owned(table)
    kind = rnd.choices(list(_KINDS), weights=list(_KINDS.values()))[0]
    lacking = [x for x in players if not table["players"][x].get("character")]
    if lacking and (kind in ("character", "salary", "night") or rnd.random() < 0.3):
        taken = {table["players"][x].get("character") for x in players}
        free = [c for c in table["pack"]["characters"] if c not in taken]
        return {
            "action": "choose_character",
            "player": rnd.choice(lacking),
            "character": rnd.choice(free or ["Gardener"]),
        }
    if kind == "character":
        return {"action": "choose_character", "player": p, "character": rnd.choice(list(table["pack"]["characters"]))}
    if kind == "improve" and not _improvable(table) and rnd.random() < 0.8:
        kind = "buy"  # no complete group yet: buying towards one is what the table would do
    if kind == "buy":
        free = [d for d in deeds if not table["deeds"][d].get("owner")]
        started = [d for d in free if len({table["deeds"][g].get("owner") for g in _group(table, d)} - {None}) == 1]
        if started and rnd.random() < 0.7:  # complete a group someone began, so parks get improved
            deed = rnd.choice(started)
            owner = next(table["deeds"][g]["owner"] for g in _group(table, deed) if table["deeds"][g].get("owner"))
            return {"action": "buy", "player": owner, "deed": deed}
        return {"action": "buy", "player": p, "deed": rnd.choice(free or deeds)}
    if kind == "auction":
        return {"action": "auction", "deed": rnd.choice(deeds), "winner": p, "bid": rnd.choice([1, "50K", "250K"])}
    if kind == "rent" and owned:
        deed = rnd.choice(owned)
        payer = rnd.choice([x for x in players if x != table["deeds"][deed]["owner"]] or players)
        return {"action": "rent", "payer": payer, "deed": deed}
    if kind == "improve":
        ready = _improvable(table)
        deed = rnd.choice(ready or owned or deeds)
        return {"action": "improve", "player": table["deeds"][deed].get("owner") or p, "deed": deed}
    if kind == "sell":
        built = [d for d in owned if table["deeds"][d].get("level")]
        if not built:
            return {"action": "salary", "player": p}
        deed = rnd.choice(built or owned or deeds)
        top = max([table["deeds"][g].get("level", 0) for g in _group(table, deed)])
        highest = [g for g in _group(table, deed) if table["deeds"][g].get("level", 0) == top]
        deed = rnd.choice(highest) if built and rnd.random() < 0.8 else deed
        return {"action": "sell_infrastructure", "player": table["deeds"][deed].get("owner") or p, "deed": deed}
    if kind in ("mortgage", "unmortgage") and owned:
        pool = [d for d in owned if bool(table["deeds"][d].get("mortgaged")) == (kind == "unmortgage")]
        if not pool:
            kind = "mortgage" if kind == "unmortgage" else "unmortgage"
            pool = owned
        deed = rnd.choice(pool)
        return {"action": kind, "player": table["deeds"][deed]["owner"], "deed": deed}
    if kind == "trade":
        q = rnd.choice([x for x in players if x != p] or players)
        theirs = _owned(table, p)
        give = {"deeds": [rnd.choice(theirs)]} if theirs else {"cash": "100K"}
        return {
            "action": "trade",
            "a": p,
            "b": q,
            "give": give,
            "get": {"cash": rnd.choice([0, "10K", "100K"])},
            **({"lift": give["deeds"]} if theirs and rnd.random() < 0.2 else {}),
        }
    if kind == "salary":
        return {"action": "salary", "player": p, **({"times": 2} if rnd.random() < 0.1 else {})}
    if kind == "tax":
        return {"action": "tax", "player": p, "choice": rnd.choice(["flat", "percent"])}
    if kind == "card":
        return {"action": "fine", "player": p, "amount": rnd.choice(["20K", "100K", "150K"]), "memo": "Chance"}
    if kind == "free_access":
        if rnd.random() < 0.3:
            return {"action": "win_pot", "player": p, "pot": "centre"}
        return {"action": "free_access", "player": p}
    if kind == "night":
        held = [x for x in players if table["players"][x]["in_jail"]]
        name = rnd.choice(["night", "night_fine", "leave_night"] if held else ["night"])
        return {"action": name, "player": rnd.choice(held) if held and name != "night" else p}
    if kind == "transfer":
        src, dst = rnd.choice(players + ["bank", "pot:centre"]), rnd.choice(players + ["bank", "pot:centre"])
        return {"action": "transfer", "from": src, "to": dst, "amount": rnd.choice(["500", "50K", "300K", "5M"])}
    if kind == "collect":
        return {
            "action": rnd.choice(["collect_from_all", "pay_to_all"]),
            "player": p,
            "amount": rnd.choice(["10K", "50K"]),
        }
    if kind == "correct":
        if rnd.random() < 0.5:
            key, value = rnd.choice([("salary", "220K"), ("night", False), ("salary", 0), ("title", "")])
            return {
                "action": "correct_character",
                "character": rnd.choice(list(table["pack"]["characters"])),
                "values": {key: value},
            }
        key, value = rnd.choice(
            [
                ("price", 150_000),
                ("rent", [5_000, 25_000, 75_000, 225_000, 400_000]),
                ("rent", [1, 2, 3]),
                ("infrastructure_cost", -1),
            ]
        )
        return {"action": "correct_card", "deed": rnd.choice(deeds), "values": {key: value}}
    if kind == "bankrupt":
        return {"action": "bankrupt", "player": p, "creditor": rnd.choice([q, "bank"])}
    if kind == "end_game":
        return {"action": "end_game"}
    return {"action": "next_turn"}
