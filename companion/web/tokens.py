"""Join tokens: the capability behind each QR code.

One token per player per game (and one for the banker), 192 random bits from :mod:`secrets`, kept in
the game's phones file so the QR codes stay valid when the app restarts. Whoever holds a player's
token sees that player's phone page; nothing else - not the address a request comes from - grants
anything. Revoking a token (a phone was lost, a code was photographed) makes a new one on the next
:meth:`JoinTokens.for_player`. Player tokens also stop working when the game ends (see
:meth:`~companion.web.desk.PhoneDesk.authorise`).

Another program may issue or withdraw tokens in the same file (a second server on the game). While the
server runs, the kernel says when the phones file is written (:meth:`JoinTokens.watch`, inotify, as the
game's own watch hears the game, :mod:`companion.watch`), and the tokens are read again on the next
question after that: between two writes a question costs a dictionary lookup and nothing else. Without
the kernel's notifications (not Linux, a phones file in WAL mode, a desk not served) the file is asked
whether another program changed it (``PRAGMA data_version``) at most every :attr:`JoinTokens.RECHECK`
seconds.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from companion.watch import IN_MODIFY, Inotify

from .sidecar import now

__all__ = ["Pass", "JoinTokens", "TOKEN_BYTES", "WITHDRAWN"]

WITHDRAWN = "this phone's link was withdrawn by the banker; scan a new code"
TOKEN_BYTES = 24  # 192 bits; URL-safe base64 makes 32 characters
_MAX_TOKEN = 64

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Pass:
    """What a token lets its holder do: ``role`` is "player" (then ``player`` names them) or "banker"."""

    token: str
    role: str
    player: str | None = None

    @property
    def key(self) -> str:
        """A short, non-secret name for this holder (rate limits, logs): never the token itself."""
        return f"{self.role}:{self.player or ''}:{_digest(self.token)[:8]}"


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


class _Writes(Inotify):
    """The kernel's notifications of writes to one file (the phones file itself, not its folder: the
    game's commits beside it say nothing here)."""

    MASK = IN_MODIFY


