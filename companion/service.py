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
import functools
import itertools
import json
import logging
import sqlite3
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from .backups import Backups, backup_seq, check_backup, list_backups
from .core import contract, engine
from .core import events as ev
from .core.errors import BadAction, BankerError, GameBusy, GameFileError, Refused
from .core.model import SCHEMA, new_table
from .core.money import Currency
from .core.text import check_token
from .head_record import read_head, record_head_of
from .lull import Lull
from .rules import load_pack, pack_names, resolve_options, rules_for
from .rules.pack import option_specs
from .store import Entry, Store, canonical, save_snapshot
from .wal_room import make_room, sync_room

__all__ = [
    "Banker",
    "Outcome",
    "Verified",
    "GlanceAtGame",
    "glance",
    "installed_packs",
    "installed_pack",
    "pack_options",
    "options_checked",
    "board_order",
    "SNAPSHOT_EVERY",
    "WATCH_SECONDS",
]

SNAPSHOT_EVERY = 200

#: How often an adapter that polls calls :meth:`Banker.refresh` to see what other programs wrote: well
#: inside the 100 ms a player notices, and nearly free when nothing changed (one ``PRAGMA data_version``).
#: The touchscreen and the phones' server look only when the kernel reports a write to the game
#: (:mod:`companion.watch`), and poll at this pace only where it cannot (and the touchscreen when
#: Kivy runs without its asyncio loop).
WATCH_SECONDS = 0.05

#: How long a table settling in waits for another program's commit before it leaves the -wal's room
#: to its first lull (:meth:`Banker.settle_in`): a commit takes milliseconds.
ROOM_WAIT_SECONDS = 0.05

Clock = Callable[[], str]

_new = object.__new__
_set = object.__setattr__

log = logging.getLogger(__name__)


#: The second :func:`_now` last wrote, and how it reads: the actions of one second share the text.
_SECOND: tuple[int, str] = (-1, "")


def _now() -> str:
    """The time now in UTC, to the second ("2026-11-27T14:05:25+00:00"), written once per second."""
    global _SECOND
    second = int(time.time())  # what datetime.now() reads, floored to the second as timespec="seconds" is
    if second != _SECOND[0]:
        _SECOND = (second, _dt.datetime.fromtimestamp(second, _dt.timezone.utc).isoformat())
    return _SECOND[1]


@dataclass(frozen=True)
class Outcome:
    """What one acknowledged action did: its log entry (with events) and the game version after it."""

    entry: Entry
    version: int
    repeated: bool = False  # the same action id had already been applied: nothing new happened
    undone: bool = False  # (with ``repeated``) that earlier action has since been undone: its money is back
    elsewhere: bool = False  # another program (or another Banker) committed it; this Banker caught up with it

    @property
    def events(self) -> list:
        return self.entry.events

    @property
    def summary(self) -> str:
        return f"{self.entry.summary} (since undone)" if self.undone else self.entry.summary

    @classmethod
    def of(cls, entry: Entry) -> "Outcome":
        """This Banker's own new entry's outcome: what ``Outcome(entry, entry.seq)`` makes, its fields
        set in one step (one per action)."""
        outcome = _new(cls)
        fields = {"entry": entry, "version": entry.seq, "repeated": False, "undone": False, "elsewhere": False}
        _set(outcome, "__dict__", fields)
        return outcome

    def as_json(self) -> dict[str, Any]:
        """The outcome as the command line prints it and the phones' API answers it."""
        entry = self.entry
        return {
            "seq": entry.seq,
            "kind": entry.kind,
            "summary": self.summary,
            "events": entry.events,
            "version": self.version,
            "repeated": self.repeated,
            "undone": self.undone,
        }


@dataclass(frozen=True)
class Verified:
    """How far a check of a game's log went (:meth:`Banker.verified`): to entry ``seq``, where the
    chain's stored head was ``head`` and the log folded to ``table``."""

    seq: int
    head: str | None
    table: dict


