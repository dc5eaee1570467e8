"""The door of the phone server: who may hold a connection open, and for how long.

A guest's phone (or a buggy one) can open connections and never finish a request. The door keeps the
table's phones served anyway:

* a connection that has not sent a whole request head within ``header_seconds`` of opening is closed
  (after a response, aiohttp's keep-alive timeout, set to the same, closes an idle or stalled one; a
  body gets ``body_seconds`` in :func:`companion.web.intake.read_json`);
* one device address may hold ``connections_per_address`` at once, and everyone together
  ``connections`` - never more than the process's open-files limit leaves room for. A connection
  beyond either is answered **503** with one line and closed at once, before any request is read;
* a refused device is written to the log once per minute, not once per connection, so a flood cannot
  fill the SD card.

Install with :meth:`Door.watch` on an :class:`aiohttp.web.AppRunner`'s server after ``setup()``, and
put :data:`Door.middleware` first in the app. Loop-only, no locks.
"""

from __future__ import annotations

import asyncio
import logging
import resource
from collections import Counter
from typing import Callable

from aiohttp import web

from .limits import Limits

__all__ = ["Door", "RESERVED_FILES", "open_files_limit"]

log = logging.getLogger(__name__)

RESERVED_FILES = 64  # the game file, its journal, the phones file, zeroconf's sockets, the screen's own
LOG_EVERY = 60.0  # seconds between two log lines about the same refused address


def open_files_limit() -> int | None:
    """The process's soft limit on open files, or None if there is none."""
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def _refusal(text: str) -> bytes:
    body = (text + "\n").encode()
    return (
        b"HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
        b"Retry-After: 5\r\nConnection: close\r\nServer: Table Banker\r\n"
        b"Content-Length: %d\r\n\r\n" % len(body)
    ) + body


TOO_MANY_HERE = _refusal("too many connections from this device; close some pages and try again")
TOO_MANY = _refusal("the table's server is full right now; try again in a moment")


class Door:
    """Counts open connections per address and closes the ones that overstay.

    A connection is counted by its own lifecycle: aiohttp makes one request handler (an asyncio
    protocol) per connection and tells the server ``connection_made`` and ``connection_lost`` for it
    exactly once each. The door keys everything by that handler, never by the handler's transport:
    aiohttp drops a handler's transport (sets it to None) as soon as it closes a connection itself
    (a ``Connection: close`` answer, a keep-alive timeout, a refusal that hangs up), before
    ``connection_lost`` arrives, so a count released through the transport would never come back.
    """

    def __init__(self, limits: Limits, *, clock: Callable[[], float] | None = None) -> None:
        self.limits = limits
        self.clock = clock or limits.clock
        files = open_files_limit()
        room = self.limits.connections if files is None else min(self.limits.connections, files - RESERVED_FILES)
        self.most = max(1, room)
        self.open: Counter[str] = Counter()
        self.refused: Counter[str] = Counter()
        self._addresses: dict[object, str] = {}  # handler -> the address it was counted against
        self._timers: dict[object, asyncio.TimerHandle] = {}  # handler -> its head timer
        self._logged: dict[str, float] = {}

    @property
    def total(self) -> int:
        return len(self._addresses)

    # -- aiohttp hooks -----------------------------------------------------------------------------
    def watch(self, server: web.Server) -> None:
        """Guard every connection the server accepts from now on."""
        made, lost = server.connection_made, server.connection_lost

        def connection_made(handler, transport) -> None:
            if self._admit(handler, transport):
                made(handler, transport)

        def connection_lost(handler, exc=None) -> None:
            self._gone(handler)
            lost(handler, exc)

        server.connection_made = connection_made  # type: ignore[method-assign]  # the door wraps this server's
        server.connection_lost = connection_lost  # type: ignore[method-assign]

    @web.middleware
    async def middleware(self, request: web.Request, handler):
        """A whole request head arrived on this connection: the head timer has done its work."""
        timer = self._timers.pop(request.protocol, None)
        if timer is not None:
            timer.cancel()
        return await handler(request)

    # -- the rules ---------------------------------------------------------------------------------
    def _admit(self, handler, transport) -> bool:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if peer else "unknown"
        if self.open[address] >= self.limits.connections_per_address:
            return self._turn_away(transport, address, TOO_MANY_HERE, "this device has")
        if self.total >= self.most:
            return self._turn_away(transport, address, TOO_MANY, "everyone together has")
        self.open[address] += 1
        self._addresses[handler] = address
        loop = asyncio.get_running_loop()
        self._timers[handler] = loop.call_later(self.limits.header_seconds, self._too_slow, handler, transport)
        return True

    def _turn_away(self, transport, address: str, answer: bytes, who: str) -> bool:
        self.refused[address] += 1
        now = self.clock()
        if now - self._logged.get(address, float("-inf")) >= LOG_EVERY:
            self._logged[address] = now
            log.warning(
                "refused a connection from %s: %s too many open (%d from it, %d in all); "
                "further refusals from it are not logged for a minute",
                address,
                who,
                self.open[address],
                self.total,
            )
        try:
            transport.write(answer)
        finally:
            transport.close()  # no request is read from a refused connection
        return False

    def _too_slow(self, handler, transport) -> None:
        """No whole request head within ``header_seconds``: hang up (connection_lost follows)."""
        if self._timers.pop(handler, None) is not None and not transport.is_closing():
            transport.close()

    def _gone(self, handler) -> None:
        """The connection of ``handler`` is closed, whoever closed it: release what it held, once."""
        timer = self._timers.pop(handler, None)
        if timer is not None:
            timer.cancel()
        address = self._addresses.pop(handler, None)
        if address is None:
            return  # a refused connection: never counted (or already released)
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]
