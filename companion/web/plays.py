"""Players' own actions from their phones: forms drawn from the contract, approvals, expiry, a pause.

A phone offers its player every action of the game in which a field with an acting role (the one to
play, the payer, the owner: :data:`companion.core.contract.OWN_ROLES`) can be that player. That field is
filled with the phone's own player and never chosen, so a player never names another as the payer. The
other fields are asked in the contract's order with the Banker's own choices (each judged by the rule),
and the button that commits carries the preview's sentence. Nothing here is written for one action.

Who approves is read from the preview's postings, never from the action's name:

- money leaving the player who asked: their tap on the preview is the approval, the action is done;
- money leaving another player (a trade, a sale between players): that player approves on their
  phone, seeing the same sentence;
- money leaving the bank or a pot: the banker approves, unless the game's option ``trust_table`` says
  the table is trusted.

A play waiting for approval expires after :data:`EXPIRES_SECONDS` and says so; each phone counts its
seconds down. Approving decides the
action again on the newest table: if its sentence is no longer the one the approver saw, it is refused
with the new sentence. The committed action carries ``"by"`` (the player whose phone started it) and an
id made from the phone's own id, so a retry after a dropped Wi-Fi moves money once.

The banker may pause every phone's actions with one tap (:meth:`Plays.pause`); the pause is kept in the
phones file. Threading: the app's asyncio loop, like the Banker it serves.
"""

from __future__ import annotations

import hashlib
import json
import math
import secrets
import sqlite3
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass, replace
from typing import Any

from companion.core import contract
from companion.core.common import switch_is_on
from companion.core.errors import BadAction, BankerError, Refused
from companion.core.text import clean_text, shown

from .jsontext import safe_text

__all__ = ["EXPIRES_SECONDS", "MAX_WAITING", "Play", "Plays", "approvers", "own_field", "phones_act", "trusts_table"]

EXPIRES_SECONDS = 180  # a play not approved within three minutes expires
FRESH_SECONDS = 2  # a page with a waiting play's seconds left is made again for a new reader after this
MAX_WAITING = 3  # plays one player may have waiting at once
KEEP_ANSWERED = 50

_SCHEMA = """
CREATE TABLE IF NOT EXISTS plays (
    id        TEXT PRIMARY KEY,
    player    TEXT NOT NULL,
    action    TEXT NOT NULL,
    summary   TEXT NOT NULL,
    waiting   TEXT NOT NULL,
    approved  TEXT NOT NULL DEFAULT '[]',
    status    TEXT NOT NULL CHECK (status IN ('waiting', 'done', 'declined', 'expired', 'refused', 'cancelled')),
    reason    TEXT NOT NULL DEFAULT '',
    client_id TEXT NOT NULL,
    created   REAL NOT NULL,
    decided   REAL,
    seq       INTEGER
);
CREATE UNIQUE INDEX IF NOT EXISTS plays_by_client_id ON plays (player, client_id);
CREATE TABLE IF NOT EXISTS phone_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_COLUMNS = "id, player, action, summary, waiting, approved, status, reason, client_id, created, decided, seq"
BANKER = "banker"


def phones_act(table: dict) -> bool:
    """The game option ``phone_actions`` (on by default): players act from their phones."""
    return switch_is_on(table, "phone_actions")


def trusts_table(table: dict) -> bool:
    """The game option ``trust_table``: money from the bank to a player needs no banker's tap."""
    return switch_is_on(table, "trust_table")


def own_field(spec: contract.ActionSpec) -> contract.Field | None:
    """The field a phone fills with its own player: the action's acting field when it names a player
    (a payer may be an account: the player's own cash, never the bank's)."""
    found = contract.acting_field(spec)
    return found if found is not None and (found.kind == "player" or found.role == "payer") else None


