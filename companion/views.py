"""Plain-data views of a game for people and programs: the whole state, players' worth, the log.

Used by ``companion show``, the phones' API and the touchscreen's view-models, so every adapter
describes the game the same way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .core.engine import Rules
from .core.model import BANK, active_players, current_player, pot_account, pot_enabled
from .core.money import Currency

__all__ = ["deed_marks", "public_state", "state_json", "state_text", "worth"]

#: How many tables' worth counts are kept (the newest, and the few a caught-up batch folded through).
WORTH_KEPT = 4
_worth_counted: dict[int, tuple[dict, Rules, dict[str, int]]] = {}


def worth(table: dict, rules: Rules) -> Mapping[str, int]:
    """Each player's worth at ``table`` (the family's own count, ``rules.worth``), counted once per table.

    A table is never changed in place (each entry folds into a new one), so the count is kept with the
    table it belongs to and shared by everyone who asks after the same entry: the state below (the
    touchscreen's and the phones'), and the phones' chronicle of worth over time. Read-only: do not
    change the mapping returned."""
    kept = _worth_counted.get(id(table))
    if kept is not None and kept[0] is table and kept[1] is rules:
        return kept[2]
    counted = {name: int(rules.worth(table, name)) for name in table["order"]}
    if len(_worth_counted) >= WORTH_KEPT:
        del _worth_counted[next(iter(_worth_counted))]  # the oldest
    _worth_counted[id(table)] = (table, rules, counted)  # held, so its id cannot be reused meanwhile
    return counted


_held: tuple | None = None  # (the deeds, the cards, the order it was worked out from; held deeds, each player's)


def _holdings(table: dict) -> tuple[list[str], dict[str, list[str]]]:
    """The deeds some player holds, in board order, and each player's; worked out once per deeds' state
    (a table shares its ``deeds`` with the one before it until a deed changes hands or state)."""
    global _held
    deeds, cards, order = table["deeds"], table["pack"]["cards"], table["order"]
    kept = _held
    if kept is not None and kept[0] is deeds and kept[1] is cards and kept[2] is order:
        return kept[3], kept[4]
    owned: dict[str, list[str]] = {name: [] for name in order}
    held = []
    for name in cards:  # one pass, in board order
        holding = owned.get(deeds[name].get("owner"))
        if holding is not None:
            holding.append(name)
            held.append(name)
    _held = (deeds, cards, order, held, owned)
    return held, owned


def state_json(table: dict, rules: Rules, version: int) -> dict[str, Any]:
    """The whole state: rules, turn, players (cash, deeds, loans, worth), pots, every deed's card with
    its state and marks, version."""
    return _state(table, rules, version, every_card=True)


#: What a deed line needs of a deed's card (the rest of the card is the same all game long).
DEED_CARD_KEYS = ("group", "kind")


def public_state(table: dict, rules: Rules, version: int) -> dict[str, Any]:
    """:func:`state_json` without the cards: its ``deeds`` are the owned deeds only, each with its
    name, group, kind, state and marks, in board order. What a phone's page is made of after every action: the
    cards' prices and rents never change, and an unowned deed is on no one's page."""
    return _state(table, rules, version, every_card=False)


def _state(table: dict, rules: Rules, version: int, *, every_card: bool) -> dict[str, Any]:
    """The state, with every deed's whole card (``every_card``) or the owned deeds' lines only."""
    pack = table["pack"]
    currency = Currency.from_pack(pack)
    player_extra = rules.extras.get("player_view")
    order = table["order"]
    cards = pack["cards"]
    worth_now = worth(table, rules)
    held, owned = _holdings(table)
    deeds = []
    table_deeds = table["deeds"]
    for name in cards if every_card else held:  # in board order
        c = cards[name]
        card = c if every_card else {k: c[k] for k in DEED_CARD_KEYS if k in c}
        deeds.append({"name": name, **card, **table_deeds[name], "marks": rules.marks(table, name)})
    accounts = table["accounts"]  # each account's cash (core.model.cash), read here for every row
    players = []
    for name in order:
        record = table["players"][name]
        money = accounts.get(name, 0)
        row = {
            "name": name,
            "colour": record.get("colour", ""),
            "cash": money,
            "cash_text": currency.format(money),
            "deeds": list(owned[name]),
            "loans": record.get("loans", []),
            "net_worth": worth_now[name],
            "bankrupt": record["bankrupt"],
            "in_jail": record.get("in_jail", False),
            "turns": record.get("turns", 0),
            "missed_turns": record.get("missed", 0),
            "turns_to_miss": record.get("skip", 0),
        }
        if player_extra:
            row.update(player_extra(table, name))
        players.append(row)
    pots = []
    for pot, rec in table["pots"].items():
        if pot_enabled(table, pot):
            amount = accounts.get(pot_account(pot), 0)
            pots.append(
                {"name": pot, "label": rec.get("label", pot), "amount": amount, "amount_text": currency.format(amount)}
            )
    return {
        "rules": pack["name"],
        "title": pack.get("title", pack["name"]),
        "family": pack["family"],
        "currency": pack.get("currency", {"symbol": "$", "style": "plain"}),
        "options": table["options"],
        "version": version,
        "turn": {"player": current_player(table), "number": table["turn"]["number"]},
        "players": players,
        "active": active_players(table),
        "pots": pots,
        "bank": {"issued": -accounts.get(BANK, 0)},
        "stock": table["stock"],
        "deeds": deeds,
        "over": table.get("over"),
    }


def state_text(state: dict) -> str:
    """A readable table of the state for the terminal."""
    cur = Currency(**state["currency"]) if state.get("currency") else Currency()
    lines = [
        f"{state['title']} - version {state['version']} - turn {state['turn']['number']}: {state['turn']['player']} to play"
    ]
    if state.get("over"):
        lines.append(f"GAME OVER: {state['over'].get('winner')} wins ({state['over'].get('reason')})")
    width = max([len("Player")] + [len(p["name"]) for p in state["players"]])
    lines.append("")
    lines.append(f"{'Player':<{width}}  {'Cash':>12}  {'Worth':>12}  Deeds")
    for p in state["players"]:
        flags = []
        if p["bankrupt"]:
            flags.append("bankrupt")
        if p["in_jail"]:
            flags.append("in jail")
        if p["turns_to_miss"]:
            flags.append(f"misses {p['turns_to_miss']} turn(s)")
        for loan in p.get("loans", []):
            flags.append(loan.get("text", "loan"))
        deeds = ", ".join(_deed_label(state, d) for d in p["deeds"]) or "-"
        lines.append(
            f"{p['name']:<{width}}  {cur.format(p['cash']):>12}  {cur.format(p['net_worth']):>12}  {deeds}"
            + (f"  [{'; '.join(flags)}]" if flags else "")
        )
    for pot in state["pots"]:
        lines.append(f"Pot {pot['label']}: {pot['amount_text']}")
    if state["stock"]:
        lines.append("Bank stock: " + ", ".join(f"{v} {k}" for k, v in state["stock"].items()))
    return "\n".join(lines)


def deed_marks(deed: dict) -> list[str]:
    """What a person should see on a deed besides its name, in its family's words ("mortgaged", "3 houses",
    "level 2 (a playground)", "2 residential", "hazard: prison"): the family says it (``Rules.marks``) and
    :func:`state_json` carries it with each deed."""
    return list(deed.get("marks", []))


def _deed_label(state: dict, name: str) -> str:
    deed = next(d for d in state["deeds"] if d["name"] == name)
    marks = deed_marks(deed)
    return name + (f" ({', '.join(marks)})" if marks else "")
