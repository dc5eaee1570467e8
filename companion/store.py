"""The game file: one SQLite database per game, an append-only log of entries plus snapshots.

The only writer of game files. Durability first: WAL journal, ``synchronous=FULL`` and one
``BEGIN IMMEDIATE ... COMMIT`` per action, so an action acknowledged to the banker survives a pulled
power cord. Triggers forbid changing or deleting entries. A file that is not a game, or is damaged, is
reported and never overwritten.

Threading: a :class:`Store` belongs to one thread (the app's loop). Backups open their own connection.
"""

from __future__ import annotations

import functools
import json
import os
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator, NoReturn

from .chain import GENESIS, content, entry_hash, snapshot_digest
from .jsoncode import writer
from .core.errors import GameBusy, GameFileError
from .core.said import Said

__all__ = ["Store", "Entry", "APPLICATION_ID", "FORMAT", "save_snapshot", "backup_copy", "damaged_message"]

APPLICATION_ID = 0x54424E4B  # "TBNK": marks a file as a Table Banker game
FORMAT = 3  # layout of the file (tables, triggers); the table's own schema is in each snapshot
# format 1: no hash chain (upgraded when opened for writing); format 2: entries.hash, snapshots.head/digest;
# format 3: entries.said, the summary's parts (who it names, and where), inside the chain
BUSY_MS = 3000
#: How SQLite syncs a commit: FULL for every game (a pulled plug loses nothing acknowledged). Only tests
#: of properties that do not depend on the disk (tests/test_ledger_properties.py) turn it OFF.
SYNCHRONOUS = "FULL"

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
    at        TEXT NOT NULL,
    hash      TEXT,
    said      TEXT
) STRICT;
CREATE UNIQUE INDEX entries_by_action_id ON entries (action_id) WHERE action_id IS NOT NULL;
CREATE TABLE snapshots (seq INTEGER PRIMARY KEY, schema INTEGER NOT NULL, state TEXT NOT NULL,
                        head TEXT, digest TEXT) STRICT;
"""
_TRIGGERS = """
CREATE TRIGGER entries_append_only_u BEFORE UPDATE ON entries
    BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
CREATE TRIGGER entries_append_only_d BEFORE DELETE ON entries
    BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
CREATE TRIGGER snapshots_append_only_u BEFORE UPDATE ON snapshots
    BEGIN SELECT RAISE(ABORT, 'snapshots are append-only'); END;
