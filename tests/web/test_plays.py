"""Players act from their own phones: the rules compute every sum, the right player approves, and a
refusal always says the rule's reason and leaves the game as it was."""

from __future__ import annotations

import itertools

import pytest

from companion.web.plays import EXPIRES_SECONDS

ASYNC = pytest.mark.asyncio
_taps = itertools.count(1)


async def form(phone, action: str, **values) -> dict:
    r = await phone.post("/api/v1/plays/form", {"action": action, "values": values})
    assert r.status == 200, await r.text()
    return await r.json()


async def play(
    phone, action: str, *, status: int | None = None, seen: str | None = None, tap: str | None = None, **values
):
    """The phone commits an action; returns (HTTP status, body)."""
    body = {"action": action, "values": values, "id": tap or f"tap-{next(_taps)}"}
    if seen is not None:
        body["seen"] = seen
    r = await phone.post("/api/v1/plays", body)
    data = await r.json()
    if status is not None:
        assert r.status == status, data
    return r.status, data


def error(data: dict) -> str:
    return data.get("detail") or data.get("error") or ""


@ASYNC
async def test_bob_lands_on_boardwalk_and_pays_ann_from_his_phone_with_one_tap(phones):
    table = phones.table
    table.give("Ann", "Boardwalk")
    ann_had = table.cash("Ann")
    bob = await phones.phone("Bob")
    page = await (await bob.get("/api/v1/plays")).json()
    names = {a["name"] for a in page["offered"]}
    assert {"rent", "buy", "tax", "mortgage", "build", "trade", "transfer"} <= names
    assert (
        not {"correct_card", "end_game", "bankrupt", "next_turn"} & names
    )  # the game's housekeeping stays with the banker
    assert "auction" not in names  # an auction is run at the table: nobody names their own price for a deed
    f = await form(bob, "rent")
    assert f["values"] == {"payer": "Bob"}  # his own phone: Bob pays, never chosen
    deed = next(x for x in f["fields"] if x["asked"])
    assert deed["name"] == "deed"
    boardwalk = next(c for c in deed["choices"] if c["value"] == "Boardwalk")
    assert boardwalk["possible"] and boardwalk["detail"] == "Bob pays Ann $50"
    f = await form(bob, "rent", deed="Boardwalk")
    assert f["ready"] and f["preview"] == "Bob paid Ann $50 rent for Boardwalk" and f["approval"] == []
    status, data = await play(bob, "rent", deed="Boardwalk", seen=f["preview"])
    assert status == 201 and data["play"]["status"] == "done"
    assert table.cash("Bob") == 1450 and table.cash("Ann") == ann_had + 50
    entry = table.banker.log()[-1]
    assert entry.action["by"] == "Bob" and entry.summary == f["preview"]


@ASYNC
async def test_a_retry_after_a_dropped_connection_moves_the_money_once(phones):
    table = phones.table
    table.give("Ann", "Boardwalk")
    bob = await phones.phone("Bob")
    first = await play(bob, "rent", deed="Boardwalk", tap="wifi-1", status=201)
    again = await play(bob, "rent", deed="Boardwalk", tap="wifi-1", status=201)
    assert again[1]["play"]["id"] == first[1]["play"]["id"] and again[1]["repeated"]
    assert table.cash("Bob") == 1450


@ASYNC
async def test_a_phone_never_names_another_player_as_the_payer(phones):
    table = phones.table
    table.give("Ann", "Boardwalk")
    bob = await phones.phone("Bob")
    status, data = await play(bob, "rent", payer="Cy", deed="Boardwalk")
    assert status == 409 and "own player" in error(data)
    status, data = await play(bob, "transfer", **{"from": "Cy", "to": "Bob", "amount": 100})
    assert status == 409
    r = await bob.post("/api/v1/plays/form", {"action": "rent", "values": {"payer": "Ann"}})
    assert r.status == 409
    assert table.cash("Cy") == 1500 and table.cash("Bob") == 1500


@ASYNC
async def test_refusals_carry_the_rule_s_reason_and_change_nothing(phones):
    table = phones.table
    bob = await phones.phone("Bob")
    before = table.banker.version
    status, data = await play(bob, "rent", deed="Boardwalk")  # nobody owns it
    assert status == 409 and error(data)
    status, data = await play(bob, "end_game")
    assert status == 400 and "not an action a player starts from a phone" in error(data)
    status, data = await play(bob, "rent", deed="Boardwalk", colour="blue")
    assert status == 400 and "does not take" in error(data)
    r = await bob.post("/api/v1/plays", {"action": "buy", "values": {"deed": "Boardwalk"}})  # no id
    assert r.status == 400
    status, data = await play(bob, "buy", deed="Boardwalk", seen="Bob buys Boardwalk for $1")
    assert status == 409 and "has changed" in error(data)
    assert table.banker.version == before


