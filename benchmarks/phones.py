"""Phone benchmarks: the server's CPU per action, how fast an action reaches the phones, page weight.

Prints one JSON line per figure. The table's phone server and a bare aiohttp SSE echo each run in a
process of their own, measured the same way in the same run:

* ``cpu_per_action`` - the server process's own CPU clock (``time.process_time``) across ``--actions``
  transfers posted one at a time to ``POST /api/v1/actions`` with a Bearer token, while 12 phones
  (3 players, 4 phones each) watch their live pages; divided by the number of actions. ``baseline``:
  the echo server doing the least the same job takes - read the JSON action, push a payload of the
  same size to the same 12 streams.
* ``commit_to_phone_p50`` / ``_p99`` / ``_max`` - from the moment the action's COMMIT returned in the
  server (the Banker's subscriber is called; the echo: the push) to the moment each phone had parsed
  its event, on the shared monotonic clock. Actions are spaced by ``--gap-ms`` (more than the 100 ms a
  stream waits between two pages), so each one is measured on its own, not folded into a burst.
* ``cpu_per_action_burst`` - the same, with the actions posted back to back (as a script or a quick
  banker would): a stream sends at most one page per 100 ms, so a burst costs the table far less per
  action than the echo, which pushes every action to every stream.
* ``served_under_half_open`` - ``GET /api/v1/state`` for a player while a guest on another address
  holds 200 half-open connections: the median and worst of 20 requests.
* ``idle_cpu`` - the table's server with 12 phones connected and nothing happening for
  ``--idle-seconds``: its process's CPU time over that time, as a share of one core (target 0.1%).
  The server watches the game file for other programs' writes as ``companion serve`` does (it does
  in every figure here).
* ``page_bytes`` / ``page_requests`` - everything a player's phone loads on its first visit (the
  page, its style, phone.js with the player's own player.js and plays.js, the first state), against
  the 50 KB budget.
* ``play_to_every_phone_p50`` / ``_p95`` / ``_p99`` / ``_max`` - players' own actions: each of the
  three players pays the next from their own phone (``POST /api/v1/plays``, the phone's tap approving
  it), and the time from its COMMIT to the moment the last of the 12 phones had parsed its page (one
  sample per action); target 100 ms. ``baseline``: the echo's push to the last of the same 12 phones,
  measured in the same run.

Both servers settle their heap once they listen, before any phone connects, as ``companion serve``
does (:mod:`companion.heap`: collect start-up's garbage, then freeze what is left): otherwise a full
collection walks every object start-up made (48 ms in one go, measured) inside the measured actions
and holds all 12 phones for one action. Frozen, the same collection takes about 1 ms.

    python benchmarks/phones.py [--actions 400] [--gap-ms 110] [--idle-seconds 20] [--idle-only]
    PHONES_PROFILE=/tmp/table.prof python benchmarks/phones.py   # cProfile the table's server process
"""

from __future__ import annotations

import argparse
import asyncio
import gzip
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import aiohttp  # noqa: E402
from aiohttp import web  # noqa: E402

from companion.heap import settle  # noqa: E402

PLAYERS = ("Ann", "Bob", "Cy")
PHONES = 12
#: More one-word commands for the table's server, by name (benchmarks/action_stages.py adds its own).
EXTRA_COMMANDS: dict = {}


def emit(**figure) -> None:
    print(json.dumps(figure), flush=True)


def emit_against(figure: str, seconds: float, baseline_seconds: float, **more) -> None:
    """One figure in milliseconds beside the same figure for the baseline, and their ratio."""
    emit(
        figure=figure,
        ms=round(seconds * 1000, 3),
        baseline_ms=round(baseline_seconds * 1000, 3),
        ratio=round(seconds / baseline_seconds, 2) if baseline_seconds else None,
        **more,
    )


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


# -- the two servers, each in its own process -----------------------------------------------------
async def _commands(answer) -> None:
    """Serve the parent's one-word commands on stdin until "quit"."""
    loop = asyncio.get_running_loop()
    while True:
        line = (await loop.run_in_executor(None, sys.stdin.readline)).strip()
        if line in ("", "quit"):
            return
        print(json.dumps(answer(line)), flush=True)


