"""The chain's head, recorded beside the game: ``<game>.head`` holds the last entry's number and hash.

SQLite's -wal checks each frame with a running checksum, and a frame that fails it ends the log there:
a flipped bit in the -wal silently drops every entry after it, and the file that is left is sound. The
record is how such a lost tail is noticed: it is written in a lull after the entries it names were
committed (so it never names an entry the game did not durably hold), and a game that opens shorter than
its record, or with another hash at the recorded entry, has lost what the record saw.

Written whole or not at all (a new file renamed into place); a record that cannot be read or written is
no reason to refuse a game, since it only adds a check.
"""

from __future__ import annotations

import json
import os
import sqlite3
from contextlib import closing
from pathlib import Path

__all__ = ["forget_head", "head_file", "read_head", "record_head_of", "write_head"]


def head_file(game: Path) -> Path:
    return game.with_name(game.name + ".head")


def read_head(game: Path) -> tuple[int, str] | None:
    """The recorded (entry, hash), or None when there is no readable record."""
    try:
        value = json.loads(head_file(game).read_text(encoding="utf-8"))
        seq, digest = value["seq"], value["hash"]
    except (OSError, ValueError, KeyError, TypeError):
        return None
    if not isinstance(seq, int) or not isinstance(digest, str):
        return None
    return seq, digest


def write_head(game: Path, seq: int, digest: str) -> None:
    record = head_file(game)
    tmp = record.with_name(f".{record.name}.{os.getpid()}.new")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump({"seq": seq, "hash": digest}, f)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, record)
    except OSError:
        tmp.unlink(missing_ok=True)


def record_head_of(game: Path) -> None:
    """Record the game's committed head, read on a connection of its own (the lull worker calls this)."""
    try:
        with closing(sqlite3.connect(f"{game.resolve().as_uri()}?mode=ro", uri=True)) as con:
            row = con.execute("SELECT seq, hash FROM entries ORDER BY seq DESC LIMIT 1").fetchone()
    except sqlite3.Error:
        return
    if row and row[1]:
        write_head(game, row[0], row[1])


def forget_head(game: Path) -> None:
    head_file(game).unlink(missing_ok=True)
