"""What a phone's stream carries on the wire: each page as one chunk of the response's body, whether the
broadcast hands it over or the stream's own task writes it, and the body ends as HTTP says it must."""

from __future__ import annotations

import asyncio

import pytest

from companion.web.sse import Feed

ASYNC = pytest.mark.asyncio


class Wire:
    """A phone's stream read as bytes from a plain socket: the status line and headers, then each chunk."""

    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader, self.writer = reader, writer

    @classmethod
    async def open(cls, phones, phone) -> Wire:
        jar = phone.client.session.cookie_jar.filter_cookies(phone.client.make_url("/"))
        cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in jar.items())
        reader, writer = await asyncio.open_connection("127.0.0.1", phones.port)
        writer.write(
            f"GET /api/v1/events HTTP/1.1\r\nHost: 127.0.0.1:{phones.port}\r\nCookie: {cookie}\r\n\r\n".encode()
        )
        wire = cls(reader, writer)
        head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
        assert head.startswith(b"HTTP/1.1 200") and b"transfer-encoding: chunked" in head.lower()
        return wire

    async def chunk(self) -> bytes:
        """The next chunk's bytes, checked against the length it declares (b"": the body's end)."""
        size = await asyncio.wait_for(self.reader.readuntil(b"\r\n"), 5)
        data = await asyncio.wait_for(self.reader.readexactly(int(size, 16) + 2), 5)
        assert data.endswith(b"\r\n")
        return data[:-2]

    async def state(self) -> bytes:
        """The next ``state`` event's chunk (pings skipped)."""
        while True:
            data = await self.chunk()
            if not data.startswith(b"event: ping"):
                return data

    def close(self) -> None:
        self.writer.close()


def feeds(phones) -> list[Feed]:
    return [feed for feed in phones.server.desk.hub._waiters.values() if feed is not None]


async def streams_waiting(phones, count: int) -> None:
    async with asyncio.timeout(5):
        while len(feeds(phones)) < count:
            await asyncio.sleep(0.01)


@ASYNC
async def test_anns_two_phones_get_each_page_as_one_whole_chunk_then_the_game_ends_cleanly(phones):
    desk = phones.server.desk
    ann_pass = desk.authorise(phones.server.tokens.for_player("Ann"))
    ann = await phones.phone("Ann")
    first, second = await Wire.open(phones, ann), await Wire.open(phones, ann)
    for wire in (first, second):
        assert await wire.chunk() == b"retry: 2000\n\n"
        assert await wire.state() == desk.message(ann_pass)
    await streams_waiting(phones, 2)
    # the broadcast hands pages to the transport itself with the installed aiohttp
    assert all(feed.writer is not None for feed in feeds(phones))

    phones.table.do("salary", player="Ann")  # handed over by the broadcast
    page = desk.message(ann_pass)
    assert b'"cash":1700' in page
    assert [await first.state(), await second.state()] == [page, page]

    phones.table.do("end_game")  # the final page, then the last message from the stream's own task
    final = desk.message(ann_pass)
    for wire in (first, second):
        assert await wire.state() == final
        assert await wire.chunk() == b'event: closed\ndata: {"reason": "the game is over"}\n\n'
        assert await wire.chunk() == b""  # the body's end: "0\r\n\r\n"
        wire.close()


@ASYNC
async def test_what_the_broadcast_hands_over_is_counted_as_aiohttp_counts_its_own_writes(phones):
    ann = await phones.phone("Ann")
    wire = await Wire.open(phones, ann)
    await wire.chunk(), await wire.state()
    await streams_waiting(phones, 1)
    (feed,) = feeds(phones)
    writer = feed.writer
    assert writer is not None
    before = writer.output_size
    phones.table.do("salary", player="Ann")
    page = await wire.state()
    assert writer.output_size - before == len(f"{len(page):x}\r\n".encode()) + len(page) + 2
    wire.close()


@ASYNC
async def test_when_anns_phone_goes_away_bob_still_hears_his_salary(phones):
    ann = await phones.phone("Ann")
    bob = await phones.phone("Bob")
    gone, staying = await Wire.open(phones, ann), await Wire.open(phones, bob)
    for wire in (gone, staying):
        await wire.chunk(), await wire.state()
    await streams_waiting(phones, 2)
    gone.close()
    async with asyncio.timeout(5):  # the server hears the connection end: Ann's stream stops waiting
        while len(feeds(phones)) > 1:
            await asyncio.sleep(0.01)
    phones.table.do("salary", player="Bob")
    assert b'"cash":1700' in await staying.state()
    staying.close()


@ASYNC
async def test_a_phone_speaking_http_1_0_gets_its_pages_unchunked_through_aiohttps_own_writes(phones):
    desk = phones.server.desk
    ann_pass = desk.authorise(phones.server.tokens.for_player("Ann"))
    ann = await phones.phone("Ann")
    jar = ann.client.session.cookie_jar.filter_cookies(ann.client.make_url("/"))
    cookie = "; ".join(f"{name}={morsel.value}" for name, morsel in jar.items())
    reader, writer = await asyncio.open_connection("127.0.0.1", phones.port)
    writer.write(f"GET /api/v1/events HTTP/1.0\r\nHost: 127.0.0.1:{phones.port}\r\nCookie: {cookie}\r\n\r\n".encode())
    head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5)
    assert head.startswith(b"HTTP/1.0 200") and b"transfer-encoding" not in head.lower()
    page = desk.message(ann_pass)
    assert (
        await asyncio.wait_for(reader.readexactly(len(b"retry: 2000\n\n") + len(page)), 5) == b"retry: 2000\n\n" + page
    )
    await streams_waiting(phones, 1)
    assert [feed.writer for feed in feeds(phones)] == [None]  # not a chunked body: aiohttp writes it

    phones.table.do("salary", player="Ann")
    page = desk.message(ann_pass)
    assert b'"cash":1700' in page
    assert await asyncio.wait_for(reader.readexactly(len(page)), 5) == page
    writer.close()
