"""Server-sent events: every phone's live feed of its page.

A stream always sends the *latest* page, never a backlog: when a phone wakes from sleep (or a slow
phone falls behind a burst of actions) it jumps straight to the current version. And at most one page
per :data:`COALESCE_SECONDS` per phone: the first change after a quiet spell goes out at once, the
changes of a burst become one jump to the latest page when the interval is over. Each message is
``event: state`` with ``id: <game version>`` and the role's whole page as JSON; a ``ping`` every
15 seconds lets the page notice a dead connection; ``event: closed`` says why a stream ends for good
(the token was revoked, the game is over) so the page stops reconnecting. When the server itself
stops, streams just end: the pages say the connection is lost and reconnect when it is back.

:class:`Broadcast` is the only shared piece: a generation counter that wakes every waiting stream
(each waits on a future of its own), and one timer for the pings. Loop-only, no locks.
"""

from __future__ import annotations

import asyncio
import json
from typing import Callable

from aiohttp import web

__all__ = ["Broadcast", "stream", "PING_SECONDS", "COALESCE_SECONDS", "sse_message"]

PING_SECONDS = 15.0
COALESCE_SECONDS = 0.1
RETRY_MS = 2000


class Broadcast:
    """Wakes every waiting stream when something changed, and when the line has been quiet for a
    ping's interval (one timer for every stream, not one per stream and wake-up)."""

    def __init__(self) -> None:
        self.generation = 0
        self.closed = False
        self._waiters: set[asyncio.Future] = set()
        self._quiet: asyncio.TimerHandle | None = None

    def bump(self) -> None:
        """Something changed: every stream should send its page again."""
        self.generation += 1
        self._wake(True)

    def close(self) -> None:
        """The server is stopping: wake every stream so it can finish."""
        self.closed = True
        if self._quiet is not None:
            self._quiet.cancel()
            self._quiet = None
        self.bump()

    def _wake(self, changed: bool) -> None:
        waiters, self._waiters = self._waiters, set()
        for waiter in waiters:
            _settle(waiter, changed)

    def _quiet_spell(self) -> None:
        self._quiet = None
        self._wake(False)

    async def wait(self, seen: int, timeout: float) -> bool:
        """Wait until the generation moves past ``seen`` (True) or at most ``timeout`` seconds pass (False).

        Each stream waits on a future of its own: a change costs one wake-up per stream and nothing
        more, and a stream that goes away takes only its own future with it. The quiet timer is shared:
        it wakes every waiting stream at once, so a stream may hear it early (a spare ping), never late."""
        if self.generation != seen or self.closed:
            return True
        loop = asyncio.get_running_loop()
        waiter = loop.create_future()
        self._waiters.add(waiter)
        deadline = loop.time() + timeout
        if self._quiet is None or self._quiet.when() > deadline:
            if self._quiet is not None:
                self._quiet.cancel()
            self._quiet = loop.call_at(deadline, self._quiet_spell)
        try:
            return await waiter
        finally:
            self._waiters.discard(waiter)


def _settle(waiter: asyncio.Future, changed: bool) -> None:
    if not waiter.done():
        waiter.set_result(changed)


def sse_message(event: str, data: bytes, id_: int | None = None) -> bytes:
    """One event in the text/event-stream format (``data`` is one line of JSON)."""
    head = f"id: {id_}\n" if id_ is not None else ""
    return f"{head}event: {event}\n".encode() + b"data: " + data + b"\n\n"


Page = Callable[[], "tuple[bytes | None, str | None]"]


async def stream(
    request: web.Request, hub: Broadcast, page: Page, *, ping: float = PING_SECONDS, coalesce: float = COALESCE_SECONDS
) -> web.StreamResponse:
    """Run one phone's stream until it disconnects, its pass expires, or the server stops.

    ``page()`` returns ``(message, reason)``: the caller's current page as a whole ``state`` event
    (:func:`sse_message`, shared by every stream of the same role; None if they may not see it any
    more) and, when this is the last message, a one-line reason.
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
    seen = None
    loop = asyncio.get_running_loop()
    sent_at = float("-inf")
    try:
        while True:
            generation = hub.generation
            if generation != seen:
                early = sent_at + coalesce - loop.time()
                if early > 0 and not hub.closed:
                    await asyncio.sleep(early)  # a burst: wait, then send only the latest page
                    continue
                message, reason = page()
                if message is not None:
                    await response.write(message)
                    sent_at = loop.time()
                if reason is not None:
                    await response.write(sse_message("closed", json.dumps({"reason": reason}).encode()))
                    break
                seen = generation
            else:
                await response.write(b"event: ping\ndata: {}\n\n")
            if hub.closed:
                break  # the server is stopping: the page shows "connection lost" and comes back later
            await hub.wait(seen, ping)
    except ConnectionResetError:
        pass  # the phone went away; it reconnects on its own and gets the latest page
    return response
