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

from functools import lru_cache
from typing import Any, Collection, Iterable, cast

from .errors import BadAction, Refused, UnknownName
from .text import clean_name, clean_text, look_keys, name_key, shown

__all__ = [
    "BANK",
    "SCHEMA",
    "new_table",
    "player_names_checked",
    "pot_account",
    "player_names",
    "active_players",
    "find_player",
    "find_deed",
    "find_pot",
    "find_account",
    "cash",
    "card",
    "current_player",
    "pot_seed",
    "pot_enabled",
    "account_name",
    "COLOURS",
    "player_range",
]

BANK = "bank"
SCHEMA = 1
RESERVED = {"bank", "banker", "all", "everyone"}

Table = dict[str, Any]


def pot_account(pot: str) -> str:
    return f"pot:{pot}"


#: The colours a player's token can take, in the order players without a choice get them.
COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "teal", "pink")

#: The longest player name: it has to fit a tile on a 7-inch screen.
NAME_LEN = 24

#: How many players a game takes when its pack does not say.
DEFAULT_PLAYERS = (2, 8)


def player_range(pack: dict[str, Any]) -> tuple[int, int]:
    """The fewest and the most players a game of this pack takes (the pack's ``players = [2, 6]``)."""
    low, high = pack.get("players", DEFAULT_PLAYERS)
    return int(low), int(high)


def player_names_checked(names: Iterable[object]) -> list[str]:
    """The players' names as the table will hold them, or a :class:`BadAction` saying why one cannot sit:
    no invisible characters, not the bank's or a pot's name, and no two names that read the same
    (the same letters in another case, another alphabet or look-alike ones: :func:`look_keys`)."""
    seated: dict[tuple[str, str], str] = {}  # each look key of a seated name -> that name
    order: list[str] = []
    for raw in names:
        name = clean_name(raw, "a player's name", NAME_LEN)
        looks = look_keys(name)
        if _reserved(looks):
            raise BadAction(f"{shown(name)} cannot be a player's name (it names the bank or a pot)")
        twin = next((seated[k] for k in looks if k in seated), None)
        if twin is not None and name_key(twin) == name_key(name):
            raise BadAction(f"two players are called {shown(name)}")
        if twin is not None:
            raise BadAction(
                f"{shown(name)} looks just like {shown(twin)} on the screens (the same letters in "
                f"another alphabet, or look-alike ones); choose a name that reads differently"
            )
        seated.update(dict.fromkeys(looks, name))
        order.append(name)
    return order


def new_table(pack: dict[str, Any], players: Iterable[dict[str, Any]], options: dict[str, Any]) -> Table:
    """A table before any money moved: every account at zero, every deed with the bank."""
    records: dict[str, dict[str, Any]] = {}
    people = list(players)
    order = player_names_checked(p.get("name") for p in people)
    taken = [c for c in (p.get("colour") for p in people) if c]
    for p, name in zip(people, order):
        colour = p.get("colour") or ""
        if colour:
            colour = clean_text(colour, "a colour", 16).casefold()
            if colour not in COLOURS:
                raise BadAction(f"{shown(colour)} is not a player colour (choose {', '.join(COLOURS)})")
        else:
            colour = next((c for c in COLOURS if c not in taken), COLOURS[len(records) % len(COLOURS)])
            taken.append(colour)
        records[name] = {"colour": colour, "bankrupt": False, "in_jail": False, "turns": 0, "missed": 0}
    low, high = player_range(pack)
    if not low <= len(order) <= high:
        raise BadAction(
            f"a {pack.get('title', pack.get('name', 'game'))} game takes {low} to {high} players, not {len(order)}"
        )
    accounts = {BANK: 0, **{n: 0 for n in order}}
    pots = {}
    for pot in pack.get("pots", []):
        pots[pot["name"]] = {k: v for k, v in pot.items() if k != "name"}
        pots[pot["name"]].setdefault("label", pot["name"].title())
        accounts[pot_account(pot["name"])] = 0
    deeds: dict[str, dict[str, Any]] = {name: {} for name in pack.get("cards", {})}
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