@ASYNC
async def test_money_from_the_bank_waits_for_the_banker_who_approves_on_his_own_phone(phones):
    table = phones.table
    ann, banker = await phones.phone("Ann"), await phones.phone("banker")
    f = await form(ann, "salary")
    assert f["ready"] and f["approval"] == ["banker"]
    _status, data = await play(ann, "salary", seen=f["preview"], status=202)
    waiting = data["play"]
    assert waiting["status"] == "waiting" and waiting["waiting_for"] == ["banker"]
    assert table.cash("Ann") == 1500
    r = await ann.post(f"/api/v1/plays/{waiting['id']}/approve", {})
    assert r.status == 403  # Ann cannot approve the bank's money
    listed = await (await banker.get("/api/v1/plays")).json()
    assert [p["id"] for p in listed["waiting"]] == [waiting["id"]]
    r = await banker.post(f"/api/v1/plays/{waiting['id']}/approve", {})
    assert r.status == 201, await r.text()
    assert table.cash("Ann") == 1700 and table.banker.log()[-1].action["by"] == "Ann"


@ASYNC
async def test_a_trusted_table_lets_salary_through_without_the_banker(new_game, aiohttp_server, aiohttp_client):
    from companion.web.server import PhoneServer
    from tests.web.phones import Phone

    table = new_game("classic", "Ann", "Bob", trust_table=True)
    server = PhoneServer(table.banker, "127.0.0.1", 0, advertise=False, lan_address="127.0.0.1")
    test_server = await aiohttp_server(server.app)
    server.port = test_server.port
    ann = Phone(await aiohttp_client(test_server), server)
    assert (await ann.join("Ann")).status == 303
    await play(ann, "salary", status=201)
    assert table.cash("Ann") == 1700
    server.close()


@ASYNC
async def test_ann_offers_a_trade_and_bob_approves_it_on_his_phone_seeing_the_same_sentence(phones):
    table = phones.table
    table.give("Ann", "Boardwalk")
    table.give("Bob", "Park Place")
    ann_had, bob_had = table.cash("Ann"), table.cash("Bob")
    ann, bob = await phones.phone("Ann"), await phones.phone("Bob")
    values = {"b": "Bob", "give": {"deeds": ["Boardwalk"]}, "get": {"deeds": ["Park Place"], "cash": 100}}
    f = await form(ann, "trade", **values)
    assert f["ready"] and f["approval"] == ["Bob"], f
    _status, data = await play(ann, "trade", seen=f["preview"], status=202, **values)
    asked = data["play"]
    bob_page = await (await bob.get("/api/v1/plays")).json()
    assert [(p["id"], p["summary"]) for p in bob_page["to_approve"]] == [(asked["id"], f["preview"])]
    r = await bob.post(f"/api/v1/plays/{asked['id']}/approve", {"seen": f["preview"]})
    assert r.status == 201, await r.text()
    assert table.owner("Boardwalk") == "Bob" and table.owner("Park Place") == "Ann"
    assert table.cash("Ann") == ann_had + 100 and table.cash("Bob") == bob_had - 100


@ASYNC
async def test_bob_declines_and_the_trade_never_happens(phones):
    table = phones.table
    table.give("Ann", "Boardwalk")
    ann, bob = await phones.phone("Ann"), await phones.phone("Bob")
    _, data = await play(ann, "trade", status=202, b="Bob", give={"deeds": ["Boardwalk"]}, get={"cash": 300})
    pid = data["play"]["id"]
    cy = await phones.phone("Cy")
    assert (await cy.post(f"/api/v1/plays/{pid}/approve", {})).status == 403  # not Cy's money
    r = await bob.post(f"/api/v1/plays/{pid}/decline", {"reason": "too dear"})
    assert r.status == 200
    mine = await (await ann.get("/api/v1/plays")).json()
    assert mine["mine"][0]["status"] == "declined" and mine["mine"][0]["reason"] == "too dear"
    assert (await bob.post(f"/api/v1/plays/{pid}/approve", {})).status == 409  # already answered
    assert table.owner("Boardwalk") == "Ann" and table.cash("Bob") == 1500


@ASYNC
async def test_an_approval_on_a_changed_table_is_refused_with_the_new_sentence(phones):
    table = phones.table
    table.give("Ann", "Boardwalk")
    ann, bob = await phones.phone("Ann"), await phones.phone("Bob")
    _, data = await play(ann, "trade", status=202, b="Bob", give={"deeds": ["Boardwalk"]}, get={"cash": 1400})
    table.do("transfer", **{"from": "Bob", "to": "bank", "amount": 200})  # Bob pays the bank meanwhile
    r = await bob.post(f"/api/v1/plays/{data['play']['id']}/approve", {})
    assert r.status == 409 and error(await r.json())
    mine = await (await ann.get("/api/v1/plays")).json()
    assert mine["mine"][0]["status"] == "refused" and mine["mine"][0]["reason"]
    assert table.owner("Boardwalk") == "Ann"


