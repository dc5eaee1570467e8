"""A full table under load, on loopback: 50 phones watch live while the banker applies 10 actions a second.
Every phone must end on the last version, with no error anywhere. The suite plays 20 seconds of it;
``LOAD_SECONDS=60`` plays the minute of an earlier release's test. How fast the server is under this load
is measured by benchmarks/phones.py, not asserted here."""

from __future__ import annotations

import asyncio
import json
import os
import time

import aiohttp
import pytest

from companion.web.limits import Limits
from tests.web.phones import LiveTable

pytestmark = pytest.mark.slow

PLAYERS = ["Ann", "Bob", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal"]
PHONES = 50
PER_SECOND = 10
SECONDS = int(os.environ.get("LOAD_SECONDS", "20"))


async def watch(
    session: aiohttp.ClientSession, url: str, token: str, seen: dict, key: int, errors: list, stop: asyncio.Event
) -> None:
    """One phone: keep the live page open, remember the last version, count anything that goes wrong."""
    try:
        async with session.get(url, headers={"Authorization": f"Bearer {token}"}) as r:
            if r.status != 200:
                errors.append(f"phone {key}: status {r.status}")
                return
            event = None
            while not stop.is_set():
                line = await r.content.readline()
                if not line:
                    if not stop.is_set():
                        errors.append(f"phone {key}: the stream ended")
                    return
                text = line.decode().rstrip("\n")
                if text.startswith("event: "):
                    event = text[7:]
                elif text.startswith("data: ") and event == "state":
                    page = json.loads(text[6:])
                    seen[key] = page["version"]
                    seen.setdefault(("count", key), 0)
                    seen[("count", key)] += 1
    except asyncio.CancelledError:
        pass
    except Exception as e:  # noqa: BLE001 - every failure counts
        errors.append(f"phone {key}: {type(e).__name__}: {e}")


async def round_of_play(live: LiveTable) -> tuple[dict, list, int, int, float]:
    tokens = {p: live.token(p) for p in PLAYERS}
    banker = live.token("banker")
    seen: dict = {}
    errors: list = []
    stop = asyncio.Event()
    timeout = aiohttp.ClientTimeout(total=None, sock_read=30)
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(timeout=timeout, connector=connector, trust_env=False) as session:
        phones = [
            asyncio.create_task(
                watch(session, f"{live.base}/api/v1/events", tokens[PLAYERS[i % len(PLAYERS)]], seen, i, errors, stop)
            )
            for i in range(PHONES)
        ]
        deadline = time.monotonic() + 10
        while len([k for k in seen if isinstance(k, int)]) < PHONES and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert len([k for k in seen if isinstance(k, int)]) == PHONES, errors
        start = time.monotonic()
        applied = 0
        last = 0
        for i in range(PER_SECOND * SECONDS):
            delay = start + i / PER_SECOND - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            payer, payee = PLAYERS[i % 8], PLAYERS[(i + 3) % 8]
            action = {"action": "transfer", "from": payer, "to": payee, "amount": 1 + i % 5, "id": f"load-{i}"}
            async with session.post(
                f"{live.base}/api/v1/actions", json=action, headers={"Authorization": f"Bearer {banker}"}
            ) as r:
                if r.status != 201:
                    errors.append(f"action {i}: {r.status} {await r.text()}")
                    continue
                last = (await r.json())["version"]
                applied += 1
        elapsed = time.monotonic() - start
        deadline = time.monotonic() + 10
        while any(seen.get(i) != last for i in range(PHONES)) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        stop.set()
        for task in phones:
            task.cancel()
        await asyncio.gather(*phones, return_exceptions=True)
    return seen, errors, last, applied, elapsed


def test_fifty_phones_follow_ten_actions_a_second(new_game):
    t = new_game("classic", *PLAYERS)
    live = LiveTable(t.banker, limits=Limits(connections_per_address=PHONES + 10))  # every phone is on 127.0.0.1
    try:
        seen, errors, last, applied, _elapsed = asyncio.run(round_of_play(live))
    finally:
        live.stop()
    assert errors == []
    assert applied == PER_SECOND * SECONDS and last == 1 + applied
    assert all(seen[i] == last for i in range(PHONES)), {i: seen[i] for i in range(PHONES) if seen[i] != last}
    updates = [seen[("count", i)] for i in range(PHONES)]
    assert min(updates) > SECONDS * PER_SECOND / 4  # phones keep up: few versions are folded together
    assert t.total() == 0
