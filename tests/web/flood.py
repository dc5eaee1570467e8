"""A guest's flood of the phones' server, run as its own process by tests/web/test_flood.py.

    python -m tests.web.flood PORT SECONDS

From 127.0.0.2 up to 127.0.0.<1 + ADDRESSES> (every 127.x address is this machine's loopback on
Linux), for SECONDS: each address first opens IDLERS connections that send one whole request and then
stay silent (kept alive until the server hangs up, then opened again), then holds HALF_HEADS
connections that send the start of a request head and nothing more (reopened the same way), and runs
WHOLE workers that send whole requests one after another, asking the server to hang up after each
answer. One greedy address holds GREEDY half heads, past the per-device cap. Together they are far past the cap on
everyone. Everything is bounded: at most MAX_PER_WORKER connections per worker, and nothing after
SECONDS. When it is over, every socket is closed and the process prints one line of counts and exits.
It runs niced (on the table the guest's device has its own processor), yet not so far down that a busy
machine starves it of the connections it must make.

Each worker is a small state machine over a non-blocking socket, and one loop (``selectors``, the
kernel's epoll) drives them all: a connection costs the guest its system calls and a few lines of
Python, where asyncio's streams cost it ten times that, so the flood is as many connections as the
workers' pauses allow at a fraction of the processor (the server sees the same bytes).
"""

from __future__ import annotations

import errno
import heapq
import itertools
import os
import selectors
import socket
import sys
import time
from typing import Callable

ADDRESSES = 100
IDLERS = 6
HALF_HEADS = 6
WHOLE = 1
GREEDY = 48
MAX_PER_WORKER = 400
HALF_A_HEAD = b"GET /api/v1/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Still-Typing: "
IDLE_REQUEST = b"GET /static/phone.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
WHOLE_REQUEST = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"

#: Connections opened a second, all workers together, at most: what one guest process opening them
#: with asyncio's streams reached on a quiet machine (35,000 in the eleven seconds), where its own
#: processor, not the workers' pauses, set the pace; a busy machine gave it less.
PACE = 3200
CONNECT_SECONDS = 10  # a connection not made by then counts as failed
FAILED_PAUSE = 0.2  # after a connection that could not be made
HALF_PAUSE = 0.05  # between a half head's (or an idler's) connections
WHOLE_PAUSE = 0.02  # between whole requests
WHOLE_ANSWER_SECONDS = 5  # a whole request not answered by then counts as failed


class Flood:
    """The loop: the selector, the timers, the counts and the end of the flood."""

    def __init__(self, port: int, seconds: float) -> None:
        self.port = port
        self.until = time.monotonic() + seconds
        self.counts = {"half": 0, "answered": 0, "refused": 0, "hung up": 0, "failed": 0}
        self.selector = selectors.DefaultSelector()
        self.timers: list[tuple[float, int, Callable[[], None]]] = []
        self._order = itertools.count()
        self._next_turn = 0.0

    def turn_to_connect(self, now: float) -> float:
        """When the next connection may be opened: at most PACE a second, each in its turn."""
        turn = max(now, self._next_turn)
        self._next_turn = turn + 1 / PACE
        return turn

    def later(self, delay: float, call: Callable[[], None]) -> None:
        heapq.heappush(self.timers, (time.monotonic() + delay, next(self._order), call))

    def run(self, workers: list[Worker]) -> dict[str, int]:
        for worker in workers:
            self.later(worker.after, worker.connect)
        while True:
            now = time.monotonic()
            if now >= self.until:
                break
            while self.timers and self.timers[0][0] <= now:
                heapq.heappop(self.timers)[2]()
            wait = min(self.timers[0][0] if self.timers else self.until, self.until) - now
            for key, _mask in self.selector.select(max(0.0, wait)):
                key.data()
        for key in list(self.selector.get_map().values()):  # the flood is over: every socket closed
            key.fileobj.close()  # type: ignore[union-attr]
        self.selector.close()
        return self.counts


