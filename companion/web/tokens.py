"""Join tokens: the capability behind each QR code.

One token per player per game (and one for the banker), 192 random bits from :mod:`secrets`, kept in
the game's phones file so the QR codes stay valid when the app restarts. Whoever holds a player's
token sees that player's phone page; nothing else - not the address a request comes from - grants
anything. Revoking a token (a phone was lost, a code was photographed) makes a new one on the next
:meth:`JoinTokens.for_player`. Player tokens also stop working when the game ends (see
:meth:`~companion.web.desk.PhoneDesk.authorise`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import sqlite3
import time
from dataclasses import dataclass

from .sidecar import now

__all__ = ["Pass", "JoinTokens", "TOKEN_BYTES", "WITHDRAWN"]

WITHDRAWN = "this phone's link was withdrawn by the banker; scan a new code"
TOKEN_BYTES = 24  # 192 bits; URL-safe base64 makes 32 characters
_MAX_TOKEN = 64


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


class JoinTokens:
    """The tokens of one game, cached in memory and re-read when another process changed the file."""

    #: How often (seconds) to look for changes another process made to the file.
    RECHECK = 0.5

    def __init__(self, con: sqlite3.Connection) -> None:
        self.con = con
        self._data_version = -1
        self._checked = float("-inf")
        self._by_digest: dict[str, Pass] = {}
        self.changes = 0  # how many times the valid tokens were read afresh
        self._reload()

    def _reload(self) -> None:
        now = time.monotonic()
        if self._data_version != -1 and now - self._checked < self.RECHECK:
            return  # every live page asks on every change: keep it to a dictionary lookup
        self._checked = now
        version = self.con.execute("PRAGMA data_version").fetchone()[0]
        if version == self._data_version:
            return
        self._data_version = version
        rows = self.con.execute("SELECT token, role, player FROM tokens WHERE revoked IS NULL").fetchall()
        self._by_digest = {_digest(t): Pass(t, role, player) for t, role, player in rows}
        self.changes += 1

    def refresh(self) -> int:
        """Look for tokens issued or withdrawn (by this process, or another at most :attr:`RECHECK`
        seconds ago); how many times they changed so far, to tell whether an answer still holds."""
        self._reload()
        return self.changes

    # -- reading -----------------------------------------------------------------------------------
    def check(self, token: object) -> Pass | None:
        """The pass a presented token grants, or None (unknown, revoked, or not even token-shaped)."""
        if not isinstance(token, str) or not 16 <= len(token) <= _MAX_TOKEN:
            return None
        self._reload()
        found = self._by_digest.get(_digest(token))
        if found is None or not hmac.compare_digest(found.token, token):
            return None
        return found

    def withdrawn(self, token: object) -> bool:
        """True if ``token`` was a real token of this game that has since been revoked."""
        if not isinstance(token, str) or not 16 <= len(token) <= _MAX_TOKEN:
            return False
        row = self.con.execute("SELECT 1 FROM tokens WHERE token = ? AND revoked IS NOT NULL", (token,)).fetchone()
        return row is not None

    def active(self) -> list[Pass]:
        self._reload()
        return list(self._by_digest.values())

    # -- writing -----------------------------------------------------------------------------------
    def _current(self, role: str, player: str | None) -> str | None:
        self._reload()
        for p in self._by_digest.values():
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
        self._data_version = -1
        self._reload()
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
        self._data_version = -1
        self._reload()
        return cur.rowcount > 0
