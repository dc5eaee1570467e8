"""The table: the whole state of one game, as plain JSON-ready data.

A table is a ``dict`` that is never modified once built (events make new ones, sharing what did not
change). Its keys:

``pack``      the rule pack's data (currency, deeds and their cards, options' defaults, ...)
``options``   the options chosen for this game
``accounts``  balance of every account: ``"bank"``, each player by name, each pot as ``"pot:NAME"``
``players``   name -> record (colour, bankrupt, in_jail, turns, missed turns, family fields)
``order``     the seating order (player names)
``turn``      ``{"index": i, "number": n}``: whose turn, and how many turns the table has played
``deeds``     name -> record (owner, mortgaged, buildings, ...); card values live in ``pack``
``stock``     the bank's buildings left (houses, hotels, ...)
``pots``      pot name -> record (label, seed)
``over``      ``None`` while playing, then the final ranking

These helpers read it; only :mod:`companion.core.events` builds new tables.
"""
from __future__ import annotations

from typing import Any, Iterable

from .errors import BadAction, UnknownName

__all__ = [
    "BANK",
    "SCHEMA",
    "new_table",
    "pot_account",
    "player_names",
    "active_players",
    "find_player",
    "find_deed",
    "find_pot",
    "pot_in_play",
    "find_account",
    "cash",
    "card",
    "current_player",
    "pot_seed",
]

BANK = "bank"
SCHEMA = 1
RESERVED = {"bank", "banker", "all", "everyone"}

Table = dict[str, Any]


def pot_account(pot: str) -> str:
    return f"pot:{pot}"


def new_table(pack: dict, players: Iterable[dict], options: dict) -> Table:
    """A table before any money moved: every account at zero, every deed with the bank."""
    records: dict[str, dict] = {}
    order: list[str] = []
    for p in players:
        name = " ".join(str(p["name"]).split())
        if not name:
            raise BadAction("a player needs a name")
        if len(name) > 24:
            raise BadAction(f"player name {name!r} is longer than 24 characters")
        if name.lower() in RESERVED or name.lower().startswith("pot:"):
            raise BadAction(f"{name!r} cannot be a player's name (it names the bank or a pot)")
        if name.lower() in {n.lower() for n in order}:
            raise BadAction(f"two players are called {name!r}")
        order.append(name)
        records[name] = {"colour": p.get("colour") or "", "bankrupt": False, "in_jail": False, "turns": 0, "missed": 0}
    if not 1 <= len(order) <= 8:
        raise BadAction(f"a game needs 1 to 8 players, not {len(order)}")
    accounts = {BANK: 0, **{n: 0 for n in order}}
    pots = {}
    for pot in pack.get("pots", []):
        pots[pot["name"]] = {k: v for k, v in pot.items() if k != "name"}
        pots[pot["name"]].setdefault("label", pot["name"].title())
        accounts[pot_account(pot["name"])] = 0
    deeds = {name: {} for name in pack.get("cards", {})}
    return {
        "schema": SCHEMA,
        "pack": pack,
        "options": options,
        "accounts": accounts,
        "players": records,
        "order": order,
        "turn": {"index": 0, "number": 1},
        "deeds": deeds,
        "stock": dict(pack.get("stock", {})),
        "pots": pots,
        "over": None,
    }


def pot_seed(table: Table, pot: str) -> int:
    """What the bank puts in a pot at the start and each time it is won (0: nothing).

    A pot record may name the option that enables it (``enabled_by``); an option ``<pot>_seed``
    overrides the pack's ``seed``.
    """
    record = table["pots"][pot]
    gate = record.get("enabled_by")
    if gate and not table["options"].get(gate):
        return 0
    key = f"{pot.replace(' ', '_')}_seed"
    if key in table["options"]:
        return int(table["options"][key])
    return int(record.get("seed", 0))


def player_names(table: Table) -> list[str]:
    return list(table["order"])


def active_players(table: Table) -> list[str]:
    """Players still in the game, in seating order."""
    return [n for n in table["order"] if not table["players"][n]["bankrupt"]]


def _match(name: object, candidates: Iterable[str], what: str) -> str:
    if not isinstance(name, str) or not name.strip():
        raise BadAction(f"{what} must be a name, not {name!r}")
    wanted = " ".join(name.split()).casefold()
    for c in candidates:
        if c.casefold() == wanted:
            return c
    raise UnknownName(f"there is no {what} called {name.strip()!r} in this game")


def find_player(table: Table, name: object, *, active: bool = True) -> str:
    """The player's exact name; refuses unknown and (by default) bankrupt players."""
    found = _match(name, table["order"], "player")
    if active and table["players"][found]["bankrupt"]:
        from .errors import Refused

        raise Refused(f"{found} is bankrupt and out of the game")
    return found


def find_deed(table: Table, name: object) -> str:
    return _match(name, table["deeds"], "deed")


def pot_in_play(table: Table, pot: str) -> bool:
    """A pot exists only when the option that enables it (``enabled_by``, if any) is on."""
    gate = table["pots"][pot].get("enabled_by")
    return not gate or bool(table["options"].get(gate))


def find_pot(table: Table, name: object) -> str:
    """A pot in play; a pot whose house rule the table does not play is refused like any other."""
    found = _match(name, table["pots"], "pot")
    if not pot_in_play(table, found):
        from .errors import Refused

        raise Refused(f"this game has no {table['pots'][found].get('label', found)} pot "
                      f"(the table does not play the {table['pots'][found]['enabled_by'].replace('_', ' ')} house rule)")
    return found


def find_account(table: Table, name: object) -> str:
    """An account named in an action: "bank", "pot:NAME" or a player's name."""
    if isinstance(name, str) and name.strip().casefold() == BANK:
        return BANK
    if isinstance(name, str) and name.strip().casefold().startswith("pot:"):
        return pot_account(find_pot(table, name.strip()[4:]))
    return find_player(table, name)


def cash(table: Table, account: str) -> int:
    return table["accounts"].get(account, 0)


def card(table: Table, deed: str) -> dict:
    """The printed card of a deed (price, rents, ...), as corrected by the banker."""
    return table["pack"]["cards"][deed]


def current_player(table: Table) -> str | None:
    active = active_players(table)
    if not active:
        return None
    name = table["order"][table["turn"]["index"] % len(table["order"])]
    return name if name in active else active[0]
