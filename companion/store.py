"""The game file: one SQLite database per game, an append-only log of entries plus snapshots.

The only writer of game files. Durability first: WAL journal, ``synchronous=FULL`` and one
``BEGIN IMMEDIATE ... COMMIT`` per action, so an action acknowledged to the banker survives a pulled
power cord. Triggers forbid changing or deleting entries. A file that is not a game, or is damaged, is
reported and never overwritten.

Threading: a :class:`Store` belongs to one thread (the app's loop). Backups open their own connection.
"""
from __future__ import annotations

import json
import os
import sqlite3
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

from .core.errors import GameBusy, GameFileError

__all__ = ["Store", "Entry", "APPLICATION_ID", "FORMAT", "save_snapshot", "backup_copy"]

APPLICATION_ID = 0x54424E4B  # "TBNK": marks a file as a Table Banker game
FORMAT = 1  # layout of the file (tables, triggers); the table's own schema is in each snapshot
BUSY_MS = 3000

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;
CREATE TABLE entries (
    seq       INTEGER PRIMARY KEY,
    kind      TEXT NOT NULL CHECK (kind IN ('start', 'do', 'undo', 'redo')),
    action_id TEXT,
    action    TEXT NOT NULL,
    events    TEXT NOT NULL,
    summary   TEXT NOT NULL,
    target    INTEGER,
    at        TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX entries_by_action_id ON entries (action_id) WHERE action_id IS NOT NULL;
CREATE TABLE snapshots (seq INTEGER PRIMARY KEY, schema INTEGER NOT NULL, state TEXT NOT NULL) STRICT;
CREATE TRIGGER entries_append_only_u BEFORE UPDATE ON entries
    BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
CREATE TRIGGER entries_append_only_d BEFORE DELETE ON entries
    BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
CREATE TRIGGER snapshots_append_only_u BEFORE UPDATE ON snapshots
    BEGIN SELECT RAISE(ABORT, 'snapshots are append-only'); END;
"""


def dumps(value: Any) -> str:
    """Compact JSON that keeps the order of keys (the board order of deeds, the seating order)."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def canonical(value: Any) -> str:
    """JSON with sorted keys, for comparing two actions whatever order their fields came in."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, sort_keys=True)


@dataclass(frozen=True)
class Entry:
    """One line of the game log: an action (or undo/redo) and the events it made."""

    seq: int
    kind: str
    action_id: str | None
    action: dict
    events: list
    summary: str
    target: int | None
    at: str

    @classmethod
    def from_row(cls, row: tuple) -> "Entry":
        seq, kind, action_id, action, events, summary, target, at = row
        return cls(seq, kind, action_id, json.loads(action), json.loads(events), summary, target, at)

    def as_json(self) -> dict:
        return {
            "seq": self.seq,
            "kind": self.kind,
            "id": self.action_id,
            "action": self.action,
            "events": self.events,
            "summary": self.summary,
            "target": self.target,
            "at": self.at,
        }


def _connect(path: Path, *, mode: str) -> sqlite3.Connection:
    uri = f"{path.resolve().as_uri()}?mode={mode}"
    con = sqlite3.connect(uri, uri=True, isolation_level=None, timeout=BUSY_MS / 1000, check_same_thread=False)
    con.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
    return con


class Store:
    """An open game file. Create with :meth:`create`, open with :meth:`open`."""

    def __init__(self, path: Path, con: sqlite3.Connection) -> None:
        self.path = path
        self.con = con
        self._data_version = self._read_data_version()

    # -- opening -----------------------------------------------------------------------------------
    @classmethod
    def create(cls, path: str | os.PathLike, meta: dict[str, Any], first: dict, snapshot: tuple[int, dict]) -> "Store":
        """Create a new game file holding its first entry and snapshot; refuses if ``path`` exists.

        The file is built under a temporary name and linked into place only when complete, so a crash
        during creation never leaves a half-made game behind.
        """
        path = Path(path)
        if _exists(path):
            raise GameFileError(f"{path} already exists; choose another name (a game is never overwritten)")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise GameFileError(f"cannot create {path.parent}: {e.strerror}") from None
        tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
        for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
            leftover.unlink(missing_ok=True)
        try:
            con = sqlite3.connect(tmp, isolation_level=None)
        except sqlite3.Error as e:
            raise GameFileError(f"cannot create {path}: {e}") from None
        try:
            con.execute("PRAGMA journal_mode = WAL")
            con.execute("PRAGMA synchronous = FULL")
            con.executescript(
                f"BEGIN IMMEDIATE; PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {FORMAT};"
                + _SCHEMA
                + "COMMIT;"
            )
            store = cls(tmp, con)
            with store.writing():
                con.executemany(
                    "INSERT INTO meta (key, value) VALUES (?, ?)",
                    [(k, dumps(v)) for k, v in {"format": "table-banker-game", **meta}.items()],
                )
                store.snapshot(0, *snapshot)  # the table before any entry
                store.append(**first)
            con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            con.close()
            with open(tmp, "rb") as f:
                os.fsync(f.fileno())
            try:
                os.link(tmp, path)
            except FileExistsError:
                raise GameFileError(f"{path} already exists; choose another name") from None
            _fsync_dir(path.parent)
        except sqlite3.Error as e:
            raise GameFileError(f"cannot create {path}: {e}") from None
        except OSError as e:
            raise GameFileError(f"cannot create {path}: {e.strerror or e}") from None
        finally:
            con.close()
            for leftover in (tmp, Path(f"{tmp}-wal"), Path(f"{tmp}-shm")):
                leftover.unlink(missing_ok=True)
        return cls.open(path)

    @classmethod
    def open(cls, path: str | os.PathLike, *, readonly: bool = False) -> "Store":
        """Open an existing game, checking that it is a game and is not damaged."""
        path = Path(path)
        if not _exists(path):
            raise GameFileError(f"no game at {path}")
        if path.is_dir():
            raise GameFileError(f"{path} is a folder, not a game file")
        try:
            con = _connect(path, mode="ro" if readonly else "rw")
        except sqlite3.Error as e:
            raise GameFileError(f"cannot open {path}: {e}") from None
        try:
            app_id = con.execute("PRAGMA application_id").fetchone()[0]
            if app_id != APPLICATION_ID:
                raise GameFileError(f"{path} is a database, but not a Table Banker game")
            version = con.execute("PRAGMA user_version").fetchone()[0]
            if version > FORMAT:
                raise GameFileError(f"{path} was written by a newer Table Banker (file format {version}); update to open it")
            problems = [r[0] for r in con.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise GameFileError(_damaged(path, problems[0]))
        except sqlite3.DatabaseError as e:
            con.close()
            if e.sqlite_errorcode & 0xFF == sqlite3.SQLITE_NOTADB:
                raise GameFileError(f"{path} is not a Table Banker game ({e})") from None
            raise GameFileError(_damaged(path, str(e))) from None
        except GameFileError:
            con.close()
            raise
        if not readonly:
            con.execute("PRAGMA journal_mode = WAL")
        return cls._configure(path, con)

    @classmethod
    def _configure(cls, path: Path, con: sqlite3.Connection) -> "Store":
        con.execute("PRAGMA synchronous = FULL")
        return cls(path, con)

    def close(self) -> None:
        if self.con is not None:
            self.con.close()
            self.con = None  # type: ignore[assignment]

    # -- reading -----------------------------------------------------------------------------------
    def meta(self) -> dict[str, Any]:
        return {k: json.loads(v) for k, v in self.con.execute("SELECT key, value FROM meta")}

    def last_seq(self) -> int:
        return self.con.execute("SELECT coalesce(max(seq), 0) FROM entries").fetchone()[0]

    def entries(self, after: int = 0, *, upto: int | None = None) -> Iterator[Entry]:
        sql = "SELECT seq, kind, action_id, action, events, summary, target, at FROM entries WHERE seq > ?"
        args: list = [after]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        for row in self.con.execute(sql + " ORDER BY seq", args):
            yield Entry.from_row(row)

    def history(self) -> list[tuple[int, str, int | None]]:
        """(seq, kind, target) of every entry: enough to rebuild the undo and redo stacks."""
        return self.con.execute("SELECT seq, kind, target FROM entries ORDER BY seq").fetchall()

    def entry_by_id(self, action_id: str) -> Entry | None:
        row = self.con.execute(
            "SELECT seq, kind, action_id, action, events, summary, target, at FROM entries WHERE action_id = ?",
            (action_id,),
        ).fetchone()
        return Entry.from_row(row) if row else None

    def entry(self, seq: int) -> Entry:
        row = self.con.execute(
            "SELECT seq, kind, action_id, action, events, summary, target, at FROM entries WHERE seq = ?", (seq,)
        ).fetchone()
        return Entry.from_row(row)

    def latest_snapshot(self, schema: int, upto: int | None = None) -> tuple[int, dict] | None:
        sql = "SELECT seq, state FROM snapshots WHERE schema = ?"
        args: list = [schema]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        row = self.con.execute(sql + " ORDER BY seq DESC LIMIT 1", args).fetchone()
        return (row[0], json.loads(row[1])) if row else None

    def snapshots(self) -> Iterator[tuple[int, int, dict]]:
        for seq, schema, state in self.con.execute("SELECT seq, schema, state FROM snapshots ORDER BY seq"):
            yield seq, schema, json.loads(state)

    def changed_elsewhere(self) -> bool:
        """True when another connection committed since we last looked (cheap: no table read)."""
        version = self._read_data_version()
        if version != self._data_version:
            self._data_version = version
            return True
        return False

    def _read_data_version(self) -> int:
        return self.con.execute("PRAGMA data_version").fetchone()[0]

    # -- writing -----------------------------------------------------------------------------------
    @contextmanager
    def writing(self) -> Iterator["Store"]:
        """One write transaction (BEGIN IMMEDIATE ... COMMIT). Durable when the block exits."""
        try:
            self.con.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            if e.sqlite_errorcode & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise GameBusy("another program is writing to this game right now; try again in a moment") from None
            raise GameFileError(f"cannot write to {self.path}: {e}") from None
        try:
            yield self
        except sqlite3.OperationalError as e:
            if self.con.in_transaction:
                self.con.execute("ROLLBACK")
            if e.sqlite_errorcode & 0xFF == sqlite3.SQLITE_READONLY:
                raise GameFileError(f"the game cannot be written (the file is read-only or locked against changes); "
                                    f"nothing was changed: {self.path}") from None
            if e.sqlite_errorcode & 0xFF == sqlite3.SQLITE_FULL:
                raise GameFileError(f"the disk is full; nothing was changed: {self.path}") from None
            raise
        except BaseException:
            self.con.execute("ROLLBACK")
            raise
        try:
            self.con.execute("COMMIT")
        except sqlite3.Error as e:
            if self.con.in_transaction:
                self.con.execute("ROLLBACK")
            raise GameFileError(f"could not save to {self.path}: {e}") from None
        # PRAGMA data_version does not move for this connection's own commits: nothing to record.

    def append(
        self,
        *,
        seq: int | None = None,
        kind: str,
        action: dict,
        events: list,
        summary: str,
        at: str,
        action_id: str | None = None,
        target: int | None = None,
    ) -> int:
        """Insert one entry. With ``seq`` given, a sqlite3.IntegrityError means another writer got there
        first (or the action id is taken): the caller catches up and decides again."""
        cur = self.con.execute(
            "INSERT INTO entries (seq, kind, action_id, action, events, summary, target, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (seq, kind, action_id, dumps(action), dumps(events), summary, target, at),
        )
        return cur.lastrowid

    def snapshot(self, seq: int, schema: int, state: dict) -> None:
        self.con.execute("INSERT OR IGNORE INTO snapshots (seq, schema, state) VALUES (?, ?, ?)", (seq, schema, dumps(state)))

    # -- checks and copies -------------------------------------------------------------------------
    def integrity_check(self) -> list[str]:
        return [r[0] for r in self.con.execute("PRAGMA integrity_check").fetchall()]



def save_snapshot(path: Path, seq: int, schema: int, state: dict) -> None:
    """Add the snapshot of the table after entry ``seq``, on a connection of its own (the game's lull
    worker calls this, off the thread that owns the :class:`Store`). The JSON is made before the write
    lock is taken, so the lock is held only for one insert."""
    text = dumps(state)
    con = _connect(path, mode="rw")
    try:
        con.execute("PRAGMA synchronous = FULL")
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT OR IGNORE INTO snapshots (seq, schema, state) VALUES (?, ?, ?)", (seq, schema, text))
        con.execute("COMMIT")
    finally:
        con.close()


def backup_copy(source: Path, target: Path) -> None:
    """Copy a game file with the backup API on its own connections, atomically into ``target``."""
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(target.name + ".part")
    remove_partial(tmp)
    try:
        src = _connect(source, mode="ro")
        try:
            dst = sqlite3.connect(tmp)
            try:
                src.backup(dst)
                dst.execute("PRAGMA journal_mode = DELETE")
            finally:
                dst.close()
        finally:
            src.close()
        with open(tmp, "rb") as f:
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        remove_partial(tmp)  # a copy that failed (a full disk) leaves nothing behind
        raise
    _fsync_dir(target.parent)


def remove_partial(path: Path) -> None:
    """Remove a half-made copy and SQLite's files beside it (-wal, -shm, -journal)."""
    for leftover in (path, *(Path(f"{path}{suffix}") for suffix in ("-wal", "-shm", "-journal"))):
        try:
            leftover.unlink(missing_ok=True)
        except OSError:
            pass


def _fsync_dir(folder: Path) -> None:
    dir_fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(dir_fd)
    finally:
        os.close(dir_fd)


def _exists(path: Path) -> bool:
    """Whether a file is at ``path``; a name the file system cannot hold is refused in one line."""
    try:
        return path.exists()
    except OSError as e:
        raise GameFileError(f"{e.strerror or e}: choose a shorter game file name") from None


def _damaged(path: Path, problem: str) -> str:
    """A damaged game's reason: what is wrong, and the backup to restore."""
    from .backups import list_backups

    backups = list_backups(path)
    newest = f"; the newest backup is {backups[-1].name}" if backups else ""
    return f"{path.name} is damaged ({problem}): restore a backup with `companion restore`{newest}"
