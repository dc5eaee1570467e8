"""The routes of players' own actions (:mod:`companion.web.plays`) under ``/api/v1/plays``.

=============================================  ==========  ==========================================
route                                          role        does
=============================================  ==========  ==========================================
GET  /api/v1/plays                             any         a player's offered actions, own plays and
                                                           those waiting for their approval; all
                                                           waiting plays and the pause for the banker
POST /api/v1/plays/form                        player      an action being put together: its fields,
                                                           the Banker's choices, the preview sentence
POST /api/v1/plays                             player      commit it (``id`` names the tap; ``seen``
                                                           the sentence on the button)
POST /api/v1/plays/{id}/approve                approver    a player whose money it takes, or the banker
POST /api/v1/plays/{id}/decline                approver    say no, with an optional reason
POST /api/v1/plays/{id}/cancel                 player      withdraw one's own waiting play
POST /api/v1/plays/pause                       banker      ``{"paused": true}`` pauses every phone
=============================================  ==========  ==========================================

Refusals carry the rule's own reason (409), like every action of the game.
"""

from __future__ import annotations

from aiohttp import web

from .desk import dumps_safe
from .intake import read_json
from .security import DESK, caller, refuse
from .withdraw import withdraw_own

__all__ = ["routes"]

routes = web.RouteTableDef()


def _json(data, status: int = 200) -> web.Response:
    return web.Response(body=dumps_safe(data), status=status, content_type="application/json")


def _done(desk, play, outcome, status: int) -> web.Response:
    desk.hub.flush()  # the phones see the change first, then the phone that acted has its answer
    body = {"play": play.as_json(desk.plays.clock(), desk.plays.expires)}
    if outcome is not None:
        body["seq"], body["summary"], body["repeated"] = outcome.entry.seq, outcome.summary, outcome.repeated
    return _json(body, status)


def _spend(desk, player: str) -> None:
    if not desk.play_budget.allow(player):
        raise refuse(
            429,
            "your phone has acted many times just now; wait a minute",
            Retry_After=str(desk.play_budget.retry_after(player)),
        )


@routes.get("/api/v1/plays")
async def list_plays(request: web.Request) -> web.Response:
    holder = caller(request)
    desk = request.app[DESK]
    if holder.role == "banker":
        return _json(desk.plays.banker_page())
    return _json(desk.plays.page(holder.player))


@routes.post("/api/v1/plays/form")
async def form(request: web.Request) -> web.Response:
    holder = caller(request, "player")
    body = await read_json(request, allowed={"action", "values"})
    return _json(request.app[DESK].plays.form(holder.player, body.get("action"), body.get("values")))


@routes.post("/api/v1/plays")
async def start(request: web.Request) -> web.Response:
    holder = caller(request, "player")
    body = await read_json(request, allowed={"action", "values", "id", "seen"})
    desk = request.app[DESK]
    _spend(desk, holder.player)
    play, outcome = desk.plays.start(
        holder.player, body.get("action"), body.get("values"), body.get("id"), body.get("seen")
    )
    return _done(desk, play, outcome, 201 if play.status == "done" else 202)


def _approver(holder) -> str:
    return "banker" if holder.role == "banker" else holder.player


@routes.post("/api/v1/plays/{id}/approve")
async def approve(request: web.Request) -> web.Response:
    holder = caller(request)
    body = await read_json(request, allowed={"seen"}, empty_ok=True)
    desk = request.app[DESK]
    if holder.role == "player":
        _spend(desk, holder.player)
    try:
        play, outcome = desk.plays.approve(request.match_info["id"], _approver(holder), body.get("seen"))
    except LookupError:
        raise refuse(404, "no such action waiting") from None
    except PermissionError as e:
        raise refuse(403, str(e)) from None
    return _done(desk, play, outcome, 201 if outcome is not None else 200)


@routes.post("/api/v1/plays/{id}/decline")
async def decline(request: web.Request) -> web.Response:
    holder = caller(request)
    body = await read_json(request, allowed={"reason"}, empty_ok=True)
    desk = request.app[DESK]
    try:
        play = desk.plays.decline(request.match_info["id"], _approver(holder), body.get("reason", ""))
    except LookupError:
        raise refuse(404, "no such action waiting") from None
    except PermissionError as e:
        raise refuse(403, str(e)) from None
    return _done(desk, play, None, 200)


@routes.post("/api/v1/plays/{id}/cancel")
async def cancel(request: web.Request) -> web.Response:
    desk = request.app[DESK]
    play = await withdraw_own(request, desk.plays.cancel, "no such action waiting")
    return _done(desk, play, None, 200)


@routes.post("/api/v1/plays/pause")
async def pause(request: web.Request) -> web.Response:
    caller(request, "banker")
    body = await read_json(request, allowed={"paused"})
    paused = body.get("paused")
    if not isinstance(paused, bool):
        raise refuse(400, "paused is true or false")
    request.app[DESK].plays.pause(paused)
    return _json({"paused": paused})
