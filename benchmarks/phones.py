"""Phone benchmarks: how fast a committed action reaches the phones, and how heavy the phone page is.

Prints one JSON line per figure.

* ``commit_to_phone_p50`` / ``_p99`` / ``_max`` - from the moment an action's COMMIT returned (the
  Banker's subscriber is called) to the moment its event was parsed by each of 12 phones watching
  the live stream (3 players, 4 phones each), on loopback. ``baseline`` is a bare aiohttp
  server-sent-events echo in the same run: the same 12 clients, the same payload size, a queue per
  client and nothing else - the floor for pushing a message through aiohttp and a socket.
* ``page_bytes`` - everything the phone page loads (HTML, CSS, JavaScript, icon, first state), raw and
  gzip-compressed; ``baseline`` is the 50 KB budget. ``page_requests`` - how many requests one visit
  makes, the live stream included.

    python benchmarks/phones.py [--actions 200] [--gap-ms 20]
"""
from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402

from companion.service import Banker  # noqa: E402
from companion.web.server import PhoneServer  # noqa: E402

PLAYERS = ("Ann", "Bob", "Cy")
PHONES = 12


def emit(**figure) -> None:
    print(json.dumps(figure), flush=True)


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


async def listen(session, url: str, headers: dict, arrivals: dict, key: int, ready: asyncio.Event, want: int) -> None:
    """A phone: record when each version (the SSE id) arrived, parsed."""
    async with session.get(url, headers=headers) as r:
        event_id = None
        async for raw in r.content:
            line = raw.decode().rstrip("\n")
            if line.startswith("id: "):
                event_id = int(line[4:])
            elif line.startswith("data: ") and event_id is not None:
                json.loads(line[6:])  # a phone parses what it gets
                arrivals[(key, event_id)] = time.perf_counter()
                ready.set()
                if event_id >= want:
                    return


async def phone_latency(folder: Path, actions: int, gap: float) -> tuple[list[float], int]:
    banker = Banker.create(folder / "bench.game", "classic", list(PLAYERS), backup_every=0)
    committed: dict[int, float] = {}
    banker.subscribe(lambda outcome: committed.__setitem__(outcome.version, time.perf_counter()))
    server = PhoneServer(banker, "127.0.0.1", 0, advertise=False, lan_address="127.0.0.1")
    await server.start()
    arrivals: dict = {}
    try:
        base = f"http://127.0.0.1:{server.port}/api/v1/events"
        want = 1 + actions
        async with aiohttp.ClientSession(trust_env=False, connector=aiohttp.TCPConnector(limit=0)) as session:
            readies = [asyncio.Event() for _ in range(PHONES)]
            phones = [asyncio.create_task(listen(
                session, base, {"Authorization": "Bearer " + server.tokens.for_player(PLAYERS[i % 3])},
                arrivals, i, readies[i], want)) for i in range(PHONES)]
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 10)
            for i in range(actions):
                banker.do({"action": "transfer", "from": PLAYERS[i % 3], "to": PLAYERS[(i + 1) % 3], "amount": 1})
                await asyncio.sleep(gap)
            await asyncio.wait_for(asyncio.gather(*phones), 30)
            body_size = len(server.desk.page(server.desk.authorise(server.tokens.for_player("Ann")))[0])
    finally:
        await server.stop()
        server.close()
        banker.close()
    samples = [arrivals[(k, v)] - committed[v] for (k, v) in arrivals if v in committed]
    return samples, body_size


