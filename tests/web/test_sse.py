"""Live pages: each phone hears about every change at once, and a phone waking from sleep catches up."""

from __future__ import annotations

import asyncio
import json

import pytest

from companion.web.sse import Broadcast

ASYNC = pytest.mark.asyncio


async def next_event(response, timeout: float = 5.0) -> dict:
    """Read one server-sent event: {"event", "id", "data"} (comments and retry lines skipped)."""
    event: dict = {}
    while True:
        line = (await asyncio.wait_for(response.content.readline(), timeout)).decode().rstrip("\n")
        if not line:
            if "event" in event or "data" in event:
                if "data" in event:
                    event["data"] = json.loads(event["data"])
                return event
            continue
        field, _, value = line.partition(": ")
        if field in ("event", "id", "data"):
            event[field] = value


async def until_event(response, kind: str) -> dict:
    while True:
        event = await next_event(response)
        if event["event"] == kind:
            return event


@ASYNC
async def test_ann_gets_her_page_at_once_and_again_after_each_action(phones):
    ann = await phones.phone("Ann")
    stream = await ann.get("/api/v1/events")
    assert stream.headers["Content-Type"].startswith("text/event-stream")
    first = await next_event(stream)
    assert first["event"] == "state" and first["id"] == "1" and first["data"]["me"]["cash"] == 1500
    phones.table.do("salary", player="Ann")
    second = await next_event(stream)
    assert second["id"] == "2" and second["data"]["me"]["cash"] == 1700
    assert second["data"]["me"]["story"][0]["text"] == "You collected $200 salary"
    stream.close()


@ASYNC
async def test_the_banker_hears_of_a_new_request_and_the_player_of_the_answer(phones):
    ann = await phones.phone("Ann")
    banker = await phones.phone("banker")
    ann_stream, bank_stream = await ann.get("/api/v1/events"), await banker.get("/api/v1/events")
    await next_event(ann_stream), await next_event(bank_stream)
    rid = (await (await ann.ask("Cy", 20, "taxi")).json())["request"]["id"]
    heard = await next_event(bank_stream)
    assert [r["id"] for r in heard["data"]["pending"]] == [rid]
    await next_event(ann_stream)
    phones.server.requests.decline(rid, "pay Cy in cash")
    answer = await next_event(ann_stream)
    assert answer["data"]["requests"][0]["status"] == "declined"
    assert answer["data"]["requests"][0]["reason"] == "pay Cy in cash"
    ann_stream.close(), bank_stream.close()


@ASYNC
async def test_a_phone_waking_from_sleep_gets_the_latest_page_not_a_backlog(phones):
    bob = await phones.phone("Bob")
    for _ in range(5):
        phones.table.do("salary", player="Bob")
    stream = await bob.get("/api/v1/events", headers={"Last-Event-ID": "1"})
    first = await next_event(stream)
    assert first["id"] == "6" and first["data"]["me"]["cash"] == 2500
    stream.close()


@ASYNC
async def test_a_withdrawn_link_closes_the_stream_with_a_reason(phones):
    cy = await phones.phone("Cy")
    stream = await cy.get("/api/v1/events")
    await next_event(stream)
    phones.server.revoke("Cy")
    closed = await until_event(stream, "closed")
    assert "withdrawn" in closed["data"]["reason"]
    assert await asyncio.wait_for(stream.content.read(), 5) == b""  # the server ended it


@ASYNC
async def test_at_the_end_of_the_game_the_phone_gets_the_final_page_then_the_stream_ends(phones):
    ann = await phones.phone("Ann")
    stream = await ann.get("/api/v1/events")
    await next_event(stream)
    phones.table.do("end_game")
    final = await next_event(stream)
    assert final["event"] == "state" and final["data"]["over"]["winner"]
    closed = await next_event(stream)
    assert closed["event"] == "closed" and closed["data"]["reason"] == "the game is over"


@ASYNC
async def test_a_quiet_table_still_pings_so_phones_know_the_line_is_alive(phones, monkeypatch):
    import companion.web.sse as sse

    monkeypatch.setattr(sse, "PING_SECONDS", 0.05)
    monkeypatch.setattr(sse.stream, "__kwdefaults__", {**sse.stream.__kwdefaults__, "ping": 0.05})
    ann = await phones.phone("Ann")
    stream = await ann.get("/api/v1/events")
    await next_event(stream)
    assert (await next_event(stream))["event"] == "ping"
    stream.close()


@ASYNC
async def test_the_broadcast_wakes_every_waiting_stream_once():
    hub = Broadcast()
    seen = hub.generation
    waiters = [asyncio.create_task(hub.wait(seen, 5)) for _ in range(50)]
    await asyncio.sleep(0)
    hub.bump()
    assert await asyncio.gather(*waiters) == [True] * 50
    assert await hub.wait(hub.generation, 0.01) is False
    hub.close()
    assert await hub.wait(hub.generation, 5) is True


@ASYNC
async def test_a_burst_of_actions_reaches_a_phone_as_one_jump_to_the_latest_page(phones, monkeypatch):
    import companion.web.sse as sse

    monkeypatch.setattr(sse.stream, "__kwdefaults__", {**sse.stream.__kwdefaults__, "coalesce": 1.0})
    ann = await phones.phone("Ann")
    stream = await ann.get("/api/v1/events")
    assert (await next_event(stream))["id"] == "1"
    for _ in range(20):  # the banker taps through twenty salaries while Ann's page is open
        phones.table.do("salary", player="Ann")
        await asyncio.sleep(0.005)
    jump = await until_event(stream, "state")
    assert jump["id"] == "21" and jump["data"]["me"]["cash"] == 1500 + 20 * 200
    stream.close()


@ASYNC
async def test_every_stream_of_one_player_gets_the_same_bytes(phones):
    desk = phones.server.desk
    ann = desk.authorise(phones.server.tokens.for_player("Ann"))
    assert desk.message(ann) is desk.message(ann)  # rendered once for all of Ann's phones
    phones.table.do("salary", player="Ann")
    assert b'"cash":1700' in desk.message(ann)