async def serve_table(folder: str) -> None:
    from companion.service import WATCH_SECONDS, Banker
    from companion.web.limits import Limits
    from companion.web.server import PhoneServer

    banker = Banker.create(Path(folder) / "bench.game", "classic", list(PLAYERS), backup_every=0)
    committed: dict[int, float] = {}
    banker.subscribe(lambda outcome: committed.__setitem__(outcome.version, time.monotonic()))
    wanted = {
        "banker_burst": 100_000,
        "banker_rate": 100_000,
        "connections_per_address": 1000,
        "plays_burst": 100_000,
        "plays_per_minute": 6_000_000,
        "player_burst": 100_000,
        "player_rate": 100_000,
    }
    roomy = Limits(**{k: v for k, v in wanted.items() if k in Limits.__dataclass_fields__})  # older builds too
    settling = hasattr(banker, "settle_in")  # as `companion serve` does before its watch starts (older builds: not yet)
    if settling:
        banker.settle_in()
    # watching the game file for other programs' writes, as `companion serve` does (older builds: a 50 ms poll)
    server = PhoneServer(
        banker, "127.0.0.1", 0, advertise=False, lan_address="127.0.0.1", limits=roomy, poll_interval=WATCH_SECONDS
    )
    await server.start()
    if settling:
        banker.lull.flush()  # the -wal's room is synced in the first lull: before the idle figure, not in it
    tokens = {p: server.tokens.for_player(p) for p in PLAYERS} | {"banker": server.tokens.for_banker()}
    size = len(server.desk.page(server.desk.authorise(tokens["Ann"]))[0])
    settle()  # as `companion serve` does once it listens (see the module's docstring)
    print(json.dumps({"port": server.port, "tokens": tokens, "size": size}), flush=True)

    def answer(command: str):
        if command in EXTRA_COMMANDS:
            return EXTRA_COMMANDS[command]()
        if command == "cpu":
            return time.process_time()
        if command == "watch":  # what the watch did, where the build counts it
            watch = getattr(server, "watch", None)
            return {"looks": watch.looks, "wakeups": watch.wakeups, "kernel": watch.kernel} if watch else {}
        return committed

    await _commands(answer)
    await server.stop()
    server.close()
    banker.close()


async def serve_echo(size: int) -> None:
    """The floor: read a JSON action, push a payload of the same size to every stream. Nothing else."""
    queues: list[asyncio.Queue] = []
    pushed: dict[int, float] = {}
    payload = json.dumps({"pad": "x" * max(0, size - 12)}).encode()

    async def events(request):
        q: asyncio.Queue = asyncio.Queue()
        queues.append(q)
        r = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await r.prepare(request)
        await r.write(b"id: 1\nevent: state\ndata: " + payload + b"\n\n")
        while True:
            await r.write(await q.get())

    async def actions(request):
        json.loads(await request.read())
        n = len(pushed) + 2
        message = b"id: %d\nevent: state\ndata: " % n + payload + b"\n\n"
        for q in queues:
            q.put_nowait(message)
        pushed[n] = time.monotonic()
        return web.json_response({"version": n}, status=201)

    app = web.Application()
    app.router.add_get("/api/v1/events", events)
    app.router.add_post("/api/v1/actions", actions)
    runner = web.AppRunner(app, access_log=None, handler_cancellation=True)
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    tokens = {p: "-" for p in (*PLAYERS, "banker")}
    settle()
    print(json.dumps({"port": runner.addresses[0][1], "tokens": tokens, "size": size}), flush=True)
    await _commands(lambda c: time.process_time() if c == "cpu" else pushed)
    await runner.cleanup()


# -- the phones and the banker, in this process ----------------------------------------------------
class Child:
    def __init__(self, *args: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, __file__, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, cwd=ROOT
        )
        self.hello = json.loads(self.proc.stdout.readline())

    def ask(self, command: str):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        return json.loads(self.proc.stdout.readline())

    def close(self) -> None:
        self.proc.stdin.write("quit\n")
        self.proc.stdin.close()
        self.proc.wait(30)
        self.proc.stdout.close()


