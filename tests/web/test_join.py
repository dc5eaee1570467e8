"""Joining the table: a QR code's link becomes a cookie, links survive restarts, and can be withdrawn."""

from __future__ import annotations

import re

import pytest

from companion.web.desk import PhoneDesk
from companion.web.sidecar import sidecar_path
from companion.web.tokens import JoinTokens


@pytest.mark.asyncio
async def test_ann_scans_her_code_and_her_phone_keeps_a_cookie_instead_of_the_link(phones):
    phone = await phones.phone()
    r = await phone.join("Ann")
    assert r.status == 303 and r.headers["Location"] == "/"
    cookie = r.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie and "Path=/" in cookie
    assert r.headers["Referrer-Policy"] == "no-referrer"
    assert r.headers["Cache-Control"] == "no-store"
    page = await phone.page()
    assert page["role"] == "player" and page["me"]["name"] == "Ann" and page["me"]["cash_text"] == "$1,500"


@pytest.mark.asyncio
async def test_the_join_link_is_the_lan_address_and_a_long_random_token(phones):
    url = phones.server.join_url("ann")  # names are matched as the banker types them
    m = re.fullmatch(rf"http://127\.0\.0\.1:{phones.port}/j/([A-Za-z0-9_-]+)", url)
    assert m and len(m.group(1)) >= 32  # 192 random bits, URL-safe base64
    assert phones.server.join_url("Ann") == url  # one token per player per game
    assert phones.server.join_url("Bob") != url
    assert phones.server.banker_url() not in (url, phones.server.join_url("Bob"))


@pytest.mark.asyncio
async def test_a_wrong_link_is_refused_and_says_what_to_do(phones):
    phone = await phones.phone()
    r = await phone.get("/j/" + "x" * 32, allow_redirects=False)
    assert r.status == 403
    assert "Set-Cookie" not in r.headers
    assert "scan" in (await r.text())
    assert (await phone.get("/api/v1/state")).status == 401


@pytest.mark.asyncio
async def test_a_withdrawn_link_stops_working_on_the_phone_that_already_joined(phones):
    phone = await phones.phone("Bob")
    old = phones.server.join_url("Bob")
    assert phones.server.revoke("Bob") is True
    r = await phone.get("/api/v1/state")
    assert r.status == 401
    assert "withdrawn" in (await r.json())["detail"]
    assert "Max-Age=0" in r.headers["Set-Cookie"]  # the phone forgets the dead cookie
    new = phones.server.join_url("Bob")
    assert new != old
    assert (await phone.get(old.split(str(phones.port), 1)[1], allow_redirects=False)).status == 403
    fresh = await phones.phone()
    assert (await fresh.get(new.split(str(phones.port), 1)[1], allow_redirects=False)).status == 303


@pytest.mark.asyncio
async def test_player_links_expire_when_the_game_ends_but_the_banker_keeps_the_table(phones):
    ann = await phones.phone("Ann")
    banker = await phones.phone("banker")
    phones.table.do("end_game")
    r = await ann.get("/api/v1/state")
    assert r.status == 401 and "game is over" in (await r.json())["detail"]
    late = await phones.phone()
    r = await late.join("Cy")
    assert r.status == 403 and "game is over" in (await r.text()).lower()
    assert (await banker.page())["over"]["winner"]


@pytest.mark.asyncio
async def test_links_survive_an_app_restart_because_they_live_beside_the_game(phones):
    url = phones.server.join_url("Cy")
    banker_url = phones.server.banker_url()
    path = sidecar_path(phones.table.banker.path)
    assert path.exists() and path.stat().st_mode & 0o077 == 0  # readable by the owner only
    again = PhoneDesk(phones.table.banker)
    try:
        token = url.rsplit("/", 1)[1]
        assert again.authorise(token).player == "Cy"
        assert again.authorise(banker_url.rsplit("/", 1)[1]).role == "banker"
    finally:
        again.close_file()


def test_tokens_are_not_in_the_game_log(table):
    desk = PhoneDesk(table.banker)
    try:
        token = desk.tokens.for_player("Ann")
        raw = table.banker.path.read_bytes() + (
            table.banker.path.with_name(table.banker.path.name + "-wal").read_bytes()
            if table.banker.path.with_name(table.banker.path.name + "-wal").exists()
            else b""
        )
        assert token.encode() not in raw
    finally:
        desk.close_file()


def test_a_token_shaped_guess_is_just_unknown(table):
    desk = PhoneDesk(table.banker)
    try:
        tokens: JoinTokens = desk.tokens
        real = tokens.for_player("Ann")
        assert tokens.check(real).player == "Ann"
        for guess in (real[:-1], real + "A", real.upper(), "", None, 42, "a" * 10_000):
            assert tokens.check(guess) is None
    finally:
        desk.close_file()
