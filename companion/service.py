"""The Banker: one open game. Loads it, applies actions durably, undoes and redoes, tells subscribers.

Every adapter (the ``companion`` command, the touchscreen, the phones' server, the buttons) talks to a
Banker and nothing else. An action is acknowledged (``do`` returns) only after its COMMIT returned.

Threading: a Banker belongs to the thread that runs the app's asyncio loop. Other threads (gpiozero
callbacks) hand work over with ``loop.call_soon_threadsafe`` first. Other *processes* may write the same
game: each write first catches up with whatever they committed, under SQLite's write lock, so the log
never forks; :meth:`refresh` picks their changes up between actions.
"""
from __future__ import annotations

import datetime as _dt
import itertools
import json
import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .backups import Backups
from .core import engine
from .core import events as ev
from .core.errors import BadAction, GameBusy, GameFileError, Refused
from .core.model import SCHEMA, new_table
from .core.money import Currency
from .rules import load_pack, resolve_options, rules_for
from .store import Entry, Store, canonical

__all__ = ["Banker", "Outcome", "SNAPSHOT_EVERY"]

SNAPSHOT_EVERY = 200

Clock = Callable[[], str]


def _now() -> str:
    return _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")


@dataclass(frozen=True)
class Outcome:
    """What one acknowledged action did: its log entry (with events) and the game version after it."""

    entry: Entry
    version: int
    repeated: bool = False  # the same action id had already been applied: nothing new happened

    @property
    def events(self) -> list:
        return self.entry.events

    @property
    def summary(self) -> str:
        return self.entry.summary


@dataclass
class _History:
    undo: list[int] = field(default_factory=list)
    redo: list[int] = field(default_factory=list)

    def see(self, seq: int, kind: str, target: int | None) -> None:
        if kind == "do":
            self.undo.append(seq)
            self.redo.clear()
        elif kind == "undo":
            self.undo.pop()
            self.redo.append(target)
        elif kind == "redo":
            self.redo.pop()
            self.undo.append(seq)


