"""Fixtures for the phone server: a classic game at the table and phones that join it."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
import pytest_asyncio

from companion.web.limits import Limits
from companion.web.server import PhoneServer
from tests.web.phones import LiveTable, Phone


@pytest.fixture
def table(new_game):
    """Ann, Bob and Cy sit down to classic Monopoly with $1,500 each."""
    return new_game("classic", "Ann", "Bob", "Cy")


@pytest_asyncio.fixture
async def phones(table, aiohttp_server, aiohttp_client):
    """The phone server of ``table`` on a test server; ``await phones.phone("Ann")`` joins a phone."""
    made = []

    def start(limits: Limits | None = None):
        server = PhoneServer(table.banker, "127.0.0.1", 0, advertise=False, lan_address="127.0.0.1", limits=limits)
        made.append(server)
        return server

    server = start()
    test_server = await aiohttp_server(server.app)
    server.port = test_server.port

    async def phone(who: str | None = None) -> Phone:
        p = Phone(await aiohttp_client(test_server), server)
        if who is not None:
            r = await p.join(who)
            assert r.status == 303, await r.text()
        return p

    yield SimpleNamespace(server=server, phone=phone, table=table, port=test_server.port, http=test_server)
    for s in made:
        s.close()


@pytest.fixture
def live(table):
    """The phone server really listening on 127.0.0.1, run on its own thread."""
    t = LiveTable(table.banker)
    yield t
    t.stop()