"""
_UPGRADE_FROM_1 = """
DROP TRIGGER entries_append_only_u;
DROP TRIGGER entries_append_only_d;
DROP TRIGGER snapshots_append_only_u;
ALTER TABLE entries ADD COLUMN hash TEXT;
ALTER TABLE snapshots ADD COLUMN head TEXT;
ALTER TABLE snapshots ADD COLUMN digest TEXT;
"""
_UPGRADE_FROM_2 = "ALTER TABLE entries ADD COLUMN said TEXT"
#: The kinds of entry the log holds (the schema's CHECK on ``entries.kind``).
KINDS = ("start", "do", "undo", "redo")
_COLUMNS = "seq, kind, action_id, action, events, summary, target, at"


def _insert(*optional: str) -> str:
    """The INSERT of an entry whose ``optional`` columns hold a value (the others are left NULL)."""
    columns = ["seq", "kind", "action", "events", "summary", "at", "hash", *optional]
    return f"INSERT INTO entries ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"


#: An entry's INSERT by which of action_id, target and said it has: a value bound as None (or as a str
#: subclass) costs the sqlite3 module a failed adapter look-up, a formatted AttributeError each.
_INSERT = {
    (has_id, has_target, has_said): _insert(
        *(name for name, has in (("action_id", has_id), ("target", has_target), ("said", has_said)) if has)
    )
    for has_id in (False, True)
    for has_target in (False, True)
    for has_said in (False, True)
}

_DUMPS = writer(ensure_ascii=False)  # made once: two per entry (companion.jsoncode)
_CANONICAL = writer(ensure_ascii=False, sort_keys=True)


def dumps(value: Any) -> str:
    """Compact JSON that keeps the order of keys (the board order of deeds, the seating order)."""
    return _DUMPS(value)


def canonical(value: Any) -> str:
    """JSON with sorted keys, for comparing two actions whatever order their fields came in."""
    return _CANONICAL(value)


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
    hash: str | None = None  # the chain's hash up to and including this entry (None: not stored)
    #: The summary's parts as the file keeps them (:meth:`Said.as_log`; None: an entry logged without
    #: them, by a version before file format 3 or with a summary of plain words).
    said: Any = field(default=None, compare=False, repr=False)
    #: ``said`` as the file holds it (JSON text), when the entry was read from one.
    kept: str | None = field(default=None, compare=False, repr=False)

    @classmethod
    def appended(
        cls,
        seq: int,
        kind: str,
        action_id: str | None,
        action: dict,
        events: list,
        summary: str,
        target: int | None,
        at: str,
    ) -> "Entry":
        """The entry just appended (no hash or kept parts attached): what ``Entry(...)`` makes, with its
        fields set in one step rather than one frozen ``__setattr__`` each (one per action)."""
        entry = _new(cls)
        _set(
            entry,
            "__dict__",
            {
                "seq": seq,
                "kind": kind,
                "action_id": action_id,
                "action": action,
                "events": events,
                "summary": summary,
                "target": target,
                "at": at,
                "hash": None,
                "said": None,
                "kept": None,
            },
        )
        return entry

    @classmethod
    def from_row(cls, row: tuple) -> "Entry":
        """The entry as stored (its summary still plain text: see :meth:`spoken`); ValueError when a
        column that holds JSON does not."""
        seq, kind, action_id, action, events, summary, target, at, digest, said = row
        return cls(
            seq,
            kind,
            action_id,
            json.loads(action),
            json.loads(events),
            summary,
            target,
            at,
            digest,
            None if said is None else json.loads(said),
            said,
        )

    def chained_to(self, previous: str) -> str:
        """This entry's hash when the entry before it has hash ``previous``."""
        return entry_hash(
            previous,
            content(
                self.seq,
                self.kind,
                self.action_id,
                self.action,
                self.events,
                self.summary,
                self.target,
                self.at,
                self.said,
            ),
        )

    def spoken(self) -> "Entry":
        """The entry with its summary as the sentence the file kept, each player it names a slot
        (:class:`Said`), so it is told to them as logged whatever the rules say today; ValueError when
        the kept parts are not a sentence or do not read as the summary."""
        if self.said is None:
            return self
        sentence = _sentence(self.kept) if self.kept is not None else Said.from_log(self.said)
        if sentence != self.summary:
            raise ValueError(f"the sentence kept for entry {self.seq} does not read as its summary")
        # The fields as they are but the summary (what dataclasses.replace does, at a fifth of its cost).
        return Entry(
            self.seq,
            self.kind,
            self.action_id,
            self.action,
            self.events,
            sentence,
            self.target,
            self.at,
            self.hash,
            self.said,
            self.kept,
        )

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


_new = object.__new__
_set = object.__setattr__


