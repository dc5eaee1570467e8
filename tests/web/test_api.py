"""The JSON API at the table: the banker's actions, players' requests, join codes, the OpenAPI document."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from companion.web.openapi import OPENAPI

ASYNC = pytest.mark.asyncio


@ASYNC
async def test_the_banker_applies_an_action_and_a_retry_with_the_same_id_is_one_action(phones):
    banker = await phones.phone("banker")
    action = {"action": "buy", "player": "Ann", "deed": "Boardwalk", "id": "tap-1"}
    r = await banker.post("/api/v1/actions", action)
    assert r.status == 201
    done = await r.json()
    assert done["summary"] == "Ann bought Boardwalk for $400" and done["repeated"] is False
    again = await banker.post("/api/v1/actions", action)
    assert again.status == 200 and (await again.json())["repeated"] is True
    assert phones.table.cash("Ann") == 1100


@ASYNC
async def test_a_refused_action_says_why_in_one_line_and_changes_nothing(phones):
    banker = await phones.phone("banker")
    for action, status, words in (
        ({"action": "transfer", "from": "Ann", "to": "Bob", "amount": 5000}, 409, "Ann has $1,500 but needs $5,000"),
        ({"action": "buy", "player": "Zed", "deed": "Boardwalk"}, 409, "no player called 'Zed'"),
        ({"action": "fly", "player": "Ann"}, 400, "unknown action"),
        ({"player": "Ann"}, 400, 'no "action" name'),
    ):
        r = await banker.post("/api/v1/actions", action)
        assert r.status == status
        error = (await r.json())["detail"]
        assert words in error and "\n" not in error
    r = await banker.post("/api/v1/actions", data="[1, 2")
    assert r.status == 400 and "not valid JSON" in (await r.json())["detail"]
    assert phones.table.banker.version == 1


@ASYNC
async def test_the_banker_reads_the_log_after_a_version(phones):
    phones.table.do("salary", player="Ann")
    phones.table.do("salary", player="Bob")
    banker = await phones.phone("banker")
    r = await banker.get("/api/v1/log?after=1")
    body = await r.json()
    assert body["version"] == 3 and [e["summary"] for e in body["entries"]] == [
        "Ann collected $200 salary",
        "Bob collected $200 salary",
    ]
    assert [e["seq"] for e in (await (await banker.get("/api/v1/log?limit=1")).json())["entries"]] == [1]
    assert (await banker.get("/api/v1/log?after=-1")).status == 400


@ASYNC
async def test_ann_asks_to_pay_bob_and_the_banker_approves(phones):
    ann = await phones.phone("Ann")
    banker = await phones.phone("banker")
    r = await ann.ask("bob", "$75", "the pizza", id="phone-1")
    assert r.status == 201
    asked = (await r.json())["request"]
    assert asked["player"] == "Ann" and asked["to"] == "Bob" and asked["amount"] == 75 and asked["status"] == "pending"
    assert phones.table.cash("Ann") == 1500  # nothing moved yet
    again = await ann.ask("bob", "$75", "the pizza", id="phone-1")
    assert (await again.json())["request"]["id"] == asked["id"]  # a phone retrying makes one request
    banker_page = await banker.page()
    assert [p["id"] for p in banker_page["pending"]] == [asked["id"]]
    r = await banker.post(f"/api/v1/requests/{asked['id']}/approve")
    assert r.status == 200
    body = await r.json()
    assert body["request"]["status"] == "approved" and body["outcome"]["summary"] == "Ann paid Bob $75 (the pizza)"
    assert phones.table.cash("Ann") == 1425 and phones.table.cash("Bob") == 1575
    twice = await banker.post(f"/api/v1/requests/{asked['id']}/approve")
    assert twice.status == 200 and (await twice.json())["outcome"]["repeated"] is True
    assert phones.table.cash("Ann") == 1425  # approving twice moves the money once
    page = await ann.page()
    assert page["requests"][0]["status"] == "approved"
    assert page["me"]["story"][0]["text"] == "You paid Bob $75 (the pizza)"


@ASYNC
async def test_the_banker_declines_with_a_reason_that_reaches_the_phone(phones):
    cy = await phones.phone("Cy")
    banker = await phones.phone("banker")
    rid = (await (await cy.ask("bank", 100, "a house")).json())["request"]["id"]
    r = await banker.post(f"/api/v1/requests/{rid}/decline", {"reason": "build with the build button"})
    assert r.status == 200
    assert (await cy.page())["requests"][0] == {**(await r.json())["request"]}
    assert (await cy.page())["requests"][0]["reason"] == "build with the build button"
    assert (await banker.post(f"/api/v1/requests/{rid}/approve")).status == 409
    assert phones.table.banker.version == 1


@ASYNC
async def test_a_player_withdraws_a_request_and_cannot_ask_for_more_than_they_have(phones):
    bob = await phones.phone("Bob")
    r = await bob.ask("Ann", 2000)
    assert r.status == 409 and "you have $1,500" in (await r.json())["detail"]
    assert (await bob.ask("Bob", 5)).status == 409
    assert (await bob.ask("Zed", 5)).status == 409
    assert (await bob.ask("Ann", 0)).status == 400
    assert (await bob.ask("Ann", "lots")).status == 400
    assert (await bob.post("/api/v1/requests", {"to": "Ann", "amount": 5, "colour": "red"})).status == 400
    rid = (await (await bob.ask("Ann", 5)).json())["request"]["id"]
    r = await bob.post(f"/api/v1/requests/{rid}/cancel")
    assert r.status == 200 and (await r.json())["request"]["status"] == "cancelled"
    assert (await bob.post("/api/v1/requests/nope/cancel")).status == 404


@ASYNC
async def test_three_waiting_requests_are_enough(phones):
    ann = await phones.phone("Ann")
    for i in range(3):
        assert (await ann.ask("Bob", 1 + i)).status == 201
    r = await ann.ask("Bob", 9)
    assert r.status == 409 and "3 requests waiting" in (await r.json())["detail"]


@ASYNC
async def test_a_game_can_turn_phone_requests_off(new_game, tmp_path, aiohttp_server, aiohttp_client):
    pack = tmp_path / "quiet.toml"
    classic = (__import__("companion.rules.pack", fromlist=["PACK_DIR"]).PACK_DIR / "classic.toml").read_text()
    pack.write_text(
        classic.replace('name = "classic"', 'name = "quiet"', 1)
        + '\n[options.phone_requests]\ndefault = true\nhelp = "players may ask from phones"\n'
    )
    t = new_game(str(pack), "Ann", "Bob", phone_requests=False)
    from companion.web.server import PhoneServer
    from tests.web.phones import Phone

    server = PhoneServer(t.banker, "127.0.0.1", 0, advertise=False, lan_address="127.0.0.1")
    http = await aiohttp_server(server.app)
    try:
        ann = Phone(await aiohttp_client(http), server)
        await ann.join("Ann")
        assert (await ann.page())["can_request"] is False
        r = await ann.ask("Bob", 5)
        assert r.status == 409 and "turned off" in (await r.json())["detail"]
        assert server.requests.pending() == []
    finally:
        server.close()


@ASYNC
async def test_the_banker_shows_a_players_code_and_can_replace_it(phones):
    banker = await phones.phone("banker")
    link = await (await banker.get("/api/v1/players/ann/join")).json()
    assert link == {"player": "Ann", "url": phones.server.join_url("Ann")}
    svg = await banker.get("/api/v1/players/Ann/qr.svg")
    assert svg.headers["Content-Type"].startswith("image/svg+xml")
    assert ET.fromstring(await svg.text()).tag.endswith("svg")
    assert (await banker.get("/api/v1/players/Zed/join")).status == 404
    r = await banker.post("/api/v1/players/Ann/revoke")
    assert r.status == 200 and (await r.json())["url"] != link["url"]


@ASYNC
async def test_the_phone_page_and_its_files_are_served(phones):
    phone = await phones.phone()
    page = await phone.get("/")
    assert page.status == 200 and "phone.js" in await page.text()
    for name, kind in (("phone.js", "javascript"), ("phone.css", "text/css"), ("icon.svg", "image/svg+xml")):
        r = await phone.get(f"/static/{name}")
        assert r.status == 200 and kind in r.headers["Content-Type"]
    assert (await phone.get("/api/v1/openapi.json")).status == 200  # public: it holds no secrets


@ASYNC
async def test_the_openapi_document_describes_exactly_the_api_routes(phones):
    phone = await phones.phone()
    doc = await (await phone.get("/api/v1/openapi.json")).json()
    assert doc["openapi"].startswith("3.")
    assert doc["components"]["securitySchemes"]["cookie"]["name"] == phones.server.desk.cookie_name
    served = set()
    for route in phones.server.app.router.routes():
        info = route.resource.get_info() if route.resource else {}
        path = info.get("path") or info.get("formatter")
        if path and path.startswith("/api/") and route.method != "HEAD":
            served.add((path, route.method.lower()))
    described = {(path, method) for path, ops in OPENAPI["paths"].items() for method in ops}
    assert served == described


@ASYNC
async def test_a_body_nested_too_deeply_is_refused_not_crashed_on(phones):
    banker = await phones.phone("banker")
    r = await banker.post("/api/v1/actions", data="[" * 5_000 + "]" * 5_000)
    assert r.status == 400 and "nested" in (await r.json())["detail"]


@ASYNC
async def test_an_unexpected_error_is_a_short_500_without_details(phones, monkeypatch):
    banker = await phones.phone("banker")
    monkeypatch.setattr(phones.table.banker, "do", lambda action: 1 / 0)
    r = await banker.post("/api/v1/actions", {"action": "salary", "player": "Ann"})
    assert r.status == 500
    assert r.content_type == "application/problem+json"
    assert (await r.json()) == {
        "type": "/api/v1/problems/server-fault",
        "title": "Unexpected error on the table's server",
        "status": 500,
        "detail": "unexpected error on the table's server (details in its log)",
    }
