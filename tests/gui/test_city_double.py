"""Monopoly City: a double means another roll in the same turn, and the build spinner turns again.

Ann owns Mill Lane and Canal Side. She builds (the spinner turns once), rolls a double, lands and builds again: the
trading unit follows the ledger's turn and roll, so its spinner turns a second time, and the blocks
of the second spin are built too. The banker taps with the real pointer (xdotool under Xvfb) at a
person's pace; each check waits on the ledger or the screen, never on a sleep. The spinner's face is
the unit's own random one: each check reads where it stopped from the ledger.
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
    with Banker.create(folder / "double.game", "monopoly-city", ["Ann", "Bob"], {}) as b:
        b.do({"action": "buy", "player": "Ann", "deed": "Mill Lane"})
        b.do({"action": "buy", "player": "Ann", "deed": "Canal Side"})
    hands = start_app(folder, real_pointer=True)
    yield hands
    stop_app(hands)


def spin_of_roll(desk, roll):
    """Ann's spin of this roll of her turn on the ledger (None before the spinner stops)."""
    spin = desk.table["turn"].get("spin")
    if not spin or spin["player"] != "Ann" or spin["turn"] != desk.table["turn"]["number"]:
        return None
    return spin if spin.get("roll", 1) == roll else None


def build(hands, desk, roll):
    """Build, then a district once the spinner has stopped (Mill Lane, unless the spin gave a railroad
    and Mill Lane has one already): the spin and the build go on the ledger."""
    version = desk.version
    hands.tap("build")
    strip = hands.app.screens["ask"].ids.spinner
    hands.until("the spinner on the chooser", lambda: hands.screen == "ask" and strip.state)
    hands.until(
        f"the spin of roll {roll} on the ledger",
        lambda: spin_of_roll(desk, roll) is not None and strip.state == "stopped",
    )
    spin = spin_of_roll(desk, roll)
    railroad = spin["result"] == "railroad"
    deed = "Canal Side" if railroad and desk.table["deeds"]["Mill Lane"].get("railroad") else "Mill Lane"
    cash, blocks = desk.table["accounts"]["Ann"], desk.table["deeds"][deed].get("residential", 0)
    hands.tap(f"choice-{deed}")
    hands.until(f"Ann's build on {deed} on the ledger", lambda: desk.version >= version + 2 or hands.bubble())
    last = desk.banker.log()[-1].action
    assert last["action"] == "build" and last["deed"] == deed, hands.bubble()
    if railroad:
        assert desk.table["deeds"][deed].get("railroad") and desk.table["accounts"]["Ann"] == cash
    else:
        cost = desk.table["pack"]["cards"][deed]["residential_cost"]
        added = desk.table["deeds"][deed].get("residential", 0) - blocks
        assert added == spin["result"]  # all the spin allowed, residential
        assert desk.table["accounts"]["Ann"] == cash - added * cost
    hands.until("the table", lambda: hands.screen == "table")
    return spin


def test_ann_builds_rolls_a_double_and_the_spinner_turns_again_for_her_second_roll(table):
    hands = table
    desk = hands.app.desk
    unit = hands.app.unit_link.unit
    assert desk.state()["turn"]["player"] == "Ann"

    build(hands, desk, roll=1)
    assert len(unit.spins) == 1

    # Ann rolled a double: the banker says so from More (Ann is the player to play)
    version = desk.version
    hands.tap("more")
    hands.until("the More menu", lambda: hands.screen == "more")
    hands.tap("action-double")
    hands.until("Ann's double on the ledger", lambda: desk.version > version or hands.bubble())
    last = desk.banker.log()[-1].action
    assert (last["action"], last["player"]) == ("double", "Ann"), hands.bubble()
    assert desk.table["turn"].get("roll") == 2
    hands.until("the table", lambda: hands.screen == "table")
    hands.until("the unit on Ann's second roll", lambda: unit.roll == 2)

    build(hands, desk, roll=2)
    assert len(unit.spins) == 2  # the spinner turned again: a new roll, a new spin
    assert [e.action["action"] for e in desk.banker.log()[-3:]] == ["double", "spin", "build"]
    assert desk.banker.verify() == []


def test_without_another_double_the_spinner_stays_still_until_bob_plays(table):
    hands = table
    desk = hands.app.desk
    unit = hands.app.unit_link.unit
    spins, version = len(unit.spins), desk.version
    hands.tap("build")
    hands.until("the chooser", lambda: hands.screen == "ask")
    assert not hands.app.screens["ask"].ids.spinner.spinning  # this roll's spin is used
    hands.tap("cancel")
    hands.until("the table", lambda: hands.screen == "table")
    assert len(unit.spins) == spins and desk.version == version
    hands.tap("next_turn")
    hands.until("Bob to play", lambda: desk.state()["turn"]["player"] == "Bob")
    hands.until("the unit on Bob's turn", lambda: unit.turn == desk.table["turn"]["number"] and unit.roll == 1)