async def listen(session, url: str, headers: dict, arrivals: dict, key: int, ready: asyncio.Event, want: int) -> None:
    """A phone: record when each version (a ``state`` event's id) arrived, parsed. A ping between two
    states is not an arrival (its data line follows no id of its own)."""
    async with session.get(url, headers=headers) as r:
        event_id, event = None, None
        async for raw in r.content:
            line = raw.decode().rstrip("\n")
            if not line:
                event_id, event = None, None  # the end of one event
            elif line.startswith("id: "):
                event_id = int(line[4:])
            elif line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event_id is not None and event == "state":
                json.loads(line[6:])  # a phone parses what it gets
                arrivals[(key, event_id)] = time.monotonic()
                ready.set()
                if event_id >= want:
                    return


async def round_of_actions(
    child: Child, actions: int, gap: float, first: int = 1, *, from_phones: bool = False
) -> tuple[float, list[float], list[float]]:
    """(server CPU seconds per action, commit-to-phone samples, commit-to-every-phone samples) for one
    server whose version is ``first``: one sample per phone and action, then one per action (when the
    last of the 12 phones had parsed it); ``from_phones``: each action is a player's own, posted from
    their phone."""
    port, tokens = child.hello["port"], child.hello["tokens"]
    base = f"http://127.0.0.1:{port}"
    arrivals: dict = {}
    want = first + actions
    async with aiohttp.ClientSession(trust_env=False, connector=aiohttp.TCPConnector(limit=0)) as session:
        phones = await twelve_phones(session, base, tokens, arrivals, want)
        await asyncio.sleep(gap)  # the first pages are out: the first action is not folded into them
        banker = {"Authorization": "Bearer " + tokens["banker"]}
        cpu = child.ask("cpu")
        for i in range(actions):
            action = {"action": "transfer", "from": PLAYERS[i % 3], "to": PLAYERS[(i + 1) % 3], "amount": 1}
            url, headers = f"{base}/api/v1/actions", banker
            if from_phones:
                url = f"{base}/api/v1/plays"
                headers = {"Authorization": "Bearer " + tokens[PLAYERS[i % 3]]}
                action = {
                    "action": "transfer",
                    "values": {"to": PLAYERS[(i + 1) % 3], "amount": 1},
                    "id": f"bench-{first}-{i}",
                }
            async with session.post(url, json=action, headers=headers) as r:
                assert r.status == 201, await r.text()
            await asyncio.sleep(gap)
        await asyncio.wait_for(asyncio.gather(*phones), 30)
        cpu = child.ask("cpu") - cpu
    committed = {int(k): v for k, v in child.ask("commits").items() if int(k) > first}
    samples = [arrivals[(k, v)] - committed[v] for (k, v) in arrivals if v in committed]
    every = [
        max(arrivals[(k, v)] for k in range(PHONES)) - at
        for v, at in committed.items()
        if all((k, v) in arrivals for k in range(PHONES))  # a version no phone was sent alone: folded in a burst
    ]
    return cpu / actions, samples, every


async def idle_cpu(child: Child, seconds: float) -> tuple[float, dict, dict]:
    """(server CPU seconds, the watch's counts before, after) over ``seconds`` with 12 phones
    connected and nothing happening."""
    port, tokens = child.hello["port"], child.hello["tokens"]
    arrivals: dict = {}
    async with aiohttp.ClientSession(trust_env=False, connector=aiohttp.TCPConnector(limit=0)) as session:
        phones = await twelve_phones(session, f"http://127.0.0.1:{port}", tokens, arrivals, 1 << 30)
        await asyncio.sleep(1.0)  # the first pages' work is done
        before, cpu = child.ask("watch"), child.ask("cpu")
        await asyncio.sleep(seconds)
        cpu, after = child.ask("cpu") - cpu, child.ask("watch")
        for phone in phones:
            phone.cancel()
        await asyncio.gather(*phones, return_exceptions=True)
    return cpu, before, after


