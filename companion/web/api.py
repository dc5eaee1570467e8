"""The JSON API under ``/api/v1/``: pages, the live stream, actions, payment requests, join links.

Who may call what (anything else: 403, and nothing is written):

=============================================  ==========  ==========================================
route                                          role        does
=============================================  ==========  ==========================================
GET  /api/v1/state                             any         the caller's page (player or banker view)
GET  /api/v1/events                            any         the same page, live (server-sent events)
GET  /api/v1/requests                          any         a player's own requests; all for the banker
POST /api/v1/requests                          player      ask to pay a player or the bank
POST /api/v1/requests/{id}/cancel              player      withdraw one's own waiting request
POST /api/v1/requests/{id}/approve             banker      apply it (a transfer through the Banker)
POST /api/v1/requests/{id}/decline             banker      refuse it, with a reason for the phone
POST /api/v1/actions                           banker      any action, as ``companion do`` takes it
GET  /api/v1/log                               banker      log entries after ``?after=N``
GET  /api/v1/story                             any         the whole game in words, newest first
GET  /api/v1/players/{name}/join               banker      the player's join link
GET  /api/v1/players/{name}/qr.svg             banker      the join link as a QR code
POST /api/v1/players/{name}/revoke             banker      withdraw the player's link, make a new one
GET  /api/v1/openapi.json                      anyone      this API described (OpenAPI 3.0)
=============================================  ==========  ==========================================

Errors the game raises on purpose (:class:`~companion.core.errors.BankerError`) are answered by the
guard with their status (:func:`companion.web.intake.status_of`): handlers let them rise.

Refusals: 400 malformed, 401 no or bad credential, 403 not for this role, 404 unknown, 409 a rule
says no (the game is unchanged), 413 too large, 415 not JSON, 421 wrong host, 429 slow down, 503 the
game file is busy.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from aiohttp import web

from companion.core.errors import BadAction, UnknownName
from companion.core.model import find_player
from companion.qr import qr_svg

from . import sse
from .answer import Heads, answer
from .desk import dumps_safe
from .intake import read_json
from .openapi import openapi_document
from .problems import PROBLEMS_PATH, by_kind
from .security import DESK, caller, json_headers, refuse
from .withdraw import withdraw_own

__all__ = ["routes", "JOIN_URL", "read_json"]

routes = web.RouteTableDef()

#: The app's function ``player -> join URL`` (set by the server, which knows its address and port).
JOIN_URL = web.AppKey[Callable[[str], str]]("join_url")


#: Every JSON answer's headers, the security headers among them, and their bytes (companion.web.answer).
_JSON = Heads(json_headers())


def _json(request: web.Request, data, status: int = 200) -> web.StreamResponse:
    return answer(request, _JSON, dumps_safe(data), status)


# -- every role ------------------------------------------------------------------------------------
@routes.get("/api/v1/state")
async def get_state(request: web.Request) -> web.StreamResponse:
    holder = caller(request)
    body, _ = request.app[DESK].page(holder)
    return answer(request, _JSON, body)


@routes.get("/api/v1/events")
async def get_events(request: web.Request) -> web.StreamResponse:
    holder = caller(request)
    if request.method == "HEAD":  # nothing to stream for a HEAD
        return web.Response(content_type="text/event-stream")
    desk = request.app[DESK]
    key = holder.key
    if desk.streams[key] >= desk.limits.streams_per_pass:
        raise refuse(429, "too many live pages open for this link; close one", kind="too-many-live-pages")
    desk.streams[key] += 1
    try:
        return await sse.stream(request, desk.hub, partial(desk.live_page, holder), key=holder.token)
    finally:
        desk.streams[key] -= 1
        if desk.streams[key] <= 0:
            del desk.streams[key]


@routes.get("/api/v1/requests")
async def list_requests(request: web.Request) -> web.StreamResponse:
    holder = caller(request)
    desk = request.app[DESK]
    currency = desk.banker.currency
    if holder.role == "banker":
        items = desk.requests.pending() + desk.requests.recent(20)
    else:
        items = desk.requests.of_player(holder.player, 20)
    return _json(request, {"requests": [r.as_json(currency) for r in items]})


@routes.get("/api/v1/openapi.json")
async def openapi(request: web.Request) -> web.StreamResponse:
    desk = request.app[DESK]
    rules = desk.banker.rules
    return _json(
        request,
        openapi_document(
            desk.cookie_name,
            desk.banker.actions(),
            family=rules.family,
            deed_fields=rules.extras.get("deed_fields", {}),
        ),
    )


@routes.get(PROBLEMS_PATH + "{kind}")
async def problem_type(request: web.Request) -> web.StreamResponse:
    """What one kind of refusal means: the ``type`` of a problem, dereferenced (RFC 9457)."""
    try:
        found = by_kind(request.match_info["kind"])
    except KeyError:
        raise refuse(404, "there is no such kind of problem", kind="not-found") from None
    return _json(request, found.as_json())


# -- players ---------------------------------------------------------------------------------------
@routes.post("/api/v1/requests")
async def ask(request: web.Request) -> web.StreamResponse:
    holder = caller(request)
    if holder.role != "player":
        raise refuse(403, "the banker moves money with actions, not requests", kind="wrong-role")
    body = await read_json(request, allowed={"to", "amount", "memo", "id", "from"})
    desk = request.app[DESK]
    if "from" in body:
        try:
            payer = find_player(desk.banker.table, body["from"], active=False)
        except (BadAction, UnknownName):
            payer = None
        if payer != holder.player:
            raise refuse(403, "a phone can only offer to pay from its own player's cash", kind="not-yours")
    if desk.asks.blocked(holder.player):  # asking and cancelling in a loop wakes every phone
        raise refuse(
            429,
            "you have asked the banker many times just now; wait a minute, then ask again",
            kind="too-many-asks",
            Retry_After=str(desk.asks.retry_after(holder.player)),
        )
    before = desk.requests.changes
    made = desk.requests.ask(holder.player, body.get("to"), body.get("amount"), body.get("memo", ""), body.get("id"))
    if desk.requests.changes != before:  # only a request made counts: not a refused one, not a retried id
        desk.asks.allow(holder.player)
    return _json(request, {"request": made.as_json(desk.banker.currency)}, status=201)


@routes.post("/api/v1/requests/{id}/cancel")
async def cancel(request: web.Request) -> web.StreamResponse:
    desk = request.app[DESK]
    done = await withdraw_own(
        request, desk.requests.cancel, "no such request", unknown_kind="no-such-request", others_kind="not-yours"
    )
    return _json(request, {"request": done.as_json(desk.banker.currency)})


# -- the banker ------------------------------------------------------------------------------------
@routes.post("/api/v1/requests/{id}/approve")
async def approve(request: web.Request) -> web.StreamResponse:
    caller(request, "banker")
    await read_json(request, allowed=set(), empty_ok=True)
    desk = request.app[DESK]
    request_id = request.match_info["id"]
    try:
        outcome = desk.requests.approve(request_id)
    except LookupError as e:
        if isinstance(e, UnknownName):
            raise
        raise refuse(404, "no such request", kind="no-such-request") from None
    desk.hub.flush()  # the phones see the payment first, then the banker's phone has its answer
    approved = desk.requests.get(request_id)
    assert approved is not None, "an approved request stays on record"
    return _json(request, {"request": approved.as_json(desk.banker.currency), "outcome": outcome.as_json()})


@routes.post("/api/v1/requests/{id}/decline")
async def decline(request: web.Request) -> web.StreamResponse:
    caller(request, "banker")
    body = await read_json(request, allowed={"reason"}, empty_ok=True)
    desk = request.app[DESK]
    try:
        done = desk.requests.decline(request.match_info["id"], body.get("reason", ""))
    except LookupError as e:
        if isinstance(e, UnknownName):
            raise
        raise refuse(404, "no such request", kind="no-such-request") from None
    return _json(request, {"request": done.as_json(desk.banker.currency)})


@routes.post("/api/v1/actions")
async def do_action(request: web.Request) -> web.StreamResponse:
    caller(request, "banker")
    body = await read_json(request, allowed=None)
    desk = request.app[DESK]
    outcome = desk.banker.do(body)  # an id already in the log answers its first outcome (repeated)
    desk.hub.flush()  # the phones see it first: the banker's phone has its answer a moment later
    return _json(request, outcome.as_json(), status=200 if outcome.repeated else 201)


LOG_AFTER_MAX = 2**63 - 1  # SQLite's largest integer: the schema says so too


def _int_query(request: web.Request, name: str, default: int, low: int, high: int) -> int:
    text = request.query.get(name)
    if text is None:
        return default
    if not (text.isascii() and text.isdigit()) or len(text) > 19 or not low <= int(text) <= high:
        raise refuse(400, f"{name} is a whole number from {low} to {high}")
    return int(text)


@routes.get("/api/v1/log")
async def log(request: web.Request) -> web.StreamResponse:
    caller(request, "banker")
    desk = request.app[DESK]
    after = _int_query(request, "after", 0, 0, LOG_AFTER_MAX)
    limit = _int_query(request, "limit", 100, 1, 500)
    entries = [entry.as_json() for entry in desk.banker.log_page(after, limit)]
    return _json(request, {"version": desk.banker.version, "entries": entries})


@routes.get("/api/v1/story")
async def story(request: web.Request) -> web.StreamResponse:
    holder = caller(request)
    desk = request.app[DESK]
    return _json(request, {"version": desk.banker.version, "lines": desk.whole_story(holder)})


def _named_player(request: web.Request) -> str:
    try:
        return find_player(request.app[DESK].banker.table, request.match_info["name"], active=False)
    except (BadAction, UnknownName):
        raise refuse(404, "there is no player of that name in this game", kind="no-such-player") from None


@routes.get("/api/v1/players/{name}/join")
async def join_link(request: web.Request) -> web.StreamResponse:
    caller(request, "banker")
    player = _named_player(request)
    return _json(request, {"player": player, "url": request.app[JOIN_URL](player)})


@routes.get("/api/v1/players/{name}/qr.svg")
async def join_qr(request: web.Request) -> web.StreamResponse:
    caller(request, "banker")
    player = _named_player(request)
    return web.Response(text=qr_svg(request.app[JOIN_URL](player)), content_type="image/svg+xml")


@routes.post("/api/v1/players/{name}/revoke")
async def revoke(request: web.Request) -> web.StreamResponse:
    caller(request, "banker")
    await read_json(request, allowed=set(), empty_ok=True)
    player = _named_player(request)
    desk = request.app[DESK]
    desk.tokens.revoke(player)
    desk.hub.bump()  # that player's open pages learn at once that their link is gone
    return _json(request, {"player": player, "url": request.app[JOIN_URL](player)})
