"""No tap is lost: an evening's quick taps made with the real pointer, at a person's pace.

Four friends play classic; the banker taps with the X server's pointer (xdotool under Xvfb), 150 to
600 ms apart, across screen changes (table, keypad, deeds and back) and between different buttons
(Salary right after Undo). Every tap is checked against the ledger: each payment is there once, and
each balance is what the taps say it should be. Nothing waits on a sleep: each tap goes as soon as its
button is drawn and the person's pace allows; the checks wait on the ledger.
"""

from __future__ import annotations

import pytest

from companion.service import Banker
from tests.gui.hands import PointerHands, start_app, stop_app

PLAYERS = ["Ann", "Bob", "Cat", "Dan"]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    Banker.create(folder / "friday.game", "classic", PLAYERS, {}).close()
    hands = start_app(folder, real_pointer=True)
    yield hands
    stop_app(hands)


def one_round(hands: PointerHands) -> tuple[int, int]:
    """The player to play collects salary, the banker undoes it and taps Salary again at once, the
    player pays the bank $50 and collects $25 on the keypad, the banker glances at Baltic Avenue's
    card, then next turn. Returns (taps made, entries expected)."""
    taps = [
        "salary",
        "undo",
        "salary",
        "pay",
        "key-5",
        "key-0",
        "confirm",
        "menu-deeds",
        "deed-Baltic Avenue",
        "back",
        "collect",
        "key-2",
        "key-5",
        "confirm",
        "next_turn",
    ]
    for name in taps:
        hands.tap(name)  # each at a person's pace after the last, jittered

    return len(taps), 6


@pytest.mark.gui
@pytest.mark.slow
def test_two_hundred_quick_taps_all_reach_the_ledger(table):
    hands = table
    desk = hands.app.desk
    start_version = desk.version
    start_cash = {p: desk.table["accounts"][p] for p in PLAYERS}
    expected = dict(start_cash)
    entries = 0
    while hands.taps < 200:
        player = desk.state()["turn"]["player"]
        _, made = one_round(hands)
        entries += made
        expected[player] += 200 - 50 + 25
        hands.until(
            f"entry {start_version + entries} in the ledger",
            lambda entries=entries: desk.version >= start_version + entries,
        )
    assert hands.taps >= 200
    assert desk.version == start_version + entries  # every tap counted once: nothing lost, nothing twice
    assert {p: desk.table["accounts"][p] for p in PLAYERS} == expected
    assert hands.screen == "table"
    assert desk.banker.verify() == []