@ASYNC
async def test_a_request_not_approved_in_time_expires_and_says_so(phones):
    table = phones.table
    plays = phones.server.plays
    now = [1000.0]
    plays.clock = lambda: now[0]
    ann, banker = await phones.phone("Ann"), await phones.phone("banker")
    _, data = await play(ann, "salary", status=202)
    now[0] += EXPIRES_SECONDS + 1
    mine = await (await ann.get("/api/v1/plays")).json()
    assert mine["mine"][0]["status"] == "expired" and "within 3 minutes" in mine["mine"][0]["reason"]
    r = await banker.post(f"/api/v1/plays/{data['play']['id']}/approve", {})
    assert r.status == 409 and "expired" in error(await r.json())
    assert table.cash("Ann") == 1500


@ASYNC
async def test_both_phones_count_a_trade_s_seconds_down_and_both_are_told_it_expired(phones):
    table = phones.table
    table.give("Ann", "Boardwalk")
    plays = phones.server.plays
    now = [5000.0]
    plays.clock = lambda: now[0]
    ann, bob, cy = await phones.phone("Ann"), await phones.phone("Bob"), await phones.phone("Cy")
    await play(ann, "trade", b="Bob", give={"deeds": ["Boardwalk"]}, get={"cash": 500}, status=202)
    assert (await ann.page())["plays"]["mine"][0]["seconds_left"] == EXPIRES_SECONDS
    now[0] += 65
    # a phone that opens its page later reads the seconds left from then, not from when the trade was made
    assert (await ann.page())["plays"]["mine"][0]["seconds_left"] == EXPIRES_SECONDS - 65
    assert (await bob.page())["plays"]["to_approve"][0]["seconds_left"] == EXPIRES_SECONDS - 65
    now[0] += EXPIRES_SECONDS
    assert phones.server.plays.sweep() == 1  # the server's look every few seconds
    mine = (await ann.page())["plays"]["mine"][0]
    assert mine["status"] == "expired" and mine["seconds_left"] == 0
    assert mine["reason"] == "not approved within 3 minutes; ask again if it still applies"
    bob_page = (await bob.page())["plays"]
    assert bob_page["to_approve"] == []
    told = bob_page["answered_for_me"]  # Bob, who was asked, is told it expired too
    assert [(t["player"], t["status"]) for t in told] == [("Ann", "expired")]
    assert (await cy.page())["plays"]["answered_for_me"] == []  # nobody asked Cy
    assert table.owner("Boardwalk") == "Ann"


@ASYNC
async def test_the_banker_pauses_every_phone_with_one_tap(phones):
    table = phones.table
    table.give("Ann", "Boardwalk")
    bob, banker = await phones.phone("Bob"), await phones.phone("banker")
    assert (await bob.post("/api/v1/plays/pause", {"paused": True})).status == 403
    assert (await banker.post("/api/v1/plays/pause", {"paused": True})).status == 200
    status, data = await play(bob, "rent", deed="Boardwalk")
    assert status == 409 and "paused" in error(data)
    page = await bob.page()
    assert "paused" in page["plays"]["why_not"]
    assert (await banker.post("/api/v1/plays/pause", {"paused": False})).status == 200
    await play(bob, "rent", deed="Boardwalk", status=201)


@ASYNC
async def test_the_game_option_turns_players_actions_off(new_game, aiohttp_server, aiohttp_client):
    from companion.web.server import PhoneServer
    from tests.web.phones import Phone

    table = new_game("classic", "Ann", "Bob", phone_actions=False)
    server = PhoneServer(table.banker, "127.0.0.1", 0, advertise=False, lan_address="127.0.0.1")
    test_server = await aiohttp_server(server.app)
    server.port = test_server.port
    ann = Phone(await aiohttp_client(test_server), server)
    await ann.join("Ann")
    status, data = await play(ann, "buy", deed="Boardwalk")
    assert status == 409 and "turned off" in error(data)
    server.close()


@ASYNC
async def test_the_banker_turns_phones_actions_off_mid_game_and_undo_turns_them_back_on(phones):
    table = phones.table
    table.give("Ann", "Boardwalk")
    bob = await phones.phone("Bob")
    table.do("set_option", option="phone_actions", on=False)  # the settings screen's tap
    status, data = await play(bob, "rent", deed="Boardwalk")
    assert status == 409 and error(data) == "the banker has turned off players' actions from phones in this game"
    assert table.cash("Bob") == 1500
    page = await bob.page()
    assert "turned off" in page["plays"]["why_not"]
    table.banker.undo()  # the banker's undo takes the change back like any entry
    assert (await bob.page())["plays"]["why_not"] is None
    await play(bob, "rent", deed="Boardwalk", status=201)
    assert table.cash("Bob") == 1450


