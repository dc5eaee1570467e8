"""Malformed input from a phone or a script is refused in one line (400, 408 or 413), never a 500,
and the game stays exactly as it was."""

from __future__ import annotations

import asyncio
import json

import pytest

from companion.core.errors import BadAction, BankerError, GameBusy, GameFileError, NotEnoughMoney, Refused, UnknownName
from companion.web.intake import MAX_DEPTH, check_value, status_of
from companion.web.limits import Limits
from companion.web.server import PhoneServer

ASYNC = pytest.mark.asyncio
LONE = '"\\ud800"'  # a lone surrogate, as JSON text: valid JSON, not storable text


async def refused(response, *statuses: int) -> str:
    assert response.status in statuses, (response.status, await response.text())
    error = (await response.json())["detail"]
    assert "\n" not in error and error
    return error


@ASYNC
async def test_ann_types_a_memo_with_a_lone_surrogate_and_is_told_so(phones):
    ann = await phones.phone("Ann")
    body = '{"to": "Bob", "amount": 50, "memo": ' + LONE + "}"
    error = await refused(await ann.post("/api/v1/requests", data=body), 400)
    assert "Unicode" in error
    body = '{"to": "Bob", "amount": 50, "id": ' + LONE + "}"
    await refused(await ann.post("/api/v1/requests", data=body), 400)
    body = '{"to": "Bob", "amount": 50, ' + LONE + ": 1}"  # a key too
    await refused(await ann.post("/api/v1/requests", data=body), 400)
    assert phones.server.requests.pending() == []


@ASYNC
async def test_the_banker_sends_an_action_with_a_lone_surrogate_and_nothing_happens(phones):
    banker = await phones.phone("banker")
    before = phones.table.banker.version
    for body in (
        '{"action": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "memo": ' + LONE + "}",
        '{"action": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "id": ' + LONE + "}",
        '{"action": "decline", "reason": ' + LONE + "}",
    ):
        await refused(await banker.post("/api/v1/actions", data=body), 400)
    assert phones.table.banker.version == before


@ASYNC
async def test_an_amount_of_five_thousand_digits_is_refused_as_too_long(phones):
    banker = await phones.phone("banker")
    ann = await phones.phone("Ann")
    digits = "9" * 5000
    error = await refused(
        await banker.post(
            "/api/v1/actions", data='{"action": "transfer", "from": "Ann", "to": "Bob", "amount": ' + digits + "}"
        ),
        400,
    )
    assert "too long" in error
    await refused(await ann.post("/api/v1/requests", data='{"to": "Bob", "amount": ' + digits + "}"), 400)
    await refused(await ann.post("/api/v1/requests", data='{"to": "Bob", "amount": "' + digits + '"}'), 400)
    await refused(
        await banker.post(
            "/api/v1/actions", data='{"action": "transfer", "from": "Ann", "to": "Bob", "amount": 1' + "0" * 30 + "}"
        ),
        400,
    )
    assert phones.table.banker.version == 1 and phones.table.total() == 0


@ASYNC
@pytest.mark.parametrize(
    "body",
    [
        "{",
        "[1, 2]",
        '"text"',
        "\xff\xfe",
        "[" * 5000 + "]" * 5000,
        '{"a": ' + "[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1) + "}",
    ],
)
async def test_bodies_that_are_not_a_json_object_get_a_400(phones, body):
    banker = await phones.phone("banker")
    raw = body.encode("latin-1") if body.startswith("\xff") else body.encode()
    await refused(await banker.post("/api/v1/actions", data=raw), 400)


@ASYNC
async def test_a_request_id_or_query_with_broken_text_is_a_400_or_404_not_a_crash(phones):
    ann = await phones.phone("Ann")
    banker = await phones.phone("banker")
    await refused(await ann.post("/api/v1/requests/%ED%A0%80/cancel", {}), 400, 404)
    await refused(await banker.post("/api/v1/requests/%ED%A0%80/approve", {}), 400, 404)
    await refused(await banker.get("/api/v1/log?after=%ED%A0%80"), 400)
    await refused(await banker.get("/api/v1/log?after=%C2%B2"), 400)  # a superscript two is a digit to Python
    await refused(await banker.get("/api/v1/players/%ED%A0%80/join"), 400, 404)


@ASYNC
async def test_the_log_takes_any_version_the_document_allows(phones):
    banker = await phones.phone("banker")
    r = await banker.get("/api/v1/log?after=2199023255553")
    assert r.status == 200 and (await r.json())["entries"] == []
    r = await banker.get(f"/api/v1/log?after={2**63 - 1}")
    assert r.status == 200
    await refused(await banker.get(f"/api/v1/log?after={2**63}"), 400)


@ASYNC
async def test_a_body_that_stops_halfway_is_answered_408_and_the_connection_closed(phones, aiohttp_server):
    server = PhoneServer(phones.table.banker, "127.0.0.1", 0, advertise=False, limits=Limits(body_seconds=0.2))
    http = await aiohttp_server(server.app)
    token = server.tokens.for_banker()
    reader, writer = await asyncio.open_connection("127.0.0.1", http.port)
    try:
        writer.write(
            (
                f"POST /api/v1/actions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer {token}\r\n"
                'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"action":'
            ).encode()
        )
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), 10)  # read() returns at EOF: the server closed
    finally:
        writer.close()
    assert answer.startswith(b"HTTP/1.1 408")
    assert phones.table.banker.version == 1


@pytest.mark.parametrize(
    "error, status",
    [
        (BadAction("x"), 400),
        (Refused("x"), 409),
        (UnknownName("x"), 409),
        (NotEnoughMoney("x"), 409),
        (GameBusy("x"), 503),
        (GameFileError("x"), 503),
        (BankerError("x"), 400),
    ],
)
def test_every_error_the_game_raises_on_purpose_has_its_status(error, status):
    assert status_of(error)[0] == status


def test_what_a_body_may_hold_is_checked_in_one_walk():
    assert check_value({"action": "transfer", "amount": 5, "memo": "pizza \u00e9", "list": [1, [2]]}) is None
    assert "surrogate" in check_value({"memo": "\ud800"})
    assert "too large" in check_value({"amount": 10**19})
    deep: list = []
    for _ in range(MAX_DEPTH + 2):
        deep = [deep]
    assert "nested" in check_value(deep)
    assert check_value(json.loads('{"ok": 1e400}')) is None  # inf: the money parser refuses it by name
