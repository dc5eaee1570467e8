"""Rule families and their packs. A family is a module with a ``rules(pack) -> Rules`` function.

``FAMILIES`` maps a pack's ``family`` to that function; :func:`rules_for` binds a pack to its family.
"""
from __future__ import annotations

from typing import Callable

from companion.core.engine import Rules

from .pack import CARD_CHECKS, load_pack, normalise_pack, pack_names, resolve_options

__all__ = ["FAMILIES", "rules_for", "load_pack", "normalise_pack", "pack_names", "resolve_options", "CARD_CHECKS"]

FAMILIES: dict[str, Callable[[dict], Rules]] = {}


def rules_for(pack: dict) -> Rules:
    return FAMILIES[pack["family"]](pack)


def _register() -> None:
    from . import property as _property

    FAMILIES["property"] = _property.rules
    CARD_CHECKS["property"] = _property.check_card


_register()
