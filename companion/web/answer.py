"""The API's small JSON answers, written in one piece: their head made of bytes made once.

An answer of the JSON API carries the same dozen headers every time (every response's security headers,
``Cache-Control`` and ``Content-Type``: :func:`companion.web.security.json_headers`), and only its status,
length and date change. aiohttp would copy those headers into a multidict for each answer, look each one
up again, let the response hook look at them, then write them out one by one: most of an answer's cost
on a table where each action arrives after a pause and runs on cold caches. :func:`answer` writes the
same bytes aiohttp writes (the status line, the headers in the order aiohttp puts them, ``Content-Length``
then ``Date``, the body) from a head made once, through the request's own writer in one write
(:class:`Answer`), its counts kept as aiohttp keeps them.

Only where that is all aiohttp would write: HTTP/1.1, the connection kept open, not a ``HEAD``, a body
small enough to go unzipped (:data:`companion.web.shelf.PACKET`). Any other answer is aiohttp's own
:class:`~aiohttp.web.Response` with the same headers (``tests/web/test_answer.py`` reads both off the
socket).
"""

from __future__ import annotations

from http import HTTPStatus

from aiohttp import web
from aiohttp.abc import AbstractStreamWriter
from aiohttp.helpers import rfc822_formatted_time
from aiohttp.http_writer import HttpVersion11
from multidict import CIMultiDict

from .shelf import PACKET

__all__ = ["Answer", "Heads", "answer"]


class Answer(web.StreamResponse):
    """An answer whose bytes are made in full before it is sent: aiohttp's finish asks it to prepare,
    and it writes them through the request's writer in one write (nothing is left for ``write_eof``).
    Its headers are in its bytes, not in :attr:`headers`, and no response hook sees it.

    Made by :func:`answer` only for a request whose connection stays open (so :attr:`keep_alive`)."""

    def __init__(self, status: int, data: bytes) -> None:
        super().__init__(status=status)
        self._data: bytes | None = data  # the whole answer, head and body; None once written
        self._length = len(data)

    @property
    def keep_alive(self) -> bool:
        return True

    @property
    def prepared(self) -> bool:
        return self._data is None

    @property
    def body_length(self) -> int:
        """What was written, head and body, as aiohttp counts it (its writer's ``output_size``)."""
        return 0 if self._data is not None else self._length

    async def prepare(self, request: web.BaseRequest) -> AbstractStreamWriter | None:
        data, self._data = self._data, None
        if data is not None:
            await request.writer.write_eof(data)  # the writer's counts kept, its drain waited for
        return None

    async def write_eof(self, data: bytes = b"") -> None:
        assert not data, "an answer is written whole"


class Heads:
    """The status lines and headers of the answers made with one set of headers, as bytes (the
    headers as aiohttp writes them: one ``Name: value`` line each, in their order)."""

    def __init__(self, headers: CIMultiDict[str]) -> None:
        self.headers = headers
        self._head = "".join(f"{name}: {value}\r\n" for name, value in headers.items()).encode("utf-8")
        self._lines: dict[int, bytes] = {}

    def line(self, status: int) -> bytes:
        """The status line of ``status`` (its reason as aiohttp words it) and the headers."""
        try:
            return self._lines[status]
        except KeyError:
            try:
                reason = HTTPStatus(status).phrase
            except ValueError:
                reason = ""
            line = self._lines[status] = f"HTTP/1.1 {status} {reason}\r\n".encode() + self._head
            return line


def answer(request: web.Request, heads: Heads, body: bytes, status: int = 200) -> web.StreamResponse:
    """The answer ``body`` with the headers of ``heads``: written in one piece (:class:`Answer`) where
    that is all aiohttp would write, else aiohttp's own response with the same headers."""
    if len(body) <= PACKET and request.version == HttpVersion11 and request.keep_alive and request.method != "HEAD":
        data = b"%bContent-Length: %d\r\nDate: %s\r\n\r\n%b" % (
            heads.line(status),
            len(body),
            rfc822_formatted_time().encode(),
            body,
        )
        return Answer(status, data)
    return web.Response(body=body, status=status, headers=heads.headers)
