"""Rotating backups of a game, taken with SQLite's backup API beside the game file.

Every ``every`` committed entries a consistent copy goes to ``<game folder>/<game name>.backups/``;
the newest ``keep`` copies are kept. Copies are made in a lull in the taps, on the game's
:class:`~companion.lull.Lull` worker with their own connection, so the banker's tap is never kept
waiting and never competes with a copy for the disk; :meth:`Backups.wait` finishes them (the Banker
calls it on close).
"""

from __future__ import annotations

import logging
import os
import sqlite3
from contextlib import closing
from pathlib import Path

from .lull import Lull
from .store import backup_copy, remove_partial

__all__ = ["Backups", "backup_folder", "backup_seq", "check_backup", "list_backups", "newest_good_backup"]

log = logging.getLogger(__name__)


def backup_folder(game: Path) -> Path:
    return game.with_name(game.name + ".backups")


def list_backups(game: Path) -> list[Path]:
    """The game's backups, oldest first."""
    folder = backup_folder(game)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.game") if p.is_file())


def backup_seq(backup: Path) -> int | None:
    """The last entry a backup holds, from its name (``<game>-0000040.game``); None if not so named."""
    digits = backup.stem.rpartition("-")[2]
    return int(digits) if digits.isdigit() else None


def check_backup(game: Path, backup: Path) -> str | None:
    """What is wrong with a backup, or None when it is sound: it opens, its whole chain and every
    snapshot prove themselves, and its head is on the game's chain where the game still holds it."""
    from .core.errors import GameFileError
    from .store import Store

    try:
        copy = Store.open(backup, readonly=True)
    except GameFileError as e:
        return str(e)
    try:
        for _ in copy.entries(0):
            pass
        for _ in copy.snapshots():
            pass
        seq, head = copy.head()
    except (GameFileError, sqlite3.DatabaseError) as e:
        return str(e)
    finally:
        copy.close()
    ours = _stored_hash(game, seq)
    if head is not None and ours is not None and ours != head:
        return f"{backup.name} is not a copy of this game (its entry {seq} is not the game's)"
    return None


def _stored_hash(game: Path, seq: int) -> str | None:
    """The game's stored hash of entry ``seq``, or None when it cannot be read or the game lacks it."""
    try:
        with closing(sqlite3.connect(f"{game.resolve().as_uri()}?mode=ro", uri=True)) as con:
            row = con.execute("SELECT hash FROM entries WHERE seq = ?", (seq,)).fetchone()
    except (sqlite3.Error, OSError, UnicodeDecodeError):  # a damaged page may quote bytes that are not text
        return None
    return row[0] if row else None


def _proved_since_last_backup(copy: Path, earlier: list[Path]) -> int:
    """The copy's last entry, once what it adds to the newest earlier backup proves itself: its entries
    after that backup's head chain on from it (all of them when there is no earlier backup). A copy of
    a damaged game raises, so it never pushes a good backup out of the rotation. Only the new part is
    hashed: a few dozen entries, in the lull, however long the game."""
    from .core.errors import GameFileError
    from .store import Store

    start, head = 0, None
    for backup in reversed(earlier):
        try:
            with closing(Store.open(backup, readonly=True)) as before:
                start, head = before.head()
            break
        except (GameFileError, sqlite3.Error):
            continue
    with closing(Store.open(copy, readonly=True)) as new:
        if new.chained and head is not None and new.stored_hash(start) != head:
            raise GameFileError(f"the game's entry {start} is not the one in its backup; the copy was not kept")
        last = start
        for entry in new.entries(start):  # raises at an entry that differs from what was written
            last = entry.seq
        return last


def newest_good_backup(game: Path) -> Path | None:
    """The newest backup that :func:`check_backup` finds sound, or None."""
    for backup in reversed(list_backups(game)):
        if check_backup(game, backup) is None:
            return backup
    return None


class Backups:
    """Takes a backup after every ``every``-th entry, in the next lull of ``lull`` (a worker of its own
    when none is given): once no entry has been committed for ``quiet`` seconds, at the latest
    ``max_delay`` seconds after it was due. Requests that pile up meanwhile make one copy of the latest
    state, named after the last entry it really holds. Closing copies at once.

    Threading: ``after_commit``, ``take``, ``flush`` and ``wait`` are called from the Banker's thread."""

    RANK = 1  # after a snapshot asked for in the same lull, so the copy holds it

    def __init__(
        self,
        game: Path,
        *,
        every: int = 20,
        keep: int = 10,
        quiet: float = 1.0,
        max_delay: float = 30.0,
        lull: Lull | None = None,
    ) -> None:
        self.game = Path(game)
        self.every = every
        self.keep = keep
        self.lull = lull if lull is not None else Lull(quiet=quiet, max_delay=max_delay, name="game-backup")
        self.last_error: str | None = None

    def after_commit(self, seq: int) -> None:
        if self.every and seq % self.every == 0:
            self.take(seq, background=True)

    def take(self, seq: int, *, background: bool = False) -> Path | None:
        """Copy the game now (or in the next lull). The copy is named after the last entry it really
        holds, which in a lull may be later than ``seq``. Returns the copy's path when taken now."""
        if not background:
            return self._copy(raise_errors=True)
        self.lull.submit("backup", self._copy, rank=self.RANK)
        return None

    def _copy(self, raise_errors: bool = False) -> Path | None:
        folder = backup_folder(self.game)
        part = folder / f".{self.game.stem}.copying"
        try:
            backup_copy(self.game, part)
            seq = _proved_since_last_backup(part, list_backups(self.game))
            target = folder / f"{self.game.stem}-{seq:07d}.game"
            os.replace(part, target)
            for old in list_backups(self.game)[: -self.keep or None]:
                old.unlink(missing_ok=True)
            self.last_error = None
            return target
        except Exception as e:  # a failed backup must never take the game down
            remove_partial(part)
            self.last_error = f"backup to {folder} failed: {e}"
            log.warning(self.last_error)
            if raise_errors:
                raise
            return None

    def flush(self) -> None:
        """Wait until every backup asked for so far is written (the worker goes on)."""
        self.lull.flush()

    def wait(self) -> None:
        """The game is closing: write every backup asked for at once, and stop the worker."""
        self.lull.close()
