"""Monopoly City: the banker builds in two taps from the table, Build then the district, and sees the
trading unit's spinner turn in between.

Ann, Bob and Cy play; the banker taps with the real pointer (xdotool under Xvfb). The spinner's face
is the unit's own random one, so each check reads where it stopped from the ledger and expects what
the rules give for it: that many residential blocks (or fewer when chosen), or a free railroad.
Nothing waits on a sleep: the checks wait on the ledger and on the screen's state.
"""

from __future__ import annotations

import pytest

from companion.rules import pack_names
from companion.service import Banker
from tests.gui.hands import start_app, stop_app

pytestmark = [
    pytest.mark.gui,
    pytest.mark.skipif("monopoly-city" not in pack_names(), reason="Monopoly City is not installed"),
]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    with Banker.create(folder / "city.game", "monopoly-city", ["Ann", "Bob", "Cy"], {}) as b:
        b.do({"action": "buy", "player": "Ann", "deed": "Mill Lane"})
        b.do({"action": "buy", "player": "Bob", "deed": "Canal Side"})
    hands = start_app(folder, real_pointer=True)
    yield hands
    stop_app(hands)


def spin_on_ledger(desk, player):
    spin = desk.table["turn"].get("spin")
    return spin if spin and spin["player"] == player and spin["turn"] == desk.table["turn"]["number"] else None


def blocks_on(desk, deed, kind="residential"):
    return desk.table["deeds"][deed].get(kind, 0)


def cost_of(desk, deed, kind="residential"):
    return desk.table["pack"]["cards"][deed][f"{kind}_cost"]


def test_ann_builds_on_mill_lane_in_two_taps_while_the_spinner_turns(table):
    hands = table
    desk = hands.app.desk
    assert desk.state()["turn"]["player"] == "Ann" and spin_on_ledger(desk, "Ann") is None
    cash, version = desk.table["accounts"]["Ann"], desk.version
    hands.tap("build")
    strip = hands.app.screens["ask"].ids.spinner
    hands.until("the spinner to turn on the chooser", lambda: hands.screen == "ask" and strip.state)
    if strip.spinning:
        hands.shot("city-build-spinning")
    hands.tap("choice-Mill Lane", after=0.15)  # tapped while the spinner may still turn: built when it stops
    # what the spin allows was not on the tile when it was tapped during the spin: the law of the screen
    # asks, the moment the spinner stops, with the build's sentence; tapped after the stop, it builds at once
    hands.until(
        "Ann's spin on the ledger, then her build or the question",
        lambda: desk.version >= version + 2 or (desk.version == version + 1 and hands.has("confirm-yes")),
    )
    if desk.version == version + 1:
        hands.tap("confirm-yes")
        hands.until("Ann's build on the ledger", lambda: desk.version >= version + 2)
    spin = spin_on_ledger(desk, "Ann")
    last = desk.banker.log()[-1].action
    assert last["action"] == "build" and last["deed"] == "Mill Lane"
    if spin["result"] == "railroad":
        assert desk.table["deeds"]["Mill Lane"].get("railroad") and desk.table["accounts"]["Ann"] == cash
    else:
        blocks = spin["result"]
        assert blocks_on(desk, "Mill Lane") == blocks  # all the spin allowed, residential
        assert desk.table["accounts"]["Ann"] == cash - blocks * cost_of(desk, "Mill Lane")
    assert desk.version == version + 2 and hands.screen == "table"
    assert desk.banker.verify() == []


def test_a_second_build_in_the_turn_draws_on_what_is_left_and_never_spins_again(table):
    hands = table
    desk = hands.app.desk
    spun = dict(spin_on_ledger(desk, "Ann"))
    version = desk.version
    hands.tap("build")
    hands.until("the chooser", lambda: hands.screen == "ask")
    assert not hands.app.screens["ask"].ids.spinner.spinning  # the spinner turns once a turn
    hands.tap("choice-Mill Lane")
    hands.until("the answer to the second build", lambda: desk.version > version or hands.bubble())
    assert desk.version == version  # the spin is used up: refused, with the rule's reason, nothing changed
    assert "left" in (hands.bubble() or "") or "already built" in (hands.bubble() or "")
    assert spin_on_ledger(desk, "Ann")["used"] == spun["used"]
    hands.tap("cancel")
    hands.until("the table", lambda: hands.screen == "table")