async def twelve_phones(session, base: str, tokens: dict, arrivals: dict, want: int) -> list[asyncio.Task]:
    """The table's phones (the players' in turn) on their live pages, each once its first page is in;
    they listen until the page reaches version ``want`` or are cancelled."""
    readies = [asyncio.Event() for _ in range(PHONES)]
    phones = [
        asyncio.create_task(
            listen(
                session,
                f"{base}/api/v1/events",
                {"Authorization": "Bearer " + tokens[PLAYERS[i % 3]]},
                arrivals,
                i,
                readies[i],
                want,
            )
        )
        for i in range(PHONES)
    ]
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in readies)), 10)
    return phones


def half_open(port: int, count: int) -> list[socket.socket]:
    held = []
    for _ in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(5)
        s.bind(("127.0.0.2", 0))  # a guest on another address of this machine's loopback
        s.connect(("127.0.0.1", port))
        s.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Still-Typing: ")
        held.append(s)
    return held


async def served_under_half_open(child: Child) -> list[float]:
    port, tokens = child.hello["port"], child.hello["tokens"]
    held = half_open(port, 200)
    times = []
    try:
        async with aiohttp.ClientSession(trust_env=False) as session:
            for _ in range(20):
                started = time.perf_counter()
                async with session.get(
                    f"http://127.0.0.1:{port}/api/v1/state", headers={"Authorization": "Bearer " + tokens["Ann"]}
                ) as r:
                    await r.read()
                    assert r.status == 200
                times.append(time.perf_counter() - started)
    finally:
        for s in held:
            s.close()
    return times


async def page_weight(folder: Path) -> tuple[int, int, int]:
    """(raw bytes, gzip bytes, requests) of one visit to the phone page, the first state included."""
    from companion.service import Banker
    from companion.web.server import PhoneServer

    banker = Banker.create(folder / "page.game", "classic", list(PLAYERS), backup_every=0)
    for deed in ("Mediterranean Avenue", "Baltic Avenue", "Reading Railroad"):
        banker.do({"action": "buy", "player": "Ann", "deed": deed})
    server = PhoneServer(banker, "127.0.0.1", 0, advertise=False, lan_address="127.0.0.1")  # loopback only
    await server.start()
    raw = packed = requests = 0
    try:
        async with aiohttp.ClientSession(
            trust_env=False, cookie_jar=aiohttp.CookieJar(unsafe=True), auto_decompress=True
        ) as session:
            async with session.get(server.join_url("Ann")) as r:  # the join redirects to the page
                html = await r.read()
            requests += 2
            urls = re.findall(rb'(?:src|href)="(/static/[^"]+)"', html)
            # phone.js adds a player's own part once the first page says who it is (tests/web/
            # test_page_weight.py checks this list against what Chromium fetches)
            urls += [b"/static/player.js", b"/static/plays.js"]
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


def emit_idle(args, idle: float, watched: dict, watched_after: dict) -> None:
    share = idle / args.idle_seconds * 100
    emit(
        figure="idle_cpu",
        percent_of_core=round(share, 4),
        cpu_ms=round(idle * 1000, 2),
        seconds=args.idle_seconds,
        target_percent=0.1,
        ratio=round(share / 0.1, 2),
        phones=PHONES,
        looks=(watched_after.get("looks", 0) - watched.get("looks", 0)) if watched else None,
        kernel=watched_after.get("kernel"),
    )