async def echo_latency(messages: int, gap: float, size: int) -> list[float]:
    """The floor: a bare aiohttp SSE server pushing a payload of the same size to 12 clients."""
    queues: list[asyncio.Queue] = []
    payload = json.dumps({"pad": "x" * max(0, size - 12)}).encode()

    async def events(request):
        q: asyncio.Queue = asyncio.Queue()
        queues.append(q)
        r = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await r.prepare(request)
        await r.write(b"id: 0\nevent: state\ndata: " + payload + b"\n\n")
        while True:
            n = await q.get()
            if n is None:
                return r
            await r.write(b"id: %d\nevent: state\ndata: " % n + payload + b"\n\n")

    app = web.Application()
    app.router.add_get("/events", events)
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = runner.addresses[0][1]
    sent: dict[int, float] = {}
    arrivals: dict = {}
    try:
        async with aiohttp.ClientSession(trust_env=False, connector=aiohttp.TCPConnector(limit=0)) as session:
            readies = [asyncio.Event() for _ in range(PHONES)]
            clients = [asyncio.create_task(listen(session, f"http://127.0.0.1:{port}/events", {}, arrivals, i,
                                                  readies[i], messages)) for i in range(PHONES)]
            await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 10)
            for n in range(1, messages + 1):
                sent[n] = time.perf_counter()
                for q in queues:
                    q.put_nowait(n)
                await asyncio.sleep(gap)
            await asyncio.wait_for(asyncio.gather(*clients), 30)
            for q in queues:
                q.put_nowait(None)
    finally:
        await runner.cleanup()
    return [arrivals[(k, n)] - sent[n] for (k, n) in arrivals if n in sent]


async def page_weight(folder: Path) -> tuple[int, int, int]:
    """(raw bytes, gzip bytes, requests) of one visit to the phone page, the first state included."""
    banker = Banker.create(folder / "page.game", "classic", list(PLAYERS), backup_every=0)
    for deed in ("Mediterranean Avenue", "Baltic Avenue", "Reading Railroad"):
        banker.do({"action": "buy", "player": "Ann", "deed": deed})
    server = PhoneServer(banker, "127.0.0.1", 0, advertise=False, lan_address="127.0.0.1")
    await server.start()
    raw = packed = requests = 0
    try:
        async with aiohttp.ClientSession(trust_env=False, cookie_jar=aiohttp.CookieJar(unsafe=True),
                                         auto_decompress=True) as session:
            async with session.get(server.join_url("Ann")) as r:  # the join redirects to the page
                html = await r.read()
            requests += 2
            urls = re.findall(rb'(?:src|href)="(/static/[^"]+)"', html)
            bodies = [html]
            for url in urls:
                async with session.get(f"{server.url.rstrip('/')}{url.decode()}") as r:
                    bodies.append(await r.read())
                requests += 1
            async with session.get(f"{server.url}api/v1/state") as r:
                bodies.append(await r.read())
            requests += 2  # the first state, then the live stream (which carries no more bytes until a change)
            raw = sum(len(b) for b in bodies)
            packed = sum(len(gzip.compress(b, 6)) for b in bodies)
    finally:
        await server.stop()
        server.close()
        banker.close()
    return raw, packed, requests - 1  # the join link itself is one visit's redirect, not page weight


async def main(args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        samples, size = await phone_latency(folder, args.actions, args.gap_ms / 1000)
        floor = await echo_latency(args.actions, args.gap_ms / 1000, size)
        for name, p in (("p50", 50), ("p99", 99)):
            value, base = percentile(samples, p) * 1000, percentile(floor, p) * 1000
            emit(figure=f"commit_to_phone_{name}", ms=round(value, 3), baseline_ms=round(base, 3),
                 ratio=round(value / base, 2) if base else None, phones=PHONES, actions=args.actions,
                 samples=len(samples), baseline="bare aiohttp SSE echo, same clients and payload size")
        emit(figure="commit_to_phone_max", ms=round(max(samples) * 1000, 3), baseline_ms=round(max(floor) * 1000, 3))
        emit(figure="commit_to_phone_mean", ms=round(statistics.mean(samples) * 1000, 3),
             baseline_ms=round(statistics.mean(floor) * 1000, 3))
        emit(figure="player_page_json_bytes", bytes=size)
        raw, packed, requests = await page_weight(folder)
        emit(figure="page_bytes", bytes=raw, gzip_bytes=packed, baseline_bytes=50 * 1024,
             ratio=round(raw / (50 * 1024), 2), baseline="the 50 KB budget")
        emit(figure="page_requests", requests=requests)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=200)
    parser.add_argument("--gap-ms", type=float, default=20.0)
    asyncio.run(main(parser.parse_args()))
