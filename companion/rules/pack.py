"""Rule packs: a TOML data file (currency, cash, deeds and their cards, options) read into plain data.

A pack names its ``family`` (the behaviour module) and carries everything a game needs, so a game file
holds its own copy and never depends on the pack file staying the same. Users copy a pack file, edit
it, and load it with ``--rules path/to/pack.toml``: house rules and cards that differ are data.
"""

from __future__ import annotations

import pickle
import tomllib
from pathlib import Path
from typing import Any, Callable

from companion.core.errors import BadAction
from companion.core.money import LIMIT, Currency

__all__ = [
    "TABLE_OPTIONS",
    "option_specs",
    "PACK_DIR",
    "pack_names",
    "load_pack",
    "normalise_pack",
    "resolve_options",
    "CARD_CHECKS",
    "check_card",
]

PACK_DIR = Path(__file__).with_name("packs")

#: Per family: a function that refuses a bad card (a deed's printed values) with a clear reason.
CARD_CHECKS: dict[str, Callable[[str, dict[str, Any]], None]] = {}


def pack_names() -> list[str]:
    return sorted(p.stem for p in PACK_DIR.glob("*.toml"))


#: Each pack file read so far, by its path and version (modification time and size): the pack it made,
#: pickled, so every caller gets a copy of its own (a game's start parsed the TOML each time: 1-3 ms).
_READ: dict[tuple[str, int, int], bytes] = {}


def load_pack(name_or_path: str) -> dict[str, Any]:
    """A pack by name ("classic") or by path to a TOML file; refused clearly if missing or malformed."""
    path = Path(name_or_path)
    if not (path.suffix == ".toml" or "/" in name_or_path or path.exists()):
        path = PACK_DIR / f"{name_or_path}.toml"
        if not path.exists():
            raise BadAction(f"unknown rules {name_or_path!r}; choose one of {', '.join(pack_names())} or a .toml file")
    try:
        seen = path.stat()
        version: tuple[str, int, int] | None = (str(path.absolute()), seen.st_mtime_ns, seen.st_size)
    except OSError:
        version = None  # refused below, as it is read
    kept = _READ.get(version) if version is not None else None
    if kept is not None:
        copy: dict[str, Any] = pickle.loads(kept)
        return copy
    pack = _read_pack(path)
    if version is not None:
        _READ[version] = pickle.dumps(pack)
    return pack


def _read_pack(path: Path) -> dict[str, Any]:
    try:
        with open(path, "rb") as f:
            raw = tomllib.load(f)
    except FileNotFoundError:
        raise BadAction(f"no rules file at {path}") from None
    except tomllib.TOMLDecodeError as e:
        raise BadAction(f"{path} is not valid TOML: {e}") from None
    except OSError as e:
        raise BadAction(f"cannot read {path}: {e.strerror}") from None
    return normalise_pack(raw, source=str(path))


def _positive(value: Any, what: str, *, zero: bool = False) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < (0 if zero else 1) or value > LIMIT:
        raise BadAction(f"{what} must be a whole number {'0 or more' if zero else 'above 0'}, not {value!r}")
    return value


def check_card(family: str, name: str, card: dict[str, Any]) -> None:
    check = CARD_CHECKS.get(family)
    if check:
        check(name, card)


def normalise_pack(raw: dict[str, Any], source: str = "pack") -> dict[str, Any]:
    """Validate a pack and turn its ``deeds`` list into ``cards``: deed name -> card, in board order."""
    pack = dict(raw)
    for key in ("name", "family"):
        if not isinstance(pack.get(key), str) or not pack[key]:
            raise BadAction(f"{source}: the pack needs a {key}")
    from . import FAMILIES  # late: families register themselves when the package loads

    if pack["family"] not in FAMILIES:
        raise BadAction(f"{source}: unknown family {pack['family']!r} (known: {', '.join(sorted(FAMILIES))})")
    cur = pack.get("currency", {})
    if not isinstance(cur, dict) or cur.get("style", "plain") not in ("plain", "short"):
        raise BadAction(f'{source}: currency style is "plain" or "short"')
    Currency(cur.get("symbol", "$"), cur.get("style", "plain"))
    _positive(pack.get("start_cash", 0), f"{source}: start_cash", zero=True)
    players = pack.get("players", [2, 8])
    if (
        not isinstance(players, list)
        or len(players) != 2
        or any(isinstance(n, bool) or not isinstance(n, int) for n in players)
        or not 2 <= players[0] <= players[1] <= 8
    ):
        raise BadAction(f"{source}: players is [fewest, most], from 2 to 8")
    cards: dict[str, dict[str, Any]] = {}
    for i, deed in enumerate(pack.pop("deeds", [])):
        name = deed.get("name") if isinstance(deed, dict) else None
        if not isinstance(name, str) or not name.strip():
            raise BadAction(f"{source}: deed number {i + 1} has no name")
        if name.casefold() in {n.casefold() for n in cards}:
            raise BadAction(f"{source}: two deeds are called {name!r}")
        card = {k: v for k, v in deed.items() if k != "name"}
        check_card(pack["family"], name, card)
        cards[name] = card
    pack["cards"] = {**pack.get("cards", {}), **cards}
    # A game file stores the pack with sorted keys: keep the board's order as a list of its own.
    pack.setdefault("deed_order", list(pack["cards"]))
    for key, spec in pack.get("options", {}).items():
        if not isinstance(spec, dict) or "default" not in spec:
            raise BadAction(f"{source}: option {key!r} needs a default")
    return pack


#: Options every game has, whatever its pack.
TABLE_OPTIONS = {
    "phone_requests": {"default": True, "help": "Players may ask the banker for payments from their phones"},
    "phone_actions": {"default": True, "help": "Players act from their phones (rent, buy, tax, trades...)"},
    "trust_table": {
        "default": False,
        "help": "Money from the bank to a player, asked from a phone, needs no banker's tap",
    },
}


def option_specs(pack: dict[str, Any]) -> dict[str, Any]:
    """Every option a game of this pack takes: the table-wide ones and the pack's own."""
    return {**TABLE_OPTIONS, **pack.get("options", {})}


def resolve_options(pack: dict[str, Any], chosen: dict[str, str | Any]) -> dict[str, Any]:
    """The pack's option defaults with the table's choices on top, each converted to the default's type."""
    specs = option_specs(pack)
    options = {k: v["default"] for k, v in specs.items()}
    for key, value in chosen.items():
        if key not in specs:
            known = ", ".join(sorted(specs)) or "none"
            raise BadAction(f"unknown option {key!r} for {pack['name']} (options: {known})")
        options[key] = _convert(key, value, specs[key]["default"], pack)
    return options


def _convert(key: str, value: Any, default: Any, pack: dict[str, Any]) -> Any:
    if not isinstance(value, str):
        if type(value) is not type(default):
            raise BadAction(f"option {key} takes a {type(default).__name__}, not {value!r}")
        return value
    text = value.strip()
    if isinstance(default, bool):
        if text.lower() in ("true", "yes", "on", "1"):
            return True
        if text.lower() in ("false", "no", "off", "0"):
            return False
        raise BadAction(f"option {key} is true or false, not {value!r}")
    if isinstance(default, int):
        n = Currency.from_pack(pack).parse(text)
        if n < 0:
            raise BadAction(f"option {key} cannot be negative")
        return n
    return text
