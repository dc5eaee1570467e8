"""Finding the table: the Pi's LAN address, the host names it answers to, and zeroconf on loopback."""

from __future__ import annotations

import socket

import pytest

from companion.discovery import SERVICE_TYPE, Advertisement, find_table, table_service_name
from companion.web.lan import allowed_hosts, host_of, lan_ipv4
from companion.web.server import PhoneServer, announce_on, link_host

LOOPBACK = ["127.0.0.1"]


def test_an_explicit_lan_address_wins_and_a_typo_is_refused(monkeypatch):
    assert lan_ipv4("192.168.1.20") == "192.168.1.20"
    monkeypatch.setenv("COMPANION_LAN_ADDRESS", "10.0.0.7")
    assert lan_ipv4() == "10.0.0.7"
    with pytest.raises(ValueError):
        lan_ipv4("192.168.1")


def test_the_lan_address_is_found_without_any_setting(monkeypatch):
    monkeypatch.delenv("COMPANION_LAN_ADDRESS", raising=False)
    found = lan_ipv4()
    socket.inet_aton(found)  # an IPv4 address, 127.0.0.1 when there is no network at all


@pytest.mark.parametrize(
    "header, host",
    [
        ("127.0.0.1:8080", "127.0.0.1"),
        ("Table.Local", "table.local"),
        ("table.local.:80", "table.local"),
        ("[::1]:8080", "[::1]"),
        ("", None),
        ("a b", None),
        ("host:port", None),
        ("[::1", None),
        ("[::1]x", None),
    ],
)
def test_host_headers_are_read_strictly(header, host):
    assert host_of(header) == host


def test_the_pi_answers_to_its_own_names_only():
    name = socket.gethostname().split(".")[0].lower()
    hosts = allowed_hosts("192.168.1.20", "0.0.0.0", ("banker.lan",))
    assert {"192.168.1.20", "localhost", "127.0.0.1", "[::1]", name, f"{name}.local", "banker.lan"} == set(hosts)
    assert "0.0.0.0" not in hosts


def test_the_service_is_named_after_the_table():
    assert table_service_name("Table Banker on kitchen-pi") == f"Table Banker on kitchen-pi.{SERVICE_TYPE}"
    assert table_service_name("a.b") == f"a b.{SERVICE_TYPE}"  # a dot would split the DNS label
    assert table_service_name().startswith("Table Banker on ")


@pytest.mark.asyncio
async def test_the_table_is_announced_found_by_another_device_and_withdrawn():
    ad = Advertisement("127.0.0.1", 8123, label="Table Banker on test-table", interfaces=LOOPBACK)
    await ad.start()
    try:
        found = await find_table(ad.name, interfaces=LOOPBACK, timeout=3)
        assert found["address"] == "127.0.0.1" and found["port"] == 8123
        assert found["properties"] == {"path": "/"}  # the path only: never a token
    finally:
        await ad.stop()
        await ad.stop()  # safe twice
    assert await find_table(ad.name, interfaces=LOOPBACK, timeout=1) is None


@pytest.mark.asyncio
async def test_the_phone_server_advertises_itself_while_it_runs(table):
    server = PhoneServer(
        table.banker,
        "127.0.0.1",
        0,
        advertise=True,
        interfaces=LOOPBACK,
        lan_address="127.0.0.1",
        table_name="Table Banker on pytest",
    )
    await server.start()
    try:
        name = await server.advertised()
        found = await find_table(name, interfaces=LOOPBACK, timeout=3)
        assert (found["address"], found["port"], found["path"]) == ("127.0.0.1", server.port, "/")
        assert server.tokens.for_banker() not in str(found)
    finally:
        await server.stop()
        await server.stop()
        server.close()
    assert await find_table(name, interfaces=LOOPBACK, timeout=1) is None


@pytest.mark.parametrize(
    "host, lan, link",
    [
        ("127.0.0.1", "192.168.1.20", "127.0.0.1"),
        ("192.168.1.30", "192.168.1.20", "192.168.1.30"),
        ("0.0.0.0", "192.168.1.20", "192.168.1.20"),
        ("::1", None, "[::1]"),
    ],
)
def test_links_carry_an_address_the_server_listens_on(host, lan, link):
    assert link_host(host, lan) == link


@pytest.mark.parametrize(
    "host, interfaces, where",
    [
        ("127.0.0.1", None, None),
        ("::1", None, None),
        ("0.0.0.0", None, []),
        ("192.168.1.30", None, ["192.168.1.30"]),
        ("127.0.0.1", LOOPBACK, LOOPBACK),
    ],
)
def test_the_table_is_announced_only_where_the_server_listens(host, interfaces, where):
    assert announce_on(host, interfaces) == where


@pytest.mark.asyncio
async def test_a_table_kept_to_this_machine_is_not_announced_and_its_codes_point_here(table, monkeypatch):
    adverts = []

    class Recorder:
        def __init__(self, *args, **kwargs):
            adverts.append((args, kwargs))

    monkeypatch.setattr("companion.discovery.Advertisement", Recorder)
    server = PhoneServer(table.banker, "127.0.0.1", 0, advertise=True, lan_address="192.168.1.20")
    await server.start()
    try:
        assert await server.advertised() is None and adverts == []
        assert server.url == f"http://127.0.0.1:{server.port}/"
        assert server.join_url("Ann").startswith(f"http://127.0.0.1:{server.port}/j/")
    finally:
        await server.stop()
        server.close()
