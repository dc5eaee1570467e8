"""The phone server: what the touchscreen app (and ``companion serve``) starts beside the Banker.

Usage, on the app's asyncio loop (the same loop that runs Kivy and owns the Banker)::

    server = PhoneServer(banker, host="0.0.0.0", port=8080)   # advertise=True: zeroconf too
    await server.start()
    server.join_url("Ann")      # http://192.168.1.20:8080/j/<token>: put it in Ann's QR code
    server.banker_url()         # the same for the banker's own phone
    server.revoke("Ann")        # Ann's old code stops working; join_url("Ann") makes a new one
    server.requests.pending()   # payment requests waiting for the banker
    server.requests.approve(request_id)          # applies a transfer through the Banker
    server.requests.decline(request_id, "no")    # the reason goes back to the phone
    unsubscribe = server.requests.subscribe(lambda request: ...)   # after every change
    await server.stop()         # safe twice; says goodbye on zeroconf

QR images: :mod:`companion.qr` (``qr_png(server.join_url("Ann"))`` for a Kivy texture).

Threading: every method runs on the app's loop; nothing here starts a thread. Phones follow the
game through the Banker's subscriptions; with ``watch=True`` the server also watches the game file
(:mod:`companion.watch`: the kernel's file notifications on Linux, an adaptive poll elsewhere),
so actions written by another process (``companion do``) reach the phones too. Tokens and requests
live in ``<game>.phones`` beside the game file, so QR codes survive a restart.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
import socket
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from aiohttp import web

from companion.core.model import find_player
from companion.service import WATCH_SECONDS

from .app import DOOR, build_app
from .desk import PhoneDesk
from .lan import allowed_hosts, lan_ipv4
from .limits import Limits
from companion.watch import GameWatch

if TYPE_CHECKING:  # zeroconf is imported only when the server advertises
    from companion.discovery import Advertisement

__all__ = ["EVERY_INTERFACE", "PhoneServer", "announce_on", "link_host"]

log = logging.getLogger(__name__)

EVERY_INTERFACE = ("", "0.0.0.0", "::")
#: The accept queue's depth: a guest's flood of connections is taken off it and turned away by the door
#: instead of filling it and making a phone's connection wait for a SYN retry.
BACKLOG = 1024


def link_host(host: str | None, lan_address: str | None = None) -> str:
    """The address links carry: the bound address when it is one, the LAN address when bound to all."""
    if host in EVERY_INTERFACE or host is None:
        return lan_ipv4(lan_address)
    return f"[{host}]" if ":" in host else host


def announce_on(host: str | None, interfaces: Sequence[str] | None = None) -> list[str] | None:
    """Where zeroconf may announce the table: the given ``interfaces``; else every interface ([])
    when listening on all, the bound one when it is one, and nowhere (None) for loopback or IPv6."""
    if interfaces:
        return list(interfaces)
    if host in EVERY_INTERFACE or host is None:
        return []
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return None  # a name, not an address: nothing to announce
    if ip.is_loopback or ip.version != 4:
        return None
    return [host]


def _report_advert(task: asyncio.Task) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.warning(
            "the table could not be announced by zeroconf (phones can still scan the codes): %s", task.exception()
        )


def _listening(site: web.TCPSite) -> list[socket.socket]:
    """The site's listening sockets: those of the asyncio server aiohttp made for it, unwrapped from
    asyncio's read-only view. Empty if either moved (then asyncio accepts, and the door still turns
    away what it must when each connection is made)."""
    server = getattr(site, "_server", None)
    found = [getattr(view, "_sock", view) for view in getattr(server, "sockets", None) or ()]
    if not found or not all(isinstance(s, socket.socket) for s in found):
        log.warning("the door cannot stand at the listening socket; connections are counted once made")
        return []
    return found


def _nudging(watch: GameWatch):
    """A middleware that has the polling watch look before each request (and keep its fast pace)."""

    @web.middleware
    async def nudge(request: web.Request, handler):
        watch.nudge()
        return await handler(request)

    return nudge


class PhoneServer:
    """The players' phone server for one open game.

    ``host``/``port``: where to listen (port 0 picks a free one; read :attr:`port` after start).
    The links (and so the QR codes) carry an address the server listens on: ``host`` itself when it
    is one address; when it is every interface (0.0.0.0), ``lan_address`` (default: found from the
    routing table).
    ``advertise``: announce "Table Banker on <hostname>" by zeroconf where the server listens: on
    ``host``'s interface, on every interface for 0.0.0.0, and nowhere for a loopback address - unless
    ``interfaces`` names them (tests announce on ``["127.0.0.1"]``).
    ``extra_hosts``: more Host names to accept (a DNS name the table's router gives the Pi).
    ``watch``: pick up what other programs write to the game (:mod:`companion.watch`);
    ``poll_interval`` (seconds): watch too, and poll at that pace where the kernel cannot tell
    (default :data:`companion.service.WATCH_SECONDS`).
    """

    def __init__(
        self,
        banker,
        host: str = "127.0.0.1",
        port: int = 8080,
        *,
        advertise: bool = True,
        interfaces: Sequence[str] | None = None,
        table_name: str | None = None,
        lan_address: str | None = None,
        extra_hosts: Sequence[str] = (),
        watch: bool = False,
        poll_interval: float | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.banker = banker
        self.host = host
        self.port = port
        self.advertise = advertise
        self.interfaces = list(interfaces) if interfaces else None
        self.table_name = table_name
        self.lan_address = link_host(host, lan_address)
        self.watch: GameWatch | None = None
        if watch or poll_interval:
            self.watch = GameWatch(banker.refresh, banker.path, fast=poll_interval or WATCH_SECONDS)
        self.desk = PhoneDesk(banker, limits=limits)
        self.tokens = self.desk.tokens
        self.requests = self.desk.requests
        self.plays = self.desk.plays
        self.app = build_app(
            self.desk, hosts=allowed_hosts(self.lan_address, host, tuple(extra_hosts)), join_url=self.join_url
        )
        if self.watch is not None and not self.watch.kernel:
            self.app.middlewares.append(_nudging(self.watch))  # polling: a phone's request looks first
        self._runner: web.AppRunner | None = None
        self._advert: Advertisement | None = None
        self._advert_task: asyncio.Task | None = None
        self._own_commits: Callable[[], None] | None = None

    # -- running -----------------------------------------------------------------------------------
    async def start(self) -> None:
        """Listen, then announce on zeroconf in the background (see :meth:`advertised`)."""
        if self._runner is not None:
            return
        runner = web.AppRunner(
            self.app,
            shutdown_timeout=3.0,
            handler_cancellation=True,
            access_log=None,
            keepalive_timeout=self.desk.limits.header_seconds,
        )
        await runner.setup()
        assert runner.server is not None, "a runner set up has its server"
        door = self.app[DOOR]
        door.watch(runner.server)
        try:
            site = web.TCPSite(runner, self.host, self.port, reuse_address=True, backlog=BACKLOG)
            await site.start()
            door.open_on(_listening(site), runner.server)  # the door takes connections off the queue
        except BaseException:
            await runner.cleanup()
            raise
        self._runner = runner
        self.port = runner.addresses[0][1]
        if self.watch is not None:
            self._own_commits = self.banker.subscribe(self.watch.own_commit, first=True)
            self.watch.start()
        where = announce_on(self.host, self.interfaces)
        if self.advertise and where is not None:
            from companion.discovery import Advertisement

            self._advert = Advertisement(self.lan_address, self.port, label=self.table_name, interfaces=where or None)
            self._advert_task = asyncio.create_task(self._advert.start())
            self._advert_task.add_done_callback(_report_advert)

    async def advertised(self) -> str | None:
        """Wait until the zeroconf announcement is out; the registered service name (None if off)."""
        if self._advert_task is None or self._advert is None:
            return None
        await self._advert_task
        return self._advert.name

    async def stop(self) -> None:
        """Say goodbye on zeroconf, end every live stream, stop listening. Safe to call twice."""
        if self.watch is not None:
            self.watch.stop()
        if self._own_commits is not None:
            self._own_commits()
            self._own_commits = None
        if self._advert_task is not None:
            task, self._advert_task = self._advert_task, None
            with contextlib.suppress(Exception):
                await task
            if self._advert is not None:
                await self._advert.stop()
        runner, self._runner = self._runner, None
        if runner is not None:
            await runner.cleanup()

    # -- links -------------------------------------------------------------------------------------
    @property
    def url(self) -> str:
        """The server's address on the table's network."""
        return f"http://{self.lan_address}:{self.port}/"

    def join_url(self, player: str) -> str:
        """The link for a player's QR code (made on first use, the same one until revoked)."""
        name = find_player(self.banker.table, player, active=False)
        return f"{self.url}j/{self.tokens.for_player(name)}"

    def banker_url(self) -> str:
        """The link for the banker's own phone: every player's page, requests to approve."""
        return f"{self.url}j/{self.tokens.for_banker()}"

    def revoke(self, player: str | None = None) -> bool:
        """Withdraw a player's link (None: the banker's); their open pages close at once."""
        if player is None:
            done = self.tokens.revoke(role="banker")
        else:
            done = self.tokens.revoke(find_player(self.banker.table, player, active=False))
        self.desk.hub.bump()
        return done

    def close(self) -> None:
        """Release the phones file and the watch's notifications (after :meth:`stop`)."""
        if self.watch is not None:
            self.watch.stop()
        self.desk.close_file()
