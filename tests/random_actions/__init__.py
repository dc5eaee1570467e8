"""Random table actions per rule pack, for the property test and the crash test.

Each module here defines ``PACKS`` (the pack names it serves) and ``random_action(table, rnd) -> dict``:
a plausible action for the table as it stands (often legal, sometimes refused: both must keep the
ledger sound). Adding a pack's generator is adding a module; nothing else changes.
"""

from __future__ import annotations

import importlib
import pkgutil
import random
from typing import Callable

GENERATORS: dict[str, Callable[[dict, random.Random], dict]] = {}
#: Option sets each pack is exercised with (a module may declare ``OPTIONS = {pack: [{...}, ...]}``).
VARIANTS: dict[str, list[dict]] = {}

for _info in pkgutil.iter_modules(__path__):
    _module = importlib.import_module(f"{__name__}.{_info.name}")
    for _pack in getattr(_module, "PACKS", ()):
        GENERATORS[_pack] = _module.random_action
        VARIANTS[_pack] = getattr(_module, "OPTIONS", {}).get(_pack, [{}])


def variants() -> list[tuple[str, dict]]:
    """Every (pack, options) pair the property and crash tests run over."""
    return [(pack, options) for pack in sorted(GENERATORS) for options in VARIANTS[pack]]


def game_name(pack: str, options: dict) -> str:
    """The name a variant's game goes by in tests: the pack's, with "-advanced" for advanced rules."""
    return f"{pack}{'-advanced' if options.get('advanced') else ''}"


def players_for(pack: str) -> list[str]:
    return ["Ann", "Bob", "Cy"]


def long_evening(t, random_action, seed: int, steps: int = 240, undo_every: int = 40) -> int:
    """A banker tapping ``steps`` random actions into ``t`` (an AtTheTable), checking as it goes that
    money is conserved, nobody but the bank goes below zero, and undo then redo comes back to the same
    table; at the end a full replay must equal the table. Returns how many actions were accepted."""
    from companion.core.errors import BankerError

    rnd = random.Random(seed)
    accepted = 0
    for step in range(steps):
        try:
            t.banker.do(random_action(t.table, rnd))
            accepted += 1
        except BankerError:
            pass
        if step % undo_every == undo_every - 1 and t.banker.can_undo:
            before = t.table
            t.banker.undo()
            t.banker.redo()
            assert t.table == before
        accounts = t.table["accounts"]
        assert sum(accounts.values()) == 0 and all(v >= 0 for k, v in accounts.items() if k != "bank")
    assert t.banker.replay() == t.table
    return accepted
