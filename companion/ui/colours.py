"""Colours of the table: the players' tokens, the deeds' colour groups, and the light and dark themes.

Plain data and pure functions (no Kivy), so view-models and tests use them without a window. Colours
are ``(r, g, b, a)`` tuples of floats, as Kivy wants them.
"""

from __future__ import annotations

import hashlib

__all__ = [
    "PLAYER_COLOURS",
    "player_colour",
    "next_free_colour",
    "group_colour",
    "THEMES",
    "theme",
    "text_on",
]


def _hex(code: str, alpha: float = 1.0) -> tuple[float, float, float, float]:
    code = code.lstrip("#")
    return (int(code[0:2], 16) / 255, int(code[2:4], 16) / 255, int(code[4:6], 16) / 255, alpha)


#: The colours a player can take, in the order new players get them. Chosen to stay apart for the
#: common kinds of colour blindness when read together with the player's name.
PLAYER_COLOURS: dict[str, tuple[float, float, float, float]] = {
    "red": _hex("d32f2f"),
    "blue": _hex("1976d2"),
    "green": _hex("2e7d32"),
    "yellow": _hex("f9a825"),
    "purple": _hex("7b1fa2"),
    "orange": _hex("ef6c00"),
    "teal": _hex("00838f"),
    "pink": _hex("c2185b"),
}

#: The classic board's colour groups, plus the railroads and utilities.
_GROUPS: dict[str, tuple[float, float, float, float]] = {
    "brown": _hex("8d5524"),
    "light blue": _hex("81d4fa"),
    "pink": _hex("d81b60"),
    "magenta": _hex("d81b60"),
    "orange": _hex("f57c00"),
    "red": _hex("e53935"),
    "yellow": _hex("fdd835"),
    "green": _hex("2e7d32"),
    "dark blue": _hex("1a237e"),
    "blue": _hex("1e88e5"),
    "purple": _hex("6a1b9a"),
    "violet": _hex("6a1b9a"),
    "railroad": _hex("37474f"),
    "railroads": _hex("37474f"),
    "station": _hex("37474f"),
    "utility": _hex("9e9e9e"),
    "utilities": _hex("9e9e9e"),
}

_FALLBACK = [_hex(c) for c in ("5d4037", "00695c", "283593", "ad1457", "558b2f", "4e342e", "6a1b9a", "00838f")]


def player_colour(name: str | None) -> tuple[float, float, float, float]:
    """A player's colour by its name ("red"), or a neutral grey for an unknown or empty one."""
    if name and name.lower() in PLAYER_COLOURS:
        return PLAYER_COLOURS[name.lower()]
    if name and name.startswith("#") and len(name) == 7:
        return _hex(name)
    return _hex("757575")


def next_free_colour(taken: list[str]) -> str:
    """The first player colour nobody at the table has yet (they repeat after eight players)."""
    for name in PLAYER_COLOURS:
        if name not in taken:
            return name
    return list(PLAYER_COLOURS)[len(taken) % len(PLAYER_COLOURS)]


def group_colour(group: str, colour: str | None = None) -> tuple[float, float, float, float]:
    """The colour band of a deed group: a pack's own ``colour`` ("#rrggbb") first, then the group's
    name when it is a colour, else a stable colour chosen from the name."""
    if colour and colour.startswith("#") and len(colour) == 7:
        return _hex(colour)
    key = (group or "").lower().strip()
    if key in _GROUPS:
        return _GROUPS[key]
    digest = hashlib.sha1(key.encode()).digest()[0]
    return _FALLBACK[digest % len(_FALLBACK)]


def text_on(colour: tuple[float, ...]) -> tuple[float, float, float, float]:
    """Black or white, whichever reads better on ``colour`` (relative luminance)."""
    r, g, b = colour[:3]
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return (0.08, 0.08, 0.08, 1) if luminance > 0.55 else (1, 1, 1, 1)


#: The two themes. Keys are what the .kv files read (``app.c['bg']``).
THEMES: dict[str, dict[str, tuple[float, float, float, float]]] = {
    "dark": {
        "bg": _hex("121417"),
        "panel": _hex("1e2227"),
        "tile": _hex("262b31"),
        "tile_turn": _hex("1f3a2c"),
        "text": _hex("f2f2f2"),
        "muted": _hex("b0b8c0"),
        "accent": _hex("2e7d32"),
        "accent_text": _hex("ffffff"),
        "button": _hex("37414b"),
        "button_text": _hex("ffffff"),
        "danger": _hex("c62828"),
        "warn": _hex("ffb300"),
        "refused": _hex("b71c1c"),
        "line": _hex("4a545e"),
        "selected": _hex("1565c0"),
        "disabled": _hex("2a2f35"),
        "disabled_text": _hex("7d8790"),
    },
    "light": {
        "bg": _hex("eceff1"),
        "panel": _hex("ffffff"),
        "tile": _hex("ffffff"),
        "tile_turn": _hex("dcedc8"),
        "text": _hex("111111"),
        "muted": _hex("455a64"),
        "accent": _hex("2e7d32"),
        "accent_text": _hex("ffffff"),
        "button": _hex("cfd8dc"),
        "button_text": _hex("111111"),
        "danger": _hex("c62828"),
        "warn": _hex("e65100"),
        "refused": _hex("b71c1c"),
        "line": _hex("90a4ae"),
        "selected": _hex("1565c0"),
        "disabled": _hex("e0e0e0"),
        "disabled_text": _hex("757575"),
    },
}


def theme(name: str) -> dict[str, tuple[float, float, float, float]]:
    """The colours of a theme by name; anything unknown is the dark theme (kind to a dim room)."""
    return dict(THEMES.get(name, THEMES["dark"]))
