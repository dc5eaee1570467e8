"""The phones' own small file beside the game: join tokens and payment requests.

``<game>.phones`` (for ``sunday.game``: ``sunday.game.phones``) is a SQLite file readable only by its
owner. It is deliberately *not* the game log: tokens are secrets, not game history, and a request is
not money until the banker approves it (then the transfer goes through the Banker like any action).
Deleting the file costs the players a rescan and loses waiting requests, never money.

Threading: one connection per :class:`~companion.web.desk.PhoneDesk`, used on the app's loop.
"""

from __future__ import annotations

import datetime as _dt
import os
import sqlite3
from pathlib import Path

from companion.core.errors import GameFileError

__all__ = ["open_sidecar", "sidecar_path", "now"]

_SCHEMA = """
CREATE TABLE IF NOT EXISTS tokens (
    token    TEXT PRIMARY KEY,
    role     TEXT NOT NULL CHECK (role IN ('player', 'banker')),
    player   TEXT,
    created  TEXT NOT NULL,
    revoked  TEXT
);
CREATE INDEX IF NOT EXISTS tokens_by_player ON tokens (role, player) WHERE revoked IS NULL;
CREATE TABLE IF NOT EXISTS requests (
    id        TEXT PRIMARY KEY,
    player    TEXT NOT NULL,
    payee     TEXT NOT NULL,
    amount    INTEGER NOT NULL CHECK (amount > 0),
    memo      TEXT NOT NULL DEFAULT '',
    status    TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'declined', 'cancelled')),
    reason    TEXT NOT NULL DEFAULT '',
    client_id TEXT,
    created   TEXT NOT NULL,
    decided   TEXT,
    seq       INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS requests_by_client_id ON requests (player, client_id) WHERE client_id IS NOT NULL;
"""


def now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


def sidecar_path(game: str | os.PathLike) -> Path:
    game = Path(game)
    return game.with_name(game.name + ".phones")


def open_sidecar(game: str | os.PathLike) -> sqlite3.Connection:
    """Open (creating if needed, mode 0600) the phones file of a game."""
    path = sidecar_path(game)
    try:
        if not path.exists():
            fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
            os.close(fd)
        con = sqlite3.connect(path, isolation_level=None, timeout=3, check_same_thread=False)
        con.execute("PRAGMA busy_timeout = 3000")
        con.execute("PRAGMA synchronous = FULL")
        con.executescript(_SCHEMA)
    except (sqlite3.Error, OSError) as e:
        raise GameFileError(f"cannot open the phones file {path}: {e}") from None
    return con