async def main(args) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        table = Child("--serve-table", tmp)
        try:
            idle, watched, watched_after = await idle_cpu(table, args.idle_seconds)
            if args.idle_only:
                emit_idle(args, idle, watched, watched_after)
                return
            cpu, samples, _ = await round_of_actions(table, args.actions, args.gap_ms / 1000)
            burst_cpu, _, _ = await round_of_actions(table, args.actions, 0.0, first=1 + args.actions)
            waits = await served_under_half_open(table)
            plays_count = max(30, args.actions // 4)
            _, played_each, played = await round_of_actions(
                table, plays_count, args.gap_ms / 1000, first=1 + 2 * args.actions, from_phones=True
            )
        finally:
            table.close()
        echo = Child("--serve-echo", str(table.hello["size"]))
        try:
            echo_cpu, floor, floor_every = await round_of_actions(echo, args.actions, args.gap_ms / 1000)
            echo_burst_cpu, _, _ = await round_of_actions(echo, args.actions, 0.0, first=1 + args.actions)
        finally:
            echo.close()
        emit_idle(args, idle, watched, watched_after)
        emit_against(
            "cpu_per_action",
            cpu,
            echo_cpu,
            phones=PHONES,
            actions=args.actions,
            baseline="bare aiohttp SSE echo: read the action, push the same size to the same 12 streams",
        )
        emit_against(
            "cpu_per_action_burst",
            burst_cpu,
            echo_burst_cpu,
            phones=PHONES,
            actions=args.actions,
            baseline="the same echo, actions back to back",
        )
        for name, p in (("p50", 50), ("p99", 99)):
            emit_against(
                f"commit_to_phone_{name}",
                percentile(samples, p),
                percentile(floor, p),
                phones=PHONES,
                actions=args.actions,
                samples=len(samples),
                baseline="bare aiohttp SSE echo, same clients and payload size",
            )
        emit(figure="commit_to_phone_max", ms=round(max(samples) * 1000, 3), baseline_ms=round(max(floor) * 1000, 3))
        emit(
            figure="commit_to_phone_mean",
            ms=round(statistics.mean(samples) * 1000, 3),
            baseline_ms=round(statistics.mean(floor) * 1000, 3),
        )
        emit(
            figure="served_under_half_open",
            p50_ms=round(statistics.median(waits) * 1000, 3),
            max_ms=round(max(waits) * 1000, 3),
            held=200,
            target_ms=100,
        )
        for name, p in (("p50", 50), ("p95", 95), ("p99", 99)):
            emit_against(
                f"play_to_every_phone_{name}",
                percentile(played, p),
                percentile(floor_every, p),
                target_ms=100,
                phones=PHONES,
                actions=plays_count,
                samples=len(played),
                baseline="bare aiohttp SSE echo in the same run: commit to the last of the same 12 phones",
            )
        emit(figure="play_to_every_phone_max", ms=round(max(played) * 1000, 3), target_ms=100)
        for name, p in (("p50", 50), ("p99", 99)):  # the figure as first measured: one sample per phone
            emit(figure=f"play_to_each_phone_{name}", ms=round(percentile(played_each, p) * 1000, 3), phones=PHONES)
        emit(figure="player_page_json_bytes", bytes=table.hello["size"])
        raw, packed, requests = await page_weight(folder)
        emit(
            figure="page_bytes",
            bytes=raw,
            gzip_bytes=packed,
            baseline_bytes=50 * 1024,
            ratio=round(raw / (50 * 1024), 2),
            baseline="the 50 KB budget",
        )
        emit(figure="page_requests", requests=requests)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=400)
    parser.add_argument("--gap-ms", type=float, default=110.0)
    parser.add_argument("--idle-seconds", type=float, default=20.0)
    parser.add_argument("--idle-only", action="store_true", help="measure the idle server only")
    parser.add_argument("--serve-table", metavar="FOLDER", help=argparse.SUPPRESS)
    parser.add_argument("--serve-echo", type=int, metavar="SIZE", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve_table:
        profile = os.environ.get("PHONES_PROFILE")  # a file for the table server's cProfile stats
        if profile:
            import cProfile

            profiler = cProfile.Profile(time.process_time)  # CPU time, not time spent waiting
            profiler.runcall(asyncio.run, serve_table(options.serve_table))
            profiler.dump_stats(profile)
        else:
            asyncio.run(serve_table(options.serve_table))
    elif options.serve_echo:
        asyncio.run(serve_echo(options.serve_echo))
    else:
        asyncio.run(main(options))
