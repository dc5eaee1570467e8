"""What comes in over the network, checked once where it is decoded, and what a refusal answers.

Two things live here and nowhere else in the phone server:

* :func:`read_json` - a request body becomes a JSON object or a **400/408/413** with one line: not
  JSON, not UTF-8, nested deeper than :data:`MAX_DEPTH`, a number too long or too large to be money, or
  text that cannot be stored (a lone surrogate). :func:`well_formed` does the same for the path's
  parameters and the query string. These are transport checks: what an action *means* is the Banker's
  to judge.
* :func:`status_of` - every :class:`~companion.core.errors.BankerError` the Banker (or a rule, or the
  payment requests) raises maps to its status here: malformed **400**, a rule says no **409**, the
  game file busy **503**. The guard asks it (:class:`companion.web.security.Guard`), so no handler
  catches game errors itself.
"""

from __future__ import annotations

import asyncio

from aiohttp import web

from companion.core.contract import MAX_DEPTH, MAX_INT, load_json
from companion.core.contract import check_json as check_value
from companion.core.errors import BadAction, BankerError, GameBusy, GameFileError, Refused

__all__ = [
    "Refusal",
    "refuse",
    "read_json",
    "well_formed",
    "status_of",
    "check_value",
    "MAX_DEPTH",
    "MAX_INT",
    "BODY_SECONDS",
    "BODY_TIMEOUT",
]

BODY_SECONDS = 10.0  # a body not fully sent by then: 408, and the connection closes
BODY_TIMEOUT = web.AppKey("body_seconds", float)  # the app's own setting (Limits.body_seconds)


class Refusal(Exception):
    """A request the server will not serve: an HTTP status, one line saying why, and the kind of refusal
    (:mod:`companion.web.problems`; None: the most general one of the status).

    ``close``: end the connection after answering (a client that stopped sending mid-body).
    """

    def __init__(
        self,
        status: int,
        message: str,
        headers: dict[str, str] | None = None,
        *,
        close: bool = False,
        kind: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}
        self.close = close
        self.kind = kind


def refuse(status: int, message: str, *, kind: str | None = None, **headers: str) -> Refusal:
    """A refusal of a declared ``kind`` (its status must be the kind's; ValueError otherwise)."""
    from .problems import for_status

    for_status(status, kind)  # a kind nobody declared, or declared with another status, is a bug here
    return Refusal(status, message, {k.replace("_", "-"): v for k, v in headers.items()}, kind=kind)


async def read_json(request: web.Request, *, allowed: set[str] | None, empty_ok: bool = False) -> dict:
    """The request's JSON object, or a refusal that says what is wrong with it.

    ``allowed``: the fields it may have (None: any). ``empty_ok``: an empty body counts as ``{}``.
    A body larger than the app's ``client_max_size`` is **413**; one not fully sent within the app's
    :data:`BODY_TIMEOUT` seconds is **408** and the connection is closed.
    """
    content = request.content
    if content.is_eof():  # the whole body is in (a phone's small JSON): no wait, no timer
        raw = content.read_nowait()  # taken at once, not chunk by chunk
        most = request.client_max_size  # as request.read() refuses it (0: no limit)
        if most and len(raw) > most:
            raise web.HTTPRequestEntityTooLarge(max_size=most, actual_size=len(raw))
    else:
        try:
            async with asyncio.timeout(request.app.get(BODY_TIMEOUT, BODY_SECONDS)):
                raw = await request.read()
        except TimeoutError:
            raise Refusal(408, "the body did not arrive in time", close=True, kind="body-timeout") from None
    if empty_ok and not raw.strip():
        return {}
    try:  # the contract's own reading (companion.core.contract.load_json), the same as the command line's
        body = load_json(raw)
    except BadAction as e:
        raise refuse(400, str(e), kind="not-json") from None
    if not isinstance(body, dict):
        raise refuse(400, "the body is a JSON object", kind="not-json")
    if allowed is not None:
        extra = sorted(set(body) - allowed)
        if extra:
            takes = f"it takes {', '.join(sorted(allowed))}" if allowed else "it takes no fields"
            raise refuse(400, f"unknown field {extra[0]!r}: {takes}")
    return body


def well_formed(request: web.Request, routed: bool = True) -> None:
    """The path's parameters and the query string hold only text that can be stored (else a 400).

    ``routed``: False for the route that answers an address no other route takes (its one parameter is
    the whole path, answered 404 or 405 as it is)."""
    params = request.match_info
    values = list(params.values()) if params and routed else []  # most addresses have no parameter ...
    if request.query_string:  # ... and no query: nothing parsed for them
        values += [*request.query.keys(), *request.query.values()]
    for value in values:
        if check_value(value) is not None:
            raise refuse(400, "the address holds text that is not valid Unicode")


def status_of(error: BankerError) -> tuple[int, dict[str, str]]:
    """The HTTP status (and headers) for an error the game raised on purpose."""
    if isinstance(error, GameBusy):
        return 503, {"Retry-After": "1"}
    if isinstance(error, GameFileError):
        return 503, {}
    if isinstance(error, Refused):  # UnknownName and NotEnoughMoney too: the game is unchanged
        return 409, {}
    if isinstance(error, BadAction):
        return 400, {}
    return 400, {}
