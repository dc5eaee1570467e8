"""Rotating backups of a game, taken with SQLite's backup API beside the game file.

Every ``every`` committed entries a consistent copy goes to ``<game folder>/<game name>.backups/``;
the newest ``keep`` copies are kept. Copies are made on a background thread with their own connection,
so the banker's tap is never kept waiting; :meth:`Backups.wait` finishes them (the Banker calls it on
close).
"""
from __future__ import annotations

import logging
import os
import queue
import sqlite3
import threading
import time
from contextlib import closing
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
    """Takes a backup after every ``every``-th entry, on one worker thread that lives as long as the game
    is open (started at the first backup), so a tap never waits for a thread to start or a copy to end.

    The copy waits for a lull: it starts once no entry has been committed for ``quiet`` seconds (at the
    latest ``max_delay`` seconds after it was due), so copying never competes with a burst of taps, and
    requests that piled up meanwhile make one copy of the latest state. Closing copies at once.

    Threading: ``after_commit``, ``take``, ``flush`` and ``wait`` are called from the Banker's thread
    only; the worker shares nothing with it but the queue and the activity event."""

    def __init__(self, game: Path, *, every: int = 20, keep: int = 10, quiet: float = 1.0,
                 max_delay: float = 30.0) -> None:
        self.game = Path(game)
        self.every = every
        self.keep = keep
        self.quiet = quiet
        self.max_delay = max_delay
        self._activity = threading.Event()
        self._closing = False
        self._queue: queue.Queue[int | None] = queue.Queue()
        self._thread: threading.Thread | None = None
        self.last_error: str | None = None

    def after_commit(self, seq: int) -> None:
        self._activity.set()
        if self.every and seq % self.every == 0:
            self.take(seq, background=True)

    def take(self, seq: int, *, background: bool = False) -> Path | None:
        """Copy the game now (or soon, on the worker). The copy is named after the last entry it really
        holds, which on the worker may be later than ``seq``. Returns the copy's path when taken now."""
        if not background:
            return self._copy(raise_errors=True)
        if self._thread is None:
            self._thread = threading.Thread(target=self._work, name="game-backup", daemon=True)
            self._thread.start()
        self._queue.put(seq)
        return None

    def _work(self) -> None:
        while True:
            seq = self._queue.get()
            try:
                if seq is None:
                    return
                self._wait_for_a_lull()
                while True:  # requests that piled up while waiting: one copy serves them all
                    try:
                        more = self._queue.get_nowait()
                    except queue.Empty:
                        break
                    self._queue.task_done()
                    if more is None:
                        self._queue.put(None)  # closing: copy first, then stop
                        break
                self._copy()
            finally:
                self._queue.task_done()

    def _wait_for_a_lull(self) -> None:
        deadline = time.monotonic() + self.max_delay
        while not self._closing and self.quiet > 0 and time.monotonic() < deadline:
            self._activity.clear()
            if not self._activity.wait(min(self.quiet, max(0.0, deadline - time.monotonic()))):
                return

    def _copy(self, raise_errors: bool = False) -> Path | None:
        folder = backup_folder(self.game)
        part = folder / f".{self.game.stem}.copying"
        try:
            backup_copy(self.game, part)
            with closing(sqlite3.connect(f"{part.resolve().as_uri()}?mode=ro", uri=True)) as con:
                seq = con.execute("SELECT coalesce(max(seq), 0) FROM entries").fetchone()[0]
            target = folder / f"{self.game.stem}-{seq:07d}.game"
            os.replace(part, target)
            for old in list_backups(self.game)[: -self.keep or None]:
                old.unlink(missing_ok=True)
            self.last_error = None
            return target
        except Exception as e:  # a failed backup must never take the game down
            part.unlink(missing_ok=True)
            self.last_error = f"backup to {folder} failed: {e}"
            log.warning(self.last_error)
            if raise_errors:
                raise
            return None

    def flush(self) -> None:
        """Wait until every backup asked for so far is written (the worker goes on)."""
        if self._thread is not None:
            self._queue.join()

    def wait(self) -> None:
        """Write every backup asked for at once, and stop the worker."""
        if self._thread is not None:
            self._closing = True
            self._activity.set()
            self._queue.put(None)
            self._thread.join()
            self._thread = None
