"""Monopoly City: a district tapped while the build spinner turns shows as chosen until it stops.

The build is asked (with its sentence) the moment the spinner stops, so the tap made while it turns
does nothing else at once. When nothing on the screen said so, the banker (and the law's walk over
every action, tests/gui/test_law.py) took the tap for lost and tapped the district again; a finger
that the list still held when the spinner stopped then met the box the stop had opened (or the table,
for a railroad) and was swallowed by the tap guard: the walk failed with "choice-Brick Row did not take
it: the tap guard saw it come into sight 0.2 s after the finger".

Ann, Bob and Cy play with the X server's pointer (xdotool under Xvfb). The trading unit's time is the
test's: the spinner turns until the test stops it. Nothing waits on a sleep.
"""

from __future__ import annotations

import pytest

from companion.rules import pack_names
from tests.gui.hands import start_app, stop_app
from tests.gui.test_city_spin_stops import ann_owns_mill_lane
from tests.gui.walk import box_open, named

pytestmark = [
    pytest.mark.gui,
    pytest.mark.skipif("monopoly-city" not in pack_names(), reason="Monopoly City is not installed"),
]

#: The spinner turns this long on the unit's clock: for the whole test, until the test moves that clock on.
TURNS = 3600.0


@pytest.fixture(scope="module")
def hands(tmp_path_factory):
    hands = start_app(tmp_path_factory.mktemp("games"), real_pointer=True)
    yield hands
    stop_app(hands)


def ann_builds(hands, tmp_path):
    """A Monopoly City game where Ann owns Mill Lane, Build tapped: the chooser with the spinner turning.
    Returns the desk, the chooser and ``stop()``, which stops the spinner (on one block, which costs money)."""
    app, desk, later = ann_owns_mill_lane(hands, tmp_path, spinner_weights=(1.0, 0.0, 0.0, 0.0), spin_seconds=TURNS)
    hands.tap("build")
    ask = app.screens["ask"]
    hands.until("the chooser with the spinner turning", lambda: hands.screen == "ask" and ask.ids.spinner.spinning)

    def stop() -> None:
        later[0] += 2 * TURNS

    return desk, ask, stop


def test_ann_taps_mill_lane_while_the_spinner_turns_and_sees_it_chosen_until_the_build_asks(hands, tmp_path):
    desk, ask, stop = ann_builds(hands, tmp_path)
    version = desk.version

    tile = hands.tap("choice-Mill Lane")  # answered: the chooser took the tap
    assert ask.ids.spinner.spinning and desk.version == version  # nothing recorded before the stop
    assert tile.selected, "the tap was taken but nothing on the screen says so: the banker taps again"
    assert [w.name for w in named(hands, "choice-") if w.selected] == ["choice-Mill Lane"]

    stop()
    hands.until("the build to ask, with its sentence", lambda: box_open(hands) is not None)
    box = box_open(hands)
    assert "Mill Lane" in box.question and desk.version == version + 1  # the spin on the ledger, no build yet
    assert not tile.selected  # asked now: no longer waiting for the spinner
    hands.tap("confirm-yes")
    hands.until("Ann's build on the ledger", lambda: desk.version == version + 2)
    last = desk.banker.log()[-1].action
    assert last["action"] == "build" and last["deed"] == "Mill Lane"
    assert desk.table["deeds"]["Mill Lane"].get("residential") == 1
    assert hands.screen == "table" and desk.banker.verify() == []


def test_a_second_finger_on_mill_lane_held_over_the_spinners_stop_builds_nothing_more(hands, tmp_path):
    """The race the law's walk met: the district is chosen, the banker's finger comes down on it again
    and rests; the list holds a still finger a moment before handing it on, and the spinner stops
    meanwhile. The build is asked once; the held finger, handed on after the box came, does nothing."""
    from companion.ui.widgets import FINGER_CLOCK

    desk, ask, stop = ann_builds(hands, tmp_path)
    version = desk.version
    tile = hands.tap("choice-Mill Lane")
    assert tile.selected

    scroll = ask.ids.scroll
    pointer = hands.pointer
    # the finger that rests is a person's second tap, not a double tap's second finger (which counts
    # from the loop's last look for fingers before it)
    hands.until(
        "the double-tap window of the first tap to close",
        lambda: not tile.is_second_tap(FINGER_CLOCK.counts_from()),
        5,
    )
    x, y = tile.to_window(*tile.center)
    pointer._run(*pointer.over(x, y), "mousedown", "1")
    try:
        hands.until("the list to hold the finger", lambda: scroll._touch is not None, 10)
        stop()  # ... the spinner stops under the finger
        hands.until("the build to ask, with its sentence", lambda: box_open(hands) is not None)
        hands.until("the list to hand the finger on", lambda: scroll._touch is None, 10)
    finally:
        pointer._run("mouseup", "1")
    hands._still()

    box = box_open(hands)
    assert box is not None and "Mill Lane" in box.question and not box.answered
    assert desk.version == version + 1  # the spin only: nothing built, nothing asked twice
    assert sum(1 for c in hands.app.root_window.children if c is box or type(c) is type(box)) == 1
    hands.tap("confirm-yes")
    hands.until("Ann's build on the ledger", lambda: desk.version == version + 2)
    hands.until("the box to close", lambda: box_open(hands) is None, 5)
    hands._still()
    assert desk.version == version + 2 and box_open(hands) is None and hands.screen == "table"
    assert desk.table["deeds"]["Mill Lane"].get("residential") == 1
    assert desk.banker.verify() == []
