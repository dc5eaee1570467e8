"""Refusals as RFC 9457 problem details: ``application/problem+json`` with ``type``, ``title``, ``status``
and ``detail``.

A refusal's ``type`` names its kind, the same on every table and in every version, so a program branches on
it and never on the words of ``detail`` (one line for people, which may change). The game's own refusals
take their kind from the error class that declares it (:mod:`companion.core.errors`: ``not-enough-money``,
``unknown-name``, ...); the server's own (a wrong host, no credential, a body too large) are declared here.
Each type is the path ``/api/v1/problems/<kind>`` on the table's own server, where ``GET`` answers what the
kind means (public, like the OpenAPI document); docs/api.md lists them all.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from http import HTTPStatus

from companion.core.errors import ERRORS, BankerError

from .intake import status_of

__all__ = ["MEDIA_TYPE", "PROBLEMS", "PROBLEMS_PATH", "Problem", "body", "by_kind", "for_error", "for_status"]

#: Where every problem type lives (a problem's ``type`` is this followed by its kind).
PROBLEMS_PATH = "/api/v1/problems/"
MEDIA_TYPE = "application/problem+json"


@dataclass(frozen=True)
class Problem:
    """A kind of refusal: its stable name, its HTTP status, and what it means for people."""

    kind: str
    status: int
    title: str

    @property
    def type(self) -> str:
        return PROBLEMS_PATH + self.kind

    def as_json(self) -> dict:
        return {"type": self.type, "title": self.title, "status": self.status}


def _game_status(error: type[BankerError]) -> int:
    return status_of(error.__new__(error))[0]


#: The server's own refusals: what arrives is not something the game is asked to judge.
SERVER = (
    Problem("bad-request", 400, "The request is not what this address takes"),
    Problem("not-json", 400, "The body is not the JSON this address takes"),
    Problem("not-joined", 401, "Scan your code on the banker's screen to join this table"),
    Problem("link-not-valid", 401, "This link is not valid, was withdrawn, or has expired"),
    Problem("wrong-role", 403, "The caller's role may not do this"),
    Problem("not-yours", 403, "A phone acts only for its own player"),
    Problem("cross-origin", 403, "A change must come from this table's own page"),
    Problem("not-found", 404, "There is nothing here"),
    Problem("no-such-request", 404, "There is no payment request with that id"),
    Problem("no-such-player", 404, "There is no player of that name in this game"),
    Problem("method-not-allowed", 405, "This address does not take that method"),
    Problem("body-timeout", 408, "The body did not arrive in time"),
    Problem("too-large", 413, "The request is too large"),
    Problem("not-json-content", 415, "Send JSON (Content-Type: application/json)"),
    Problem("wrong-host", 421, "This server answers only to the table's own address"),
    Problem("too-many-wrong-links", 429, "Too many wrong links from this device"),
    Problem("too-many-requests", 429, "Too many requests from this link just now"),
    Problem("too-many-live-pages", 429, "Too many live pages open for this link"),
    Problem("too-many-asks", 429, "This player has asked the banker too often just now"),
    Problem("server-fault", 500, "Unexpected error on the table's server"),
)

#: The game's own refusals, as the error classes declare them.
GAME = tuple(Problem(e.kind, _game_status(e), e.title) for e in ERRORS)

#: Every kind of refusal the API answers, by kind.
PROBLEMS: dict[str, Problem] = {p.kind: p for p in (*GAME, *SERVER)}
assert len(PROBLEMS) == len(GAME) + len(SERVER), "two problems share a kind"

#: The kind a refusal has when its code names none: the most general one of its status.
_BY_STATUS = {
    400: "bad-request",
    401: "not-joined",
    403: "wrong-role",
    404: "not-found",
    405: "method-not-allowed",
    408: "body-timeout",
    409: "refused",
    413: "too-large",
    415: "not-json-content",
    421: "wrong-host",
    429: "too-many-requests",
    500: "server-fault",
    503: "game-busy",
}


def by_kind(kind: str) -> Problem:
    """The declared problem of that kind, or the plain HTTP one (``http-414``) a status nobody declared
    a kind for answers (KeyError for anything else)."""
    if kind in PROBLEMS:
        return PROBLEMS[kind]
    if kind.startswith("http-") and kind[5:].isdigit() and int(kind[5:]) in set(HTTPStatus):
        return _plain(int(kind[5:]))
    raise KeyError(kind)


def _plain(status: int) -> Problem:
    """A refusal of a status no kind is declared for (aiohttp's own, say): named after the status."""
    try:
        title = HTTPStatus(status).phrase
    except ValueError:
        title = "Refused"
    return Problem(f"http-{status}", status, title)


def for_status(status: int, kind: str | None = None) -> Problem:
    """The problem a refusal with ``status`` answers: ``kind``'s, or the most general of that status."""
    if kind is not None:
        problem = PROBLEMS[kind]
        if problem.status != status:
            raise ValueError(f"the problem {kind!r} is a {problem.status}, not a {status}")
        return problem
    general = _BY_STATUS.get(status)
    return PROBLEMS[general] if general is not None else _plain(status)


def for_error(error: BankerError, status: int) -> Problem:
    """The problem for an error the game raised on purpose: the nearest kind its classes declare."""
    for cls in type(error).__mro__:
        kind = getattr(cls, "kind", None)
        if kind in PROBLEMS and PROBLEMS[kind].status == status:
            return PROBLEMS[kind]
    return for_status(status)


def body(problem: Problem, detail: str, status: int | None = None) -> bytes:
    """The problem details document: type, title, status, and the one-line ``detail`` of this refusal."""
    return json.dumps(
        {**problem.as_json(), "status": status or problem.status, "detail": detail}, ensure_ascii=False
    ).encode()