@dataclass
class _History:
    """The undo and redo stacks, and which actions are undone now, rebuilt from ``(seq, kind, target)``.

    A redo entry re-applies an earlier entry, which may itself be a redo: :meth:`first` follows that
    chain back to the action first applied, so every undo and redo speaks of that action."""

    undo: list[int] = field(default_factory=list)
    redo: list[int] = field(default_factory=list)
    origin: dict[int, int] = field(default_factory=dict)  # redo entry -> the action it re-applies
    undone: set[int] = field(default_factory=set)  # actions whose effect is taken back now

    def first(self, seq: int) -> int:
        return self.origin.get(seq, seq)

    def see(self, seq: int, kind: str, target: int | None) -> None:
        if kind == "do":
            self.undo.append(seq)
            self.redo.clear()
        elif kind == "undo":
            assert target is not None, "an undo names what it takes back"
            self.undo.pop()
            self.redo.append(target)
            self.undone.add(self.first(target))
        elif kind == "redo":
            assert target is not None, "a redo names what it re-applies"
            self.redo.pop()
            self.undo.append(seq)
            self.origin[seq] = self.first(target)
            self.undone.discard(self.origin[seq])

    def saved(self, kind: str) -> tuple:
        """What :meth:`see` of an entry of ``kind`` is about to change, for :meth:`restore` (a new
        action only adds to the undo stack and empties the redo stack, usually empty already)."""
        if kind == "do":
            return ("do", list(self.redo))
        return ("all", (list(self.undo), list(self.redo), dict(self.origin), set(self.undone)))

    def restore(self, saved: tuple) -> None:
        """Take back the :meth:`see` that followed :meth:`saved`."""
        how, what = saved
        if how == "do":
            self.undo.pop()
            self.redo = what
        else:
            self.undo, self.redo, self.origin, self.undone = what


