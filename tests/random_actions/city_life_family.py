"""Random actions for City Life (basic or advanced, as the table plays): mostly what a banker would tap
for the player whose turn it is, with the fields each square asks for, and now and then a mistake."""

from __future__ import annotations

import random

PACKS = ["city-life"]
OPTIONS = {"city-life": [{}, {"advanced": "true"}]}


def _current(table: dict) -> str:
    order = table["order"]
    return order[table["turn"]["index"] % len(order)]


def _kind(table: dict, square: int) -> tuple[int, str]:
    board = table["pack"]["board"]
    for _ in range(20):
        if str(square) not in board["advance"]:
            break
        square = int(board["advance"][str(square)])
    for card in table["pack"]["cards"].values():
        if card["square"] == square:
            return square, card["kind"]
    for kind, squares in board.items():
        if isinstance(squares, list) and square in squares:
            return square, kind
    return square, "plain"


def _owner_of(table: dict, square: int) -> str | None:
    for name, c in table["pack"]["cards"].items():
        if c["square"] == square:
            return table["deeds"][name].get("owner")
    return None


def _squares_of(table: dict, owner: str | None, kind: str | None = None) -> list[int]:
    return [
        c["square"]
        for n, c in table["pack"]["cards"].items()
        if table["deeds"][n].get("owner") == owner and (kind is None or c["kind"] == kind)
    ]


def _land(table: dict, me: str, rnd: random.Random, advanced: bool) -> dict:
    start = (
        100
        if rnd.random() < 0.002
        else rnd.choice(
            [rnd.randint(1, 99), rnd.choice([3, 4, 8, 13, 61, 65, 72, 19, 27, 34, 35, 45, 58, 68, 15, 44, 24])]
        )
    )
    square, kind = _kind(table, start)
    action = {"action": "land", "player": me, "square": start}
    owner = _owner_of(table, square) if kind in ("house", "tower") else None
    if owner and owner != me:
        if kind == "house":
            action["choice"] = rnd.choice(["fee", "fee", "miss_turns"])
        else:
            houses = _squares_of(table, owner, "house")
            action["choice"] = "send" if houses and rnd.random() < 0.3 else "fee"
            if action["choice"] == "send":
                action["house"] = rnd.choice(houses)
    elif kind == "hospital":
        free = _squares_of(table, None, "house")
        if free:
            action["house"] = rnd.choice(free)
    elif kind == "amusement_park":
        action["roll"] = rnd.randint(1, 6)
    elif kind == "museum":
        action["choice"] = rnd.choice(["school", "collect", "roll"])
        if action["choice"] == "roll":
            action["roll"] = rnd.randint(1, 6)
    elif kind == "school":
        if advanced:
            others = [p for p in table["order"] if p != me]
            action["answers"] = {me: rnd.randint(0, 3)}
            if others and rnd.random() < 0.3:
                action["answers"][rnd.choice(others)] = rnd.randint(0, 1)
        else:
            action["correct"] = rnd.random() < 0.6
    return action


