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

The door stands at the listening socket itself (:meth:`Door.open_on`): it takes each connection off the
accept queue, and one it turns away is answered and closed right there, with three system calls and no
object made for it: no transport, no request handler, no task. A flood of refused connections then
costs the server a few microseconds each, so the phones' pages keep the little processor time a busy
machine leaves the server. A connection let in gets its place counted at once (so a burst cannot slip
past the caps before its handlers exist) and is handed to asyncio and aiohttp as usual.

Install with :meth:`Door.watch` on an :class:`aiohttp.web.AppRunner`'s server after ``setup()``, then
:meth:`Door.open_on` with the site's listening sockets once it listens; keep the door in the app under
:data:`DOOR`, where the guard (:class:`companion.web.security.Guard`, around every route's handler)
tells it of a request head that arrived while a connection still awaits its first (:meth:`Door.arrived`).
Loop-only, no locks.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import resource
import socket
from collections import Counter
from typing import Callable, Iterable

from aiohttp import web

from .limits import Limits

__all__ = ["DOOR", "Door", "RESERVED_FILES", "open_files_limit"]

log = logging.getLogger(__name__)

RESERVED_FILES = 64  # the game file, its journal, the phones file, zeroconf's sockets, the screen's own
LOG_EVERY = 60.0  # seconds between two log lines about the same refused address
#: Connections the door takes off the accept queue in one go: a flood's burst is taken in small bites, so
#: the open pages' updates run between them.
ACCEPT_BATCH = 32
#: Out of open files (or kernel memory) to accept with: leave the queue alone this long, as asyncio does.
ACCEPT_PAUSE = 1.0
_OUT_OF_RESOURCES = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


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
        self.total = 0  # places held: connections let in and not yet gone
        self._addresses: dict[object, str] = {}  # handler -> the address its place is counted against
        self._arriving: dict[object, str] = {}  # handler made at the door, its connection not made yet
        #: handler -> its head timer: the connections whose first request head has not arrived yet
        #: (read it, never change it: the guard asks :meth:`arrived` only while there is one)
        self.heads: dict[object, asyncio.TimerHandle] = {}
        self._logged: dict[str, float] = {}

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

    def open_on(self, sockets: Iterable[socket.socket], server: web.Server) -> None:
        """Take every connection on these listening sockets off the accept queue at the door (instead of
        asyncio): the ones turned away are answered and closed at once, the others handed to ``server``.
        Closing the asyncio server that made the sockets still stops the door (it removes this reader)."""
        loop = asyncio.get_running_loop()
        for listening in sockets:
            loop.remove_reader(listening.fileno())
            loop.add_reader(listening.fileno(), self._accept, listening, server)

    def arrived(self, request: web.Request) -> None:
        """A whole request head arrived on this connection: the head timer has done its work."""
        timer = self.heads.pop(request.protocol, None)
        if timer is not None:
            timer.cancel()

    # -- at the listening socket -------------------------------------------------------------------
    def _accept(self, listening: socket.socket, server: web.Server) -> None:
        """The accept queue has connections: take up to :data:`ACCEPT_BATCH` of them."""
        for _ in range(ACCEPT_BATCH):
            try:
                connection, peer = listening.accept()
            except (BlockingIOError, InterruptedError, ConnectionAbortedError):
                return  # the queue is empty (or the one waiting gave up)
            except OSError as error:
                if error.errno not in _OUT_OF_RESOURCES:
                    raise  # the loop logs it; the next connection is tried on the next wake-up
                self._pause(listening, server, error)
                return
            address = str(peer[0]) if peer else "unknown"
            answer = self._refusal(address)
            if answer is not None:
                _hang_up(connection, answer)
                continue
            self._take_place(address)
            asyncio.get_running_loop().create_task(self._let_in(connection, address, server))

    def _pause(self, listening: socket.socket, server: web.Server, error: OSError) -> None:
        """Out of open files: leave the queue for a moment (Linux keeps saying it is ready)."""
        log.warning("cannot accept connections for a moment: %s", error)
        loop = asyncio.get_running_loop()
        loop.remove_reader(listening.fileno())

        def again() -> None:
            if listening.fileno() != -1:  # not closed by the server's stop meanwhile
                loop.add_reader(listening.fileno(), self._accept, listening, server)

        loop.call_later(ACCEPT_PAUSE, again)

    async def _let_in(self, connection: socket.socket, address: str, server: web.Server) -> None:
        """Hand a connection let in to aiohttp; its place passes to its handler, or is given back."""
        made: list[object] = []

        def handler_for_it():
            handler = server()
            self._arriving[handler] = address
            made.append(handler)
            return handler

        try:
            connection.setblocking(False)
            await asyncio.get_running_loop().connect_accepted_socket(handler_for_it, connection)
        except BaseException as error:
            # never became a connection aiohttp serves: give the place back unless its handler holds it
            if not made or self._arriving.pop(made[0], None) is not None:
                self._give_back(address)
            connection.close()
            if not isinstance(error, Exception):
                raise
            log.debug("a connection from %s could not be set up: %s", address, error)

    # -- the rules ---------------------------------------------------------------------------------
    def _refusal(self, address: str) -> bytes | None:
        """The answer that turns a new connection from ``address`` away (counted and logged), or None."""
        if self.open[address] >= self.limits.connections_per_address:
            return self._refused(address, TOO_MANY_HERE, "this device has")
        if self.total >= self.most:
            return self._refused(address, TOO_MANY, "everyone together has")
        return None

    def _take_place(self, address: str) -> None:
        self.open[address] += 1
        self.total += 1

    def _give_back(self, address: str) -> None:
        self.total -= 1
        self.open[address] -= 1
        if self.open[address] <= 0:
            del self.open[address]

    def _admit(self, handler, transport) -> bool:
        address = self._arriving.pop(handler, None)
        if address is None:  # not taken off the queue by the door (before it stood there): count it now
            peer = transport.get_extra_info("peername")
            address = str(peer[0]) if peer else "unknown"
            answer = self._refusal(address)
            if answer is not None:
                try:
                    transport.write(answer)
                finally:
                    transport.close()  # no request is read from a refused connection
                return False
            self._take_place(address)
        self._addresses[handler] = address
        loop = asyncio.get_running_loop()
        self.heads[handler] = loop.call_later(self.limits.header_seconds, self._too_slow, handler, transport)
        return True

    def _refused(self, address: str, answer: bytes, who: str) -> bytes:
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
        return answer

    def _too_slow(self, handler, transport) -> None:
        """No whole request head within ``header_seconds``: hang up (connection_lost follows)."""
        if self.heads.pop(handler, None) is not None and not transport.is_closing():
            transport.close()

    def _gone(self, handler) -> None:
        """The connection of ``handler`` is closed, whoever closed it: release what it held, once."""
        timer = self.heads.pop(handler, None)
        if timer is not None:
            timer.cancel()
        address = self._addresses.pop(handler, None)
        if address is None:
            return  # a refused connection: never counted (or already released)
        self._give_back(address)


#: Where an app keeps its door (:func:`companion.web.app.build_app` puts it there).
DOOR = web.AppKey("door", Door)


def _hang_up(connection: socket.socket, answer: bytes) -> None:
    """Answer a connection turned away and close it, without waiting for anything.

    What the device already sent is read first (without waiting), so the close is an orderly one and
    the device reads the answer rather than a reset."""
    try:
        connection.send(answer, socket.MSG_DONTWAIT)
        connection.recv(65536, socket.MSG_DONTWAIT)
    except OSError:
        pass  # gone already, or nothing sent yet: either way, closed now
    finally:
        connection.close()