@ASYNC
async def test_a_phone_cannot_flood_the_table(phones):
    bob = await phones.phone("Bob")
    statuses = []
    for _ in range(25):
        statuses.append((await play(bob, "buy", deed="Boardwalk"))[0])
    assert statuses.count(429) >= 1 and statuses[0] in (201, 409)


@ASYNC
async def test_the_banker_and_phones_cannot_use_each_other_s_routes(phones):
    banker, ann = await phones.phone("banker"), await phones.phone("Ann")
    assert (await banker.post("/api/v1/plays", {"action": "buy", "values": {}, "id": "x"})).status == 403
    assert (await banker.post("/api/v1/plays/form", {"action": "buy"})).status == 403
    assert (await ann.post("/api/v1/plays/nope/approve", {})).status == 404
    assert (await ann.post("/api/v1/plays/nope/cancel", {})).status == 404
    _, data = await play(ann, "salary", status=202)
    bob = await phones.phone("Bob")
    assert (await bob.post(f"/api/v1/plays/{data['play']['id']}/cancel", {})).status == 403
    assert (await ann.post(f"/api/v1/plays/{data['play']['id']}/cancel", {})).status == 200


@ASYNC
async def test_every_other_refusal_says_why_and_leaves_the_game_as_it_was(phones):
    table = phones.table
    table.give("Ann", "Boardwalk")
    ann, bob, cy, banker = [await phones.phone(p) for p in ("Ann", "Bob", "Cy", "banker")]
    version = table.banker.version
    r = await bob.post("/api/v1/plays", {"action": "rent", "values": ["Boardwalk"], "id": "t1"})
    assert r.status == 400 and "values is a JSON object" in error(await r.json())
    r = await bob.post("/api/v1/plays", {"action": "rent", "values": {}, "id": "x" * 41})
    assert r.status == 400
    for i in range(3):  # three salaries waiting for the banker: the fourth is one too many
        await play(bob, "salary", status=202, tap=f"salary-{i}")
    status, data = await play(bob, "salary")
    assert status == 409 and "already have 3 actions waiting" in error(data)
    _, data = await play(ann, "trade", status=202, b="Bob", give={"deeds": ["Boardwalk"]}, get={"cash": 10})
    pid = data["play"]["id"]
    r = await cy.post(f"/api/v1/plays/{pid}/decline", {})
    assert r.status == 403  # only whose money it takes may say no
    assert (await banker.post("/api/v1/plays/pause", {"paused": "yes"})).status == 400
    assert (await banker.post("/api/v1/plays/pause", {"paused": True})).status == 200
    r = await bob.post(f"/api/v1/plays/{pid}/approve", {})
    assert r.status == 409 and "paused" in error(await r.json())
    assert (await banker.post("/api/v1/plays/pause", {"paused": False})).status == 200
    assert table.banker.version == version and table.owner("Boardwalk") == "Ann"
    table.do("end_game")
    status, data = await play(ann, "buy", deed="Park Place")
    assert status in (401, 409)  # the game is over: the link says so, or the rule does


@ASYNC
async def test_after_bob_pays_cy_at_the_table_the_phones_pages_read_no_plays_again(phones):
    """Ann asks for her salary from her phone (it waits for the banker); then Bob pays Cy $20 at the
    table. Every phone's page is made again for the payment, but the plays did not change: nothing is
    read from the phones file, and Ann's ask still shows on her page."""
    ann = await phones.phone("Ann")
    _, data = await play(ann, "salary", status=202)
    assert data["play"]["status"] == "waiting"
    desk = phones.server.desk
    for who in ("Ann", "Bob", "Cy"):
        desk.plays.page(who)  # the pages as the phones last saw them
    reads = []
    desk.plays.con.set_trace_callback(
        lambda sql: reads.append(sql) if sql.lstrip().upper().startswith("SELECT") else None
    )
    try:
        phones.table.do("transfer", **{"from": "Bob", "to": "Cy", "amount": 20})
        pages = {who: desk.plays.page(who) for who in ("Ann", "Bob", "Cy")}
    finally:
        desk.plays.con.set_trace_callback(None)
    assert reads == []
    assert [p["id"] for p in pages["Ann"]["mine"]][:1] == [data["play"]["id"]]
    assert pages["Ann"]["mine"][0]["status"] == "waiting" and pages["Bob"]["mine"] == []
    listed = await (await ann.get("/api/v1/plays")).json()
    assert listed["mine"][0]["id"] == data["play"]["id"]