@functools.lru_cache(maxsize=4096)
def _sentence(kept: str) -> Said:
    """The sentence whose parts a file kept as the JSON text ``kept``, made once per text: a game says
    the same sentences again and again (a tenth of a long game's are new), and a sentence never changes.
    ValueError (not remembered) when the text is not a sentence's parts."""
    return Said.from_log(json.loads(kept))


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
        version = con.execute("PRAGMA user_version").fetchone()[0]
        self.chained = version >= 2  # format 1: no hash chain
        # Every entry's columns, its hash and its summary's parts (NULL where the format has none).
        self._select = f"SELECT {_COLUMNS}, {'hash' if self.chained else 'NULL'}, {'said' if version >= 3 else 'NULL'}"
        self._data_version = self._read_data_version()
        # The chain's head after this connection's own last commit: (seq, hash). An entry's hash never
        # changes once committed, so the next append (and the catch-up before it) need not read it back.
        self._head: tuple[int, str] | None = None
        self._appended: tuple[int, str] | None = None  # in the open transaction, not yet committed
        # The one CHECK of the schema (an entry's kind) is held by :meth:`append` itself: SQLite would
        # build a temporary index of the four kinds for every INSERT (a tenth of an action's own CPU).
        # Other programs' connections still have SQLite check it.
        con.execute("PRAGMA ignore_check_constraints = ON")
        self._writing = _Writing(self)  # it holds nothing of one transaction: made once

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
        if _has_backups(path):  # a new game's first open would take them for its own lost entries
            raise GameFileError(
                f"{path.name}.backups holds the backups of an earlier game of that name; "
                f"choose another name, or restore one of them"
            )
        Path(f"{path}.head").unlink(missing_ok=True)  # the head record of a game no longer there
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
            con.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
            con.executescript(
                f"BEGIN IMMEDIATE; PRAGMA application_id = {APPLICATION_ID}; PRAGMA user_version = {FORMAT};"
                + _SCHEMA
                + _TRIGGERS
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
            cut = _cut_short(path)
            if cut:
                raise GameFileError(damaged_message(path, cut))
            app_id = con.execute("PRAGMA application_id").fetchone()[0]
            if app_id != APPLICATION_ID:
                if _has_backups(path):  # a game of ours whose first page was damaged
                    raise GameFileError(damaged_message(path, "its first page is not a game's any more"))
                raise GameFileError(f"{path} is a database, but not a Table Banker game")
            version = con.execute("PRAGMA user_version").fetchone()[0]
            if version > FORMAT + 1000 or version < 0:  # no release is that far ahead: a flipped bit
                raise GameFileError(damaged_message(path, f"its header names file format {version}"))
            if version > FORMAT:
                raise GameFileError(
                    f"{path} was written by a newer Table Banker (file format {version}); update to open it"
                )
            problems = [r[0] for r in con.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise GameFileError(damaged_message(path, problems[0]))
        except sqlite3.DatabaseError as e:
            con.close()
            if e.sqlite_errorcode & 0xFF == sqlite3.SQLITE_NOTADB and not _has_backups(path):
                raise GameFileError(f"{path} is not a Table Banker game ({e})") from None
            raise GameFileError(damaged_message(path, str(e))) from None
        except GameFileError:
            con.close()
            raise
        except UnicodeDecodeError:  # SQLite's own report quotes a damaged page's bytes, which are not text
            con.close()
            raise GameFileError(damaged_message(path, "its pages hold bytes that are not text")) from None
        try:
            if not readonly:
                con.execute("PRAGMA journal_mode = WAL")
                if version < FORMAT:
                    con.execute("PRAGMA synchronous = FULL")
                if version < 2:
                    _upgrade_from_1(con)
                if version < 3:
                    _upgrade_from_2(con)
            return cls._configure(path, con)
        except sqlite3.OperationalError as e:
            con.close()
            code = e.sqlite_errorcode & 0xFF
            if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                raise GameBusy("another program is writing to this game right now; try again in a moment") from None
            if code == sqlite3.SQLITE_READONLY:
                raise GameFileError(
                    f"{path} was written by an earlier Table Banker and is brought up to date when "
                    f"opened, but the file cannot be written; nothing was changed"
                ) from None
            raise GameFileError(damaged_message(path, str(e))) from None
        except sqlite3.DatabaseError as e:
            con.close()
            raise GameFileError(damaged_message(path, str(e))) from None

    @classmethod
    def _configure(cls, path: Path, con: sqlite3.Connection) -> "Store":
        con.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
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
        """The entries after ``after`` in order, each checked against the chain as it is read: the first
        one that differs from what was written raises :class:`GameFileError` naming it."""
        sql = f"{self._select} FROM entries WHERE seq > ?"
        args: list = [after]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        previous = self.stored_hash(after)
        expected = after + 1
        for row in self.con.execute(sql + " ORDER BY seq", args):
            entry = self._entry(row)
            if entry.seq != expected:
                raise self.damage(f"entry {expected} is missing from the log")
            if self.chained:
                previous = self._check_link(entry, previous)
            expected += 1
            yield self._spoken(entry)

    def _entry(self, row: tuple) -> Entry:
        try:
            return Entry.from_row(row)
        except ValueError:
            raise self.damage(f"entry {row[0]} cannot be read") from None

    def _spoken(self, entry: Entry) -> Entry:
        """The entry with the sentence it kept, once its link in the chain is proved (a damaged one
        reads as differing from what was written; one written wrongly cannot be read)."""
        try:
            return entry.spoken()
        except ValueError:
            raise self.damage(f"entry {entry.seq} cannot be read") from None

    def _check_link(self, entry: Entry, previous: str | None) -> str:
        """The entry's hash after checking it against the one before it (``previous``)."""
        if previous is None or entry.chained_to(previous) != entry.hash:
            raise self.damage(f"entry {entry.seq} differs from what was written")
        return entry.hash

    def stored_hash(self, seq: int) -> str | None:
        """The chain's head after entry ``seq`` as stored (GENESIS before the first entry)."""
        if seq == 0:
            return GENESIS
        if not self.chained:
            return None
        if self._head is not None and self._head[0] == seq:
            return self._head[1]
        row = self.con.execute("SELECT hash FROM entries WHERE seq = ?", (seq,)).fetchone()
        return row[0] if row else None

    def head(self) -> tuple[int, str | None]:
        """The last entry's number and the chain's hash up to it."""
        row = self.con.execute(
            f"SELECT seq, {'hash' if self.chained else 'NULL'} FROM entries ORDER BY seq DESC LIMIT 1"
        ).fetchone()
        return (row[0], row[1]) if row else (0, GENESIS)

    def damage(self, problem: str) -> GameFileError:
        """The one-line refusal for a damaged game: what is wrong, and the backup to restore."""
        return GameFileError(damaged_message(self.path, problem))

    def history(self) -> list[tuple[int, str, int | None]]:
        """(seq, kind, target) of every entry: enough to rebuild the undo and redo stacks."""
        return self.con.execute("SELECT seq, kind, target FROM entries ORDER BY seq").fetchall()

    def entry_by_id(self, action_id: str) -> Entry | None:
        row = self.con.execute(f"{self._select} FROM entries WHERE action_id = ?", (action_id,)).fetchone()
        return self._checked(row) if row else None

    def entry(self, seq: int) -> Entry:
        row = self.con.execute(f"{self._select} FROM entries WHERE seq = ?", (seq,)).fetchone()
        if row is None:
            raise self.damage(f"entry {seq} is missing from the log")
        return self._checked(row)

    def _checked(self, row: tuple) -> Entry:
        """One entry read on its own, checked against the stored hash of the entry before it."""
        entry = self._entry(row)
        if self.chained:
            self._check_link(entry, self.stored_hash(entry.seq - 1))
        return self._spoken(entry)

    def latest_snapshot(self, schema: int, upto: int | None = None) -> tuple[int, dict] | None:
        """The newest snapshot of ``schema`` (at or before entry ``upto``), checked against the chain: its
        digest proves its text, its head is the stored hash of its entry."""
        cols = "seq, schema, state, head, digest" if self.chained else "seq, schema, state, NULL, NULL"
        sql = f"SELECT {cols} FROM snapshots WHERE schema = ?"
        args: list = [schema]
        if upto is not None:
            sql += " AND seq <= ?"
            args.append(upto)
        row = self.con.execute(sql + " ORDER BY seq DESC LIMIT 1", args).fetchone()
        if row is None:
            return None
        seq, _, state = self._snapshot(row)
        return seq, state

    def snapshots(self, after: int = -1) -> Iterator[tuple[int, int, dict]]:
        """The snapshots taken after entry ``after`` (all of them by default), each checked against the chain."""
        cols = "seq, schema, state, head, digest" if self.chained else "seq, schema, state, NULL, NULL"
        for row in self.con.execute(f"SELECT {cols} FROM snapshots WHERE seq > ? ORDER BY seq", (after,)):
            yield self._snapshot(row)

    def _snapshot(self, row: tuple) -> tuple[int, int, dict]:
        seq, schema, text, head, digest = row
        if self.chained and (snapshot_digest(head, text) != digest or head != self.stored_hash(seq)):
            raise self.damage(f"the snapshot at entry {seq} differs from what was written")
        try:
            state = json.loads(text)
        except ValueError:
            raise self.damage(f"the snapshot at entry {seq} cannot be read") from None
        if not isinstance(state, dict):
            raise self.damage(f"the snapshot at entry {seq} cannot be read")
        return seq, schema, state

    def changed_elsewhere(self) -> bool:
        """True when another connection committed since we last looked (cheap: no table read). Exact
        inside a write transaction: no other connection can commit while it is open."""
        version = self._read_data_version()
        if version != self._data_version:
            self._data_version = version
            return True
        return False

    def look_again(self) -> None:
        """Make the next :meth:`changed_elsewhere` say True (a catch-up that stopped short: its reader
        must look again whatever the file's version says)."""
        self._data_version = -1

    def _read_data_version(self) -> int:
        return self.con.execute("PRAGMA data_version").fetchone()[0]

    # -- writing -----------------------------------------------------------------------------------
    def writing(self) -> "_Writing":
        """One write transaction (BEGIN IMMEDIATE ... COMMIT), as a ``with`` block. Durable when the
        block exits."""
        return self._writing

    def _not_begun(self, e: sqlite3.OperationalError) -> NoReturn:
        """BEGIN IMMEDIATE failed with ``e``: why, in one line (the write lock held, the file unwritable)."""
        if e.sqlite_errorcode & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            raise GameBusy("another program is writing to this game right now; try again in a moment") from None
        raise GameFileError(f"cannot write to {self.path}: {e}") from None

    def _abandon(self, error: BaseException) -> None:
        """The block raised ``error``: nothing of it stands; a file that cannot be written says why."""
        if self.con.in_transaction:  # SQLite may have rolled back already (a full disk, an I/O error)
            self.con.execute("ROLLBACK")
        if isinstance(error, sqlite3.OperationalError):
            if error.sqlite_errorcode & 0xFF == sqlite3.SQLITE_READONLY:
                raise GameFileError(
                    f"the game cannot be written (the file is read-only or locked against changes); "
                    f"nothing was changed: {self.path.name}"
                ) from None
            if error.sqlite_errorcode & 0xFF == sqlite3.SQLITE_FULL:
                raise GameFileError(f"the disk is full; nothing was changed: {self.path.name}") from None

    def _not_committed(self, e: sqlite3.Error) -> NoReturn:
        """COMMIT failed with ``e``: nothing of the transaction stands; why, in one line."""
        if self.con.in_transaction:
            self.con.execute("ROLLBACK")
        if e.sqlite_errorcode & 0xFF == sqlite3.SQLITE_FULL:
            raise GameFileError(f"the disk is full; nothing was changed: {self.path.name}") from None
        raise GameFileError(f"could not save to {self.path.name}: {e}") from None

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
        first (or the action id is taken): the caller catches up and decides again. A summary built with
        slots (:class:`Said`) is kept with its parts, so it is told to each player it names as logged."""
        if kind not in KINDS:  # the schema's CHECK, which this connection does not ask SQLite for
            raise ValueError(f"an entry's kind is one of {', '.join(KINDS)}, not {kind!r}")
        if seq is None:
            seq = self.last_seq() + 1
        previous = self.stored_hash(seq - 1)  # as a rule the head this connection committed last
        if previous is None:  # the entry before is gone, or the file was never upgraded: never chain onto nothing
            raise self.damage(f"entry {seq - 1} is missing from the log")
        said = summary.logged() if isinstance(summary, Said) else None
        digest = entry_hash(previous, content(seq, kind, action_id, action, events, summary, target, at, said))
        row = [seq, kind, _DUMPS(action), _DUMPS(events), str(summary), at, digest]
        if action_id is not None:
            row.append(action_id)
        if target is not None:
            row.append(target)
        if said is not None:
            row.append(_DUMPS(said))
        cur = self.con.execute(_INSERT[action_id is not None, target is not None, said is not None], row)
        self._appended = (seq, digest)
        return cur.lastrowid or seq or 0  # always set: the row was inserted

    def snapshot(self, seq: int, schema: int, state: dict) -> None:
        _insert_snapshot(self.con, seq, schema, dumps(state))

    # -- checks and copies -------------------------------------------------------------------------
    def integrity_check(self) -> list[str]:
        return [r[0] for r in self.con.execute("PRAGMA integrity_check").fetchall()]


class _Writing:
    """:meth:`Store.writing`'s ``with`` block: BEGIN IMMEDIATE on the way in; COMMIT on the way out, or
    ROLLBACK when the block raised (the error goes on, a file that cannot be written said in one line)."""

    __slots__ = ("store",)

    def __init__(self, store: Store) -> None:
        self.store = store

    def __enter__(self) -> Store:
        store = self.store
        store._appended = None
        try:
            store.con.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as e:
            store._not_begun(e)
        return store

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, trace: Any) -> None:
        store = self.store
        if error is not None:
            store._abandon(error)
            return  # the block's own error goes on
        try:
            store.con.execute("COMMIT")
        except sqlite3.Error as e:
            store._not_committed(e)
        if store._appended is not None:  # committed: the chain's head is known without reading it back
            store._head, store._appended = store._appended, None
        # PRAGMA data_version does not move for this connection's own commits: nothing to record.


def save_snapshot(path: Path, seq: int, schema: int, state: dict) -> None:
    """Add the snapshot of the table after entry ``seq``, on a connection of its own (the game's lull
    worker calls this, off the thread that owns the :class:`Store`). The JSON is made before the write
    lock is taken, so the lock is held only for one insert."""
    text = dumps(state)
    con = _connect(path, mode="rw")
    try:
        con.execute(f"PRAGMA synchronous = {SYNCHRONOUS}")
        con.execute("BEGIN IMMEDIATE")
        _insert_snapshot(con, seq, schema, text)
        con.execute("COMMIT")
    finally:
        con.close()


def _insert_snapshot(con: sqlite3.Connection, seq: int, schema: int, text: str) -> None:
    """Add a snapshot recording the chain's head at its entry and its digest under that head."""
    row = con.execute("SELECT hash FROM entries WHERE seq = ?", (seq,)).fetchone() if seq else (GENESIS,)
    head = row[0] if row and row[0] else GENESIS
    con.execute(
        "INSERT OR IGNORE INTO snapshots (seq, schema, state, head, digest) VALUES (?, ?, ?, ?, ?)",
        (seq, schema, text, head, snapshot_digest(head, text)),
    )


def _upgrade_from_1(con: sqlite3.Connection) -> None:
    """Give a game written before the chain its hashes, in one transaction: every entry and snapshot is
    kept as it is, and gains the hash the chain gives it. A crash midway leaves the file as it was."""
    con.execute("BEGIN IMMEDIATE")
    try:
        if con.execute("PRAGMA user_version").fetchone()[0] >= 2:  # another program upgraded it first
            con.execute("ROLLBACK")
            return
        for statement in _statements(_UPGRADE_FROM_1):
            con.execute(statement)
        previous = GENESIS
        hashes = {0: GENESIS}
        for row in con.execute(f"SELECT {_COLUMNS}, NULL, NULL FROM entries ORDER BY seq").fetchall():
            entry = Entry.from_row(row)
            previous = entry.chained_to(previous)
            hashes[entry.seq] = previous
            con.execute("UPDATE entries SET hash = ? WHERE seq = ?", (previous, entry.seq))
        for seq, text in con.execute("SELECT seq, state FROM snapshots").fetchall():
            head = hashes.get(seq, GENESIS)
            con.execute(
                "UPDATE snapshots SET head = ?, digest = ? WHERE seq = ?", (head, snapshot_digest(head, text), seq)
            )
        for statement in _statements(_TRIGGERS):
            con.execute(statement)
        con.execute("PRAGMA user_version = 2")
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise


def _upgrade_from_2(con: sqlite3.Connection) -> None:
    """Give a game of file format 2 the column that keeps each summary's parts. Its entries keep none
    (they hash as they always did); the entries logged from now on keep theirs."""
    con.execute("BEGIN IMMEDIATE")
    try:
        if con.execute("PRAGMA user_version").fetchone()[0] >= 3:  # another program upgraded it first
            con.execute("ROLLBACK")
            return
        con.execute(_UPGRADE_FROM_2)
        con.execute(f"PRAGMA user_version = {FORMAT}")
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise


def _statements(script: str) -> list[str]:
    """The statements of a script, one each (a trigger's body is part of its statement): run one by one
    with ``execute`` inside the caller's transaction, which ``executescript`` would commit first."""
    out, part = [], ""
    for line in script.strip().splitlines():
        part += line + "\n"
        if sqlite3.complete_statement(part):
            out.append(part)
            part = ""
    return out


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


def damaged_message(path: Path, problem: str) -> str:
    """A damaged game's reason in one line: what is wrong, and the newest good backup to restore (by
    name: ``companion restore GAME BACKUP`` finds it in the game's backups folder)."""
    from .backups import list_backups, newest_good_backup

    problem = problem if len(problem) <= 90 else problem[:89] + "…"
    if not list_backups(path):
        return f"{path.name} is damaged ({problem}), and it has no backups"
    good = newest_good_backup(path)
    if good is None:
        return f"{path.name} is damaged ({problem}), and no backup of it is sound: see `companion backups`"
    return (
        f"{path.name} is damaged ({problem}); restore its newest good backup: companion restore {path.name} {good.name}"
    )


def _has_backups(path: Path) -> bool:
    from .backups import list_backups

    return bool(list_backups(path))


def _cut_short(path: Path) -> str | None:
    """Why the file is cut short (shorter than its header says, or than any database), or None."""
    try:
        wal = Path(f"{path}-wal")
        if wal.exists() and wal.stat().st_size > 0:
            return None  # the -wal may hold the pages (a checkpoint cut short by a full disk): SQLite judges
        size = path.stat().st_size
        with open(path, "rb") as f:
            header = f.read(100)
    except OSError:
        return None
    magic = b"SQLite format 3\0"
    if len(header) < 100:  # not even a database's header: an empty or cut file
        if magic.startswith(header[: len(magic)]):
            return f"the file is cut short: {size} bytes"
        return None
    if not header.startswith(magic):
        return None
    page_size = int.from_bytes(header[16:18], "big")
    page_size = 65536 if page_size == 1 else page_size
    pages = int.from_bytes(header[28:32], "big")
    valid = header[24:28] == header[92:96]  # the header's page count is kept up to date
    if valid and pages and size < pages * page_size:
        return f"the file is cut short: {size} bytes of {pages * page_size}"
    return None
