"""Bringing a backup back: the current game file is kept aside, never destroyed."""

from __future__ import annotations

import datetime as _dt
import itertools
import os
from pathlib import Path

from .backups import backup_folder, backup_seq, check_backup, list_backups
from .core.errors import GameFileError
from .head_record import forget_head, write_head
from .store import Store, backup_copy

__all__ = ["restore"]


def restore(game: Path, backup: Path) -> str:
    """Replace ``game`` with a copy of ``backup`` after checking the backup is a sound game."""
    wrong = check_backup(game, backup)  # the whole chain of the copy proves itself, or nothing is touched
    if wrong is not None:
        raise GameFileError(f"{backup.name} cannot be restored: {wrong}")
    check = Store.open(backup, readonly=True)
    try:
        seq, head = check.head()
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
    if head is not None:
        write_head(game, seq, head)  # the game's chain is the backup's now
    else:
        forget_head(game)
    later = _move_later_backups(game, backup, seq, kept)
    return (
        f"restored {game} from {backup} (entry {seq})"
        + (f"; the previous file is kept as {kept}" if kept else "")
        + (
            f"; {later} later backup{'' if later == 1 else 's'} moved to {backup_folder(kept)}"
            if later and kept
            else ""
        )
    )


def _move_later_backups(game: Path, restored: Path, seq: int, kept: Path | None) -> int:
    """Backups holding entries after the restored one belong to the replaced game: they go beside its
    kept copy (as its own backups), so the restored game's backups all lie on its chain."""
    if kept is None:
        return 0
    later = [b for b in list_backups(game) if (backup_seq(b) or 0) > seq and b.resolve() != restored.resolve()]
    if not later:
        return 0
    folder = backup_folder(kept)
    folder.mkdir(parents=True, exist_ok=True)
    for b in later:
        os.replace(b, folder / b.name)
    return len(later)


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
