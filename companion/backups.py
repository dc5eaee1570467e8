"""Rotating backups of a game, taken with SQLite's backup API beside the game file.

Every ``every`` committed entries a consistent copy goes to ``<game folder>/<game name>.backups/``;
the newest ``keep`` copies are kept. Copies are made on a background thread with their own connection,
so the banker's tap is never kept waiting; :meth:`Backups.wait` joins it (the app calls it on close).
"""
from __future__ import annotations

import logging
import threading
from pathlib import Path

from .store import backup_copy

__all__ = ["Backups", "backup_folder", "list_backups"]

log = logging.getLogger(__name__)


def backup_folder(game: Path) -> Path:
    return game.with_name(game.name + ".backups")


def list_backups(game: Path) -> list[Path]:
    """The game's backups, oldest first."""
    folder = backup_folder(game)
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.game") if p.is_file())


class Backups:
    """Takes a backup after every ``every``-th entry. Threading: call from the Banker's thread only."""

    def __init__(self, game: Path, *, every: int = 20, keep: int = 10) -> None:
        self.game = Path(game)
        self.every = every
        self.keep = keep
        self._thread: threading.Thread | None = None
        self.last_error: str | None = None

    def after_commit(self, seq: int) -> None:
        if self.every and seq % self.every == 0:
            self.take(seq, background=True)

    def take(self, seq: int, *, background: bool = False) -> Path:
        target = backup_folder(self.game) / f"{self.game.stem}-{seq:07d}.game"
        if background:
            self.wait()
            self._thread = threading.Thread(target=self._copy, args=(target,), name="game-backup", daemon=True)
            self._thread.start()
        else:
            self._copy(target, raise_errors=True)
        return target

    def _copy(self, target: Path, raise_errors: bool = False) -> None:
        try:
            backup_copy(self.game, target)
            for old in list_backups(self.game)[: -self.keep or None]:
                old.unlink(missing_ok=True)
            self.last_error = None
        except Exception as e:  # a failed backup must never take the game down
            self.last_error = f"backup to {target.parent} failed: {e}"
            log.warning(self.last_error)
            if raise_errors:
                raise

    def wait(self) -> None:
        if self._thread is not None:
            self._thread.join()
            self._thread = None
