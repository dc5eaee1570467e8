"""The parts of the players' pages that an action did not change are not made again, and every part an
action did change shows on every phone at once: a player's row and ``me``, whom they may pay, their plays;
the pages asked before the COMMIT, one per link, are what the phones of that link are sent after it."""

from __future__ import annotations

import asyncio
import json

import pytest

import companion.web.desk as desk_module
from companion.web.desk import PhoneDesk
from companion.web.jsontext import safe_text
from companion.web.sse import Broadcast, sse_message
from tests.web.test_fan_out import feed_of, one_turn, waiting

ASYNC = pytest.mark.asyncio


@pytest.fixture
def desk(table):
    made = PhoneDesk(table.banker)
    made.open()
    yield made
    made.close_file()


def page_of(desk: PhoneDesk, player: str) -> dict:
    return json.loads(desk.page(desk.authorise(desk.tokens.for_player(player)))[0])


def every_page(desk: PhoneDesk) -> dict[str, dict]:
    return {p: page_of(desk, p) for p in ("Ann", "Bob", "Cy")}


def counting(monkeypatch, name: str) -> list:
    """Count the calls of a function the desk writes pages with."""
    calls: list = []
    real = getattr(desk_module, name)
    monkeypatch.setattr(desk_module, name, lambda *a, **k: calls.append(a) or real(*a, **k))
    return calls


def test_ann_pays_bob_cy_rows_are_not_written_again_and_every_phone_sees_the_new_cash(table, desk, monkeypatch):
    every_page(desk)
    rows, mes = counting(monkeypatch, "player_row"), counting(monkeypatch, "player_me")

    table.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 75})
    pages = every_page(desk)

    assert sorted(row[0]["name"] for row in rows) == ["Ann", "Ann", "Bob", "Bob"]  # as others see them, and their own
    assert sorted(me[1]["name"] for me in mes) == ["Ann", "Bob"]
    for page in pages.values():
        assert {p["name"]: p["cash"] for p in page["players"]} == {"Ann": 1425, "Bob": 1575, "Cy": 1500}
    assert [pages[p]["me"]["cash"] for p in ("Ann", "Bob", "Cy")] == [1425, 1575, 1500]
    assert pages["Cy"]["version"] == table.banker.version


def test_the_turn_passes_to_bob_and_every_row_says_who_is_to_play(table, desk):
    every_page(desk)
    table.do("next_turn")
    for page in every_page(desk).values():
        assert [p["name"] for p in page["players"] if p["to_play"]] == ["Bob"]


def test_cy_goes_bankrupt_and_ann_may_no_longer_pay_him(table, desk):
    assert every_page(desk)["Ann"]["payees"] == ["bank", "Bob", "Cy"]
    table.do("bankrupt", player="Cy", creditor="bank")
    pages = every_page(desk)
    assert pages["Ann"]["payees"] == ["bank", "Bob"] and pages["Bob"]["payees"] == ["bank", "Ann"]
    assert pages["Cy"]["me"]["bankrupt"] and not pages["Cy"]["can_request"]


def test_ann_buys_boardwalk_and_her_page_lists_it_and_the_others_count_it(table, desk):
    every_page(desk)
    table.do("buy", player="Ann", deed="Boardwalk")
    pages = every_page(desk)
    assert [d["name"] for d in pages["Ann"]["me"]["deeds"]] == ["Boardwalk"]
    assert next(p for p in pages["Bob"]["players"] if p["name"] == "Ann")["deed_count"] == 1


def test_the_banker_turns_phone_actions_off_and_every_plays_part_says_why(table, desk):
    before = every_page(desk)
    assert before["Ann"]["plays"]["why_not"] is None
    table.do("set_option", option="phone_actions", on=False)
    for player, page in every_page(desk).items():
        assert page["plays"]["why_not"] == desk.plays.why_not(player) is not None
        assert page["plays"]["offered"] == before[player]["plays"]["offered"]


def test_the_plays_part_reads_as_the_plays_page_after_each_change(table, desk):
    plays = desk.plays
    for step in (
        lambda: table.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 5}),
        lambda: plays.pause(True),
        lambda: plays.pause(False),
        lambda: plays.start("Ann", "salary", {}, "tap-1"),  # waits for the banker
        lambda: table.do("transfer", **{"from": "Bob", "to": "Cy", "amount": 5}),
        lambda: table.do("bankrupt", player="Cy", creditor="bank"),
    ):
        step()
        for player in ("Ann", "Bob", "Cy"):
            assert plays.page_text(player) == safe_text(plays.page(player))


def test_a_waiting_plays_seconds_left_count_down_on_the_page_as_time_passes(table, desk):
    now = [1_000_000.0]
    desk.plays.clock = lambda: now[0]
    desk.plays.start("Ann", "salary", {}, "tap-1")
    first = json.loads(desk.plays.page_text("Ann"))["mine"][0]["seconds_left"]
    now[0] += 30
    later = json.loads(desk.plays.page_text("Ann"))["mine"][0]["seconds_left"]
    assert first - later == 30


def paged(hub: Broadcast, answers: dict[str, list]):
    """A page function per link that counts how often it is asked."""

    def page_of(link: str):
        def page():
            answers[link].append(hub.generation)
            return f"{link}'s page at {hub.generation}".encode(), None

        return page

    return page_of


