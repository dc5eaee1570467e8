"""Random actions for the classic property family."""

from __future__ import annotations

import random

PACKS = ["classic", "bibleopoly"]

_SIMPLE = ["salary", "next_turn", "jail", "jail_fine", "leave_jail"]


def random_action(table: dict, rnd: random.Random) -> dict:
    players = list(table["order"])
    deeds = list(table["deeds"])
    p, q = rnd.choice(players), rnd.choice(players)
    deed = rnd.choice(deeds)
    amount = rnd.choice([1, 5, 50, 200, 1000, 5000])
    kind = rnd.choices(
        [
            "transfer",
            "buy",
            "auction",
            "rent",
            "mortgage",
            "unmortgage",
            "build",
            "sell_building",
            "trade",
            "tax",
            "simple",
            "bankrupt",
            "collect_from_all",
            "fine",
            "win_pot",
            "end_game",
            "correct_card",
        ],
        weights=[10, 12, 4, 10, 5, 4, 10, 4, 3, 3, 6, 0.3, 2, 2, 1, 0.1, 0.5],
    )[0]
    if kind == "transfer":
        src, dst = rnd.choice(players + ["bank"]), rnd.choice(players + ["bank"])
        return {"action": "transfer", "from": src, "to": dst, "amount": amount}
    if kind == "buy":
        started = [d for d, st in table["deeds"].items() if st.get("owner")]
        if started and rnd.random() < 0.6:  # buy the rest of a group someone has begun
            group = table["pack"]["cards"][rnd.choice(started)]["group"]
            free = [
                d
                for d, c in table["pack"]["cards"].items()
                if c["group"] == group and not table["deeds"][d].get("owner")
            ]
            if free:
                owner = next(
                    table["deeds"][d]["owner"]
                    for d, c in table["pack"]["cards"].items()
                    if c["group"] == group and table["deeds"][d].get("owner")
                )
                return {"action": "buy", "player": owner, "deed": free[0]}
        return {"action": "buy", "player": p, "deed": deed}
    if kind == "auction":
        return {"action": "auction", "deed": deed, "winner": p, "bid": amount}
    if kind == "rent":
        return {"action": "rent", "payer": p, "deed": deed, "dice": rnd.randint(2, 12)}
    if kind in ("mortgage", "unmortgage"):
        owner = table["deeds"][deed].get("owner") or p
        return {"action": kind, "player": owner, "deed": deed}
    if kind in ("build", "sell_building"):
        deed = _buildable(table, rnd) or deed
        owner = table["deeds"][deed].get("owner") or p
        building = "hotel" if table["deeds"][deed].get("houses") == 4 or table["deeds"][deed].get("hotel") else "house"
        return {"action": kind, "player": owner, "deed": deed, "building": building}
    if kind == "trade":
        owned = [d for d, s in table["deeds"].items() if s.get("owner") == p]
        give = {"deeds": rnd.sample(owned, min(len(owned), 1))} if owned else {"cash": amount}
        return {"action": "trade", "a": p, "b": q, "give": give, "get": {"cash": rnd.choice([0, 10, 100])}}
    if kind == "tax":
        return {"action": "tax", "player": p, "tax": "income", "choice": rnd.choice(["flat", "percent"])}
    if kind == "simple":
        name = rnd.choice(_SIMPLE)
        return {"action": name} if name == "next_turn" else {"action": name, "player": p}
    if kind == "bankrupt":
        return {"action": "bankrupt", "player": p, "creditor": rnd.choice([q, "bank"])}
    if kind == "collect_from_all":
        return {"action": "collect_from_all", "player": p, "amount": rnd.choice([10, 50])}
    if kind == "fine":
        return {"action": "fine", "player": p, "amount": rnd.choice([15, 50, 150])}
    if kind == "win_pot":
        return {"action": "win_pot", "player": p, "pot": "free parking"}
    if kind == "correct_card":
        return {"action": "correct_card", "deed": deed, "values": {"price": rnd.choice([60, 100, 400])}}
    return {"action": "end_game"}


def _level(state: dict) -> int:
    return 5 if state.get("hotel") else state.get("houses", 0)


def _buildable(table: dict, rnd: random.Random) -> str | None:
    """A street whose owner holds its whole group, at the group's lowest level (so evenness allows it)."""
    cards = table["pack"]["cards"]
    groups: dict[str, list[str]] = {}
    for name, c in cards.items():
        if c.get("kind", "street") == "street":
            groups.setdefault(c["group"], []).append(name)
    complete = [
        g
        for g, names in groups.items()
        if len({table["deeds"][n].get("owner") for n in names}) == 1 and table["deeds"][names[0]].get("owner")
    ]
    if not complete:
        # nudge the game towards complete groups: a player buys the rest of a group they started
        return None
    names = groups[rnd.choice(complete)]
    return min(names, key=lambda n: _level(table["deeds"][n]))