class JoinTokens:
    """The tokens of one game, kept in memory and read again when another program changed the file.

    Looked up by the token itself: a dictionary compares the interpreter's hash of the presented text
    (SipHash, keyed at random per process) before it compares any character, and compares characters
    only when the whole hash matches, so how long a wrong token takes says nothing about a right one.
    """

    #: How often (seconds) to ask the file whether another program changed it, without the kernel's word.
    RECHECK = 0.5

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con
        self._data_version = -1
        self._checked = float("-inf")
        self._by_token: dict[str, Pass] = {}
        self.changes = 0  # how many times the valid tokens were read afresh
        self._writes: _Writes | None = None  # the kernel's word on writes to the file (see watch)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stale = True  # watched: a write was heard since the last look
        self._reload(force=True)

    # -- hearing other programs ----------------------------------------------------------------------
    def watch(self, path: Path) -> bool:
        """Hear from the kernel when the phones file at ``path`` is written (on this running loop) and
        look at it only then; True if the kernel will tell, False to go on asking every :attr:`RECHECK`
        seconds (no inotify, or a file in WAL mode, whose writes go to another file first)."""
        if self._writes is not None:
            return True
        loop = asyncio.get_running_loop()
        mode = self.con.execute("PRAGMA journal_mode").fetchone()[0]
        if str(mode).lower() == "wal":
            return False
        try:
            writes = _Writes(path)
        except OSError as error:
            log.info("no file notifications for %s (%s): asking it every %s s", path, error, self.RECHECK)
            return False
        loop.add_reader(writes.fd, self._heard)
        self._loop, self._writes = loop, writes
        self._stale = True  # a write before the watch began is looked for once
        return True

    def unwatch(self) -> None:
        """Stop hearing the kernel (back to asking every :attr:`RECHECK` seconds). Safe twice."""
        writes, self._writes = self._writes, None
        if writes is None:
            return
        if self._loop is not None and not self._loop.is_closed():
            self._loop.remove_reader(writes.fd)
        self._loop = None
        writes.close()
        self._checked = float("-inf")  # the next question asks the file

    @property
    def watched(self) -> bool:
        """True while the kernel's notifications say when to look."""
        return self._writes is not None

    def _heard(self) -> None:
        """The phones file was written (by this process or another): look on the next question."""
        if self._writes is not None:
            self._writes.names()  # empty the queue; what was written is asked of the file itself
            self._stale = True

    # -- looking -----------------------------------------------------------------------------------
    def _reload(self, force: bool = False) -> None:
        if self._writes is not None:
            if not (self._stale or force):
                return
            self._stale = False  # a write from now on is heard again
        else:
            now = time.monotonic()
            if not force and now - self._checked < self.RECHECK:
                return  # every live page asks on every change: keep it to a dictionary lookup
            self._checked = now
        version = self.con.execute("PRAGMA data_version").fetchone()[0]
        if version == self._data_version and not force:
            return
        self._data_version = version
        rows = self.con.execute("SELECT token, role, player FROM tokens WHERE revoked IS NULL").fetchall()
        self._by_token = {t: Pass(t, role, player) for t, role, player in rows}
        self.changes += 1

    def refresh(self) -> int:
        """Look for tokens issued or withdrawn (by this process, or another: heard from the kernel, or
        at most :attr:`RECHECK` seconds ago); how many times they changed so far, to tell whether an
        answer still holds."""
        self._reload()
        return self.changes

    # -- reading -----------------------------------------------------------------------------------
    def check(self, token: object) -> Pass | None:
        """The pass a presented token grants, or None (unknown, revoked, or not even token-shaped)."""
        if not isinstance(token, str) or not 16 <= len(token) <= _MAX_TOKEN:
            return None
        self._reload()
        return self._by_token.get(token)

    def withdrawn(self, token: object) -> bool:
        """True if ``token`` was a real token of this game that has since been revoked."""
        if not isinstance(token, str) or not 16 <= len(token) <= _MAX_TOKEN:
            return False
        row = self.con.execute("SELECT 1 FROM tokens WHERE token = ? AND revoked IS NOT NULL", (token,)).fetchone()
        return row is not None

    def active(self) -> list[Pass]:
        self._reload()
        return list(self._by_token.values())

    # -- writing -----------------------------------------------------------------------------------
    def _current(self, role: str, player: str | None) -> str | None:
        self._reload()
        for p in self._by_token.values():
            if p.role == role and p.player == player:
                return p.token
        return None

    def _issue(self, role: str, player: str | None) -> str:
        with self.con:
            self.con.execute("BEGIN IMMEDIATE")
            row = self.con.execute(
                "SELECT token FROM tokens WHERE role = ? AND player IS ? AND revoked IS NULL", (role, player)
            ).fetchone()
            if row:
                token = row[0]
            else:
                token = secrets.token_urlsafe(TOKEN_BYTES)
                self.con.execute(
                    "INSERT INTO tokens (token, role, player, created) VALUES (?, ?, ?, ?)",
                    (token, role, player, now()),
                )
        self._reload(force=True)
        return token

    def for_player(self, player: str) -> str:
        """The player's token, made on first use."""
        return self._current("player", player) or self._issue("player", player)

    def for_banker(self) -> str:
        """The banker's token, made on first use."""
        return self._current("banker", None) or self._issue("banker", None)

    def revoke(self, player: str | None = None, *, role: str = "player") -> bool:
        """Withdraw a player's (or, with ``role="banker"``, the banker's) token; True if there was one."""
        with self.con:
            self.con.execute("BEGIN IMMEDIATE")
            cur = self.con.execute(
                "UPDATE tokens SET revoked = ? WHERE role = ? AND player IS ? AND revoked IS NULL",
                (now(), role, player if role == "player" else None),
            )
        self._reload(force=True)
        return cur.rowcount > 0