def test_bob_watches_the_spinner_stop_then_builds_industrial_on_hightown_square(table):
    hands = table
    desk = hands.app.desk
    hands.tap("next_turn")
    hands.until("Bob to play", lambda: desk.state()["turn"]["player"] == "Bob")
    cash, version = desk.table["accounts"]["Bob"], desk.version
    hands.tap("build")
    strip = hands.app.screens["ask"].ids.spinner
    hands.until("the chooser", lambda: hands.screen == "ask" and hands.has("choice-Canal Side"))
    hands._still()
    tile = hands.find("choice-Canal Side")
    while_it_turns = tuple(tile.to_window(*tile.pos)) if strip.spinning else None
    hands.until(
        "the spinner to stop and Bob's spin on the ledger",
        lambda: spin_on_ledger(desk, "Bob") is not None and strip.state == "stopped",
    )
    hands.shot("city-build-spun")
    if while_it_turns is not None:  # a finger on its way to a district while it turned still finds it there
        hands._still()
        tile = hands.find("choice-Canal Side")
        assert tuple(tile.to_window(*tile.pos)) == while_it_turns, "the districts moved when the spinner stopped"
    spin = spin_on_ledger(desk, "Bob")
    if spin["result"] == "railroad":
        hands.tap("choice-Canal Side")
        hands.until("Bob's railroad", lambda: desk.version == version + 2)
        assert desk.table["deeds"]["Canal Side"].get("railroad")
        return
    hands.tap("building-industrial")
    hands.until("industrial chosen", lambda: hands.app.screens["ask"].form.values["building"] == "industrial")
    assert "pays" in hands.app.screens["ask"].ids.choices.children[0].detail  # the cost, before the tap
    hands.tap("choice-Canal Side")
    hands.until("Bob's industrial blocks", lambda: desk.version == version + 2)
    blocks = spin["result"]
    assert blocks_on(desk, "Canal Side", "industrial") == blocks
    assert desk.table["accounts"]["Bob"] == cash - blocks * cost_of(desk, "Canal Side", "industrial")
    assert hands.screen == "table" and desk.banker.verify() == []


def test_an_undone_spin_comes_back_as_the_unit_stopped_it_the_spinner_turns_once_a_turn(table):
    hands = table
    desk = hands.app.desk
    hands.tap("next_turn")
    hands.until("Cy to play", lambda: desk.state()["turn"]["player"] == "Cy")
    hands.tap("build")
    strip = hands.app.screens["ask"].ids.spinner
    hands.until("Cy's spin on the ledger", lambda: spin_on_ledger(desk, "Cy") is not None and strip.state == "stopped")
    face = spin_on_ledger(desk, "Cy")["result"]
    hands.tap("cancel")
    hands.tap("undo")
    hands.until("the spin undone", lambda: spin_on_ledger(desk, "Cy") is None)
    hands.tap("build")
    hands.until("Cy's spin back", lambda: spin_on_ledger(desk, "Cy") is not None)
    assert spin_on_ledger(desk, "Cy")["result"] == face  # the unit's spin stands: no second chance at a better face
    strip = hands.app.screens["ask"].ids.spinner  # a fresh chooser: the first was let go with the table
    assert not strip.spinning
    hands.tap("cancel")
    hands.until("the table", lambda: hands.screen == "table")


def test_ann_spins_a_one_and_the_districts_stay_where_her_finger_is_heading(table):
    """A spin of 1 leaves no number of blocks to choose: that row goes when the spinner stops, but its
    room stays, so a district the banker is about to tap while it turns is still there when it stops."""
    from dataclasses import replace

    hands = table
    desk = hands.app.desk
    unit = hands.app.unit_link.unit
    was = unit.settings
    unit.settings = replace(was, spinner_weights=(1.0, 0.0, 0.0, 0.0), spin_seconds=3.0)
    try:
        hands.tap("next_turn")
        hands.until("Ann to play", lambda: desk.state()["turn"]["player"] == "Ann")
        hands.tap("build")
        strip = hands.app.screens["ask"].ids.spinner
        hands.until("the chooser", lambda: hands.screen == "ask" and hands.has("choice-Mill Lane"))
        hands._still()
        tile = hands.find("choice-Mill Lane")
        while_it_turns = tuple(tile.to_window(*tile.pos))
        assert strip.spinning
        hands.until("the spinner to stop on 1", lambda: strip.state == "stopped")
        assert spin_on_ledger(desk, "Ann")["result"] == 1
        hands._still()
        tile = hands.find("choice-Mill Lane")
        assert tuple(tile.to_window(*tile.pos)) == while_it_turns, "the districts moved when the spinner stopped"
        hands.tap("cancel")
        hands.until("the table", lambda: hands.screen == "table")
    finally:
        unit.settings = was
