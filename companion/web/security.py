"""The phone server's guards: the checks every request passes before its handler, plus one response hook.

For every request, in order (the guard, :class:`Guard`: every route's handler is wrapped in it where the
app is made, and one route behind it answers every other address, so the app needs no middleware, whose
layers every request would pay for; it holds the app's desk, names and door itself, so no check looks
them up in the app, and reads the request's headers once for every check). It first tells the door that
the request's head arrived (:meth:`companion.web.door.Door.arrived`), and gzips a large answer of the
handler last (:func:`companion.web.shelf.squeeze`).

1. error pages - every refusal below (and the 404/405 of an address no route takes, aiohttp's 413)
   becomes RFC 9457 problem details under ``/api/`` (``application/problem+json``: a stable ``type``
   for its kind, ``title``, ``status`` and a one-line ``detail``; :mod:`companion.web.problems`), plain
   text elsewhere. Nothing echoes the request back.
2. the Host header must name this Pi (its LAN address, its ``.local`` name, localhost, 127.0.0.1);
   anything else is a DNS-rebinding attempt and gets **421**. :func:`~companion.web.intake.well_formed`
   - the path and query hold only storable text (**400**).
3. a request that changes something must be a JSON POST from our own origin: ``Origin`` must equal
   ``http://<Host>`` (and is required when the cookie is the credential), ``Sec-Fetch-Site`` must not
   say cross-site, and the body must be ``application/json`` (a form post gets **415**). GET never
   changes anything.
4. under ``/api/``, the caller's authority comes from the HttpOnly cookie or an ``Authorization:
   Bearer <token>`` header, and from nothing else (never from the source address). Wrong tokens are
   counted per address, per game and on every game (:class:`~.limits.Guessing`) and answered **429**
   once a guesser has guessed too often; each token holder has a request budget (**429** when spent).

:func:`security_headers` then stamps every response (errors and static files too) with a strict
Content-Security-Policy (no inline script or style, no framing), ``no-referrer`` and ``nosniff``
(the same headers every time, made once). The API's JSON answers are made with them already
(:func:`json_headers`), and are not stamped twice; a small one is written whole, its headers bytes made
once (:mod:`companion.web.answer`), and no hook is asked.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from aiohttp import web
from multidict import CIMultiDict

from companion.core.errors import BankerError

from . import problems
from .desk import PhoneDesk
from .door import Door
from .intake import Refusal, refuse, status_of, well_formed
from .lan import host_of
from .shelf import squeeze
from .tokens import WITHDRAWN, Pass

__all__ = [
    "DESK",
    "HOSTS",
    "Refusal",
    "refuse",
    "Guard",
    "guard_for",
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


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

#: Host headers remembered with their answer (a phone sends the same one every time); more are judged anew.
_HOSTS_KEPT = 64


class Guard:
    """The checks every request passes, for one app: its desk, the names it answers to and its door.

    Each route's handler is wrapped in it where the app is made (:meth:`__call__`), rather than the
    guard being a middleware: aiohttp runs an app with middlewares through two more layers per request
    (the middlewares' chain, made per handler, and one that sets the request's app), every request pays
    for them, and with the guard at each route the app has none. An address no route takes is answered by
    :meth:`nothing_here`, itself guarded, last in the router: 404, or 405 with the methods its path
    takes, as aiohttp answers them.
    """

    def __init__(self, desk: PhoneDesk, hosts: frozenset[str], door: Door | None = None) -> None:
        self.desk = desk
        self.hosts = hosts
        self.door = door
        self._host_seen: dict[str | None, bool] = {}  # a Host header's text -> whether it names this Pi
        self.rest: web.AbstractResource | None = None  # the route of every other address (install)

    def __call__(self, handler: Handler, *, routed: bool = True) -> Handler:
        """``handler`` behind every check; a refusal from either answered as an error page.

        First the door hears that the request's head arrived (its timer for slow heads stops); the
        handler's answer is gzipped when it is large (:func:`~companion.web.shelf.squeeze`).
        ``routed``: False for :meth:`nothing_here` (no path parameters to check; a 404 or 405 is
        answered as it is, whatever the method)."""
        check, door = self.check, self.door

        async def guarded(request: web.Request) -> web.StreamResponse:
            if door is not None and door.heads:  # else every connection sent its first head already
                door.arrived(request)
            try:
                check(request, routed)
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

        guarded.__name__ = guarded.__qualname__ = getattr(handler, "__name__", "guarded")
        guarded.__doc__ = handler.__doc__
        return guarded

    def check(self, request: web.Request, routed: bool = True) -> None:
        """Every check of a request in turn, its headers read once; its pass is ``request[PASS]``.

        1. The Host header must name this Pi (**421**, a DNS-rebinding attempt otherwise).
        2. The path's parameters and the query hold only storable text (**400**,
           :func:`~companion.web.intake.well_formed`).
        3. A request that changes something must be a JSON POST from our own page (**403**, **415**).
        4. Under ``/api/``, the caller's pass, from the cookie or a Bearer token and nothing else
           (**401**, **429**)."""
        headers = request.headers
        host = headers.get("Host")
        named = self._host_seen.get(host)
        if named is None:
            named = self._names_this_pi(host)
        if not named:
            raise refuse(421, "this server answers only to the table's own address", kind="wrong-host")
        if (routed and request.match_info) or request.query_string:  # most addresses have neither
            well_formed(request, routed)
        if routed and request.method not in SAFE_METHODS:  # a 404 or 405 is answered as it is
            _same_origin_json(headers, host)
        path = request.path
        if not path.startswith("/api/") or path in _PUBLIC_API or path.startswith(_PUBLIC_PREFIXES):
            request[PASS] = None
            return
        request[PASS] = self._holder(request, headers)

    def _names_this_pi(self, host: str | None) -> bool:
        named = host_of(host) in self.hosts
        if len(self._host_seen) < _HOSTS_KEPT:
            self._host_seen[host] = named
        return named

    def _holder(self, request: web.Request, headers) -> Pass | None:
        """The caller's pass (None without a credential: handlers that need one answer 401), or a
        refusal: a wrong, withdrawn or expired link (**401**), a device that guessed too often, a
        holder over its budget (**429**)."""
        desk = self.desk
        auth = headers.get("Authorization")
        if auth is not None:
            scheme, _, sent = auth.partition(" ")
            token = sent.strip() if scheme.lower() == "bearer" else ""
        else:
            cookie = request.cookies.get(desk.cookie_name)
            if cookie is None:
                return None
            token = cookie
        guessing = desk.guessing
        if guessing.suspects:  # only an address that guessed wrong lately may have to wait
            wait = guessing.wait(request.remote or "unknown")
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
        return holder

    async def nothing_here(self, request: web.Request) -> web.StreamResponse:
        """No route takes this request: 405 with the methods its path takes, else 404 (as aiohttp's
        router answers them). Added last, so it is asked only when no other route took the request."""
        allowed: set[str] = set()
        for resource in request.app.router.resources():
            if resource is not self.rest:
                allowed |= (await resource.resolve(request))[1]
        if allowed:
            raise web.HTTPMethodNotAllowed(request.method, allowed)
        raise web.HTTPNotFound()

    def install(self, app: web.Application, *routes: web.AbstractRouteDef) -> None:
        """Add ``routes`` to ``app``'s router, each behind this guard, then the route that answers every
        other address (:meth:`nothing_here`): no request reaches a handler without the checks."""
        for route in routes:
            assert isinstance(route, web.RouteDef), route  # a handler's route (not a folder of files)
            web.RouteDef(route.method, route.path, self(route.handler), route.kwargs).register(app.router)
        self.rest = app.router.add_route("*", "/{rest:.*}", self(self.nothing_here, routed=False)).resource


def guard_for(desk: PhoneDesk, hosts: frozenset[str], door: Door | None = None) -> Guard:
    """The guard of an app for this desk, the names it answers to and its door (None: no door)."""
    return Guard(desk, hosts, door)


def _same_origin_json(headers, host: str | None) -> None:
    """A change must be a JSON POST from our own origin (**403** cross-origin, **415** not JSON)."""
    site = headers.get("Sec-Fetch-Site")
    if site is not None and site not in ("same-origin", "none"):
        raise refuse(403, "cross-site requests are refused", kind="cross-origin")
    origin = headers.get("Origin")
    if origin is not None and origin.lower().rstrip("/") != f"http://{(host or '').lower()}":
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


def caller(request: web.Request, role: str | None = None):
    """The request's pass, or a 401/403 refusal; ``role`` restricts to "player" or "banker"."""
    try:
        holder = request[PASS]  # the guard set it (None: no credential)
    except KeyError:
        holder = None
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
