"""A guest on the Wi-Fi opens hundreds of connections and never finishes a request: the table's phones
are still served, the guest's extra connections are turned away with a 503, stalled ones are closed,
and the server's log stays short.

The guest connects from 127.0.0.2 (another address on this machine's loopback), the players from
127.0.0.1, both to the server listening on 127.0.0.1 only.
"""

from __future__ import annotations

import json
import logging
import select
import socket
import time
import urllib.request


from companion.web.app import DOOR
from companion.web.door import Door
from companion.web.limits import Limits
from tests.web.phones import LiveTable

DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))
GUEST = "127.0.0.2"
HALF_A_HEAD = b"GET /api/v1/state HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Still-Typing: "


def half_open(port: int, count: int, source: str = GUEST) -> list[socket.socket]:
    """``count`` connections that send the start of a request head and then nothing more."""
    held = []
    for _ in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.settimeout(5)
        s.bind((source, 0))
        s.connect(("127.0.0.1", port))
        s.sendall(HALF_A_HEAD)
        held.append(s)
    return held


def answers(socks: list[socket.socket], want: int, within: float) -> dict[socket.socket, bytes]:
    """Read until ``want`` sockets were answered or closed (EOF), waiting at most ``within`` seconds."""
    got: dict[socket.socket, bytes] = {}
    deadline = time.monotonic() + within
    while len(got) < want and time.monotonic() < deadline:
        ready, _, _ = select.select([s for s in socks if s not in got], [], [], 0.2)
        for s in ready:
            data = b""
            try:
                while chunk := s.recv(4096):
                    data += chunk
            except OSError:
                pass
            got[s] = data
    return got


def player_page(live: LiveTable, who: str) -> dict:
    req = urllib.request.Request(f"{live.base}/api/v1/state", headers={"Authorization": f"Bearer {live.token(who)}"})
    with DIRECT.open(req, timeout=5) as r:  # a generous bound: being served at all is the promise here
        assert r.status == 200
        return json.loads(r.read())


def test_two_hundred_stalled_connections_from_a_guest_do_not_keep_ann_from_her_page(table, caplog):
    live = LiveTable(table.banker)
    socks: list[socket.socket] = []
    try:
        with caplog.at_level(logging.INFO):
            socks = half_open(live.server.port, 200)
            per_address = Limits().connections_per_address
            turned_away = answers(socks, 200 - per_address, within=8)
            assert len(turned_away) == 200 - per_address
            assert all(
                a.startswith(b"HTTP/1.1 503") and b"too many connections from this device" in a
                for a in turned_away.values()
            )
            page = player_page(live, "Ann")  # while the guest still holds its 32
            assert page["me"]["name"] == "Ann" and page["me"]["cash"] == 1500
            door = live.server.app[DOOR]
            assert live.call(lambda: door.open[GUEST]) == per_address
        lines = [r for r in caplog.records if r.levelno >= logging.INFO]
        assert len(lines) < 100, len(lines)
        assert any(GUEST in r.getMessage() for r in lines)  # the refusal is logged, once
    finally:
        for s in socks:
            s.close()
        live.stop()


def test_a_connection_that_stops_in_the_middle_of_its_head_is_closed(table):
    # 2 s: long enough for a busy machine to read a whole request's head before the door closes it
    live = LiveTable(table.banker, limits=Limits(header_seconds=2.0))
    try:
        stalled = half_open(live.server.port, 3)
        trickle = half_open(live.server.port, 1)[0]
        trickle.sendall(b"a")  # still typing, one letter at a time
        closed = answers(stalled + [trickle], 4, within=10)
        assert len(closed) == 4 and set(closed.values()) == {b""}  # closed without an answer
        assert player_page(live, "Bob")["me"]["name"] == "Bob"  # a whole request still works
        for s in stalled + [trickle]:
            s.close()
    finally:
        live.stop()


