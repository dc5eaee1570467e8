"""A corrected card value as the banker types it: the same reading for every card and every screen.

Money is read the pack's way ("110K", "$1,500", 110000); a list of money as "[6K, 30K, 90K]", "6K,30K"
or a JSON list; true or false as "true", "yes", "no" ...; text stays text. The card's current value
says which it is. Pure: no I/O.
"""

from __future__ import annotations

import json
from typing import Any, Callable

from .errors import BadAction

__all__ = ["card_value", "shown"]

_TRUE = ("true", "yes", "on", "1")
_FALSE = ("false", "no", "off", "0")


def _flag(key: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in _TRUE + _FALSE:
        return value.strip().lower() in _TRUE
    raise BadAction(f"{key} is true or false, not {value!r}")


def _items(key: str, value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    if not isinstance(value, str):
        raise BadAction(f"{key} is a list of amounts such as [6K, 30K, 90K], not {value!r}")
    text = value.strip()
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError:
        loaded = None
    if isinstance(loaded, list):
        return loaded
    if text.startswith("[") and text.endswith("]"):
        text = text[1:-1]
    # "6K, 30K" or "6K,30K"; with ", " between items, a comma inside an amount ("1,500") stays in it.
    parts = text.split(", ") if ", " in text else text.split(",")
    return [p.strip() for p in parts if p.strip()]


def card_value(key: str, current: Any, value: Any, money: Callable[[Any], int]) -> Any:
    """``value`` for card field ``key`` read like ``current`` (its value now; None for an optional
    field the card does not carry yet, such as ``stand_in``)."""
    if isinstance(current, bool) or (current is None and key == "stand_in"):
        return _flag(key, value)
    if isinstance(current, int):
        return _money(key, value, money)
    if isinstance(current, list):
        return [_money(key, v, money) for v in _items(key, value)]
    if isinstance(current, str):
        if not isinstance(value, str):
            raise BadAction(f"{key} is text, not {value!r}")
        return " ".join(value.split())
    return value


def _money(key: str, value: Any, money: Callable[[Any], int]) -> Any:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        return value  # the card's own check refuses it with its reason
    return money(value)


def shown(value: Any, fmt: Callable[[int], str]) -> str:
    """A card value for the log: money as the pack writes it."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return fmt(value)
    if isinstance(value, list):
        return "[" + ", ".join(shown(v, fmt) for v in value) + "]"
    return str(value)
