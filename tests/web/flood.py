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
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time

ADDRESSES = 100
IDLERS = 6
HALF_HEADS = 6
WHOLE = 1
GREEDY = 48
MAX_PER_WORKER = 400
HALF_A_HEAD = b"GET /api/v1/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Still-Typing: "


async def _connect(port: int, source: str):
    return await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), 10)


async def _visits(port: int, source: str, until: float, counts: dict, held: list, visit, pause: float) -> None:
    """One connection at a time from ``source`` until ``until``: ``visit(reader, writer)`` on each, then
    close it and wait ``pause``. A connection that cannot be made counts as failed (and waits a little)."""
    for _ in range(MAX_PER_WORKER):
        if time.monotonic() >= until:
            return
        try:
            reader, writer = await _connect(port, source)
        except (OSError, TimeoutError):
            counts["failed"] += 1
            await asyncio.sleep(0.2)
            continue
        held.append(writer)
        try:
            await visit(reader, writer)
        finally:
            writer.close()
        await asyncio.sleep(pause)


async def half_heads(
    port: int, source: str, until: float, counts: dict, held: list, *, first: bytes = HALF_A_HEAD, after: float = 0.0
) -> None:
    """One connection at a time that sends ``first`` and then nothing; reopened when the server hangs up."""

    async def stay(reader, writer) -> None:
        counts["half"] += 1
        try:
            writer.write(first)
            answer = await asyncio.wait_for(reader.read(4096), max(0.01, until - time.monotonic()))
            if answer.startswith(b"HTTP/1.1 503"):
                counts["refused"] += 1
            elif answer.startswith(b"HTTP/1.1 200"):  # an idler's answer: now it stays, silent
                counts["answered"] += 1
                while await asyncio.wait_for(reader.read(65536), max(0.01, until - time.monotonic())):
                    pass
                counts["hung up"] += 1
            else:
                counts["hung up"] += 1
        except (OSError, TimeoutError):
            pass

    await asyncio.sleep(after)
    await _visits(port, source, until, counts, held, stay, pause=0.05)


IDLE_REQUEST = b"GET /static/phone.css HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
WHOLE_REQUEST = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"


async def whole_requests(port: int, source: str, until: float, counts: dict, held: list) -> None:
    """Whole requests, one connection each, as fast as they are answered."""

    async def ask(reader, writer) -> None:
        try:
            writer.write(WHOLE_REQUEST)
            answer = await asyncio.wait_for(reader.read(256), 5)
            counts["answered" if answer.startswith(b"HTTP/1.1 200") else "refused"] += 1
        except (OSError, TimeoutError):
            counts["failed"] += 1

    await _visits(port, source, until, counts, held, ask, pause=0.02)


async def flood(port: int, seconds: float) -> dict:
    until = time.monotonic() + seconds
    counts = {"half": 0, "answered": 0, "refused": 0, "hung up": 0, "failed": 0}
    held: list = []
    work = []
    for i in range(ADDRESSES):
        source = f"127.0.0.{2 + i}"
        work += [half_heads(port, source, until, counts, held, first=IDLE_REQUEST) for _ in range(IDLERS)]
        work += [
            half_heads(port, source, until, counts, held, after=0.5) for _ in range(GREEDY if i == 0 else HALF_HEADS)
        ]
        work += [whole_requests(port, source, until, counts, held) for _ in range(WHOLE)]
    await asyncio.gather(*work)
    for writer in held:
        with contextlib.suppress(Exception):
            writer.close()
    return counts


def main() -> None:
    port, seconds = int(sys.argv[1]), float(sys.argv[2])
    os.nice(5)
    counts = asyncio.run(flood(port, seconds))
    print("flood over: " + ", ".join(f"{k} {v}" for k, v in counts.items()), flush=True)


if __name__ == "__main__":
    main()