def approvers(preview: contract.Preview, player: str, table: dict) -> tuple[str, ...]:
    """Who must approve what ``player`` asked, from the money it moves: each other player it takes
    money from, and the banker when it takes money from the bank or a pot (unless the table is trusted)."""
    out: list[str] = []
    for posting in preview.postings:
        payer = posting.payer
        if payer == player or posting.amount <= 0:
            continue
        who = payer if payer in table["players"] else (None if trusts_table(table) else BANKER)
        if who is not None and who not in out:
            out.append(who)
    return tuple(out)


@dataclass(frozen=True)
class Play:
    """One action a player started from their phone."""

    id: str
    player: str
    action: dict
    summary: str
    waiting: tuple[str, ...]  # who must approve ("banker" or players)
    approved: tuple[str, ...]
    status: str  # waiting, done, declined, expired, refused, cancelled
    reason: str
    client_id: str
    created: float
    decided: float | None
    seq: int | None

    @staticmethod
    def from_row(row: tuple) -> Play:
        (id_, player, action, summary, waiting, approved, status, reason, client_id, created, decided, seq) = row
        return Play(
            id_,
            player,
            json.loads(action),
            summary,
            tuple(json.loads(waiting)),
            tuple(json.loads(approved)),
            status,
            reason,
            client_id,
            created,
            decided,
            seq,
        )

    def row(self) -> tuple:
        return (
            self.id,
            self.player,
            json.dumps(self.action, sort_keys=True),
            self.summary,
            json.dumps(list(self.waiting)),
            json.dumps(list(self.approved)),
            self.status,
            self.reason,
            self.client_id,
            self.created,
            self.decided,
            self.seq,
        )

    @property
    def still_to_approve(self) -> tuple[str, ...]:
        return tuple(w for w in self.waiting if w not in self.approved)

    def as_json(self, now: float, expires: float = EXPIRES_SECONDS) -> dict[str, Any]:
        left = max(0, math.ceil(self.created + expires - now)) if self.status == "waiting" else 0
        return {
            "id": self.id,
            "player": self.player,
            "action": self.action["action"],
            "summary": self.summary,
            "waiting_for": list(self.still_to_approve),
            "approved": list(self.approved),
            "status": self.status,
            "reason": self.reason,
            "seq": self.seq,
            "seconds_left": left,
        }


def _action_id(player: str, client_id: str) -> str:
    """The log's id of a play: the phone's own id for the tap, under its player (a retry applies once)."""
    return f"phone-{hashlib.sha256(player.encode()).hexdigest()[:10]}-{client_id}"