def _reserved(looks: frozenset[tuple[str, str]]) -> bool:
    """Whether a name with these look keys names, or looks like, the bank or a pot ("pot:..." and "pot ...")."""
    names, prefixes = _reserved_looks()
    return bool(looks & names) or any(kind == k and key.startswith(p) for kind, key in looks for k, p in prefixes)


@lru_cache(maxsize=1)
def _reserved_looks() -> tuple[frozenset[tuple[str, str]], tuple[tuple[str, str], ...]]:
    spellings = [f(w) for w in RESERVED for f in (str.lower, str.title, str.upper)]
    names = frozenset(k for word in spellings for k in look_keys(word))
    prefixes = tuple(k for word in ("pot:", "Pot:", "POT:") for k in look_keys(word))
    prefixes += tuple((kind, key + " ") for word in ("pot", "Pot", "POT") for kind, key in look_keys(word))
    return names, prefixes


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


def pot_enabled(table: Table, pot: str) -> bool:
    """Whether the table plays with this pot (a pot may hang on an option, such as Free Parking's)."""
    gate = table["pots"][pot].get("enabled_by")
    return not gate or bool(table["options"].get(gate))


def player_names(table: Table) -> list[str]:
    return list(table["order"])


def active_players(table: Table) -> list[str]:
    """Players still in the game, in seating order."""
    return [n for n in table["order"] if not table["players"][n]["bankrupt"]]


def _match(name: object, candidates: Collection[str], what: str, *, unique: bool = False) -> str:
    """The candidate ``name`` names; ``unique``: no two candidates share a key (a table's players), so a
    name written exactly as one of them is that one without comparing keys."""
    if not isinstance(name, str) or not name.strip():
        raise BadAction(f"{what} must be a name, not {shown(name)}")
    if unique and name in candidates:
        return name
    wanted = name_key(name)
    for c in candidates:
        if name_key(c) == wanted:
            return c
    raise UnknownName(f"there is no {what} called {shown(name.strip())} in this game")


def find_player(table: Table, name: object, *, active: bool = True) -> str:
    """The player's exact name; refuses unknown and (by default) bankrupt players."""
    players = table["players"]
    # a name written exactly as a player's is that player (twins are refused at the start)
    found = name if type(name) is str and name in players else _match(name, table["order"], "player", unique=True)
    if active and players[found]["bankrupt"]:
        from .errors import Refused

        raise Refused(f"{found} is bankrupt and out of the game")
    return found


def find_deed(table: Table, name: object) -> str:
    return _match(name, table["deeds"], "deed")


def find_pot(table: Table, name: object) -> str:
    """A pot the table plays with; a pot whose house rule is off is refused by name."""
    found = _match(name, table["pots"], "pot")
    if not pot_enabled(table, found):
        from .errors import Refused

        raise Refused(f"this table does not play with the {found} pot")
    return found


def find_account(table: Table, name: object) -> str:
    """An account named in an action: "bank", "pot:NAME" or a player's name."""
    players = table["players"]
    if type(name) is str and name in players and not players[name]["bankrupt"]:
        return name  # a player's name as written (never the bank's or a pot's: those are refused to players)
    if isinstance(name, str):
        key = name_key(name)
        if key == BANK:
            return BANK
        if key.startswith("pot:"):
            return pot_account(find_pot(table, name.strip()[4:]))
    return find_player(table, name)


def account_name(account: str) -> str:
    """An account as people say it: "the bank", "the lottery pot", or the player's name."""
    if account == BANK:
        return "the bank"
    if account.startswith("pot:"):
        return f"the {account[4:]} pot"
    return account


def cash(table: Table, account: str) -> int:
    balance: int = table["accounts"].get(account, 0)
    return balance


def card(table: Table, deed: str) -> dict[str, Any]:
    """The printed card of a deed (price, rents, ...), as corrected by the banker."""
    return cast("dict[str, Any]", table["pack"]["cards"][deed])


def current_player(table: Table) -> str | None:
    active = active_players(table)
    if not active:
        return None
    name = table["order"][table["turn"]["index"] % len(table["order"])]
    return name if name in active else active[0]


def playing(table: Table) -> str:
    """The player whose turn it is; refused when nobody is left in the game."""
    now = current_player(table)
    if now is None:
        raise Refused("nobody is left in the game")
    return now
