"""The phone page stays small: everything a phone fetches on its first load (the page, its style sheet,
its scripts, icon and manifest, and the first page of the game) is under 50 KB before compression,
for a player and for the banker, in a game well under way. Each file goes gzipped to a phone that
takes gzip, with an ETag (a phone that has it gets a 304) and a Cache-Control."""

from __future__ import annotations

import gzip
import urllib.request

import pytest
from playwright.sync_api import expect

from tests.web.phones import LiveTable
from tests.web.test_plays_browser import chromium, phone  # noqa: F401 - the browser is a fixture

pytestmark = pytest.mark.browser

LIMIT = 50 * 1024
DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback only, never a proxy


def a_game_under_way(new_game):
    table = new_game("classic", "Ann", "Bob", "Cy")
    table.give("Ann", "Boardwalk", "Park Place")
    table.give("Bob", "Baltic Avenue", "Mediterranean Avenue")
    for _ in range(30):  # Ann hears of every rent: her story and her chart are as long as they get
        table.do("rent", payer="Cy", deed="Boardwalk")
        table.do("salary", player="Cy")
        table.do("next_turn")
    return table


def fetched(url: str, **headers: str):
    return DIRECT.open(urllib.request.Request(url, headers=headers), timeout=10)


def first_load(chromium, live: LiveTable, who: str, ready: str) -> dict[str, int]:  # noqa: F811
    """What the browser fetched to show ``who``'s page, each with its size uncompressed: the files as
    the server sends them to a phone that takes no gzip, and the first page of the game."""
    context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    page = context.new_page()
    urls: list[str] = []
    page.on("request", lambda r: urls.append(r.url))
    page.goto(f"{live.base}/j/{live.token(who)}")
    expect(page.locator(ready).first).to_be_visible()
    cookies = "; ".join(f"{c['name']}={c['value']}" for c in context.cookies())
    context.close()
    sizes: dict[str, int] = {}
    for url in dict.fromkeys(urls):
        path = url.removeprefix(live.base)
        if path.startswith(("/j/", "/api/v1/events")):
            continue  # the link's redirect has no body; the stream's first message is the game's page, below
        sizes[path] = len(fetched(url, **{"Accept-Encoding": "identity"}).read())
    state = fetched(f"{live.base}/api/v1/state", **{"Accept-Encoding": "identity", "Cookie": cookies})
    sizes["the game's first page"] = len(state.read())
    for path in ("/manifest.webmanifest", "/static/icon.svg"):  # a phone asks for these when it installs the page
        sizes.setdefault(path, len(fetched(live.base + path, **{"Accept-Encoding": "identity"}).read()))
    return sizes


def test_a_player_s_first_load_and_the_banker_s_stay_under_50_kb(chromium, new_game):  # noqa: F811
    table = a_game_under_way(new_game)
    live = LiveTable(table.banker)
    try:
        player = first_load(chromium, live, "Ann", "#play-list button")
        banker = first_load(chromium, live, "banker", "#log li")
    finally:
        live.stop()
    assert {"/", "/static/phone.css", "/static/phone.js", "/static/player.js", "/static/plays.js"} <= set(player)
    assert not {"/static/banker.js", "/static/banker.html"} & set(player)  # the banker's tools stay off players' phones
    assert {"/static/banker.js", "/static/banker.html", "/static/banker.css"} <= set(banker)
    assert not {"/static/player.js", "/static/plays.js"} & set(banker)
    for who, sizes in (("Ann", player), ("the banker", banker)):
        total = sum(sizes.values())
        print(f"{who}: {total} bytes", sorted(sizes.items(), key=lambda kv: -kv[1]))
        assert total < LIMIT, f"{who}'s first load is {total} bytes: {sizes}"


def test_each_file_goes_gzipped_with_an_etag_and_a_phone_that_has_it_gets_a_304(new_game):
    table = new_game("classic", "Ann", "Bob")
    live = LiveTable(table.banker)
    try:
        for path in (
            "/",
            "/static/phone.css",
            "/static/phone.js",
            "/static/player.js",
            "/static/plays.js",
            "/static/banker.js",
        ):
            r = fetched(live.base + path, **{"Accept-Encoding": "gzip"})
            assert r.headers["Content-Encoding"] == "gzip", path
            body = gzip.decompress(r.read())
            plain = fetched(live.base + path, **{"Accept-Encoding": "identity"})
            assert "Content-Encoding" not in plain.headers and plain.read() == body
            etag, cache = r.headers["ETag"], r.headers["Cache-Control"]
            assert etag and cache == "no-cache", path  # kept, and asked again each time: a new version shows at once
            with pytest.raises(urllib.error.HTTPError) as again:
                fetched(live.base + path, **{"If-None-Match": etag, "Accept-Encoding": "gzip"})
            assert again.value.code == 304
        js = fetched(live.base + "/static/phone.js").read().decode()
        assert "/*" not in js and "\n  " not in js  # sent without comments and indentation
    finally:
        live.stop()
