"""Greenopoly character cards: each player's salary, and whether Night and Detour apply to them.

The pack lists the six cards under ``characters`` (key -> ``title``, ``salary``, ``night``,
``detour``, ``stand_in``). Each player draws one at the start; the banker records it with
``choose_character`` and can correct a card's values with ``correct_character``, as for deeds.
"""

from __future__ import annotations

from typing import Any, cast

from companion.core.card_text import card_value, shown
from companion.core import contract as c
from companion.core.engine import Registry, Tx
from companion.core.errors import BadAction, Refused, UnknownName
from companion.core.said import who
from companion.core.money import LIMIT

__all__ = ["CHARACTERS", "check_character", "character_of", "find_character", "printed", "salary_of", "affected"]

CHARACTERS = Registry()


def _characters(table: dict[str, Any], partial: dict[str, Any]) -> list[tuple[str, str]]:
    return [(key, card["title"]) for key, card in table["pack"]["characters"].items()]


CHARACTER = c.choice(
    "character", "Which character", options_from=_characters, resolve=lambda table, value: find_character(table, value)
)

_KEYS = {"title": str, "salary": int, "night": bool, "detour": bool, "stand_in": bool}

#: A character card's values to correct: only the ones given change.
CHARACTER_VALUES = {
    "type": "object",
    "minProperties": 1,
    "additionalProperties": False,
    "properties": {
        "salary": {
            "oneOf": [{"type": "integer", "minimum": 1}, {"type": "string", "maxLength": 32}],
            "x-kind": "amount",
            "title": "Salary",
        },
        "night": {"type": "boolean", "title": "Night"},
        "detour": {"type": "boolean", "title": "Detour"},
        "stand_in": {"type": "boolean", "title": "Stand-in"},
        "title": {"type": "string", "maxLength": 60, "title": "Name"},
    },
}


def check_character(key: str, c: object) -> None:
    """Refuse a character card whose values cannot be right."""
    if not isinstance(c, dict):
        raise BadAction(f"character {key!r} is a table of title, salary, night and detour")
    unknown = sorted(set(c) - set(_KEYS))
    if unknown:
        raise BadAction(f"character {key}: a character card has no {', '.join(map(repr, unknown))}")
    for field in ("title", "salary", "night", "detour"):
        if field not in c:
            raise BadAction(f"character {key}: the card needs {field}")
    for field, kind in _KEYS.items():
        value = c.get(field)
        if field in c and (not isinstance(value, kind) or (kind is int and isinstance(value, bool))):
            raise BadAction(
                f"character {key}: {field} must be {'true or false' if kind is bool else kind.__name__}, not {value!r}"
            )
    if not 0 < c["salary"] <= LIMIT:
        raise BadAction(f"character {key}: salary must be a whole number above 0, not {c['salary']!r}")
    if not c["title"].strip() or len(c["title"]) > 40:
        raise BadAction(f"character {key}: the title is 1 to 40 characters")


def find_character(table: dict[str, Any], name: object) -> str:
    """A character's key, by its key or its title (any case)."""
    cards = table["pack"]["characters"]
    if isinstance(name, str):
        wanted = " ".join(name.split()).casefold()
        for key, c in cards.items():
            if wanted in (key.casefold(), c["title"].casefold()):
                return cast("str", key)
    titles = ", ".join(c["title"] for c in cards.values())
    raise UnknownName(f"there is no character called {name!r} (the cards: {titles})")


def character_of(table: dict[str, Any], player: str) -> str | None:
    return cast("str | None", table["players"][player].get("character"))


def _card_of(table: dict[str, Any], player: str) -> dict[str, Any]:
    key = character_of(table, player)
    if key is None:
        raise Refused(f"{player} has no character card yet: record the card they drew with Choose a character")
    return cast("dict[str, Any]", table["pack"]["characters"][key])


def salary_of(table: dict[str, Any], player: str) -> int:
    return cast("int", _card_of(table, player)["salary"])


def affected(table: dict[str, Any], player: str, what: str) -> bool:
    """Whether Night (``what="night"``) or Detour applies to the player's character."""
    return bool(_card_of(table, player)[what])


def title_of(table: dict[str, Any], player: str) -> str:
    return cast("str", _card_of(table, player)["title"])


@CHARACTERS.action("choose_character", c.player(), CHARACTER, label="Choose a character", group="game")
def choose_character(tx: Tx, a: dict[str, Any]) -> str:
    """Record the character card a player drew (each card is in one hand only)."""
    player = a["player"]
    key = find_character(tx.table, a["character"])
    title = tx.table["pack"]["characters"][key]["title"]
    held = character_of(tx.table, player)
    if held is not None:
        raise Refused(f"{player} already holds {tx.table['pack']['characters'][held]['title']}; undo to change it")
    other = next((p for p in tx.table["order"] if character_of(tx.table, p) == key), None)
    if other is not None:
        raise Refused(f"{other} already holds {title}")
    tx.set(["players", player, "character"], key)
    c = tx.table["pack"]["characters"][key]
    applies = [w for w in ("night", "detour") if c[w]]
    return (
        who(player, "is")
        + f" {title}: salary {tx.fmt(c['salary'])}, "
        + (f"affected by {' and '.join(w.title() for w in applies)}" if applies else "not affected by Night or Detour")
    )


def printed(table: dict[str, Any], partial: dict[str, Any]) -> dict[str, Any]:
    """The chosen character card as it reads now: what a correction starts from."""
    card = table["pack"]["characters"][find_character(table, partial["character"])]
    return {field: card[field] for field in cast("dict[str, Any]", CHARACTER_VALUES["properties"]) if field in card}


@CHARACTERS.action(
    "correct_character",
    CHARACTER,
    c.structured("values", "The card's values to correct", CHARACTER_VALUES, current=printed),
    label="Correct a character",
    group="game",
)
def correct_character(tx: Tx, a: dict[str, Any]) -> str:
    """The banker corrects a character card to match the box (salaries already paid stay paid). A value
    the card already reads is left as it is; a correction that changes nothing is refused."""
    key = find_character(tx.table, a["character"])
    values = a["values"]
    if not isinstance(values, dict) or not values:
        raise BadAction("values is an object of card keys and their new values")
    current = tx.table["pack"]["characters"][key]
    fixed = dict(current)
    for field, value in values.items():
        if field not in _KEYS:
            raise BadAction(f"{current['title']} has no field {field!r}; its fields are {', '.join(sorted(_KEYS))}")
        kind = _KEYS[field]
        like = current.get(field, False if kind is bool else 0 if kind is int else "")
        fixed[field] = card_value(field, like, value, tx.currency.parse)
    changed = [f for f in values if f not in current or fixed[f] != current[f]]
    if not changed:
        raise Refused(f"nothing to change: {current['title']}'s card already reads so")
    check_character(key, fixed)
    for field in changed:
        tx.set(["pack", "characters", key, field], fixed[field])
    told = ", ".join(f"{f} = {shown(fixed[f], tx.fmt)}" for f in changed)
    return f"The banker corrected {current['title']}: {told}"
