"""Room in the game's ``-wal`` for an evening's entries, made once when a table settles in.

Every entry is one COMMIT: its page is appended to the game's ``-wal`` file and the file is synced
(``synchronous=FULL``). While the file grows, each sync must also record its new size: the file
system commits its journal (more blocks written, one more flush of the disk's cache) before the
entry counts as saved. SQLite reuses the ``-wal`` from its start after each checkpoint (every
~1,000 pages) but never makes it bigger than it has been, and deletes it when the last connection
closes: so a session's first thousand entries each grow the file.

A table kept open for an evening (the touchscreen, ``companion serve``) gives the file its room as it
opens (:meth:`companion.service.Banker.settle_in`): zeros written past its end up to :data:`ROOM_PAGES`
pages, handed to the kernel at once (a few milliseconds) and synced once in the first lull after it
(:func:`sync_room`). After that a commit overwrites blocks the file already owns, and its sync writes
the page alone. On this project's 2-core test machine, a commit after a pause costs about 55 us less
CPU that way (``benchmarks/README.md``), and on a Pi's SD card the journal's writes per entry are spared.

The zeros are written before the table's own :class:`companion.watch.GameWatch` starts: the kernel's
notifications of them reach no watch of this table, so they wake nothing (a sync makes none). Only
when another program holds the write lock at that moment is the room made later, in a lull, where the
watch hears it once as a write it did not make and looks along its tail.

Safe with SQLite's own reading of the file: a frame counts only when its salt and running checksum
follow from the header and the frames before it, so zeros past the last frame are read as the log's
end (as SQLite's own leftover frames are after it starts again from the top). The zeros are written
under the write lock (``BEGIN IMMEDIATE``), so no other program appends a frame meanwhile, and only
past the file's end; a file that does not exist is never created (``O_CREAT`` is not given).
"""

from __future__ import annotations

import logging
import os
import sqlite3
from pathlib import Path

__all__ = ["ROOM_PAGES", "make_room", "sync_room", "wal_of"]

log = logging.getLogger(__name__)

#: The -wal's room in pages: SQLite's automatic checkpoint (every 1,000 pages), with some to spare.
ROOM_PAGES = 1024
_HEADER, _FRAME_HEADER = 32, 24  # the -wal's own header, and each frame's before its page
_CHUNK = 1 << 18  # zeros written per call


def wal_of(game: Path) -> Path:
    return game.with_name(game.name + "-wal")


def make_room(game: Path, *, pages: int = ROOM_PAGES, busy_seconds: float = 0.25, sync: bool = True) -> int:
    """Give ``game``'s -wal room for ``pages`` pages; the bytes added (0 when it had the room already,
    when the game is not open in WAL mode, or when another program holds the write lock longer than
    ``busy_seconds``). Runs on a connection of its own; the write lock is held while the zeros are
    handed to the kernel, not while they are synced. ``sync=False`` leaves the sync to the caller
    (:func:`sync_room`, in a lull)."""
    try:
        fd = os.open(wal_of(Path(game)), os.O_WRONLY)  # never created here: no -wal, no WAL mode
    except OSError:
        return 0
    try:
        con = sqlite3.connect(
            f"{Path(game).resolve().as_uri()}?mode=rw", uri=True, isolation_level=None, timeout=busy_seconds
        )
        try:
            page = con.execute("PRAGMA page_size").fetchone()[0]
            con.execute("BEGIN IMMEDIATE")  # no frame is appended while the file grows
            try:
                added = _fill(fd, _HEADER + pages * (_FRAME_HEADER + page))
            finally:
                con.execute("ROLLBACK")
        finally:
            con.close()
        if added and sync:
            os.fdatasync(fd)
        return added
    except sqlite3.OperationalError as e:  # another program is writing, or the file is not a database
        log.info("no room made in %s's -wal now: %s", game, e)
        return 0
    except (sqlite3.Error, OSError) as e:
        log.info("no room made in %s's -wal: %s", game, e)
        return 0
    finally:
        os.close(fd)


def sync_room(game: Path) -> None:
    """Sync the room :func:`make_room` wrote with ``sync=False`` (nothing when the -wal is gone: the
    last connection closed and SQLite deleted it)."""
    try:
        fd = os.open(wal_of(Path(game)), os.O_WRONLY)
    except OSError:
        return
    try:
        os.fdatasync(fd)
    except OSError as e:
        log.info("the room in %s's -wal was not synced: %s", game, e)
    finally:
        os.close(fd)


def _fill(fd: int, room: int) -> int:
    """Zeros from the file's end up to ``room`` bytes; the bytes written."""
    at = start = os.fstat(fd).st_size
    zeros = bytes(_CHUNK)
    while at < room:
        at += os.pwrite(fd, zeros[: min(_CHUNK, room - at)], at)
    return at - start
