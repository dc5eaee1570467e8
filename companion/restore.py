"""Bringing a backup back: the current game file is kept aside, never destroyed."""
from __future__ import annotations

import datetime as _dt
import itertools
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
        kept = _reserve_kept_name(game)
        try:
            if _is_game(game):
                backup_copy(game, kept)
            else:  # a damaged file is kept as it is, with its -wal (which may hold what the file lacks)
                os.replace(game, kept)
                if Path(f"{game}-wal").exists():
                    os.replace(f"{game}-wal", f"{kept}-wal")
        except BaseException:
            if kept.exists() and kept.stat().st_size == 0:
                kept.unlink()
            raise
    tmp = game.with_name(f".{game.name}.restoring")
    backup_copy(backup, tmp)
    for suffix in ("-wal", "-shm"):
        Path(f"{game}{suffix}").unlink(missing_ok=True)
    os.replace(tmp, game)
    return f"restored {game} from {backup} (entry {seq})" + (f"; the previous file is kept as {kept}" if kept else "")


def _reserve_kept_name(game: Path) -> Path:
    """A name for the replaced file that no earlier restore used: ``GAME.replaced-<stamp>``, then
    ``-2``, ``-3``... within the same second. The name is taken by creating the file exclusively, so a
    kept copy is never overwritten, not even by a restore started at the same moment."""
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    for n in itertools.count(1):
        kept = game.with_name(f"{game.name}.replaced-{stamp}" + (f"-{n}" if n > 1 else ""))
        try:
            os.close(os.open(kept, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
        except FileExistsError:
            continue
        return kept
    raise AssertionError("unreachable")  # pragma: no cover


def _is_game(path: Path) -> bool:
    try:
        Store.open(path, readonly=True).close()
        return True
    except GameFileError:
        return False