class Banker:
    """An open game. Use :meth:`create` or :meth:`open`; always :meth:`close` (or use ``with``)."""

    def __init__(
        self,
        store: Store,
        *,
        backup_every: int = 20,
        backup_keep: int = 10,
        backup_quiet: float = 1.0,
        clock: Clock = _now,
    ) -> None:
        self.store = store
        self.clock = clock
        self._closing = False
        # Tuples, made again when one is added or removed: telling them needs no copy first.
        self._subscribers: tuple[Callable[[Outcome], None], ...] = ()
        self._stagers: tuple[tuple[Callable[[Entry], None], Callable[[Entry], None]], ...] = ()
        # What screens asked of this very table (choices, previews): decided once per table version.
        self._decided_on: dict | None = None
        self._decided: dict[tuple, Any] = {}
        try:
            self.meta = store.meta()
            self._load()
            self._check_tail()
        except GameFileError:
            store.close()
            raise
        except Exception as e:  # whatever a damaged file holds, the answer is one line naming the backup
            store.close()
            raise store.damage(_problem(e)) from None
        self.lull = Lull(quiet=backup_quiet)  # backups and snapshots wait for a pause in the taps
        # after every commit, in the next lull: the chain's head recorded beside the game
        self.lull.keep("head", functools.partial(record_head_of, store.path), rank=2)
        self.backups = Backups(store.path, every=backup_every, keep=backup_keep, lull=self.lull)
        if self.version - self._snapshot_seq >= SNAPSHOT_EVERY:  # one was lost (a pulled plug): make it again
            self._snapshot_later(self.version, self.table)

    # -- opening and closing -----------------------------------------------------------------------
    @classmethod
    def create(
        cls,
        path: str | Path,
        rules: str | dict,
        players: Sequence[str | dict],
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

    def settle_in(self) -> None:
        """This table stays open for the evening (the touchscreen, ``companion serve``; not a one-off
        command): the game's -wal is given room for the evening's entries now, synced in the first
        lull, so that each COMMIT's sync writes its page alone instead of growing the file
        (:mod:`companion.wal_room`). Call it before the table's watch starts: the room's writes then
        wake no watch of this table. When another program holds the write lock, the room is made in
        the first lull instead; neither happens once the table closes."""
        if make_room(self.store.path, busy_seconds=ROOM_WAIT_SECONDS, sync=False):
            self.lull.submit("room", self._sync_room, rank=-1)
        else:
            self.lull.submit("room", self._make_room, rank=-1)

    def _sync_room(self) -> None:
        if not self._closing:
            sync_room(self.store.path)

    def _make_room(self) -> None:
        if not self._closing:
            make_room(self.store.path)

    def close(self) -> None:
        self._closing = True  # a -wal's room still waiting is not made for nothing
        self.lull.close()  # the backup copy and the snapshot still waiting for a lull are made now
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
        self._snapshot_seq = seq
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

    def _check_tail(self) -> None:
        """Refuse a game that lost its last entries (a damaged -wal ends the log early, silently): its
        head record, or a backup's name, knows of an entry the game no longer holds, or of another."""
        # The record and the backups are read before the game's head: each is written only after what it
        # names was committed, so a head read afterwards holds it, whatever another program writes meanwhile.
        recorded = read_head(self.store.path)
        backups = list_backups(self.store.path)
        seq, head = self.store.head()
        if recorded is not None:
            known, digest = recorded
            if known > seq:
                raise self.store.damage(f"entries {seq + 1}-{known} are lost; the game had reached entry {known}")
            if head is not None and self.store.chained and self.store.stored_hash(known) != digest:
                raise self.store.damage(f"entry {known} is not the one written")
        newest = backup_seq(backups[-1]) if backups else None
        if newest is not None and newest > seq:
            raise self.store.damage(f"entries {seq + 1}-{newest} are lost; a backup holds them")

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
    def subscribe(self, callback: Callable[[Outcome], None], *, first: bool = False) -> Callable[[], None]:
        """Call ``callback(outcome)`` after every committed entry (ours or another process's); ``first``:
        before every callback subscribed so far (a watch of the game file reads its notifications of
        the commit at once: :meth:`companion.watch.GameWatch.own_commit`)."""
        if first:
            self._subscribers = (callback, *self._subscribers)
        else:
            self._subscribers = (*self._subscribers, callback)
        return functools.partial(self._unsubscribe, callback)

    def _unsubscribe(self, callback: Callable[[Outcome], None]) -> None:
        if callback in self._subscribers:
            at = self._subscribers.index(callback)
            self._subscribers = self._subscribers[:at] + self._subscribers[at + 1 :]

    def stage(self, prepare: Callable[[Entry], None], abandon: Callable[[Entry], None]) -> Callable[[], None]:
        """Call ``prepare(entry)`` inside the write transaction once this Banker's entry is appended and
        before its COMMIT (the fsync), with the Banker already showing the table after it (``table``,
        ``version``, the undo history): work for the entry can be done while the caches are warm from
        deciding it, not after the thread slept through the fsync. Nothing ``prepare`` makes may reach
        anyone before the entry's outcome is published to the subscribers, which happens only once it
        is durable. If the COMMIT fails, the Banker goes back to the table before the entry and calls
        ``abandon(entry)``. An error in ``prepare`` is logged and does not stop the commit."""
        pair = (prepare, abandon)
        self._stagers = (*self._stagers, pair)
        return functools.partial(self._unstager, pair)

    def _unstager(self, pair: tuple[Callable[[Entry], None], Callable[[Entry], None]]) -> None:
        if pair in self._stagers:
            at = self._stagers.index(pair)
            self._stagers = self._stagers[:at] + self._stagers[at + 1 :]

    def _stage(self, entry: Entry, table: dict) -> tuple | None:
        """Show the table after ``entry`` before its COMMIT and tell the stagers; what it was, to go back."""
        if not self._stagers:
            return None
        before = (self.table, self.version, self._history.saved(entry.kind))
        self.table, self.version = table, entry.seq
        self._history.see(entry.seq, entry.kind, entry.target)
        for prepare, _ in self._stagers:
            try:
                prepare(entry)
            except Exception:  # work done early; the subscribers do it after the commit instead
                log.exception("preparing for entry %s failed", entry.seq)
        return before

    def _unstage(self, entry: Entry, before: tuple) -> None:
        """The COMMIT of a staged entry failed: back to the table before it, and the stagers are told."""
        self.table, self.version, saved = before
        self._history.restore(saved)
        for _, abandon in self._stagers:
            try:
                abandon(entry)
            except Exception:
                log.exception("abandoning entry %s failed", entry.seq)

    def _publish(self, outcome: Outcome) -> None:
        for callback in self._subscribers:
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
        """The action the next undo would take back: the action itself, even when what is in force
        now is a redo of it (so a button reads "Ann collected $200 salary", never "Redone: ...")."""
        return self.store.entry(self._history.first(self._history.undo[-1])) if self._history.undo else None

    def next_redo(self) -> Entry | None:
        """The action the next redo would apply again (the action itself, as for :meth:`next_undo`)."""
        return self.store.entry(self._history.first(self._history.redo[-1])) if self._history.redo else None

    def earlier_outcome(self, action: dict) -> Outcome | None:
        """The first outcome of an action whose id is already in the log (a retry, a double tap), marked
        ``undone`` when it has been undone since; None for an action not applied yet. Refused when the
        id was used for a different action. Catches up first, so an undo another program wrote counts."""
        action_id = _action_id(action)
        if action_id is None:
            return None
        self.refresh()
        return self._repeat(action_id, action)

    def log(self, after: int = 0) -> list[Entry]:
        return list(self.store.entries(after))

    def fmt(self, amount: int) -> str:
        return self.currency.format(amount)

    # -- writing -----------------------------------------------------------------------------------
    def refresh(self) -> bool:
        """Pick up entries committed by another program (or another Banker); True if anything changed.

        Cheap when nothing changed (SQLite's ``PRAGMA data_version``, no table read), so adapters call
        it every :data:`WATCH_SECONDS`."""
        if not self.store.changed_elsewhere():
            return False
        outcomes = self._catch_up()
        for outcome in outcomes:
            self._publish(outcome)
        return bool(outcomes)

    def _catch_up(self) -> list[Outcome]:
        """Fold in every entry committed after ours; the caller publishes them."""
        outcomes = []
        try:
            for entry in self.store.entries(self.version):
                self.table = engine.fold(self.table, entry.events)
                self._history.see(entry.seq, entry.kind, entry.target)
                self.version = entry.seq
                outcomes.append(Outcome(entry, entry.seq, elsewhere=True))
        except BaseException:
            self.store.look_again()  # what was left unread is read at the next look, not taken as seen
            raise
        return outcomes

    def do(self, action: dict | str) -> Outcome:
        """Apply one action durably. Raises BadAction (malformed) or Refused (a rule says no)."""
        if isinstance(action, (str, bytes)):
            action = contract.load_json(action)
        if not isinstance(action, dict):
            raise BadAction('an action is a JSON object with an "action" key')
        name = action.get("action")
        if name in ("undo", "redo"):
            extra = set(action) - {"action", "id"}
            if extra:
                raise BadAction(f"{name} does not take {', '.join(map(repr, sorted(extra)))}")
            return self.undo(action.get("id")) if name == "undo" else self.redo(action.get("id"))
        action_id = action.get("id")  # _action_id(action), asked at every action
        if action_id is not None:
            action_id = check_token(action_id, "id", 100)

        def decide() -> tuple[str, list, str, int | None, dict]:
            # A tap confirming its preview on the table as it still stands was decided already (the
            # decision is a pure function of the table and the action); any other is decided now.
            decided = (self._decided_on is self.table and self._recalled(("preview",), action)) or engine.decide_full(
                self.table, action, self.rules
            )
            return "do", list(decided.events), decided.summary, None, decided.table

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

        def decide() -> tuple[str, list, str, int | None, dict]:
            stack = self._history.undo if kind == "undo" else self._history.redo
            if not stack:
                raise Refused("nothing to undo" if kind == "undo" else "nothing to redo")
            target = self.store.entry(stack[-1])
            first = self.store.entry(self._history.first(target.seq))  # the action itself, never a redo of it
            if kind == "undo":
                events = [ev.reverse(e) for e in reversed(target.events)]
                summary = f"Undone: {first.summary}"
            else:
                events = target.events
                summary = f"Redone: {first.summary}"
            table = engine.fold(self.table, events)
            engine.check_conservation(table)  # an action's decision checked its own
            return kind, events, summary, target.seq, table

        return self._write(action, action_id, decide)

    def _write(self, action: dict, action_id: str | None, decide: Callable[[], tuple]) -> Outcome:
        """Decide and append under the write lock, on the newest committed table.

        Inside ``BEGIN IMMEDIATE`` no other program can commit, so whatever they committed before it
        is known, and the decision that stands is made on the table as it truly stands now, whether the
        answer is yes or no. Whether another connection committed since this Banker last looked is
        asked only where the answer could differ: before an action id is looked up, and before a
        refusal is given (the file's data version, exact under the lock: their entries are then read
        and the action decided again). An action accepted on a table someone has since added to is
        never appended: its entry's number is taken (the unique ``seq``), so their entries are read
        and it is decided again. Entries caught up on are told to subscribers once the transaction
        is over, before this action's own outcome."""
        caught: list[Outcome] = []
        staged: tuple | None = None
        try:
            with self.store.writing():
                for attempt in range(100):
                    if attempt or (action_id is not None and self.store.changed_elsewhere()):
                        caught += self._catch_up()  # a writer slipped in, or may have: read what it wrote
                    if action_id is not None:  # a retry of an applied action returns its first outcome
                        seen = self._repeat(action_id, action)
                        if seen:
                            return seen
                    try:
                        kind, events, summary, target, table = decide()  # the table after the events
                    except Exception:
                        if not attempt and self.store.changed_elsewhere():
                            continue  # refused on a table that is no longer the file's: read, decide again
                        raise
                    try:
                        entry = self._append(kind, action, events, summary, action_id, target)
                        break
                    except sqlite3.IntegrityError:
                        continue
                else:  # pragma: no cover - would need another writer winning a hundred races in a row
                    raise GameBusy("another program keeps writing to this game; try again in a moment")
                staged = self._stage(entry, table)  # the stagers' work, before the COMMIT's fsync
        except BaseException:
            if staged is not None:  # the COMMIT failed: nothing of the entry stands
                self._unstage(entry, staged)
            raise
        finally:
            for outcome in caught:
                self._publish(outcome)
        return self._committed(entry, table, staged=staged is not None)

    def _repeat(self, action_id: str, action: dict) -> Outcome | None:
        seen = self.store.entry_by_id(action_id)
        if seen is None:
            return None
        if canonical(seen.action) != canonical(action):
            raise Refused(f"action id {action_id!r} was already used for a different action")
        return Outcome(seen, self.version, repeated=True, undone=seen.seq in self._history.undone)

    def _append(
        self, kind: str, action: dict, events: list, summary: str, action_id: str | None, target: int | None
    ) -> Entry:
        at = self.clock()
        seq = self.version + 1
        self.store.append(
            seq=seq, kind=kind, action=action, events=events, summary=summary, at=at, action_id=action_id, target=target
        )
        return Entry.appended(seq, kind, action_id, action, events, summary, target, at)

    def _committed(self, entry: Entry, table: dict, *, staged: bool = False) -> Outcome:
        if not staged:  # a staged entry's table and history were shown before its COMMIT already
            self.table = table
            self.version = entry.seq
            self._history.see(entry.seq, entry.kind, entry.target)
        self.lull.touch()  # and the chain's head is recorded in the next lull (Lull.keep)
        if entry.seq % SNAPSHOT_EVERY == 0:
            self._snapshot_later(entry.seq, table)
        self.backups.after_commit(entry.seq)
        outcome = Outcome.of(entry)
        for callback in self._subscribers:  # self._publish(outcome), once per action
            callback(outcome)
        return outcome

    def _snapshot_later(self, seq: int, table: dict) -> None:
        """Save the table as it stands after entry ``seq`` in the next lull, outside any tap's commit.

        A snapshot is a cache: if the plug is pulled first, opening replays a longer tail and asks for it
        again. Tables are never changed in place (a fold copies what it changes), so holding one is safe."""
        self._snapshot_seq = seq
        self.lull.submit("snapshot", functools.partial(save_snapshot, self.store.path, seq, SCHEMA, {"table": table}))

    # -- checks ------------------------------------------------------------------------------------
    def replay(self) -> dict:
        """The table rebuilt from the first entry, ignoring every snapshot but the opening one."""
        first = self.store.latest_snapshot(SCHEMA, upto=0)
        if first is None:
            raise GameFileError("the game has no opening snapshot")
        return engine.fold(first[1]["table"], (e for entry in self.store.entries(0) for e in entry.events))

    def verify(self, since: Verified | None = None) -> list[str]:
        """Every problem found by a full check: integrity, the whole hash chain, every snapshot against
        the chain and the replay, the ledger, and every backup against the game's chain. Each problem is
        one line; a damaged game's lines name the entry that differs and the newest good backup.

        ``since``: what an earlier check of this game proved (:meth:`verified`, taken when it found no
        problem). The log is then read on from there instead of from its first entry: the chain's stored
        head there must be the one checked, each later entry must link to it, and the table it held then,
        folded with the later entries, must be the open table and every later snapshot. Everything else
        is checked as in a full check."""
        try:
            problems = [p for p in self.store.integrity_check() if p != "ok"]
            if problems:
                return [str(self.store.damage(problems[0]))]
            return self._verify_log(since) or self._verify_backups()
        except GameFileError as e:
            return [str(e)]
        except Exception as e:  # anything a damaged file holds: one line naming the backup
            return [str(self.store.damage(_problem(e)))]

    def verified(self) -> Verified:
        """The game as it is open now, for a later ``verify(since=...)``: worth keeping only once
        :meth:`verify` has found no problem (the open table is then the whole log's replay)."""
        return Verified(self.version, self.store.stored_hash(self.version), self.table)

    def _verify_log(self, since: Verified | None = None) -> list[str]:
        if since is None:
            first = self.store.latest_snapshot(SCHEMA, upto=0)
            if first is None:
                return [str(self.store.damage("no opening snapshot"))]
            after, table = 0, first[1]["table"]
        else:
            if self.store.stored_hash(since.seq) != since.head:
                return [str(self.store.damage(f"entry {since.seq} differs from what was checked before"))]
            after, table = since.seq, since.table
        snaps = {
            seq: state["table"] for seq, schema, state in self.store.snapshots(after) if schema == SCHEMA and seq > 0
        }
        problems = []
        for entry in self.store.entries(after):  # raises at the first entry that differs from what was written
            try:
                table = engine.fold(table, entry.events)
            except ev.ReplayMismatch as e:
                return [str(self.store.damage(f"entry {entry.seq} does not apply: {e}"))]
            if entry.seq in snaps and snaps[entry.seq] != table:
                problems.append(str(self.store.damage(f"the snapshot at entry {entry.seq} differs from the replay")))
        if table != self.table:
            problems.append("the open table differs from a full replay")
        if sum(table["accounts"].values()) != 0:
            problems.append(str(self.store.damage("the accounts do not sum to zero")))
        return problems

    def _verify_backups(self) -> list[str]:
        """Each backup must prove itself and lie on the game's chain; none may hold more than the game."""
        seq, _ = self.store.head()
        problems = []
        for backup in list_backups(self.store.path):
            wrong = check_backup(self.store.path, backup)
            held = backup_seq(backup)
            if wrong is None and held is not None and held > seq:
                wrong = (
                    f"{self.store.path.name} has lost entries {seq + 1}-{held}, which this backup holds: "
                    f"companion restore {self.store.path.name} {backup.name}"
                )
            if wrong is not None:
                problems.append(f"backup {backup.name}: {wrong}")
        return problems

    # -- the action contract: what adapters may ask, read from the declarations ------------------------
    def actions(self) -> list[contract.ActionSpec]:
        """This game's actions, as its family declares them, in declaration order, in the pack's words:
        those its options offer (City Life's basic rules have no Bank loans)."""
        names = self.table["pack"].get("names", {})
        return [spec.worded(names) for spec in self.rules.registry if spec.offered_in(self.table)]

    def spec(self, name: str) -> contract.ActionSpec:
        """One action's declaration in the pack's words; BadAction when this game has no such action."""
        return self.rules.registry.spec(name).worded(self.table["pack"].get("names", {}))

    def next_field(self, name: str, partial: dict) -> contract.Field | None:
        """The next field a screen should ask for ``name``, given the fields chosen so far (None: ready)."""
        return contract.next_field(self.spec(name), self.table, partial)

    def current(self, name: str, field: str, partial: dict) -> Any:
        """What ``field`` of ``name`` corrects holds now (a card's printed values), or None."""
        return contract.current(self.spec(name), self.table, field, partial)

    def choices(self, name: str, field: str, partial: dict) -> list[contract.Choice]:
        """Every candidate value of one field on the table as it stands, each judged by the rule itself
        (once per version of the table: a screen asking again gets the same answers, not new decisions)."""
        return list(
            self._once(
                ("choices", name, field),
                partial,
                lambda: contract.choices(self.rules, self.table, name, field, partial),
            )
        )

    def in_or_out(self, name: str, field: str, partial: dict) -> list[contract.InOrOut]:
        """Each candidate of a list field asked both ways (a mortgage lifted now or kept), each way judged
        by the rule itself on the table as it stands."""
        return list(
            self._once(
                ("in_or_out", name, field),
                partial,
                lambda: contract.in_or_out(self.rules, self.table, name, field, partial),
            )
        )

    def read(self, action: dict) -> dict:
        """``action`` read through the contract on the table as it stands, nothing decided: every name
        found, every amount read, players out of the game refused, each with its one-line reason (the
        very reading :meth:`do` starts with). For an adapter that must know the values before the action
        can be done (a phone's payment request, which waits for the banker)."""
        spec = self.rules.registry.spec(action.get("action"))
        typed = contract.parse(spec, self.table, action)
        contract.check_in_game(spec, self.table, typed)
        return typed

    def preview(self, action: dict) -> contract.Preview:
        """What ``action`` would do now: the same decision :meth:`do` commits, nothing written (once per
        version of the table)."""
        found: contract.Preview = self._once(
            ("preview",), action, lambda: contract.preview(self.rules, self.table, action)
        )
        self._remember(("preview",), found.action, found)  # what the confirming tap sends to do()
        return found

    #: How many answers one table version keeps (a screen asks a few dozen at most).
    DECIDED_KEPT = 256

    def _key(self, what: tuple, values: object) -> tuple | None:
        try:
            return (*what, json.dumps(values, sort_keys=True, default=repr))
        except (TypeError, ValueError):  # keys that are not text: not kept
            return None

    def _remember(self, what: tuple, values: object, answer: Any) -> None:
        key = self._key(what, values)
        if key is not None and self._decided_on is self.table and len(self._decided) < self.DECIDED_KEPT:
            self._decided.setdefault(key, answer)

    def _recalled(self, what: tuple, values: object) -> Any:
        """What was decided for ``values`` on the table as it stands now, or None."""
        if self._decided_on is not self.table or not self._decided:
            return None
        key = self._key(what, values)
        return None if key is None else self._decided.get(key)

    def _once(self, what: tuple, values: object, decide: Callable[[], Any]) -> Any:
        """``decide()``'s answer for this version of the table, decided once: the table never changes in
        place, so the same question on the same table has the same answer. A refusal is not kept."""
        if self._decided_on is not self.table:
            self._decided_on, self._decided = self.table, {}
        key = self._key(what, values)
        if key is None:  # asked afresh
            return decide()
        found = self._decided.get(key)
        if found is None:
            found = decide()
            if len(self._decided) < self.DECIDED_KEPT:
                self._decided[key] = found
        return found

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


@dataclass(frozen=True)
class GlanceAtGame:
    """What a games list shows of a saved game, read without opening it for play (nothing is written)."""

    path: Path
    title: str
    players: tuple[str, ...] = ()
    colours: dict = field(default_factory=dict)
    entries: int = 0
    last_at: str | None = None
    over: bool = False
    winner: str = ""
    problem: str | None = None  # why the file cannot be read, in one line; None when it can


def glance(path: str | Path) -> GlanceAtGame:
    """A saved game's title, players, last entry and result, for a list of games. A file that cannot be
    read is described by its problem, never raised: the banker should still see that it is there."""
    path = Path(path)
    try:
        store = Store.open(path, readonly=True)
    except GameFileError as e:
        return GlanceAtGame(path, path.stem, problem=str(e))
    try:
        meta = store.meta()
        last = store.last_seq()
        snap = store.latest_snapshot(SCHEMA)
        table = None
        if snap is not None:
            seq, state = snap
            table = engine.fold(state["table"], (e for entry in store.entries(seq) for e in entry.events))
        over = (table or {}).get("over") or {}
        return GlanceAtGame(
            path,
            meta.get("title", path.stem),
            players=tuple(table["order"]) if table else (),
            colours={name: rec.get("colour", "") for name, rec in table["players"].items()} if table else {},
            entries=last,
            last_at=store.entry(last).at if last else meta.get("created"),
            over=bool(over),
            winner=over.get("winner") or "",
        )
    except GameFileError as e:  # an entry or snapshot that differs from what was written
        return GlanceAtGame(path, path.stem, problem=str(e))
    except Exception as e:  # whatever else a damaged file holds: described, never raised
        return GlanceAtGame(path, path.stem, problem=f"{path.name} cannot be read ({_problem(e)})")
    finally:
        store.close()


# -- the packs installed: what a games list and a new game's form read, without importing the rules ------
def installed_packs() -> list[str]:
    """The names of the packs installed with the program, sorted."""
    return pack_names()


def installed_pack(name: str) -> dict[str, Any]:
    """An installed pack's data (title, family, players, options...), or a clear refusal."""
    return load_pack(name)


def pack_options(pack: dict[str, Any]) -> dict[str, Any]:
    """Every option a game of ``pack`` takes (the table-wide ones and the pack's own), each with its
    default and help."""
    return option_specs(pack)


def options_checked(name: str, chosen: dict[str, Any]) -> dict[str, Any]:
    """The options a new game of pack ``name`` would start with, or the one-line reason it cannot."""
    return resolve_options(load_pack(name), chosen)


_BOARD_ORDER: dict[str, tuple[str, ...]] = {}


def board_order(pack_name: str) -> tuple[str, ...]:
    """The deeds of the installed pack ``pack_name`` in the order its board shows them (a game file keeps
    its cards with sorted keys), read once per pack; empty for a pack that is not installed (one loaded
    from a path, or removed since)."""
    if pack_name not in _BOARD_ORDER:
        try:
            _BOARD_ORDER[pack_name] = tuple(load_pack(pack_name)["cards"]) if pack_name in pack_names() else ()
        except BankerError:
            _BOARD_ORDER[pack_name] = ()
    return _BOARD_ORDER[pack_name]


def _problem(error: Exception) -> str:
    """A damaged file's error in a few words, for the one line that reports it."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else ""
    return f"{type(error).__name__}: {text}"[:160] if text else type(error).__name__


def _action_id(action: dict) -> str | None:
    action_id = action.get("id")
    if action_id is None:
        return None
    return check_token(action_id, "id", 100)
