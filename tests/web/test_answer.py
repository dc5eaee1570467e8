"""The API's small JSON answers on the wire: written in one piece, byte for byte what aiohttp writes, and
aiohttp's own answer wherever writing it in one piece would not be all aiohttp does."""

from __future__ import annotations

import asyncio
import json
import re

import pytest
from aiohttp import web
from aiohttp.http_writer import HttpVersion10, HttpVersion11
from aiohttp.test_utils import make_mocked_request

import companion.web.api
from companion.web.answer import Answer, Heads, answer
from companion.web.security import json_headers

ASYNC = pytest.mark.asyncio


def aiohttps_own(request: web.Request, heads: Heads, body: bytes, status: int = 200) -> web.StreamResponse:
    """The answer as aiohttp makes and writes it, headers and all."""
    return web.Response(body=body, status=status, headers=heads.headers)


class Line:
    """The banker's phone on a plain socket: each request and its answer as bytes."""

    def __init__(self, phones, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.phones, self.reader, self.writer = phones, reader, writer

    @classmethod
    async def open(cls, phones) -> Line:
        return cls(phones, *await asyncio.open_connection("127.0.0.1", phones.port))

    def request(self, method: str, path: str, body: bytes = b"", *, version: str = "1.1", more: str = "") -> None:
        token = self.phones.server.tokens.for_banker()
        self.writer.write(
            f"{method} {path} HTTP/{version}\r\nHost: 127.0.0.1:{self.phones.port}\r\n"
            f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n{more}"
            f"Content-Length: {len(body)}\r\n\r\n".encode()
            + body
        )

    async def answer(self) -> bytes:
        head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), 5)
        length = re.search(rb"\r\nContent-Length: (\d+)\r\n", head)
        assert length is not None, head
        return head + await asyncio.wait_for(self.reader.readexactly(int(length[1])), 5)

    async def act(self, action: dict, **kw) -> bytes:
        self.request("POST", "/api/v1/actions", json.dumps(action).encode(), **kw)
        return await self.answer()

    async def closed(self) -> bool:
        return await asyncio.wait_for(self.reader.read(), 5) == b""

    def close(self) -> None:
        self.writer.close()


def undated(wire: bytes) -> bytes:
    """The answer with its Date's value blanked (two answers may be written a second apart)."""
    dated = re.subn(rb"\r\nDate: [^\r\n]+\r\n", b"\r\nDate: -\r\n", wire)
    assert dated[1] == 1, wire
    return dated[0]


def parts(wire: bytes) -> tuple[bytes, list[tuple[str, str]], bytes]:
    head, _, body = wire.partition(b"\r\n\r\n")
    status, *lines = head.decode().split("\r\n")
    return status.encode(), [tuple(line.split(": ", 1)) for line in lines], body  # type: ignore[misc]


@ASYNC
async def test_bobs_payment_to_ann_is_answered_with_every_header_once_in_aiohttps_order(phones):
    line = await Line.open(phones)
    wire = await line.act({"action": "transfer", "from": "Bob", "to": "Ann", "amount": 50, "id": "pay-1"})
    status, headers, body = parts(wire)
    assert status == b"HTTP/1.1 201 Created"
    expected = [*json_headers().items(), ("Content-Length", str(len(body)))]
    assert headers[:-1] == expected and headers[-1][0] == "Date"
    done = json.loads(body)
    assert done["summary"] == "Bob paid Ann $50" and done["repeated"] is False
    assert phones.table.cash("Ann") == 1550 and phones.table.cash("Bob") == 1450
    line.close()


@ASYNC
async def test_a_retried_payment_is_the_same_bytes_written_whole_or_by_aiohttp(phones, monkeypatch):
    line = await Line.open(phones)
    made: list[type] = []

    def spied(*args, **kw):
        made.append(type(response := answer(*args, **kw)))
        return response

    monkeypatch.setattr(companion.web.api, "answer", spied)
    action = {"action": "transfer", "from": "Bob", "to": "Ann", "amount": 50, "id": "pay-1"}
    assert (await line.act(action)).startswith(b"HTTP/1.1 201 Created\r\n")
    whole = await line.act(action)  # the first outcome again, on the same connection
    assert made == [Answer, Answer]
    monkeypatch.setattr(companion.web.api, "answer", aiohttps_own)
    by_aiohttp = await line.act(action)
    assert whole.startswith(b"HTTP/1.1 200 OK\r\n") and b'"repeated":true' in whole
    assert undated(whole) == undated(by_aiohttp)
    assert phones.table.cash("Ann") == 1550  # one payment, answered three times
    line.close()


@ASYNC
async def test_a_small_page_and_the_banker_list_are_the_bytes_aiohttp_writes(phones, monkeypatch):
    line = await Line.open(phones)
    for path in ("/api/v1/requests", "/api/v1/log?after=0&limit=1"):
        line.request("GET", path)
        whole = await line.answer()
        assert len(parts(whole)[2]) <= 1400
        with monkeypatch.context() as patched:
            patched.setattr(companion.web.api, "answer", aiohttps_own)
            line.request("GET", path)
            by_aiohttp = await line.answer()
        assert undated(whole) == undated(by_aiohttp), path
    line.close()


@ASYNC
async def test_a_phone_that_asks_to_hang_up_or_speaks_http_1_0_gets_aiohttps_own_answer(phones):
    action = {"action": "transfer", "from": "Bob", "to": "Ann", "amount": 10}
    line = await Line.open(phones)
    closing = await line.act(action, more="Connection: close\r\n")
    assert parts(closing)[1][-1] == ("Connection", "close") and await line.closed()
    line = await Line.open(phones)
    old = await line.act(action, version="1.0", more="Connection: keep-alive\r\n")
    assert old.startswith(b"HTTP/1.0 201 Created\r\n") and ("Connection", "keep-alive") in parts(old)[1]
    again = await line.act(action, version="1.0")  # no keep-alive asked for: answered, then closed
    assert again.startswith(b"HTTP/1.0 201 Created\r\n") and await line.closed()
    assert phones.table.cash("Ann") == 1530


@pytest.mark.parametrize(
    "method, version, closing, size, whole",
    [
        ("POST", HttpVersion11, False, 200, True),
        ("GET", HttpVersion11, False, 1400, True),
        ("GET", HttpVersion11, False, 1401, False),  # large enough to be gzipped for a phone that takes it
        ("HEAD", HttpVersion11, False, 200, False),
        ("POST", HttpVersion11, True, 200, False),  # "Connection: close"
        ("POST", HttpVersion10, False, 200, False),  # "Connection: keep-alive"
    ],
)
def test_an_answer_is_written_whole_only_where_that_is_all_aiohttp_would_write(method, version, closing, size, whole):
    request = make_mocked_request(method, "/api/v1/actions", version=version, closing=closing)
    made = answer(request, Heads(json_headers()), b"x" * size, 201)
    assert isinstance(made, Answer) is whole
    assert made.status == 201
    if not whole:  # aiohttp's own, with every header
        assert type(made) is web.Response and made.headers == json_headers()