@ASYNC
async def test_four_phones_of_ann_and_two_of_bob_are_sent_the_pages_asked_once_per_link_before_the_commit():
    stamp = ["steady"]
    hub = Broadcast(lambda: stamp[0])
    answers: dict[str, list] = {"Ann": [], "Bob": []}
    page_of = paged(hub, answers)
    phones = [(link, *feed_of(page_of(link), key=link)) for link in ["Ann"] * 4 + ["Bob"] * 2]
    tasks = [await waiting(hub, feed) for _, feed, _ in phones]

    hub.advance()  # the entry is appended: its pages are made now, before the COMMIT
    hub.prepare()
    assert answers == {"Ann": [1], "Bob": [1]}
    assert all(screen.sent == [] for _, _, screen in phones)
    hub.announce()  # it is durable
    hub.flush()

    assert answers == {"Ann": [1], "Bob": [1]}  # nobody asked again
    assert [screen.sent for _, _, screen in phones] == [[f"{link}'s page at 1".encode()] for link, _, _ in phones]
    await one_turn()
    assert not any(t.done() for t in tasks)
    hub.close()
    await asyncio.gather(*tasks)


@ASYNC
async def test_a_play_ticks_down_between_the_pages_made_and_their_sending_so_they_are_asked_again():
    stamp = [1]
    hub = Broadcast(lambda: stamp[0])
    answers: dict[str, list] = {"Ann": []}
    feed, screen = feed_of(paged(hub, answers)("Ann"), key="Ann")
    task = await waiting(hub, feed)

    hub.advance()
    hub.prepare()
    stamp[0] = 2  # a waiting play's seconds left count from now
    hub.announce()
    hub.flush()

    assert answers == {"Ann": [1, 1]} and screen.sent == [b"Ann's page at 1"]
    hub.close()
    await task


@ASYNC
async def test_ann_pays_bob_and_her_four_phones_page_is_asked_once(table, desk, monkeypatch):
    ann = desk.authorise(desk.tokens.for_player("Ann"))
    asked = []
    live_page = desk.live_page
    monkeypatch.setattr(desk, "live_page", lambda holder: asked.append(holder.player) or live_page(holder))
    phones = [feed_of(lambda: desk.live_page(ann), coalesce=0.0, key=ann.token) for _ in range(4)]
    tasks = [await waiting(desk.hub, feed) for feed, _ in phones]

    table.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 75})
    desk.hub.flush()

    assert asked == ["Ann"]  # before the COMMIT, for all four
    assert [json.loads(screen.sent[0].split(b"data: ")[1])["me"]["cash"] for _, screen in phones] == [1425] * 4
    desk.hub.close()
    await asyncio.gather(*tasks)


def test_the_head_of_every_page_follows_the_version_the_turn_and_the_pot(new_game):
    """Ann pays a luxury tax into Free Parking, then the turn passes: every page's head (the common
    members, kept while they read the same) shows the new version, the pot's new amount and the turn."""
    t = new_game("classic", "Ann", "Bob", "Cy", free_parking=True)
    desk = PhoneDesk(t.banker)
    desk.open()
    try:
        before = every_page(desk)
        t.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 5})
        moved = every_page(desk)
        for player, page in moved.items():
            assert page["version"] == before[player]["version"] + 1 == t.banker.version
            assert page["pots"] == before[player]["pots"] and page["turn"] == before[player]["turn"]
        t.do("tax", player="Ann", tax="luxury")
        taxed = every_page(desk)
        pot = next(p for p in desk.state()["pots"] if p["name"] == "free parking")
        assert pot["amount"] > 0
        assert all(next(p for p in page["pots"] if p["name"] == "free parking") == pot for page in taxed.values())
        t.do("next_turn")
        for page in every_page(desk).values():
            assert page["turn"] == {"player": "Bob", "number": desk.state()["turn"]["number"]}
            assert page["version"] == t.banker.version
    finally:
        desk.close_file()


def test_a_phones_stream_is_sent_the_page_a_phone_asking_gets(table, desk):
    """After each change the state event a stream sends (made in one step with its page) carries the
    very bytes of the page asked on its own, with the version as its id."""
    holders = {p: desk.authorise(desk.tokens.for_player(p)) for p in ("Ann", "Bob", "Cy")}
    for step in (
        lambda: table.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 75}),
        lambda: desk.plays.start("Cy", "salary", {}, "tap-1"),
        lambda: table.do("next_turn"),
    ):
        step()
        for player, holder in holders.items():
            message = desk.live_page(holder)[0]  # the stream asks first: the event is made before the page
            body, version = desk.page(holder)
            assert message == desk.message(holder) == sse_message("state", body, version)
            assert version == table.banker.version and json.loads(body)["me"]["name"] == player


def test_cy_asks_for_his_salary_from_his_phone_and_every_page_made_after_shows_it(table, desk):
    """The plays' part is checked once per change for every page: Cy's play, started after the pages of
    the change before were made, is on his page, and the banker's turning phones off is on everyone's."""
    every_page(desk)
    play, _ = desk.plays.start("Cy", "salary", {}, "tap-1")  # waits for the banker
    pages = every_page(desk)
    assert [p["id"] for p in pages["Cy"]["plays"]["mine"]] == [play.id]
    for player, page in pages.items():
        assert page["plays"] == json.loads(safe_text(desk.plays.page(player)))
    table.do("set_option", option="phone_actions", on=False)
    for player, page in every_page(desk).items():
        assert page["plays"]["why_not"] == desk.plays.why_not(player) is not None


def test_the_banker_turns_phone_requests_off_and_on_and_every_page_says_whether_players_may_ask(table, desk):
    assert all(page["can_request"] for page in every_page(desk).values())
    table.do("set_option", option="phone_requests", on=False)
    assert not any(page["can_request"] for page in every_page(desk).values())
    table.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 5})  # the options stay as they were
    assert not any(page["can_request"] for page in every_page(desk).values())
    table.do("set_option", option="phone_requests", on=True)
    assert all(page["can_request"] for page in every_page(desk).values())