class Banker:
    """An open game. Use :meth:`create` or :meth:`open`; always :meth:`close` (or use ``with``)."""

    def __init__(self, store: Store, *, backup_every: int = 20, backup_keep: int = 10, backup_quiet: float = 1.0,
                 clock: Clock = _now) -> None:
        self.store = store
        self.clock = clock
        self._subscribers: list[Callable[[Outcome], None]] = []
        self.backups = Backups(store.path, every=backup_every, keep=backup_keep, quiet=backup_quiet)
        try:
            self.meta = store.meta()
            self._load()
        except GameFileError:
            store.close()
            raise
        except (sqlite3.DatabaseError, ValueError, KeyError, TypeError, ev.ReplayMismatch) as e:
            store.close()
            raise GameFileError(f"{store.path} is damaged ({e}); restore a backup with `companion restore`") from None

    # -- opening and closing -----------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        path: str | Path,
        rules: str | dict,
        players: list[str | dict],
        options: dict[str, Any] | None = None,
        **kwargs: Any,
    ) -> "Banker":
        pack = load_pack(rules) if isinstance(rules, str) else rules
        chosen = resolve_options(pack, options or {})
        people = [p if isinstance(p, dict) else {"name": p} for p in players]
        table = new_table(pack, people, chosen)
        bound = rules_for(pack)
        events, summary = engine.start(table, bound)
        action = {"action": "new_game", "rules": pack["name"], "players": table["order"], "options": chosen}
        first = {"kind": "start", "action": action, "events": events, "summary": summary, "at": _now()}
        meta = {"rules": pack["name"], "title": pack.get("title", pack["name"]), "created": _now()}
        store = Store.create(path, meta, first, (SCHEMA, {"table": table}))
        return cls(store, **kwargs)

    @classmethod
    def open(cls, path: str | Path, **kwargs: Any) -> "Banker":
        return cls(Store.open(path), **kwargs)

    def close(self) -> None:
        self.backups.wait()
        self.store.close()

    def __enter__(self) -> "Banker":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _load(self) -> None:
        latest = self.store.latest_snapshot(SCHEMA)
        if latest is None:
            raise GameFileError(f"{self.store.path} holds no game state of a schema this version can read")
        seq, state = latest  # the table as it stood after entry ``seq`` (0: before the first)
        table = state["table"]
        for entry in self.store.entries(seq):
            table = engine.fold(table, entry.events)
        self.table = table
        self.version = self.store.last_seq()
        self.rules = rules_for(table["pack"])
        self.currency = Currency.from_pack(table["pack"])
        self._history = _History()
        for seq, kind, target in self.store.history():
            self._history.see(seq, kind, target)
        self._check_invariants()

    def _check_invariants(self) -> None:
        total = sum(self.table["accounts"].values())
        if total != 0:
            raise GameFileError(f"{self.store.path} fails the ledger check: accounts sum to {total}, not 0")
        for account, balance in self.table["accounts"].items():
            if account != "bank" and balance < 0:
                raise GameFileError(f"{self.store.path} fails the ledger check: {account} holds {balance}")
        for kind, left in self.table["stock"].items():
            if left < 0:
                raise GameFileError(f"{self.store.path} fails the ledger check: the bank has {left} {kind}")

    # -- subscribers -------------------------------------------------------------------------------
    def subscribe(self, callback: Callable[[Outcome], None]) -> Callable[[], None]:
        """Call ``callback(outcome)`` after every committed entry (ours or another process's)."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback) if callback in self._subscribers else None

    def _publish(self, outcome: Outcome) -> None:
        for callback in list(self._subscribers):
            callback(outcome)

    # -- reading -----------------------------------------------------------------------------------
    @property
    def path(self) -> Path:
        return self.store.path

    @property
    def can_undo(self) -> bool:
        return bool(self._history.undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._history.redo)

    def next_undo(self) -> Entry | None:
        return self.store.entry(self._history.undo[-1]) if self._history.undo else None

    def next_redo(self) -> Entry | None:
        return self.store.entry(self._history.redo[-1]) if self._history.redo else None

    def log(self, after: int = 0) -> list[Entry]:
        return list(self.store.entries(after))

    def fmt(self, amount: int) -> str:
        return self.currency.format(amount)

    # -- writing -----------------------------------------------------------------------------------
    def refresh(self) -> bool:
        """Pick up entries committed by another process; True if anything changed."""
        if not self.store.changed_elsewhere():
            return False
        return bool(self._catch_up())

    def _catch_up(self) -> list[Outcome]:
        outcomes = []
        for entry in self.store.entries(self.version):
            self.table = engine.fold(self.table, entry.events)
            self._history.see(entry.seq, entry.kind, entry.target)
            self.version = entry.seq
            outcomes.append(Outcome(entry, entry.seq))
        for outcome in outcomes:
            self._publish(outcome)
        return outcomes

    def do(self, action: dict | str) -> Outcome:
        """Apply one action durably. Raises BadAction (malformed) or Refused (a rule says no)."""
        if isinstance(action, str):
            try:
                action = json.loads(action)
            except json.JSONDecodeError as e:
                raise BadAction(f"not valid JSON ({e.msg} at character {e.pos})") from None
        if not isinstance(action, dict):
            raise BadAction("an action is a JSON object with an \"action\" key")
        name = action.get("action")
        if name in ("undo", "redo"):
            extra = set(action) - {"action", "id"}
            if extra:
                raise BadAction(f"{name} does not take {', '.join(map(repr, sorted(extra)))}")
            return self.undo(action.get("id")) if name == "undo" else self.redo(action.get("id"))
        action_id = _action_id(action)

        def decide() -> tuple[str, list, str, int | None]:
            events, summary = engine.decide(self.table, action, self.rules)
            return "do", events, summary, None

        return self._write(action, action_id, decide)

    def undo(self, action_id: str | None = None) -> Outcome:
        """Reverse the last action still in force, by appending its reversal to the log."""
        return self._step("undo", action_id)

    def redo(self, action_id: str | None = None) -> Outcome:
        """Re-apply the last undone action (possible until a new action is applied)."""
        return self._step("redo", action_id)

    def _step(self, kind: str, action_id: str | None) -> Outcome:
        action = {"action": kind, **({"id": action_id} if action_id is not None else {})}
        action_id = _action_id(action)

        def decide() -> tuple[str, list, str, int | None]:
            stack = self._history.undo if kind == "undo" else self._history.redo
            if not stack:
                raise Refused("nothing to undo" if kind == "undo" else "nothing to redo")
            target = self.store.entry(stack[-1])
            if kind == "undo":
                events = [ev.reverse(e) for e in reversed(target.events)]
                summary = f"Undone: {target.summary}"
            else:
                events = target.events
                summary = f"Redone: {target.summary.removeprefix('Redone: ')}"
            return kind, events, summary, target.seq

        return self._write(action, action_id, decide)

    def _write(self, action: dict, action_id: str | None, decide: Callable[[], tuple]) -> Outcome:
        """Decide and append under the write lock, optimistically: the entry takes the next number;
        if another process took it (or the action id is already in the log), catch up and decide again."""
        with self.store.writing():
            if action_id is not None:  # a retry of an applied action returns its first outcome
                self._catch_up()
                seen = self._repeat(action_id, action)
                if seen:
                    return seen
            for _ in range(100):
                kind, events, summary, target = decide()
                table = engine.fold(self.table, events)
                engine.check_conservation(table)
                try:
                    entry = self._append(kind, action, events, summary, action_id, target, table)
                    break
                except sqlite3.IntegrityError:
                    self._catch_up()
                    if action_id is not None:
                        seen = self._repeat(action_id, action)
                        if seen:
                            return seen
            else:  # pragma: no cover - would need another writer winning a hundred races in a row
                raise GameBusy("another program keeps writing to this game; try again in a moment")
        return self._committed(entry, table)

    def _repeat(self, action_id: str, action: dict) -> Outcome | None:
        seen = self.store.entry_by_id(action_id)
        if seen is None:
            return None
        if canonical(seen.action) != canonical(action):
            raise Refused(f"action id {action_id!r} was already used for a different action")
        return Outcome(seen, self.version, repeated=True)

    def _append(self, kind: str, action: dict, events: list, summary: str, action_id: str | None,
                target: int | None, table: dict) -> Entry:
        at = self.clock()
        seq = self.version + 1
        self.store.append(seq=seq, kind=kind, action=action, events=events, summary=summary, at=at,
                          action_id=action_id, target=target)
        if seq % SNAPSHOT_EVERY == 0:
            self.store.snapshot(seq, SCHEMA, {"table": table})
        return Entry(seq, kind, action_id, action, events, summary, target, at)

    def _committed(self, entry: Entry, table: dict) -> Outcome:
        self.table = table
        self.version = entry.seq
        self._history.see(entry.seq, entry.kind, entry.target)
        self.backups.after_commit(entry.seq)
        outcome = Outcome(entry, entry.seq)
        self._publish(outcome)
        return outcome

    # -- checks ------------------------------------------------------------------------------------
    def replay(self) -> dict:
        """The table rebuilt from the first entry, ignoring every snapshot but the opening one."""
        first = self.store.latest_snapshot(SCHEMA, upto=0)
        if first is None:
            raise GameFileError("the game has no opening snapshot")
        return engine.fold(first[1]["table"], (e for entry in self.store.entries(0) for e in entry.events))

    def verify(self) -> list[str]:
        """Every problem found by a full check: integrity, replay against each snapshot, the ledger."""
        problems = [p for p in self.store.integrity_check() if p != "ok"]
        first = self.store.latest_snapshot(SCHEMA, upto=0)
        table = first[1]["table"] if first else None
        snaps = {seq: state["table"] for seq, schema, state in self.store.snapshots() if schema == SCHEMA and seq > 0}
        if table is None:
            return problems + ["no opening snapshot"]
        for entry in self.store.entries(0):
            try:
                table = engine.fold(table, entry.events)
            except ev.ReplayMismatch as e:
                return problems + [f"entry {entry.seq} does not apply: {e}"]
            if entry.seq in snaps and snaps[entry.seq] != table:
                problems.append(f"snapshot at entry {entry.seq} differs from the replay")
        if table != self.table:
            problems.append("the open table differs from a full replay")
        if sum(table["accounts"].values()) != 0:
            problems.append("accounts do not sum to zero")
        return problems

    # -- read-only look-ups for adapters (the phones' server asks here, never the store) -----------
    def log_page(self, after: int = 0, limit: int = 100) -> list[Entry]:
        """At most ``limit`` log entries after version ``after``, oldest first."""
        return list(itertools.islice(self.store.entries(after), max(0, limit)))

    def entry_by_id(self, action_id: str) -> Entry | None:
        """The entry an action id was applied as, or None."""
        return self.store.entry_by_id(action_id)

    def opening_table(self) -> dict:
        """The table as the game began (before the first entry)."""
        first = self.store.latest_snapshot(SCHEMA, upto=0)
        return first[1]["table"] if first else self.table


def _action_id(action: dict) -> str | None:
    action_id = action.get("id")
    if action_id is None:
        return None
    if not isinstance(action_id, str) or not 1 <= len(action_id) <= 100:
        raise BadAction("id is text of 1 to 100 characters")
    return action_id