class Plays:
    """The players' own actions of one game. ``banker``: the open :class:`~companion.service.Banker`."""

    def __init__(self, con: sqlite3.Connection, banker, *, clock: Callable[[], float] = time.time) -> None:
        self.con = con
        self.banker = banker
        self.clock = clock
        self.expires: float = EXPIRES_SECONDS  # how long a play waits for its approvals
        con.executescript(_SCHEMA)
        self._subscribers: list[Callable[[Play | None], None]] = []
        self.changes = 0
        # Read once, kept until they change: every phone's page asks for them after every action.
        self._earliest: float | None = None  # when the oldest waiting play was made (inf: none waits)
        self._paused: bool | None = None
        self._offered: tuple[dict, dict, list[contract.ActionSpec]] | None = None
        self._rows_key = -1  # the plays' rows each page shows, read once per change of the plays
        self._rows_of: dict[str, tuple[list[Play], list[Play], list[Play]]] = {}
        self._answered: tuple[int, list[Play]] | None = None
        self._pages: dict[str, tuple[str | None, dict[str, list[dict]]]] = {}
        self._pages_key: tuple = ()
        self._lists: dict[str, dict[str, list[dict]]] = {}
        self._lists_key: tuple = ()
        self._lists_text: dict[str, tuple[dict, str]] = {}  # held lists (so their ids stay theirs), their text
        self._texts: dict[str, str] = {}  # each player's page_text while _texts_key holds
        self._texts_key: tuple = ()
        self._texts_round: Hashable = None  # the round in which _texts_key was last found to hold

    # -- subscribers -------------------------------------------------------------------------------
    def subscribe(self, callback: Callable[[Play | None], None]) -> Callable[[], None]:
        """Call ``callback(play)`` after every change (None: the pause changed)."""
        self._subscribers.append(callback)
        return lambda: self._subscribers.remove(callback) if callback in self._subscribers else None

    def _changed(self, play: Play | None) -> Play | None:
        self.changes += 1
        for callback in list(self._subscribers):
            callback(play)
        return play

    # -- the pause ---------------------------------------------------------------------------------
    @property
    def paused(self) -> bool:
        if self._paused is None:
            row = self.con.execute("SELECT value FROM phone_settings WHERE key = 'paused'").fetchone()
            self._paused = bool(row and row[0] == "yes")
        return self._paused

    def pause(self, paused: bool = True) -> bool:
        """The banker pauses (or resumes) every phone's actions; what it is now."""
        if paused != self.paused:
            self.con.execute(
                "INSERT OR REPLACE INTO phone_settings (key, value) VALUES ('paused', ?)", ("yes" if paused else "no",)
            )
            self._paused = paused
            self._changed(None)
        return paused

    def why_not(self, player: str | None = None) -> str | None:
        """Why phones may not act now (one line), or None when they may."""
        table = self.banker.table
        if not phones_act(table):
            return "the banker has turned off players' actions from phones in this game"
        if self.paused:
            return "the banker has paused actions from phones for a moment"
        if table.get("over"):
            return "the game is over"
        if player is not None and table["players"].get(player, {}).get("bankrupt"):
            return "you are out of the game"
        return None

    # -- what a phone may start --------------------------------------------------------------------
    def offered(self) -> list[contract.ActionSpec]:
        """The actions a player may start from a phone: those with a field a player's own phone fills,
        outside the game's own housekeeping (corrections, the end of the game, bankruptcy)."""
        # what is offered follows the pack's words and the game's options only: worked out again when
        # either changes (a table shares both with the one before it until then), not after every action
        table = self.banker.table
        kept = self._offered
        if kept is None or kept[0] is not table["pack"] or kept[1] is not table["options"]:
            kept = self._offered = (
                table["pack"],
                table["options"],
                [s for s in self.banker.actions() if s.group != "game" and own_field(s) is not None],
            )
        return kept[2]

    def _spec(self, name: object) -> tuple[contract.ActionSpec, contract.Field]:
        for spec in self.offered():
            if spec.name == name:
                own = own_field(spec)
                assert own is not None
                return spec, own
        raise BadAction(f"{shown(name)} is not an action a player starts from a phone in this game")

    def _values(self, spec: contract.ActionSpec, own: contract.Field, player: str, values: object) -> dict:
        if values is None:
            values = {}
        if not isinstance(values, dict):
            raise BadAction("values is a JSON object of the action's fields")
        known = {f.name for f in spec.fields}
        unknown = sorted(k for k in values if k not in known)
        if unknown:
            raise BadAction(f"{spec.name} does not take {', '.join(shown(k) for k in unknown[:5])}")
        given = values.get(own.name)
        if given is not None and given != player:
            raise Refused(f"a phone acts for its own player: {own.says.lower()} is {player}")
        return {**{k: v for k, v in values.items() if v is not None and v != ""}, own.name: player}

    def form(self, player: str, name: object, values: object = None) -> dict[str, Any]:
        """What the phone shows for an action being put together: its fields (the one to ask now with
        the Banker's choices), the optional ones, and once it is complete, the preview's sentence and
        who will approve - or the rule's reason it cannot be done."""
        spec, own = self._spec(name)
        filled = self._values(spec, own, player, values)
        banker = self.banker
        table = banker.table
        asked = banker.next_field(spec.name, filled)
        typed = contract.parse_partial(spec, table, filled)
        fields = []
        for f in spec.fields:
            if f is own or f.name == own.name:
                continue
            shown_now = f.required or f.name in filled or f.asked(table, typed)
            extra = not f.required and not shown_now and f.when is None and f.kind != "deeds"
            if not shown_now and not extra:
                continue
            row: dict[str, Any] = {
                "name": f.name,
                "kind": f.kind,
                "says": f.says,
                "required": f.required,
                "role": f.role,
                "value": filled.get(f.name),
                "asked": asked is not None and f.name == asked.name,
                "optional": not f.required,
            }
            if f.kind in ("amount", "count", "dice", "square"):
                row.update(low=f.low, high=f.high)
            if f.kind == "structured":
                row["schema"] = f.schema
                giver = filled.get((f.schema or {}).get("x-from", ""))  # whose deeds this side hands over
                row["deeds"] = [n for n, rec in table["deeds"].items() if giver and rec.get("owner") == giver]
            if (
                row["asked"]
                or (f.name in filled and f.kind not in ("amount", "text", "structured"))
                or (extra and f.kind in ("choice", "yesno"))
            ):
                row["choices"] = self._choices(spec, f, filled, player)
            fields.append(row)
        out: dict[str, Any] = {
            "action": spec.name,
            "label": spec.label,
            "says": spec.says,
            "own": own.name,
            "values": filled,
            "fields": fields,
            "ready": asked is None,
            "preview": None,
            "refused": None,
            "approval": None,
        }
        if asked is None:
            try:
                p = banker.preview({"action": spec.name, **filled})
            except BankerError as e:
                out["refused"] = str(e)
            else:
                out["preview"] = p.summary
                out["approval"] = list(approvers(p, player, table))
        return out

    def _choices(self, spec: contract.ActionSpec, f: contract.Field, filled: dict, player: str) -> list[dict]:
        partial = {k: v for k, v in filled.items() if k != f.name}
        if f.kind in ("amount", "text", "structured"):
            return []
        try:
            found = self.banker.choices(spec.name, f.name, partial)
        except BankerError:
            return []
        # While a structured part is still to fill (what each side of a trade gives), a candidate judged on
        # the action without it is not refused for good: the refusal shows on the button until it is filled.
        later = any(
            g.kind == "structured" and not g.required and g.when is None and g.name not in filled for g in spec.fields
        )
        return [
            {
                "value": c.value,
                "label": c.label,
                "possible": c.possible or later,
                "why_not": "" if later else c.why_not or "",
                "detail": c.detail,
            }
            for c in found
            if not (f.role in contract.OWN_ROLES and c.value != player)
        ]

    # -- reading -----------------------------------------------------------------------------------
    def _rows(self, where: str, args: tuple = (), limit: int = 100) -> list[Play]:
        sql = f"SELECT {_COLUMNS} FROM plays WHERE {where} ORDER BY created DESC, rowid DESC LIMIT ?"
        return [Play.from_row(row) for row in self.con.execute(sql, (*args, limit))]

    def get(self, play_id: object) -> Play | None:
        if not isinstance(play_id, str) or len(play_id) > 40:
            return None
        rows = self._rows("id = ?", (play_id,), 1)
        return rows[0] if rows else None

    def waiting(self) -> list[Play]:
        """Plays waiting for an approval, oldest first (expired ones are marked so first)."""
        self.sweep()
        return list(reversed(self._rows("status = 'waiting'")))

    def of_player(self, player: str, limit: int = 6) -> list[Play]:
        """A player's own latest plays, newest first."""
        self.sweep()
        return self._rows("player = ?", (player,), limit)

    def for_approval(self, who: str) -> list[Play]:
        """Waiting plays that ``who`` (a player, or "banker") has still to approve, oldest first."""
        return [p for p in self.waiting() if who in p.still_to_approve]

    def page(self, player: str) -> dict[str, Any]:
        """The part of a player's page about their own actions (made once per change of the game or of
        the plays, whatever the number of phones)."""
        why, lists = self._page_parts(player)
        return {"why_not": why, **lists}

    def _page_parts(self, player: str) -> tuple[str | None, dict[str, list[dict]]]:
        """:meth:`page` in its two parts: why the player may not act (worked out once per change of the
        game or of the plays), and their lists (:meth:`_lists_of`, the same object while they stay)."""
        self.sweep()
        key = (self.changes, self.banker.version, self.paused, self.freshness())
        if key != self._pages_key:
            self._pages, self._pages_key = {}, key
        made = self._pages.get(player)
        if made is None:
            made = self._pages[player] = (self.why_not(player), self._lists_of(player))
        return made

    def page_text(self, player: str, round: Hashable = None) -> str:
        """:meth:`page` as JSON text (as :func:`~companion.web.jsontext.safe_text` writes it), written once
        while what it is made of stays: the plays, the pause, what is offered, and what ``why_not`` reads
        of the table (its options, whether it is over, the players' records); while a play waits, once
        per game version and :meth:`freshness` as :meth:`page` is. Its lists are written once while they
        stay the same lists (the biggest part of a player's page to encode).

        ``round``: a value that reads the same only while none of that changes (the phones' desk passes
        the generation of its pages, which moves at every change of the game and of the plays and with
        :meth:`freshness`): the check is made once per round, not once per player. None: every call checks."""
        if round is None or round != self._texts_round:
            fresh = self.freshness()  # marks the plays not approved in time first
            table = self.banker.table
            key = (
                self.changes,
                self.paused,
                fresh,
                None if fresh is None else self.banker.version,
                table["pack"],  # with the options: what is offered (offered() is worked out from these two)
                table.get("options"),
                table.get("over"),
                table["players"],
            )
            if key != self._texts_key:
                self._texts, self._texts_key = {}, key
            self._texts_round = round
        text = self._texts.get(player)
        if text is None:
            why, lists = self._page_parts(player)
            kept = self._lists_text.get(player)
            if kept is None or kept[0] is not lists:  # held, so its id stays its own while kept
                kept = self._lists_text[player] = (lists, safe_text(lists)[1:-1])
            text = self._texts[player] = (
                '{"why_not":' + ("null" if why is None else safe_text(why)) + "," + kept[1] + "}"
            )
        return text

    def _lists_of(self, player: str) -> dict[str, list[dict]]:
        """The lists of a player's page: what they may start, their plays, those they approve, the
        answered. Kept until the plays or what is offered change, unless a play in them waits (its
        seconds left are counted at each page)."""
        offered = self.offered()
        kept = self._lists_key
        if not kept or kept[0] != self.changes or kept[1] is not offered:
            self._lists, self._lists_key = {}, (self.changes, offered)
        made = self._lists.get(player)
        if made is None:
            now = self.clock()
            mine, to_approve, answered = self._rows_for(player)
            made = {
                "offered": [{"name": s.name, "label": s.label} for s in offered],
                "mine": [p.as_json(now, self.expires) for p in mine],
                "to_approve": [p.as_json(now, self.expires) for p in to_approve],
                "answered_for_me": [p.as_json(now, self.expires) for p in answered],
            }
            if not any(p.status == "waiting" for rows in (mine, to_approve, answered) for p in rows):
                self._lists[player] = made
        return made

    def _rows_for(self, player: str) -> tuple[list[Play], list[Play], list[Play]]:
        """A player's own latest plays, those waiting for their approval and the latest that waited for
        it and are answered now (one expired: the approver is told so too), read from the phones file
        once per change of the plays (every write here counts a change), not once per game action."""
        if self._rows_key != self.changes:
            self._rows_of, self._rows_key = {}, self.changes
        rows = self._rows_of.get(player)
        if rows is None:
            rows = self._rows_of[player] = (
                self.of_player(player),
                self.for_approval(player),
                self.answered_for(player),
            )
        return rows

    def answered_for(self, who: str, limit: int = 3) -> list[Play]:
        """The latest plays that waited for ``who``'s approval and are answered now, newest first (the
        answered rows read once per change of the plays for every phone)."""
        if self._answered is None or self._answered[0] != self.changes:
            asked = "status != 'waiting' AND waiting != '[]'"  # a play its own tap approved asked nobody
            self._answered = (self.changes, self._rows(asked, (), KEEP_ANSWERED))
        return [p for p in self._answered[1] if who in p.waiting][:limit]

    def banker_page(self) -> dict[str, Any]:
        now = self.clock()
        return {
            "paused": self.paused,
            "enabled": phones_act(self.banker.table),
            "waiting": [p.as_json(now, self.expires) for p in self.waiting()],
        }

    def sweep(self) -> int:
        """Mark plays not approved in time as expired; how many (no read at all while none is due)."""
        now = self.clock()
        if self._earliest is None:
            oldest = self.con.execute("SELECT min(created) FROM plays WHERE status = 'waiting'").fetchone()[0]
            self._earliest = math.inf if oldest is None else oldest
        if self._earliest + self.expires > now:
            return 0
        self._earliest = None
        limit = now - self.expires
        late = [
            Play.from_row(r)
            for r in self.con.execute(
                f"SELECT {_COLUMNS} FROM plays WHERE status = 'waiting' AND created < ?", (limit,)
            )
        ]
        within = f"{self.expires // 60:g} minutes" if self.expires % 60 == 0 else f"{self.expires:g} seconds"
        for play in late:
            self._answer(play, "expired", f"not approved within {within}; ask again if it still applies")
        return len(late)

    def freshness(self) -> int | None:
        """While a play waits: a number that changes every :data:`FRESH_SECONDS`, so a page made for a
        phone that comes later counts its seconds left from then; None while nothing waits."""
        if self._earliest == math.inf:  # known to wait for nothing (every stream asks after every change)
            return None
        self.sweep()
        if self._earliest is None:
            self.sweep()
        waits = self._earliest is not None and self._earliest != math.inf
        return int(self.clock() // FRESH_SECONDS) if waits else None

    # -- a player acts -----------------------------------------------------------------------------
    def start(self, player: str, name: object, values: object, client_id: object, seen: object = None):
        """A player commits an action from their phone: done at once when only their own money moves,
        else waiting for the approvals it needs. Returns ``(play, outcome or None)``.

        ``client_id`` names this one tap (a retry with it returns the first answer); ``seen`` is the
        sentence the player saw on the button: if the table has changed it since, the play is refused
        with the new sentence."""
        if not isinstance(client_id, str) or not 1 <= len(client_id) <= 40 or not client_id.isascii():
            raise BadAction("id is text of 1 to 40 plain characters naming this one tap")
        seen_before = self._rows("player = ? AND client_id = ?", (player, client_id), 1)
        if seen_before:
            play = seen_before[0]
            outcome = self.banker.do(play.action) if play.status == "done" else None
            return play, outcome
        why = self.why_not(player)
        if why:
            raise Refused(why)
        spec, own = self._spec(name)
        filled = self._values(spec, own, player, values)
        action = {"action": spec.name, **filled, "id": _action_id(player, client_id), "by": player}
        preview = self.banker.preview(action)
        self._same_sentence(preview.summary, seen)
        need = approvers(preview, player, self.banker.table)
        now = self.clock()
        play = Play(
            "p" + secrets.token_hex(6),
            player,
            action,
            preview.summary,
            need,
            (),
            "waiting",
            "",
            client_id,
            now,
            None,
            None,
        )
        if not need:
            # Recorded as done before the commit, quietly, so the pages the commit sends out already show
            # it: one page per phone for one action, not a second one a moment later.
            play = replace(play, status="done", decided=now)
            self._insert(play)
            self.changes += 1
            try:
                outcome = self.banker.do(action)
            except BankerError:
                self.con.execute("DELETE FROM plays WHERE id = ?", (play.id,))
                self.changes += 1
                raise
            # No write after the commit: the phones' pages go out now, not after another fsync. The log
            # finds the entry by the play's action id.
            return replace(play, seq=outcome.entry.seq), outcome
        waiting = self.con.execute(
            "SELECT count(*) FROM plays WHERE player = ? AND status = 'waiting'", (player,)
        ).fetchone()[0]
        if waiting >= MAX_WAITING:
            raise Refused(f"you already have {waiting} actions waiting for approval")
        self._insert(play)
        return self._changed(play), None

    def _insert(self, play: Play) -> None:
        self.con.execute(f"INSERT INTO plays ({_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", play.row())
        self._earliest = None
        self._prune()

    def _prune(self) -> None:
        self.con.execute(
            "DELETE FROM plays WHERE status != 'waiting' AND rowid NOT IN "
            "(SELECT rowid FROM plays WHERE status != 'waiting' ORDER BY created DESC, rowid DESC LIMIT ?)",
            (KEEP_ANSWERED,),
        )

    @staticmethod
    def _same_sentence(summary: str, seen: object) -> None:
        if seen is not None and seen != summary:
            raise Refused(f"the table has changed: it would now be \u201c{summary}\u201d; look again and confirm")

    def _waiting(self, play_id: object) -> Play:
        self.sweep()
        play = self.get(play_id)
        if play is None:
            raise LookupError("no such action waiting")
        if play.status != "waiting":
            raise Refused(f"that action was already {play.status}" + (f": {play.reason}" if play.reason else ""))
        return play

    def approve(self, play_id: object, who: str, seen: object = None):
        """``who`` (a player or "banker") approves; the last approval commits it on the newest table.
        Returns ``(play, outcome or None)``; a rule's refusal ends the play with the rule's reason."""
        play = self.get(play_id)
        if play is not None and play.status == "done" and who in play.approved:  # a retry of the last tap
            return play, self.banker.do(play.action)
        play = self._waiting(play_id)
        if who not in play.still_to_approve:
            raise PermissionError("this action does not wait for your approval")
        if who != BANKER:
            why = self.why_not(who)
            if why:
                raise Refused(why)
        try:
            preview = self.banker.preview(play.action)
            self._same_sentence(preview.summary, seen if seen is not None else play.summary)
        except BankerError as e:
            self._answer(play, "refused", str(e))
            raise
        play = replace(play, approved=(*play.approved, who))
        if play.still_to_approve:
            self.con.execute(
                "UPDATE plays SET approved = ? WHERE id = ? AND status = 'waiting'",
                (json.dumps(list(play.approved)), play.id),
            )
            return self._changed(play), None
        # Done before the commit, quietly (see start): the commit's own pages show it done.
        done = self._answer(play, "done", "", approved=play.approved, notify=False)
        try:
            outcome = self.banker.do(play.action)
        except BankerError as e:
            self.con.execute("UPDATE plays SET status = 'refused', reason = ? WHERE id = ?", (str(e), play.id))
            self._changed(replace(done, status="refused", reason=str(e)))
            raise
        return replace(done, seq=outcome.entry.seq), outcome

    def decline(self, play_id: object, who: str, reason: object = "") -> Play:
        """An approver (a player or "banker") says no; the reason goes to the asker's phone."""
        play = self._waiting(play_id)
        if who not in play.still_to_approve:
            raise PermissionError("this action does not wait for your approval")
        text = clean_text(reason, "reason", 120) if reason else ""
        said = "the banker" if who == BANKER else who
        return self._answer(play, "declined", text or f"{said} said no")

    def cancel(self, play_id: object, player: str) -> Play:
        """The asker withdraws their own waiting action."""
        play = self._waiting(play_id)
        if play.player != player:
            raise PermissionError("that is another player's action")
        return self._answer(play, "cancelled", "withdrawn by the player")

    def _answer(
        self,
        play: Play,
        status: str,
        reason: str,
        seq: int | None = None,
        approved: tuple[str, ...] | None = None,
        notify: bool = True,
    ) -> Play:
        decided = self.clock()
        approved = play.approved if approved is None else approved
        cur = self.con.execute(
            "UPDATE plays SET status = ?, reason = ?, decided = ?, seq = ?, approved = ? WHERE id = ? AND status = 'waiting'",
            (status, reason, decided, seq, json.dumps(list(approved)), play.id),
        )
        if cur.rowcount != 1:
            raise Refused("that action was answered meanwhile")
        done = replace(play, status=status, reason=reason, decided=decided, seq=seq, approved=approved)
        if notify:
            self._changed(done)
        else:
            self.changes += 1
        self._earliest = None
        return done
