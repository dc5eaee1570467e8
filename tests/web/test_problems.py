"""Every refusal of the phones' API is an RFC 9457 problem whose type says what kind of refusal it is,
and the OpenAPI document describes each action and each family's deeds as they are."""

from __future__ import annotations

import pytest

from companion.core.errors import ERRORS
from companion.web.openapi import openapi_document
from companion.web.problems import PROBLEMS, PROBLEMS_PATH

ASYNC = pytest.mark.asyncio


async def problem(r, status: int, kind: str) -> dict:
    assert r.status == status, await r.text()
    assert r.content_type == "application/problem+json"
    body = await r.json()
    assert set(body) == {"type", "title", "status", "detail"}
    assert body["type"] == f"{PROBLEMS_PATH}{kind}" and body["status"] == status
    assert body["title"] == PROBLEMS[kind].title
    assert body["detail"] and "\n" not in body["detail"]
    return body


@ASYNC
async def test_bob_short_of_cash_is_a_not_enough_money_problem_and_nothing_moves(phones):
    banker = await phones.phone("banker")
    before = phones.table.cash("Bob")
    r = await banker.post("/api/v1/actions", {"action": "transfer", "from": "Bob", "to": "Ann", "amount": 9000})
    body = await problem(r, 409, "not-enough-money")
    assert "Bob has $1,500 but needs $9,000" in body["detail"]
    assert phones.table.cash("Bob") == before


@ASYNC
async def test_each_kind_of_refusal_has_its_own_type(phones):
    banker, ann = await phones.phone("banker"), await phones.phone("Ann")
    stranger = await phones.phone()
    await problem(
        await banker.post("/api/v1/actions", {"action": "buy", "player": "Zed", "deed": "Boardwalk"}),
        409,
        "unknown-name",
    )
    await problem(await banker.post("/api/v1/actions", {"action": "fly"}), 400, "bad-action")
    await problem(await banker.post("/api/v1/actions", data="[1, 2"), 400, "not-json")
    await problem(
        await banker.post("/api/v1/actions", {"action": "mortgage", "player": "Ann", "deed": "Boardwalk"}),
        409,
        "refused",
    )
    await problem(await stranger.get("/api/v1/state"), 401, "not-joined")
    await problem(await ann.post("/api/v1/actions", {"action": "salary", "player": "Ann"}), 403, "wrong-role")
    await problem(
        await ann.post(
            "/api/v1/requests", {"to": "Bob", "amount": 5}, origin=False, headers={"Origin": "http://evil.example"}
        ),
        403,
        "cross-origin",
    )
    await problem(await banker.post("/api/v1/requests/nope/approve", {}), 404, "no-such-request")
    await problem(await banker.get("/api/v1/players/Zed/join"), 404, "no-such-player")
    await problem(await banker.get("/api/v1/nowhere"), 404, "not-found")
    await problem(await banker.get("/api/v1/actions"), 405, "method-not-allowed")
    await problem(
        await ann.post("/api/v1/requests", data="to=Bob", headers={"Content-Type": "text/plain"}),
        415,
        "not-json-content",
    )


@ASYNC
async def test_a_problems_type_answers_what_it_means_without_a_token(phones):
    stranger = await phones.phone()
    for kind, declared in PROBLEMS.items():
        r = await stranger.get(declared.type)
        assert r.status == 200, kind
        assert await r.json() == {"type": declared.type, "title": declared.title, "status": declared.status}
    await problem(await stranger.get(PROBLEMS_PATH + "no-such-kind"), 404, "not-found")


def test_every_error_the_game_raises_declares_a_kind_of_its_own():
    kinds = [e.kind for e in ERRORS]
    assert len(set(kinds)) == len(kinds)
    assert all(PROBLEMS[k].title for k in kinds)


def test_the_api_docs_list_every_kind_of_problem():
    from pathlib import Path

    text = (Path(__file__).resolve().parents[2] / "docs" / "api.md").read_text()
    assert [k for k in PROBLEMS if f"`{k}`" not in text] == []


def test_the_document_discriminates_actions_by_name(table):
    doc = openapi_document("tb_x", table.banker.actions(), family="property", deed_fields={})
    schemas = doc["components"]["schemas"]
    action = schemas["Action"]
    assert action["discriminator"]["propertyName"] == "action"
    mapping = action["discriminator"]["mapping"]
    assert mapping["rent"] == "#/components/schemas/Action_rent" and mapping["undo"] == mapping["redo"]
    assert schemas["Action_rent"]["properties"]["action"] == {"enum": ["rent"]}
    assert {ref["$ref"] for ref in action["oneOf"]} == set(mapping.values())


@pytest.mark.parametrize(
    "pack, own, not_its",
    [
        ("classic", {"mortgaged", "houses", "hotel"}, {"level"}),
        ("greenopoly", {"mortgaged", "level"}, {"houses", "hotel"}),
        ("monopoly-city", {"residential", "industrial", "stadium", "hazard"}, {"houses", "hotel"}),
        ("city-life", set(), {"houses", "hotel", "mortgaged"}),
        ("game-of-life", set(), {"houses", "hotel", "mortgaged"}),
    ],
)
def test_each_familys_deed_schema_is_its_own(new_game, pack, own, not_its):
    players = ("Ann", "Bob")
    rules = new_game(pack, *players).banker.rules
    doc = openapi_document("tb_x", family=rules.family, deed_fields=rules.extras.get("deed_fields", {}))
    deed = doc["components"]["schemas"]["Deed"]
    assert own <= set(deed["required"]) and not (not_its & set(deed["properties"]))
    assert {"name", "group", "kind", "marks"} <= set(deed["required"])


@ASYNC
async def test_a_phones_deeds_carry_their_familys_fields(new_game, aiohttp_server, aiohttp_client):
    """Ann buys a Greenopoly park: her phone shows its level (none yet), and no houses or hotel."""
    from companion.web.server import PhoneServer
    from tests.web.phones import Phone

    t = new_game("greenopoly", "Ann", "Bob")
    park = next(
        n
        for n, c in t.banker.table["pack"]["cards"].items()
        if c.get("group")
        not in (
            None,
            "",
        )
    )
    t.do("buy", player="Ann", deed=park)
    server = PhoneServer(t.banker, "127.0.0.1", 0, advertise=False, lan_address="127.0.0.1")
    try:
        test_server = await aiohttp_server(server.app)
        server.port = test_server.port
        ann = Phone(await aiohttp_client(test_server), server)
        assert (await ann.join("Ann")).status == 303
        page = await ann.page()
        deed = page["me"]["deeds"][0]
        assert deed["name"] == park and deed["level"] == 0 and deed["mortgaged"] is False
        assert "houses" not in deed and "hotel" not in deed
        doc = await (await ann.get("/api/v1/openapi.json")).json()
        schema = doc["components"]["schemas"]["Deed"]
        assert set(schema["required"]) <= set(deed) and set(deed) <= set(schema["properties"])
    finally:
        server.close()


def test_a_status_no_kind_is_declared_for_is_named_after_the_status():
    from companion.web.problems import by_kind, for_status

    assert for_status(414).type == f"{PROBLEMS_PATH}http-414" and for_status(414).title == "Request-URI Too Long"
    assert by_kind("http-414") == for_status(414)
    with pytest.raises(KeyError):
        by_kind("http-999")
    with pytest.raises(ValueError):  # a kind declared with another status is a bug where it is raised
        for_status(404, "not-enough-money")
