"""The phone server's guards: one aiohttp middleware that runs each check in turn, plus one response hook.

In order, for every request (the guard, :func:`guard_for`: the app's one middleware rather than one per
check, since every layer costs every request, the phones' live pages and the banker's actions alike; it
holds the app's desk, names and door itself, so no check looks them up in the app). It first tells the
door that the request's head arrived (:meth:`companion.web.door.Door.arrived`), and gzips a large
answer of the handler last (:func:`companion.web.shelf.squeeze`).

1. error pages - every refusal below (and aiohttp's own 404/405/413) becomes RFC 9457 problem details
   under ``/api/`` (``application/problem+json``: a stable ``type`` for its kind, ``title``, ``status``
   and a one-line ``detail``; :mod:`companion.web.problems`), plain text elsewhere. Nothing echoes the
   request back.
2. :func:`host_check` - the Host header must name this Pi (its LAN address, its ``.local`` name,
   localhost, 127.0.0.1); anything else is a DNS-rebinding attempt and gets **421**.
   :func:`~companion.web.intake.well_formed` - the path and query hold only storable text (**400**).
3. :func:`csrf_check` - a request that changes something must be a JSON POST from our own origin:
   ``Origin`` must equal ``http://<Host>`` (and is required when the cookie is the credential),
   ``Sec-Fetch-Site`` must not say cross-site, and the body must be ``application/json`` (a form post
   gets **415**). GET never changes anything.
4. :func:`authenticate` - under ``/api/``, the caller's authority comes from the HttpOnly cookie or an
   ``Authorization: Bearer <token>`` header, and from nothing else (never from the source address).
   Wrong tokens are counted per address, per game and on every game (:class:`~.limits.Guessing`) and
   answered **429** once a guesser has guessed too often; each token holder has a request budget
   (**429** when spent).

:func:`security_headers` then stamps every response (errors and static files too) with a strict
Content-Security-Policy (no inline script or style, no framing), ``no-referrer`` and ``nosniff``
(the same headers every time, made once). The API's JSON answers are made with them already
(:func:`json_headers`), and are not stamped twice.
"""

from __future__ import annotations

import asyncio
import logging

from aiohttp import web
from multidict import CIMultiDict

from companion.core.errors import BankerError

from . import problems
from .desk import PhoneDesk
from .door import Door
from .intake import Refusal, refuse, status_of, well_formed
from .lan import host_of
from .shelf import squeeze
from .tokens import WITHDRAWN

__all__ = [
    "DESK",
    "HOSTS",
    "Refusal",
    "refuse",
    "guard_for",
    "host_check",
    "csrf_check",
    "authenticate",
    "security_headers",
    "json_headers",
    "caller",
    "CSP",
]

log = logging.getLogger(__name__)

DESK = web.AppKey("desk", PhoneDesk)
HOSTS = web.AppKey("hosts", frozenset)
_RequestKey = getattr(web, "RequestKey", None)  # aiohttp >= 3.12; plain strings before
PASS = _RequestKey("pass", object) if _RequestKey else "pass"

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; "
    "object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
)
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_PUBLIC_API = frozenset({"/api/v1/openapi.json"})
_PUBLIC_PREFIXES = (problems.PROBLEMS_PATH,)  # what each kind of refusal means


def problem(
    request: web.Request,
    status: int,
    message: str,
    headers: dict[str, str] | None = None,
    *,
    kind: str | None = None,
    error: BankerError | None = None,
) -> web.Response:
    """The response for a refusal: problem details under /api/ (of ``kind``, or of the kind ``error``'s
    class declares, else the most general kind of ``status``), plain text elsewhere."""
    if request.path.startswith("/api/"):
        found = problems.for_error(error, status) if error is not None else problems.for_status(status, kind)
        return web.Response(
            status=status, body=problems.body(found, message, status), content_type=problems.MEDIA_TYPE, headers=headers
        )
    return web.Response(status=status, text=message + "\n", content_type="text/plain", headers=headers)


_AIOHTTP_MESSAGES = {
    404: "there is nothing here",
    405: "this address does not take that method",
    413: "the request is too large",
}


def guard_for(desk: PhoneDesk, hosts: frozenset[str], door: Door | None = None):
    """The app's one middleware for this desk, the names it answers to and its door (None: no door)."""

    @web.middleware
    async def guard(request: web.Request, handler):
        """Every check in turn, then the handler; a refusal from either answered as an error page.

        First the door hears that the request's head arrived (its timer for slow heads stops); the
        handler's answer is gzipped when it is large (:func:`~companion.web.shelf.squeeze`)."""
        if door is not None:
            door.arrived(request)
        try:
            host_check(request, hosts)
            well_formed(request)
            csrf_check(request)
            authenticate(request, desk)
            return squeeze(request, await handler(request))
        except Refusal as r:
            response = problem(request, r.status, r.message, r.headers, kind=r.kind)
            if r.close:  # answer, then hang up at once rather than wait for the rest of the body
                response.force_close()
                await response.prepare(request)
                await response.write_eof()
                request.protocol.force_close()
            return response
        except BankerError as e:  # the game refused: its own status, its own one line
            status, headers = status_of(e)
            return problem(request, status, str(e), headers, error=e)
        except web.HTTPException as e:
            if e.status < 400:
                raise
            headers = {k: v for k, v in e.headers.items() if k.lower() in ("allow", "retry-after")}
            return problem(request, e.status, _AIOHTTP_MESSAGES.get(e.status, e.reason.lower()), headers)
        except (asyncio.CancelledError, ConnectionResetError):
            raise
        except Exception:  # a bug: say so briefly, keep the details in the log, never in the answer
            log.exception("unexpected error serving %s %s", request.method, request.path)
            return problem(
                request, 500, "unexpected error on the table's server (details in its log)", kind="server-fault"
            )

    return guard