def test_everyone_together_is_capped_too_and_the_first_to_leave_makes_room(table):
    live = LiveTable(table.banker, limits=Limits(connections=12, connections_per_address=8))
    socks: list[socket.socket] = []
    try:
        socks = half_open(live.server.port, 8, "127.0.0.3") + half_open(live.server.port, 8, "127.0.0.4")
        refused = answers(socks, 4, within=8)
        assert len(refused) == 4 and all(b"the table's server is full" in a for a in refused.values())
        for s in socks:
            s.close()
        deadline = time.monotonic() + 10
        door = live.server.app[DOOR]
        while live.call(lambda: door.total) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert player_page(live, "Cy")["me"]["name"] == "Cy"
    finally:
        live.stop()


def test_the_door_never_promises_more_connections_than_the_open_files_limit_allows(monkeypatch):
    monkeypatch.setattr("companion.web.door.open_files_limit", lambda: 100)
    assert Door(Limits(connections=512)).most == 36
    monkeypatch.setattr("companion.web.door.open_files_limit", lambda: None)
    assert Door(Limits(connections=512)).most == 512


def test_the_services_ask_for_enough_open_files():
    from pathlib import Path

    for unit in Path(__file__).resolve().parents[2].joinpath("deploy", "systemd").glob("*.service"):
        text = unit.read_text()
        assert "LimitNOFILE=4096" in text, unit.name


def full_request(port: int, source: str, path: str = "/", close: bool = True) -> bytes:
    """One whole request from ``source``; with ``close`` the client asks the server to hang up after it."""
    with socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0)) as s:
        s.sendall(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n{'Connection: close' if close else ''}\r\n\r\n".encode())
        data = b""
        while chunk := s.recv(65536):
            data += chunk
            if not close and b"\r\n\r\n" in data:
                break
        return data


def test_connections_the_server_hangs_up_itself_are_released_too(table):
    """Forty short visits from one guest, each answered and hung up by the server ("Connection: close"),
    then a slow head the server closes: not one of them stays counted, so the guest (and everyone) is
    still let in afterwards."""
    live = LiveTable(table.banker, limits=Limits(connections=12, connections_per_address=8, header_seconds=2.0))
    try:
        for _ in range(40):
            assert full_request(live.server.port, "127.0.0.5").startswith(b"HTTP/1.1 200")
        stalled = half_open(live.server.port, 3, "127.0.0.5")
        assert len(answers(stalled, 3, within=10)) == 3  # closed by the server for being slow
        for s in stalled:
            s.close()
        door = live.server.app[DOOR]
        deadline = time.monotonic() + 10
        while live.call(lambda: door.total) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert live.call(lambda: (door.total, dict(door.open))) == (0, {})
        assert full_request(live.server.port, "127.0.0.5").startswith(b"HTTP/1.1 200")
    finally:
        live.stop()


def test_a_connection_turned_away_at_the_door_costs_the_server_no_handler(table, monkeypatch):
    """A guest opens 120 connections past its 32: each of the 88 extra is answered 503 and closed at the
    listening socket, so the server makes a request handler (and its transport and task) only for the
    32 it lets in - a flood of refusals costs microseconds, not the open pages' processor time."""
    from aiohttp import web_protocol

    made = []
    real_init = web_protocol.RequestHandler.__init__

    def counting_init(self, *args, **kwargs):
        made.append(self)
        real_init(self, *args, **kwargs)

    monkeypatch.setattr(web_protocol.RequestHandler, "__init__", counting_init)
    live = LiveTable(table.banker)
    socks: list[socket.socket] = []
    try:
        per_address = Limits().connections_per_address
        socks = half_open(live.server.port, 120)
        turned_away = answers(socks, 120 - per_address, within=8)
        assert len(turned_away) == 120 - per_address
        assert all(a.startswith(b"HTTP/1.1 503") for a in turned_away.values())
        door = live.server.app[DOOR]
        assert live.call(lambda: (door.open[GUEST], door.total, door.refused[GUEST])) == (
            per_address,
            per_address,
            120 - per_address,
        )
        assert len(made) == per_address
        for s in socks:
            s.close()
        deadline = time.monotonic() + 10
        while live.call(lambda: door.total) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert live.call(lambda: (door.total, dict(door.open))) == (0, {})  # every place given back
        assert player_page(live, "Ann")["me"]["name"] == "Ann"
    finally:
        for s in socks:
            s.close()
        live.stop()
