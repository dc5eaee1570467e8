"""A player cannot keep the table busy by asking and cancelling: every ask counts against the budget,
and old answers are forgotten once the game moves on (the banker keeps the last 50)."""

from __future__ import annotations

import pytest

from companion.web.requests import KEEP_ANSWERED
from tests.web.test_security import limited

ASYNC = pytest.mark.asyncio


@ASYNC
async def test_ann_asking_and_cancelling_in_a_loop_is_stopped_after_six_asks(phones, aiohttp_server, aiohttp_client):
    server, phone, clock = await limited(phones, aiohttp_server, aiohttp_client)
    ann = await phone("Ann")
    for i in range(6):
        r = await ann.ask("Bob", 5, f"try {i}")
        assert r.status == 201, await r.text()
        rid = (await r.json())["request"]["id"]
        assert (await ann.post(f"/api/v1/requests/{rid}/cancel", {})).status == 200
    r = await ann.ask("Bob", 5, "once more")
    assert r.status == 429 and "wait a minute" in (await r.json())["detail"]
    assert int(r.headers["Retry-After"]) >= 1
    bob = await phone("Bob")
    assert (await bob.ask("Ann", 5, "Bob still may")).status == 201  # Ann's budget is hers alone
    clock.now += 11  # a minute's budget comes back a little at a time
    assert (await ann.ask("Bob", 5, "later")).status == 201
    server.close()


def test_answered_requests_are_pruned_when_the_game_moves_on_keeping_the_last_fifty(table, phones):
    requests = phones.server.requests
    for i in range(KEEP_ANSWERED + 10):
        made = requests.ask("Ann", "Bob", 1, f"round {i}")
        requests.cancel(made.id, "Ann") if i % 2 else requests.decline(made.id, "not now")
    waiting = requests.ask("Cy", "bank", 10, "tax")
    assert len(requests.recent(100)) == KEEP_ANSWERED + 10
    table.do("salary", player="Ann")  # the game moves on
    assert len(requests.recent(100)) == KEEP_ANSWERED
    assert requests.recent(1)[0].memo == f"round {KEEP_ANSWERED + 9}"  # the newest are kept
    assert [r.id for r in requests.pending()] == [waiting.id]  # waiting requests are never pruned