class Worker:
    """One connection at a time from ``source``: a half head (``first`` sent, then nothing) or a whole
    request (``whole``), each closed when answered and opened again after a pause, until the flood ends."""

    def __init__(
        self, flood: Flood, source: str, *, first: bytes = HALF_A_HEAD, after: float = 0.0, whole: bool = False
    ) -> None:
        self.flood = flood
        self.source = source
        self.first = WHOLE_REQUEST if whole else first
        self.after = after
        self.whole = whole
        self.pause = WHOLE_PAUSE if whole else HALF_PAUSE
        self.tries = 0
        self.sock: socket.socket | None = None
        self.on_ready: Callable[[], None] = self._connected
        self.turn = 0  # which connection a timer was set for: a timer of an earlier one does nothing

    def connect(self) -> None:
        now = time.monotonic()
        if now >= self.flood.until or self.tries >= MAX_PER_WORKER:
            return
        turn = self.flood.turn_to_connect(now)
        if turn > now:  # the flood's pace: the next connection in its turn
            self.flood.later(turn - now, self._open)
        else:
            self._open()

    def _open(self) -> None:
        if time.monotonic() >= self.flood.until:
            return
        self.tries += 1
        self.turn += 1
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setblocking(False)
        try:
            sock.bind((self.source, 0))
            code = sock.connect_ex(("127.0.0.1", self.flood.port))
        except OSError:
            code = -1
        if code not in (0, errno.EINPROGRESS):
            sock.close()
            self._failed()
            return
        self.sock = sock
        self.on_ready = self._connected
        self.flood.selector.register(sock, selectors.EVENT_WRITE, self._ready)
        self._deadline(CONNECT_SECONDS, self._failed_connecting)

    def _ready(self) -> None:
        self.on_ready()

    def _deadline(self, seconds: float, call: Callable[[], None]) -> None:
        turn = self.turn

        def expired() -> None:
            if self.turn == turn and self.sock is not None:
                call()

        self.flood.later(seconds, expired)

    def _failed(self) -> None:
        self.flood.counts["failed"] += 1
        self.flood.later(FAILED_PAUSE, self.connect)

    def _failed_connecting(self) -> None:
        self._close()
        self._failed()

    def _connected(self) -> None:
        assert self.sock is not None
        if self.sock.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR):
            self._failed_connecting()
            return
        self.turn += 1  # the connect deadline no longer applies
        if not self.whole:
            self.flood.counts["half"] += 1
        try:
            self.sock.send(self.first)
        except OSError:
            self._done("failed" if self.whole else None)
            return
        self.flood.selector.modify(self.sock, selectors.EVENT_READ, self._ready)
        self.on_ready = self._answered
        if self.whole:
            self._deadline(WHOLE_ANSWER_SECONDS, lambda: self._done("failed"))
        else:
            self._deadline(max(0.01, self.flood.until - time.monotonic()), lambda: self._done(None))

    def _answered(self) -> None:
        assert self.sock is not None
        try:
            answer = self.sock.recv(256 if self.whole else 4096)
        except OSError:
            self._done("failed" if self.whole else None)
            return
        if self.whole:
            self._done("answered" if answer.startswith(b"HTTP/1.1 200") else "refused")
        elif answer.startswith(b"HTTP/1.1 503"):
            self._done("refused")
        elif answer.startswith(b"HTTP/1.1 200"):  # an idler's answer: now it stays, silent
            self.flood.counts["answered"] += 1
            self.on_ready = self._staying
        else:
            self._done("hung up")

    def _staying(self) -> None:
        assert self.sock is not None
        try:
            more = self.sock.recv(65536)
        except OSError:
            self._done(None)
            return
        if not more:
            self._done("hung up")

    def _close(self) -> None:
        if self.sock is not None:
            self.flood.selector.unregister(self.sock)
            self.sock.close()
            self.sock = None

    def _done(self, count: str | None) -> None:
        """The connection is over (``count`` what it was); the next after the pause."""
        self.turn += 1
        self._close()
        if count is not None:
            self.flood.counts[count] += 1
        self.flood.later(self.pause, self.connect)


def flood(port: int, seconds: float) -> dict[str, int]:
    the_flood = Flood(port, seconds)
    workers: list[Worker] = []
    for i in range(ADDRESSES):
        source = f"127.0.0.{2 + i}"
        workers += [Worker(the_flood, source, first=IDLE_REQUEST) for _ in range(IDLERS)]
        workers += [Worker(the_flood, source, after=0.5) for _ in range(GREEDY if i == 0 else HALF_HEADS)]
        workers += [Worker(the_flood, source, whole=True) for _ in range(WHOLE)]
    return the_flood.run(workers)


def main() -> None:
    port, seconds = int(sys.argv[1]), float(sys.argv[2])
    os.nice(5)
    counts = flood(port, seconds)
    print("flood over: " + ", ".join(f"{k} {v}" for k, v in counts.items()), flush=True)


if __name__ == "__main__":
    main()
