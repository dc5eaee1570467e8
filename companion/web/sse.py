"""Server-sent events: every phone's live feed of its page.

A stream always sends the *latest* page, never a backlog: when a phone wakes from sleep (or a slow
phone falls behind a burst of actions) it jumps straight to the current version. And at most one page
per :data:`COALESCE_SECONDS` per phone: the first change after a quiet spell goes out at once, the
changes of a burst become one jump to the latest page when the interval is over. Each message is
``event: state`` with ``id: <game version>`` and the role's whole page as JSON; a ``ping`` every
15 seconds lets the page notice a dead connection; ``event: closed`` says why a stream ends for good
(the token was revoked, the game is over) so the page stops reconnecting. When the server itself
stops, streams just end: the pages say the connection is lost and reconnect when it is back.

:class:`Broadcast` is the only shared piece: a generation counter, and one timer for the pings. After
a change it hands every waiting stream its page itself, in one turn of the loop (each stream's
:class:`Feed`), and wakes a stream's own task only for what needs waiting: a burst's interval, a
phone still taking the last page, the last message, a ping, the server stopping. Loop-only, no locks.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Hashable
from typing import Callable

from aiohttp import web
from aiohttp.http_writer import StreamWriter

__all__ = ["Broadcast", "Feed", "stream", "PING_SECONDS", "COALESCE_SECONDS", "event_frame", "sse_message"]

PING_SECONDS = 15.0
COALESCE_SECONDS = 0.1
RETRY_MS = 2000

Page = Callable[[], "tuple[bytes | None, str | None]"]


class Feed:
    """One phone's live stream as the broadcast sees it while the stream waits: what it last sent
    (the generation and when), and how to send its page now without waking its task.

    After a change, the broadcast hands each waiting stream its page itself, in one turn of the loop
    for every stream (:meth:`Broadcast._fan_out`), instead of waking twelve tasks that each do the
    same: a stream's own task wakes only for what needs waiting (a burst's interval, a phone slow to
    take what it was sent, the last message, a ping, the server stopping).

    ``key``: streams with the same key are sent the same page (their ``page()`` answers alike after
    a change: the four phones of one link), so a fan-out asks one of them; None: a page of its own."""

    __slots__ = ("response", "page", "transport", "coalesce", "seen", "sent_at", "key", "most", "writer")

    def __init__(
        self, response: web.StreamResponse, page: Page, transport, coalesce: float, key: Hashable | None = None
    ) -> None:
        self.response = response
        self.page = page
        self.transport = transport
        self.coalesce = coalesce
        self.seen: int | None = None
        self.sent_at = float("-inf")
        self.key = key
        # the most a write hands over without waiting for the phone: the transport's high-water mark,
        # set when it is made (nothing here or in aiohttp sets it again)
        self.most = transport.get_write_buffer_limits()[1] if transport is not None else 0
        self.writer = _plain_chunks(response)

    def ready(self, now: float) -> bool:
        """Whether a page could go out at once: the burst's interval is over and the phone has taken
        what it was sent (else its task waits for it)."""
        if now - self.sent_at < self.coalesce:
            return False
        transport = self.transport
        return not (transport is None or transport.is_closing() or transport.get_write_buffer_size())

    def serve(self, generation: int, now: float, answers: dict | None = None, chunks: dict | None = None) -> bool:
        """Send the page of ``generation`` at once if nothing needs waiting for; False: the stream's
        own task must (a burst's interval not over, bytes still on their way to the phone, a last
        message or no page to send, the connection gone). ``answers``: the pages asked so far in this
        fan-out, by key: a stream whose key is there is sent the same page without asking again.
        ``chunks``: the pages framed so far in this fan-out (by the message's id, with the message): a
        page is framed once for all its streams."""
        if self.seen == generation:
            return True
        transport = self.transport  # as ready(), written out: once per stream and change
        if now - self.sent_at < self.coalesce or transport is None:
            return False
        if transport.is_closing() or transport.get_write_buffer_size():
            return False
        key = self.key
        if key is None or answers is None:
            message, reason = self.page()
        else:
            answer = answers.get(key)
            if answer is None:
                answer = answers[key] = self.page()
            message, reason = answer
        if message is None or reason is not None or len(message) >= self.most:
            return False
        writer = self.writer
        if writer is not None and not writer._eof:
            # The page as one chunk of the response's body, framed once for every stream it goes to,
            # handed to the transport as aiohttp's writer would, its counts kept as it keeps them.
            chunk = chunks.get(id(message)) if chunks is not None else None
            if chunk is None or chunk[0] is not message:
                chunk = (message, b"%x\r\n%b\r\n" % (len(message), message))
                if chunks is not None:
                    chunks[id(message)] = chunk
            framed = chunk[1]
            size = len(framed)
            if size >= self.most:
                return False
            writer.output_size += size
            writer.buffer_size += size
            if writer.buffer_size > _DRAIN_PAST:
                writer.buffer_size = 0  # aiohttp's own count before it drains: nothing waits (checked above)
            transport.write(framed)
            self.seen, self.sent_at = generation, now
            return True
        # Written without a task: to a transport with nothing waiting, the write hands the bytes over
        # and returns, since it waits only for a phone that has not taken more than the transport's
        # limit (and the message is smaller).
        write = self.response.write(message)
        try:
            write.send(None)
        except StopIteration:
            self.seen, self.sent_at = generation, now
            return True
        except Exception:  # the connection went: the stream's task meets the same and ends
            return False
        write.close()  # it would wait: the task sends the page again and waits as it should
        return False


class Broadcast:
    """Wakes every waiting stream when something changed, and when the line has been quiet for a
    ping's interval (one timer for every stream, not one per stream and wake-up). A stream waiting
    with its :class:`Feed` is handed its page by the broadcast itself, once per turn of the loop for
    every stream, and wakes only when that cannot be done at once."""

    def __init__(self, stamp: Callable[[], Hashable] | None = None) -> None:
        self.generation = 0
        self.closed = False
        self._waiters: dict[asyncio.Future, Feed | None] = {}
        self._quiet: asyncio.TimerHandle | None = None
        self._fanning: asyncio.Handle | None = None
        #: What the pages depend on besides the generation (a waiting play's seconds left count with the
        #: clock): the pages :meth:`prepare` asked are handed out by the fan-out while it reads the same.
        #: None: every fan-out asks again.
        self.stamp = stamp
        self._prepared: tuple[int, Hashable, dict] | None = None  # (generation, stamp, answers by key)

    def bump(self) -> None:
        """Something changed: every stream should send its page again."""
        self.generation += 1
        self._wake(True)

    def advance(self) -> None:
        """A change is coming whose pages are made before it may be shown (an entry before its COMMIT):
        the generation moves, nobody is woken; :meth:`announce` wakes them once it may be shown."""
        self.generation += 1

    def prepare(self) -> None:
        """Make, without sending them, the pages the next fan-out would send at once: those of the
        waiting streams that need not wait (:meth:`Feed.ready`), one per key. In a burst nobody's page
        is made for a change no stream will send. The fan-out hands out what was asked here, as long as
        the generation and the :attr:`stamp` read the same then."""
        made: dict = {}  # each key's answer
        fed, now = self._fed()
        for _waiter, feed in fed:
            key = feed.key
            if key in made or not feed.ready(now):
                continue
            try:
                answer = feed.page()
            except Exception:  # the fan-out meets the same and lets the stream's task say so
                continue
            if key is not None:
                made[key] = answer
        self._prepared = self._stamped(made)

    def _stamped(self, answers: dict) -> tuple[int, Hashable, dict] | None:
        """``answers`` with the generation and the stamp they were asked at (None without a stamp)."""
        if self.stamp is None:
            return None
        try:
            return self.generation, self.stamp(), answers
        except Exception:  # the pages are asked again and say what went wrong
            return None

    def announce(self) -> None:
        """The change of :meth:`advance` may be shown now: every stream sends its page again."""
        self._wake(True)

    def close(self) -> None:
        """The server is stopping: wake every stream so it can finish."""
        self.closed = True
        if self._quiet is not None:
            self._quiet.cancel()
            self._quiet = None
        self.bump()

    def _wake(self, changed: bool) -> None:
        if changed and not self.closed:
            waiters = self._waiters
            for waiter in [waiter for waiter, feed in waiters.items() if feed is None]:  # no feed: it sends its own
                del waiters[waiter]
                _settle(waiter, True)
            if waiters and self._fanning is None:  # every change of this turn in one fan-out
                self._fanning = next(iter(waiters)).get_loop().call_soon(self._fan_out)
            return
        waiters, self._waiters = self._waiters, {}
        for waiter in waiters:
            _settle(waiter, changed)

    def flush(self) -> None:
        """Send the pages of this turn's changes now rather than at the loop's next turn (a handler
        that changed the game calls it before it answers: the phones first, then the one that acted)."""
        if self._fanning is not None:
            self._fanning.cancel()
            self._fan_out()

    def _fan_out(self) -> None:
        """Each waiting stream's page for the latest change, sent at once where nothing needs waiting
        for; the other streams' tasks wake to send theirs."""
        self._fanning = None
        if self.closed:
            return
        generation = self.generation
        answers: dict = {}  # each key's page, asked once
        prepared, self._prepared = self._prepared, None
        if prepared is not None and prepared[0] == generation:
            stamped = self._stamped(answers)
            if stamped is not None and stamped[1] == prepared[1]:  # the pages prepare() asked still stand
                answers = prepared[2]
        fed, now = self._fed()
        chunks: dict = {}
        for waiter, feed in fed:
            try:
                served = feed.serve(generation, now, answers, chunks)
            except Exception:  # the stream's task meets the same when it makes its page, and says so
                served = False
            if not served:
                del self._waiters[waiter]
                _settle(waiter, True)

    def _fed(self) -> tuple[list[tuple[asyncio.Future, Feed]], float]:
        """The streams waiting with a feed the broadcast can hand a page to (a copy: the caller may take
        one out), and the loop's time, read once."""
        fed = [(waiter, feed) for waiter, feed in self._waiters.items() if feed is not None and not waiter.done()]
        return fed, fed[0][0].get_loop().time() if fed else 0.0

    def _quiet_spell(self) -> None:
        self._quiet = None
        self._wake(False)

    async def wait(self, seen: int | None, timeout: float, feed: Feed | None = None) -> bool:
        """Wait until the generation moves past ``seen`` (True) or at most ``timeout`` seconds pass (False).

        Each stream waits on a future of its own: a change costs at most one wake-up per stream, and a
        stream that goes away takes only its own future with it. The quiet timer is shared:
        it wakes every waiting stream at once, so a stream may hear it early (a spare ping), never late.
        With a ``feed``, changes the broadcast could send at once (:meth:`Feed.serve`) do not end the
        wait: it ends (True) at the first change the stream's task must send itself."""
        if self.generation != seen or self.closed:
            return True
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()
        self._waiters[waiter] = feed
        deadline = loop.time() + timeout
        if self._quiet is None or self._quiet.when() > deadline:
            if self._quiet is not None:
                self._quiet.cancel()
            self._quiet = loop.call_at(deadline, self._quiet_spell)
        try:
            return await waiter
        finally:
            self._waiters.pop(waiter, None)


#: aiohttp's writer drains once its count of what it handed over passes this (its default ``LIMIT``)
_DRAIN_PAST = 0x10000


def _plain_chunks(response: web.StreamResponse) -> StreamWriter | None:
    """The response's writer when a page can be handed to its transport directly, as one chunk of a
    chunked body, the writer's counts kept as it keeps them: aiohttp's own writer, its headers sent, no
    compression, no declared length, nobody told of each chunk. None: every write goes through
    ``response.write`` (another writer, or a response this does not know)."""
    writer = getattr(response, "_payload_writer", None)
    if type(writer) is not StreamWriter:
        return None
    plain = (
        writer.chunked
        and writer.length is None
        and getattr(writer, "_compress", True) is None
        and getattr(writer, "_headers_written", False)
        and getattr(writer, "_on_chunk_sent", True) is None
        and writer.on_body_write is None
        and not getattr(writer, "_eof", True)
    )
    return writer if plain else None


def _settle(waiter: asyncio.Future, changed: bool) -> None:
    if not waiter.done():
        waiter.set_result(changed)


def event_frame(event: str, id_: int | None = None) -> tuple[str, str]:
    """What comes before an event's data line in the text/event-stream format, and after it."""
    if id_ is None:
        return f"event: {event}\ndata: ", "\n\n"
    return f"id: {id_}\nevent: {event}\ndata: ", "\n\n"


def sse_message(event: str, data: bytes, id_: int | None = None) -> bytes:
    """One event in the text/event-stream format (``data`` is one line of JSON)."""
    before, after = event_frame(event, id_)
    return b"%s%s%s" % (before.encode(), data, after.encode())  # the page copied once


async def stream(
    request: web.Request,
    hub: Broadcast,
    page: Page,
    *,
    ping: float = PING_SECONDS,
    coalesce: float = COALESCE_SECONDS,
    key: Hashable | None = None,
) -> web.StreamResponse:
    """Run one phone's stream until it disconnects, its pass expires, or the server stops.

    ``page()`` returns ``(message, reason)``: the caller's current page as a whole ``state`` event
    (:func:`sse_message`, shared by every stream of the same role; None if they may not see it any
    more) and, when this is the last message, a one-line reason. ``key``: every stream opened with
    the same key gets the same answer from its ``page()`` after a change (the phones of one link), so
    the broadcast asks one of them (:class:`Feed`); None: none is known to share it.
    """
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream; charset=utf-8",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",
        }
    )
    await response.prepare(request)
    await response.write(f"retry: {RETRY_MS}\n\n".encode())
    feed = Feed(response, page, request.transport, coalesce, key)
    loop = asyncio.get_running_loop()
    try:
        while True:
            generation = hub.generation
            if generation != feed.seen:
                early = feed.sent_at + coalesce - loop.time()
                if early > 0 and not hub.closed:
                    await asyncio.sleep(early)  # a burst: wait, then send only the latest page
                    continue
                message, reason = page()
                if message is not None:
                    await response.write(message)
                    feed.sent_at = loop.time()
                if reason is not None:
                    await response.write(sse_message("closed", json.dumps({"reason": reason}).encode()))
                    break
                feed.seen = generation
            else:
                await response.write(b"event: ping\ndata: {}\n\n")
            if hub.closed:
                break  # the server is stopping: the page shows "connection lost" and comes back later
            await hub.wait(feed.seen, ping, feed)
    except ConnectionResetError:
        pass  # the phone went away; it reconnects on its own and gets the latest page
    return response
