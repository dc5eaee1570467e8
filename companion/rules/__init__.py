"""Rule families and their packs.

A family is a module in this package that defines ``FAMILY`` (its name, as packs write it in their
``family`` key), ``rules(pack) -> Rules`` and optionally ``check_card(name, card)``. Families are found
by scanning this package, so adding a game is adding a module and a pack file: nothing else changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import Any, Callable

from companion.core.engine import Rules

from .pack import CARD_CHECKS, load_pack, normalise_pack, pack_names, resolve_options

__all__ = ["FAMILIES", "rules_for", "load_pack", "normalise_pack", "pack_names", "resolve_options", "CARD_CHECKS"]

FAMILIES: dict[str, Callable[[dict[str, Any]], Rules]] = {}


def rules_for(pack: dict[str, Any]) -> Rules:
    return FAMILIES[pack["family"]](pack)


def _register() -> None:
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        family = getattr(module, "FAMILY", None)
        if family:
            FAMILIES[family] = module.rules
            if hasattr(module, "check_card"):
                CARD_CHECKS[family] = module.check_card


_register()