def host_check(request: web.Request, hosts: frozenset[str]) -> None:
    host = host_of(request.headers.get("Host"))
    if host is None or host not in hosts:
        raise refuse(421, "this server answers only to the table's own address", kind="wrong-host")


def _own_origin(request: web.Request) -> str:
    return f"http://{request.headers.get('Host', '').lower()}"


def csrf_check(request: web.Request) -> None:
    if request.method in SAFE_METHODS or request.match_info.http_exception is not None:  # 404/405 as they are
        return
    headers = request.headers
    site = headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        raise refuse(403, "cross-site requests are refused", kind="cross-origin")
    origin = headers.get("Origin")
    if origin is not None and origin.lower().rstrip("/") != _own_origin(request):
        raise refuse(403, "cross-origin requests are refused", kind="cross-origin")
    if origin is None and "Authorization" not in headers:
        raise refuse(403, "a change needs the Origin header of this page", kind="cross-origin")
    sent = headers.get("Content-Type")
    if sent != "application/json" and media_type(sent) != "application/json":  # the phones send it as is
        raise refuse(415, "send JSON (Content-Type: application/json)", kind="not-json-content")


def media_type(raw: str | None) -> str:
    """A Content-Type's media type, lowercased, without its parameters; "" when there is none.

    What aiohttp's ``request.content_type`` reads too, without the e-mail header parser it builds for
    every request: the part before the first ``;``, trimmed, which must hold exactly one ``/``."""
    if raw is None:
        return ""
    kind = raw.partition(";")[0].strip().lower()
    return kind if kind.count("/") == 1 else ""


def authenticate(request: web.Request, desk: PhoneDesk) -> None:
    """The request's pass (``request[PASS]``, None without one), or a refusal: a wrong, withdrawn or
    expired link (**401**), a device that guessed too often, a holder over its budget (**429**)."""
    path = request.path
    if not path.startswith("/api/") or path in _PUBLIC_API or path.startswith(_PUBLIC_PREFIXES):
        request[PASS] = None
        return
    auth = request.headers.get("Authorization")
    if auth is not None:
        scheme, _, sent = auth.partition(" ")
        token = sent.strip() if scheme.lower() == "bearer" else ""
    else:
        cookie = request.cookies.get(desk.cookie_name)
        if cookie is None:
            request[PASS] = None
            return  # handlers that need a pass answer 401
        token = cookie
    guessing = desk.guessing
    if guessing.suspects:  # only an address that guessed wrong lately may have to wait
        address = request.remote or "unknown"
        wait = guessing.wait(address) if address in guessing.suspects else None
        if wait is not None:
            raise refuse(
                429,
                "too many wrong links from this device; wait a minute",
                kind="too-many-wrong-links",
                Retry_After=str(wait),
            )
    holder = desk.authorise(token)
    if holder is None:
        address = request.remote or "unknown"
        known = desk.tokens.check(token)
        if known is not None:
            reason = desk.expired(known)
        elif desk.tokens.withdrawn(token):
            reason = WITHDRAWN
        else:
            guessing.wrong(address)  # a guess: counted against this device, this game and all
            reason = "this link is not valid; scan the code on the banker's screen"
        headers = {}
        if auth is None:  # the cookie was the credential: the phone forgets it
            headers["Set-Cookie"] = f"{desk.cookie_name}=; Max-Age=0; Path=/; HttpOnly; SameSite=Strict"
        raise Refusal(401, reason or "this link is not valid", headers, kind="link-not-valid")
    if holder.role == "banker":  # the banker's budget, or each player's own
        limiter, key = desk.banker_calls, ""
    else:
        limiter, key = desk.player_calls, holder.player or ""
    if not limiter.allow(key):
        raise refuse(
            429, "too many requests; slow down", kind="too-many-requests", Retry_After=str(limiter.retry_after(key))
        )
    request[PASS] = holder


def caller(request: web.Request, role: str | None = None):
    """The request's pass, or a 401/403 refusal; ``role`` restricts to "player" or "banker"."""
    holder = request.get(PASS)
    if holder is None:
        raise refuse(401, "scan your code on the banker's screen to join this table", kind="not-joined")
    if role is not None and holder.role != role:
        raise refuse(
            403,
            "only the banker may do that" if role == "banker" else "only a player's phone may do that",
            kind="wrong-role",
        )
    return holder


_EVERY_RESPONSE = {
    "Server": "Table Banker",  # no versions for a guest to look up
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Permissions-Policy": "camera=(), microphone=(), geolocation=(), payment=()",
}
#: The policy's text as the headers json_headers() makes hold it: equal to CSP, but an object of its own
#: that no other code holds, so the hook knows such an answer by it.
_STAMPED_CSP = (CSP + " ")[:-1]


def json_headers(content_type: str = "application/json") -> CIMultiDict[str]:
    """The headers of an API answer made here, with every response's own already in them (aiohttp
    copies them into each answer in one go); :func:`security_headers` leaves such an answer as it is."""
    every = {**_EVERY_RESPONSE, "Content-Security-Policy": _STAMPED_CSP}
    return CIMultiDict({**every, "Cache-Control": "no-store", "Content-Type": content_type})


async def security_headers(request: web.Request, response: web.StreamResponse) -> None:
    h = response.headers
    if h.get("Content-Security-Policy") is _STAMPED_CSP:  # made from json_headers(): stamped already
        return
    h.update(_EVERY_RESPONSE)
    if "Cache-Control" not in h:
        h["Cache-Control"] = "no-cache" if request.path.startswith("/static/") else "no-store"
