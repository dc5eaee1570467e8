"""Monopoly City: when the build spinner stops, the chooser shows what the spin allows at once.

The app lets the trading unit's time pass on its own pace, so the spin's stop can reach the ledger,
and the ledger's redraw reach the chooser, before the spinner's strip looks again. That redraw used to
show the districts as the ledger then allowed them with the form from before the spin (no count, no
cost): made live for a frame, then made again from the spin a frame later, under a finger already on
its way to one (the law's walk once pressed a district that was made again before its list handed the
touch on). The unit's time is the test's here: it stops the spinner when the test says.
"""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from companion.rules import pack_names
from companion.service import Banker

pytestmark = [
    pytest.mark.gui,
    pytest.mark.skipif("monopoly-city" not in pack_names(), reason="Monopoly City is not installed"),
]


def ann_owns_mill_lane(bank, tmp_path, **unit_settings):
    """A Monopoly City game open on the screen where Ann owns Mill Lane, the unit's time in the test's
    hand: the spinner turns for half a minute of the unit's time (a busy machine takes seconds to show
    the chooser), and ``later[0] += 60`` is a minute gone for the unit (the spinner long stopped).
    ``unit_settings``: the trading unit's settings the test sets otherwise (its spin's length, its
    weights)."""
    with Banker.create(tmp_path / "city.game", "monopoly-city", ["Ann", "Bob", "Cy"], {}) as b:
        b.do({"action": "buy", "player": "Ann", "deed": "Mill Lane"})
    app = bank.app
    assert app.open_game(tmp_path / "city.game") is None
    bank.pump(3)
    later = [0.0]
    app.unit_link.clock = lambda: time.monotonic() + later[0]
    app.unit_link.unit.settings = replace(app.unit_link.unit.settings, **{"spin_seconds": 30.0, **unit_settings})
    return app, app.desk, later


def test_the_redraw_after_the_spin_shows_what_it_allows_not_the_districts_before_it(bank, tmp_path):
    from companion.ui.city_build import start_build

    app, desk, later = ann_owns_mill_lane(bank, tmp_path)
    start_build(app)
    ask = app.screens["ask"]
    strip = ask.ids.spinner
    bank.until("the chooser with the spinner turning", lambda: bank.screen == "ask" and strip.spinning)
    assert "count" not in ask.form.values  # nothing spun yet: how many blocks is the spin's to say

    later[0] += 60  # the spinner has stopped ...
    app.poll()  # ... and the app's own pace of the unit records it: the spin is on the ledger
    assert desk.table["turn"].get("spin", {}).get("player") == "Ann"
    app._refresh_now()  # the redraw the new entry asks for, before the strip's next look

    assert strip.state == "stopped"
    spin = desk.table["turn"]["spin"]
    if spin["result"] == "railroad":
        assert ask.form.values.get("building") == "railroad"
    else:
        assert ask.form.values.get("count") == spin["result"]  # every block the spin allows, shown
    made = {id(t) for t in ask.ids.choices.children}
    tile = next(t for t in ask.ids.choices.children if t.value == "Mill Lane")
    assert not tile.refused and tile.promise  # the district says what the build moves, before any tap
    bank.pump(5)  # the strip's next frames
    assert {id(t) for t in ask.ids.choices.children} == made, "the districts were made again after the stop"
    bank.tap("cancel")
    bank.until("the table", lambda: bank.screen == "table")


def test_ann_taps_mill_lane_as_the_spinner_stops_and_is_asked_with_the_sentence_not_lost(bank, tmp_path):
    """The banker's finger comes down on Mill Lane while the spinner turns, and the spinner stops while
    the list still holds the touch (it hands a still finger on to the tile a moment later). The tile
    stays the one under the finger, and since what the spin allows was not on it when the finger went
    down, the build asks first with its sentence: the tap is neither lost nor a silent build."""
    from kivy.tests.common import UnitTestTouch

    from companion.ui.city_build import start_build
    from companion.ui.widgets import FINGER_CLOCK, SEEN_SECONDS, Aimed, ConfirmBox

    app, desk, later = ann_owns_mill_lane(bank, tmp_path)
    # it stops on one block, which costs money (a railroad would cost nothing, and be built at once)
    app.unit_link.unit.settings = replace(app.unit_link.unit.settings, spinner_weights=(1.0, 0.0, 0.0, 0.0))
    start_build(app)
    ask = app.screens["ask"]
    strip, scroll = ask.ids.spinner, ask.ids.scroll
    bank.until(
        "Mill Lane on the chooser while the spinner turns",
        lambda: bank.screen == "ask" and bank.has("choice-Mill Lane"),
    )
    tile = bank.find("choice-Mill Lane")
    Aimed.seen_seconds = SEEN_SECONDS  # the tap guard as at the table
    bank.until("Mill Lane in sight a moment", lambda: not tile.too_new(FINGER_CLOCK.counts_from()))
    assert strip.spinning
    version = desk.version

    finger = UnitTestTouch(*tile.to_window(*tile.center))
    finger.touch_down()
    assert scroll._touch is finger  # the list holds a still finger a moment before handing it on
    later[0] += 60  # the spinner stops under the finger ...
    app.poll()
    app._refresh_now()  # ... and the chooser shows what the spin allows
    assert strip.state == "stopped" and desk.version == version + 1  # the spin, on the ledger
    bank.until("the list to hand the finger on", lambda: scroll._touch is not finger)
    assert tile.get_root_window() is not None and tile in ask.ids.choices.children, "the tile was made anew"
    finger.touch_up()
    bank.pump(3)

    boxes = [c for c in app.root_window.children if isinstance(c, ConfirmBox)]
    assert boxes, f"the tap was lost (said: {bank.bubble()!r})"
    assert desk.table["turn"]["spin"]["result"] == 1
    assert "Mill Lane" in boxes[0].question and desk.version == version + 1  # asked, nothing built yet
    bank.tap("confirm-yes")
    bank.until("the build on the ledger", lambda: desk.version == version + 2)
    last = desk.banker.log()[-1].action
    assert last["action"] == "build" and last["deed"] == "Mill Lane"
    assert desk.banker.verify() == []
