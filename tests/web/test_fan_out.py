"""After a change the broadcast hands every waiting phone its page itself, in one turn of the loop:
a stream's own task wakes only for what needs waiting (a burst, a phone slow to take its last page,
the last message, a ping, the server stopping)."""

from __future__ import annotations

import asyncio

import pytest

from companion.web.sse import Broadcast, Feed
from tests.web.test_sse import next_event

ASYNC = pytest.mark.asyncio


class Line:
    """A phone's connection as the broadcast sees it: what is still waiting to reach the phone."""

    def __init__(self, waiting: int = 0, closing: bool = False) -> None:
        self.waiting = waiting
        self.closing = closing

    def is_closing(self) -> bool:
        return self.closing

    def get_write_buffer_size(self) -> int:
        return self.waiting

    def get_write_buffer_limits(self) -> tuple[int, int]:
        return (16384, 65536)


class Screen:
    """A stream's response: what it was sent."""

    def __init__(self) -> None:
        self.sent: list[bytes] = []

    async def write(self, data: bytes) -> None:
        self.sent.append(data)


def feed_of(page, line: Line | None = None, coalesce: float = 0.1, key: str | None = None) -> tuple[Feed, Screen]:
    screen = Screen()
    return Feed(screen, page, line or Line(), coalesce, key), screen  # type: ignore[arg-type]


async def waiting(hub: Broadcast, feed: Feed) -> asyncio.Task:
    task = asyncio.create_task(hub.wait(hub.generation, 30, feed))
    await asyncio.sleep(0)  # the stream is waiting now
    return task


async def one_turn() -> None:
    await asyncio.sleep(0)
    await asyncio.sleep(0)


@ASYNC
async def test_ann_and_bob_get_their_pages_from_the_broadcast_and_their_streams_sleep_on():
    hub = Broadcast()
    ann, ann_screen = feed_of(lambda: (b"Ann's page", None))
    bob, bob_screen = feed_of(lambda: (b"Bob's page", None))
    tasks = [await waiting(hub, ann), await waiting(hub, bob)]
    hub.bump()
    await one_turn()
    assert ann_screen.sent == [b"Ann's page"] and bob_screen.sent == [b"Bob's page"]
    assert not any(t.done() for t in tasks)  # nobody's task woke: the broadcast sent both pages
    assert ann.seen == bob.seen == hub.generation
    hub.close()
    assert await asyncio.gather(*tasks) == [True, True]


@ASYNC
async def test_three_changes_in_one_turn_send_one_page():
    hub = Broadcast()
    made = []

    def page():
        made.append(hub.generation)
        return b"latest", None

    ann, screen = feed_of(page)
    task = await waiting(hub, ann)
    hub.bump(), hub.bump(), hub.bump()  # the banker's action, then the plays and requests it settled
    await one_turn()
    assert made == [3] and screen.sent == [b"latest"]
    hub.close()
    await task


@ASYNC
async def test_the_handler_that_acted_sends_the_phones_their_pages_before_it_answers():
    hub = Broadcast()
    ann, screen = feed_of(lambda: (b"Ann's page", None))
    task = await waiting(hub, ann)
    hub.bump()  # the banker's action committed
    hub.flush()  # its handler, before it answers: no turn of the loop in between
    assert screen.sent == [b"Ann's page"] and ann.seen == hub.generation
    hub.flush()  # nothing left: nothing sent twice
    await one_turn()
    assert screen.sent == [b"Ann's page"] and not task.done()
    hub.close()
    await task


@ASYNC
async def test_a_phone_still_taking_its_last_page_wakes_its_own_stream_and_holds_no_one():
    hub = Broadcast()
    slow, slow_screen = feed_of(lambda: (b"Cy's page", None), Line(waiting=40_000))
    quick, quick_screen = feed_of(lambda: (b"Ann's page", None))
    slow_task, quick_task = await waiting(hub, slow), await waiting(hub, quick)
    hub.bump()
    await one_turn()
    assert quick_screen.sent == [b"Ann's page"] and not quick_task.done()
    assert slow_screen.sent == [] and slow_task.done()  # its own task sends, waiting for the phone
    hub.close()
    await quick_task


@ASYNC
async def test_a_burst_the_last_message_and_a_gone_phone_are_left_to_the_streams_own_task():
    hub = Broadcast()
    loop = asyncio.get_running_loop()
    just_sent, _ = feed_of(lambda: (b"page", None))
    just_sent.sent_at = loop.time()  # a page went out a moment ago: the burst's interval is not over
    over, over_screen = feed_of(lambda: (b"final page", "the game is over"))
    gone, _ = feed_of(lambda: (b"page", None), Line(closing=True))
    broken, _ = feed_of(lambda: 1 / 0)
    fine, fine_screen = feed_of(lambda: (b"page", None))
    tasks = [await waiting(hub, f) for f in (just_sent, over, gone, broken, fine)]
    hub.bump()
    await one_turn()
    assert [t.done() for t in tasks] == [True, True, True, True, False]
    assert over_screen.sent == [] and fine_screen.sent == [b"page"]
    hub.close()
    await asyncio.gather(*tasks)


@ASYNC
async def test_a_write_that_would_wait_for_the_phone_is_left_to_the_streams_own_task():
    hub = Broadcast()

    class Stalled(Screen):
        async def write(self, data: bytes) -> None:
            await asyncio.sleep(30)  # as a write waits for a phone that took nothing

    feed = Feed(Stalled(), lambda: (b"page", None), Line(), 0.1)  # type: ignore[arg-type]
    task = await waiting(hub, feed)
    hub.bump()
    await one_turn()
    assert task.done() and feed.seen is None  # the stream sends the page again itself


@ASYNC
async def test_four_phones_of_ann_see_her_salary_while_their_streams_keep_waiting(phones, monkeypatch):
    import companion.web.sse as sse

    # no burst's interval after the first page: the salary comes at once after it
    monkeypatch.setattr(sse.stream, "__kwdefaults__", {**sse.stream.__kwdefaults__, "coalesce": 0.0})
    ann = [await phones.phone("Ann") for _ in range(4)]
    streams = [await p.get("/api/v1/events") for p in ann]
    for s in streams:
        assert (await next_event(s))["id"] == "1"
    hub = phones.server.desk.hub
    while len(hub._waiters) < 4:  # every stream waits for the next change
        await asyncio.sleep(0.01)
    before = set(hub._waiters)
    phones.table.do("salary", player="Ann")
    for s in streams:
        event = await next_event(s)
        assert event["id"] == "2" and event["data"]["me"]["cash"] == 1700
    assert set(hub._waiters) == before and not any(w.done() for w in before)
    for s in streams:
        s.close()
