"""A page made from its changed parts reads the same as the page made whole.

After every action the phones' server builds each page from the public state without the deeds'
cards, the worth the chronicle already counted, and the story and chart as JSON text the chronicle
wrote once. Whatever the banker taps in any game (undo, redo, payment requests, a reopened server),
every player's page and the banker's equal the page built whole from the full state, as before.
"""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core.errors import BankerError
from companion.rules import pack_names
from companion.service import Banker
from companion.views import public_state, state_json
from companion.web.desk import PhoneDesk
from companion.web.requests import requests_allowed
from companion.web.roleview import DEFAULT_PUBLIC, banker_view, player_view
from tests.random_actions import GENERATORS, players_for, variants

VARIANTS = [(pack, options) for pack, options in variants() if pack in pack_names()]
PACKS = sorted({pack for pack, _ in VARIANTS})
_games = iter(range(10**9))


def whole_page(desk: PhoneDesk, holder) -> dict:
    """The page as it was built before: the full state (every card), worth counted again, every
    part encoded together."""
    banker, chronicle = desk.banker, desk.chronicle
    currency = banker.currency
    state = state_json(banker.table, banker.rules, banker.version)
    if holder.role == "banker":
        page = banker_view(
            state,
            log=chronicle.log_lines(),
            pending=[r.as_json(currency) for r in desk.requests.pending()],
            answered=[r.as_json(currency) for r in desk.requests.recent(8)],
            deed_fields=banker.rules.extras.get("deed_fields"),
            undo_text=f"Undo: {banker.next_undo().summary}" if banker.can_undo else None,
        )
        page["plays"] = desk.plays.banker_page()
    else:
        page = player_view(
            state,
            holder.player,
            worth=chronicle.worth_of(holder.player),
            story=chronicle.story_of(holder.player),
            requests=[r.as_json(currency) for r in desk.requests.of_player(holder.player, 6)],
            can_request=requests_allowed(banker.table),
            public=banker.rules.extras.get("phone_public", DEFAULT_PUBLIC),
            deed_fields=banker.rules.extras.get("deed_fields"),
        )
        page["plays"] = desk.plays.page(holder.player)
    return json.loads(json.dumps(page))


def every_page_reads_whole(desk: PhoneDesk, holders) -> None:
    for holder in holders:
        assert json.loads(desk.page(holder)[0]) == whole_page(desk, holder), holder.player or "banker"


@pytest.mark.slow  # a long seeded game per family, every page compared
@pytest.mark.parametrize("pack", PACKS)
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(1, 40))
def test_every_page_made_from_its_parts_equals_the_page_made_whole(pack, seed, steps, tmp_path):
    rnd = random.Random(seed)
    options = dict(rnd.choice([o for p, o in VARIANTS if p == pack]))
    banker = Banker.create(tmp_path / f"g{next(_games)}.game", pack, players_for(pack), options, backup_every=0)
    desk = PhoneDesk(banker)
    try:
        desk.open()
        holders = [desk.authorise(desk.tokens.for_player(p)) for p in banker.table["order"]]
        holders.append(desk.authorise(desk.tokens.for_banker()))
        every_page_reads_whole(desk, holders)
        for step in range(steps):
            roll = rnd.random()
            try:
                if roll < 0.1 and banker.can_undo:
                    banker.undo()
                elif roll < 0.15 and banker.can_redo:
                    banker.redo()
                elif roll < 0.25 and requests_allowed(banker.table):
                    asker, payee = rnd.sample(banker.table["order"], 2)
                    made = desk.requests.ask(asker, payee, rnd.randint(1, 50), f"step {step}", None)
                    if rnd.random() < 0.5:
                        desk.requests.approve(made.id)
                else:
                    banker.do(GENERATORS[pack](banker.table, rnd))
            except BankerError:
                pass  # refused: nothing changed, the pages must still read the same
            every_page_reads_whole(desk, [h for h in holders if desk.expired(h) is None])
    finally:
        desk.close_file()
        banker.close()


def test_the_phones_state_leaves_out_the_cards_and_unowned_deeds(table):
    """Ann buys two streets: the phones' state carries those two deeds (group, kind, marks), the
    full state all twenty-eight deeds' cards; the players read the same in both."""
    table.do("buy", player="Ann", deed="Boardwalk")
    table.do("buy", player="Ann", deed="Park Place")
    banker = table.banker
    whole = state_json(banker.table, banker.rules, banker.version)
    light = public_state(banker.table, banker.rules, banker.version)
    assert [d["name"] for d in light["deeds"]] == ["Park Place", "Boardwalk"]
    assert light["deeds"][1] == {
        "name": "Boardwalk",
        "group": "dark blue",
        "kind": "street",
        "owner": "Ann",
        **{k: v for k, v in banker.table["deeds"]["Boardwalk"].items() if k != "owner"},
        "marks": [],
    }
    assert len(whole["deeds"]) == 28 and "rent" in next(d for d in whole["deeds"] if d["name"] == "Boardwalk")
    assert light["players"] == whole["players"] and {k: v for k, v in light.items() if k != "deeds"} == {
        k: v for k, v in whole.items() if k != "deeds"
    }


def test_the_phones_and_the_touchscreen_count_each_players_worth_once_per_entry(table, monkeypatch):
    """Ann pays Bob $75 for a ticket while the phones and the touchscreen both watch: the chronicle, the
    phones' state and the touchscreen's whole state share one count of each player's worth."""
    banker = table.banker
    desk = PhoneDesk(banker)
    banker.subscribe(lambda outcome: desk.chronicle.see(outcome.entry))
    counts = []
    family_worth = banker.rules.worth
    monkeypatch.setattr(banker.rules, "worth", lambda t, name: counts.append(name) or family_worth(t, name))
    try:
        table.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 75})
        phones = desk.state()
        whole = state_json(banker.table, banker.rules, banker.version)
        assert sorted(counts) == ["Ann", "Bob", "Cy"]
        assert {p["name"]: p["net_worth"] for p in phones["players"]} == {"Ann": 1425, "Bob": 1575, "Cy": 1500}
        assert whole["players"] == phones["players"]
        assert desk.chronicle.worth_now() == {"Ann": 1425, "Bob": 1575, "Cy": 1500}
    finally:
        desk.close_file()


def test_a_table_nobody_counted_is_counted_by_the_state(table):
    """No chronicle watches: the state counts the worth itself, each player's own."""
    banker = table.banker
    table.do("transfer", **{"from": "bank", "to": "Cy", "amount": 200})
    light = public_state(banker.table, banker.rules, banker.version)
    assert [p["net_worth"] for p in light["players"]] == [1500, 1500, 1700]