def random_action(table: dict, rnd: random.Random) -> dict:
    advanced = bool(table["options"].get("advanced"))
    players = list(table["order"])
    me = _current(table)
    record = table["players"][me]
    p = rnd.choice(players)
    mine = _squares_of(table, me)
    if record.get("in_jail") and rnd.random() < 0.8:
        return {"action": "leave_jail", "player": me} if rnd.random() < 0.3 else {"action": "next_turn"}
    if record.get("owes"):
        if mine and rnd.random() < 0.7:
            return {"action": "sell", "player": me, "deed": rnd.choice(mine)}
        return {"action": "settle", "player": me}
    landed = record.get("at") if record.get("landed") == table["turn"]["number"] else None
    kinds = ["land", "next_turn", "buy", "sell", "trade", "exchange", "quiz", "violation", "transfer", "misc"]
    weights = [30, 22, 10, 4, 3, 1, 3, 4, 2, 2]
    if advanced:
        kinds += ["shares", "sell_shares", "borrow", "mortgage", "repay"]
        weights += [6, 2, 3, 3, 4]
    kind = rnd.choices(kinds, weights)[0]
    if kind == "land":
        return _land(table, me, rnd, advanced)
    if kind == "next_turn":
        return {"action": "next_turn"}
    if kind == "buy":
        if landed and _owner_of(table, landed) is None and _kind(table, landed)[1] in ("house", "tower"):
            return {"action": "buy", "player": me, "deed": landed}
        free = _squares_of(table, None)
        if free and rnd.random() < 0.9:
            return {"action": "land", "player": me, "square": rnd.choice(free)}
        return {"action": "buy", "player": me, "deed": rnd.choice([4, 8, 61, 65])}
    if kind == "sell" and mine:
        return {"action": "sell", "player": me, "deed": rnd.choice(mine)}
    if kind == "trade":
        owned = [
            (c["square"], table["deeds"][n]["owner"])
            for n, c in table["pack"]["cards"].items()
            if table["deeds"][n].get("owner")
        ]
        if owned:
            square, owner = rnd.choice(owned)
            buyer = rnd.choice([q for q in players if q != owner] or players)
            price = rnd.choice([0, 500, 1000, 3000])
            return {"action": "sell", "player": owner, "deed": square, "to": buyer, "price": price}
    if kind == "exchange":
        towers, houses = _squares_of(table, me, "tower"), _squares_of(table, None, "house")
        if towers and houses:
            return {"action": "exchange", "player": me, "tower": rnd.choice(towers), "house": rnd.choice(houses)}
    if kind == "quiz":
        return {"action": "quiz", "answers": {me: rnd.randint(1, 3)} if not advanced or rnd.random() < 0.5 else {p: 1}}
    if kind == "violation":
        card = rnd.choice(
            [
                {"fine": rnd.choice([100, 300, 500, 2000])},
                {"demerits": rnd.randint(1, 6)},
                {"award": 200},
                {"fine": 200, "demerits": 3},
            ]
        )
        return {"action": "violation", "player": me, **card}
    if kind == "transfer":
        return {
            "action": "transfer",
            "from": rnd.choice(players + ["bank"]),
            "to": rnd.choice(players + ["bank", "pot:lottery"]),
            "amount": rnd.choice([100, 500, 2000]),
        }
    if kind == "shares":
        if landed in table["pack"]["board"]["dollar_sign"]:
            return {"action": "buy_shares", "player": me, "count": rnd.randint(1, 2)}
        return {"action": "land", "player": me, "square": rnd.choice(table["pack"]["board"]["dollar_sign"])}
    if kind == "sell_shares":
        holders = [q for q in players if table["players"][q].get("shares")]
        if holders:
            seller = rnd.choice(holders)
            if rnd.random() < 0.5:
                return {"action": "sell_shares", "player": seller, "count": 1}
            return {"action": "sell_shares", "player": seller, "count": 1, "to": rnd.choice(players), "price": 400}
    if kind == "borrow":
        return {"action": "borrow", "player": p}
    if kind == "mortgage" and mine:
        return {"action": "mortgage", "player": me, "deed": rnd.choice(mine)}
    if kind == "repay":
        debtors = [q for q in players if table["players"][q].get("debts")]
        if debtors:
            q = rnd.choice(debtors)
            debt = rnd.choice(table["players"][q]["debts"])
            which = "loan" if debt["kind"] == "loan" else table["pack"]["cards"][debt["deed"]]["square"]
            return {"action": "repay", "player": q, "debt": which}
    if kind == "misc":
        return rnd.choice(
            [
                {"action": "miss_turns", "player": p, "turns": 1},
                {"action": "jail", "player": p},
                {"action": "correct_card", "deed": "House 4", "values": {"visitor_fee": rnd.choice([500, 600])}},
                {"action": "collect_from_all", "player": p, "amount": 100},
                {"action": "end_game"} if rnd.random() < 0.05 else {"action": "next_turn"},
            ]
        )
    return {"action": "next_turn"}
