"""Bringing a backup back: the current game file is kept aside, never destroyed."""
from __future__ import annotations

import datetime as _dt
import os
from pathlib import Path

from .core.errors import GameFileError
from .store import Store, backup_copy

__all__ = ["restore"]


def restore(game: Path, backup: Path) -> str:
    """Replace ``game`` with a copy of ``backup`` after checking the backup is a sound game."""
    check = Store.open(backup, readonly=True)
    try:
        seq = check.last_seq()
    finally:
        check.close()
    kept = None
    if game.exists():
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        kept = game.with_name(f"{game.name}.replaced-{stamp}")
        probe = Store.open(game, readonly=True) if _is_game(game) else None
        if probe is not None:
            probe.close()
        backup_copy(game, kept) if probe is not None else os.replace(game, kept)
    tmp = game.with_name(f".{game.name}.restoring")
    backup_copy(backup, tmp)
    for suffix in ("-wal", "-shm"):
        Path(f"{game}{suffix}").unlink(missing_ok=True)
    os.replace(tmp, game)
    return f"restored {game} from {backup} (entry {seq})" + (f"; the previous file is kept as {kept}" if kept else "")


def _is_game(path: Path) -> bool:
    try:
        Store.open(path, readonly=True).close()
        return True
    except GameFileError:
        return False
