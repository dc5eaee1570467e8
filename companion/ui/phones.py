"""The players' phones, seen from the touchscreen: the phone server beside the app, join links and
their QR codes, and the payment requests waiting for the banker.

The server runs on the app's own asyncio loop, so it shares the open game's Banker with the screens
and needs no locks. The touchscreen does not import the phones' adapter: the composition root
(:mod:`companion.appliance`) hands in its server class (``server_factory``); without one the app runs
without phones and says so. No Kivy here.
"""

from __future__ import annotations

import logging
from typing import Any, Callable

from companion.core.errors import BankerError

from .desk import Result
from companion.settings import UiSettings

__all__ = ["Phones", "request_rows", "play_rows", "entry_text", "DECLINE_REASONS"]

log = logging.getLogger(__name__)

#: One-tap reasons for declining a request (the phone shows the reason).
DECLINE_REASONS = ("Not now: ask at the table", "Wrong amount", "Wrong player")


class Phones:
    """The phone server for the open game, started and stopped with it."""

    def __init__(
        self,
        settings: UiSettings,
        *,
        server_factory: Callable[..., Any] | None = None,
        advertise: bool = True,
        interfaces: list[str] | None = None,
        lan_address: str | None = None,
    ) -> None:
        self.settings = settings
        self.server_factory = server_factory
        self.advertise = advertise
        self.interfaces = interfaces
        self.lan_address = lan_address
        self.server: Any = None
        self.problem: str | None = None if server_factory else "the phones' server is not installed"
        self._unsubscribe: Callable[[], None] | None = None
        self._unsubscribe_plays: Callable[[], None] | None = None

    @property
    def installed(self) -> bool:
        return self.server_factory is not None

    @property
    def running(self) -> bool:
        return self.server is not None

    def status_text(self) -> str:
        if self.server is not None:
            return f"Phones: {self.server.url}"
        if not self.settings.phones:
            return "Phones are off (Settings)"
        return f"Phones are not connected: {self.problem}" if self.problem else "Phones: starting..."

    async def start(self, banker, on_change: Callable[[Any], None] | None = None) -> str | None:
        """Listen for phones on the settings' address; the reason it could not, or None."""
        await self.stop()
        server_class = self.server_factory
        if server_class is None:
            self.problem = "the phones' server is not installed"
            return self.problem
        try:
            server = server_class(
                banker,
                host=self.settings.host,
                port=self.settings.port,
                advertise=self.advertise,
                interfaces=self.interfaces,
                lan_address=self.lan_address,
            )
            await server.start()
        except (OSError, ValueError, BankerError) as e:
            self.problem = f"cannot listen on {self.settings.host}:{self.settings.port} ({e})"
            log.warning("phones: %s", self.problem)
            return self.problem
        self.server, self.problem = server, None
        if on_change is not None:
            self._unsubscribe = server.requests.subscribe(on_change)
            plays = getattr(server, "plays", None)
            self._unsubscribe_plays = plays.subscribe(on_change) if plays is not None else None
        return None

    async def stop(self) -> None:
        """Stop the server (safe twice)."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        if self._unsubscribe_plays is not None:
            self._unsubscribe_plays()
            self._unsubscribe_plays = None
        server, self.server = self.server, None
        if server is not None:
            try:
                await server.stop()
            finally:
                server.close()

    # -- join links ---------------------------------------------------------------------------------
    def join_url(self, player: str) -> str | None:
        return self.server.join_url(player) if self.server else None

    def banker_url(self) -> str | None:
        return self.server.banker_url() if self.server else None

    def revoke(self, player: str | None) -> bool:
        return bool(self.server and self.server.revoke(player))

    # -- payment requests ---------------------------------------------------------------------------
    def pending(self) -> list:
        return self.server.requests.pending() if self.server else []

    def approve(self, request_id: str) -> Result:
        if self.server is None:
            return Result(False, "the phones are not connected")
        try:
            outcome = self.server.requests.approve(request_id)
        except (BankerError, LookupError) as e:
            return Result(False, str(e).strip("'\""))
        return Result(True, outcome.summary, outcome.version)

    def decline(self, request_id: str, reason: str) -> Result:
        if self.server is None:
            return Result(False, "the phones are not connected")
        try:
            self.server.requests.decline(request_id, reason)
        except (BankerError, LookupError) as e:
            return Result(False, str(e).strip("'\""))
        return Result(True, f"declined: {reason}")

    # -- players' own actions from their phones ------------------------------------------------------
    def plays_waiting(self) -> list:
        """Players' actions that wait for the banker (the bank's money), oldest first."""
        return self.server.plays.for_approval("banker") if self.server else []

    def waiting_count(self) -> int:
        """How many things from the phones wait for the banker's tap: players' actions that take the
        bank's money and payment requests (the table screen's badge)."""
        if self.server is None:
            return 0
        return len(self.plays_waiting()) + len(self.pending())

    def approve_play(self, play_id: str) -> Result:
        """The banker's tap: the action is decided on the newest table and committed (or refused)."""
        if self.server is None:
            return Result(False, "the phones are not connected")
        try:
            _, outcome = self.server.plays.approve(play_id, "banker")
        except (BankerError, LookupError, PermissionError) as e:
            return Result(False, str(e).strip("'\""))
        if outcome is None:
            return Result(True, "approved; other players still to approve")
        return Result(True, outcome.summary, outcome.version)

    def decline_play(self, play_id: str, reason: str) -> Result:
        if self.server is None:
            return Result(False, "the phones are not connected")
        try:
            self.server.plays.decline(play_id, "banker", reason)
        except (BankerError, LookupError, PermissionError) as e:
            return Result(False, str(e).strip("'\""))
        return Result(True, f"declined: {reason}")

    @property
    def paused(self) -> bool:
        return bool(self.server and self.server.plays.paused)

    def pause(self, paused: bool) -> Result:
        """One tap pauses (or resumes) every phone's actions at the table."""
        if self.server is None:
            return Result(False, "the phones are not connected")
        self.server.plays.pause(paused)
        return Result(True, "Phones' actions paused" if paused else "Phones may act again")


def entry_text(entry) -> str:
    """A log entry as the touchscreen tells it the moment it is committed: whose phone started it, if one did."""
    by = entry.action.get("by") if isinstance(entry.action, dict) else None
    return f"{by}'s phone: {entry.summary}" if by else entry.summary


def play_rows(plays: list) -> list[dict[str, Any]]:
    """What the requests screen shows of each player's action waiting for the banker: its sentence."""
    return [
        {"id": p.id, "text": f"{p.player}'s phone: {p.summary}", "player": p.player, "refused": None} for p in plays
    ]


def request_rows(requests: list, desk) -> list[dict[str, Any]]:
    """What the requests screen shows of each waiting request, with whether the rules allow it now."""
    rows = []
    for r in requests:
        check = desk.check(r.action)
        payee = desk.account_name(r.payee)
        rows.append(
            {
                "id": r.id,
                "text": f"{r.player} asks to pay {payee} {desk.fmt(r.amount)}" + (f" ({r.memo})" if r.memo else ""),
                "player": r.player,
                "refused": None if check.ok else check.text,
            }
        )
    return rows
