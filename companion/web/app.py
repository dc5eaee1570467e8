"""The aiohttp application: the phone page, the join links, static files and the JSON API.

``/``            the phone page (static HTML; it loads its data from the API)
``/j/<token>``   a join link from a QR code: trades the token for an HttpOnly, SameSite=Strict cookie
                 and redirects to ``/``, so the token leaves the address bar and the history
``/static/...``  the page's CSS, JavaScript and icon (never anything outside that folder), from memory
                 and gzipped once (:mod:`companion.web.shelf`); ``/manifest.webmanifest`` the web app manifest
``/api/v1/...``  the JSON API (:mod:`companion.web.api`)
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Callable

from aiohttp import web

import asyncio
import contextlib

from . import api, plays_api
from .desk import PhoneDesk
from .door import DOOR, Door
from .intake import BODY_TIMEOUT
from .security import DESK, HOSTS, guard_for, refuse, security_headers
from .shelf import Shelf
from .sidecar import sidecar_path

__all__ = ["COOKIE_DAYS", "DOOR", "STATIC", "build_app"]

STATIC = Path(__file__).with_name("static")
COOKIE_DAYS = 30
EXPIRY_TASK = web.AppKey("expiry_task", asyncio.Task)
#: How often the server looks for players' actions waiting too long (only while one waits).
EXPIRY_LOOK_SECONDS = 5.0

_BAD_LINK = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Table Banker</title><link rel="stylesheet" href="/static/phone.css"></head>
<body><main class="notice"><h1>This link does not open the table</h1><p>{reason}</p>
<p>Ask the banker to show your code again and scan it.</p></main></body></html>
"""


SHELF = Shelf(STATIC)


async def index(request: web.Request) -> web.Response:
    return SHELF.response(request, "index.html")


async def static(request: web.Request) -> web.Response:
    return SHELF.response(request, request.match_info["name"])


async def manifest(request: web.Request) -> web.Response:
    return SHELF.response(request, "manifest.webmanifest")


async def join(request: web.Request) -> web.StreamResponse:
    """A QR code's link: a valid token becomes the phone's cookie; the token leaves the URL."""
    desk = request.app[DESK]
    address = request.remote or "unknown"
    wait = desk.guessing.wait(address)
    if wait is not None:
        raise refuse(
            429,
            "Too many wrong links from this device. Wait a minute and scan again.",
            kind="too-many-wrong-links",
            Retry_After=str(wait),
        )
    token = request.match_info["token"]
    holder = desk.authorise(token)
    if holder is None:
        known = desk.tokens.check(token)
        if known is not None:
            reason = (desk.expired(known) or "it no longer works").capitalize() + "."
        elif desk.tokens.withdrawn(token):
            reason = "The banker withdrew this link; a new code replaces it."
        else:
            desk.guessing.wrong(address)  # a guess: counted against this device, this game and all
            reason = "It is not a link to this game."
        return web.Response(
            status=403,
            text=_BAD_LINK.format(reason=html.escape(reason)),
            content_type="text/html",
            headers={"Cache-Control": "no-store"},
        )
    response = web.Response(status=303, headers={"Location": "/", "Cache-Control": "no-store"})
    response.set_cookie(
        desk.cookie_name, holder.token, max_age=COOKIE_DAYS * 86400, path="/", httponly=True, samesite="Strict"
    )
    return response


def build_app(desk: PhoneDesk, *, hosts: frozenset[str], join_url: Callable[[str], str]) -> web.Application:
    """The phone server's application for one game's desk.

    ``hosts``: the Host names it answers to; ``join_url(player)``: the link a player's QR code holds.
    """
    door = Door(desk.limits)
    guard = guard_for(desk, hosts, door)
    app = web.Application(client_max_size=desk.limits.request_bytes)  # no middleware: the guard is at each route
    app[DOOR] = door
    app[DESK] = desk
    app[HOSTS] = hosts
    app[api.JOIN_URL] = join_url
    app[BODY_TIMEOUT] = desk.limits.body_seconds
    pages = web.RouteTableDef()
    pages.get("/")(index)
    pages.get("/j/{token}")(join)
    pages.get("/static/{name}")(static)
    pages.get("/manifest.webmanifest")(manifest)
    guard.install(app, *pages, *api.routes, *plays_api.routes)  # each handler behind the guard, then the rest
    app.on_response_prepare.append(security_headers)  # not asked of an API answer written whole (web/answer.py)

    async def expire_plays() -> None:
        """Players' actions not approved in time expire and the phones are told (only while one waits)."""
        while True:
            await asyncio.sleep(EXPIRY_LOOK_SECONDS)
            desk.plays.sweep()

    async def on_startup(app: web.Application) -> None:
        desk.open()
        desk.tokens.watch(sidecar_path(desk.banker.path))  # another program's links, heard from the kernel
        app[EXPIRY_TASK] = asyncio.get_running_loop().create_task(expire_plays())

    async def on_shutdown(app: web.Application) -> None:
        task = app.get(EXPIRY_TASK)
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        desk.tokens.unwatch()
        desk.close()  # wakes every live stream so it ends now, not at shutdown_timeout

    app.on_startup.append(on_startup)
    app.on_shutdown.append(on_shutdown)
    return app
