"""Undo and Redo keep one tap because they say what they take back: on every screen that has them
(the table, History, the scores while the game goes on and once it is over), the button names the
entry the tap would take back, and names the next one as soon as it has taken one back. A tap on an
Undo that named another entry than the one it would take back now (a phone's payment came in under
the finger) asks first, with the sentence; and the button that changed what it names counts as new
for the tap guard."""

from __future__ import annotations

import pytest

from tests.gui.walk import evening_under_way

pytestmark = pytest.mark.gui

#: The screens with an Undo (and those with a Redo), and how each is reached from the table.
SCREENS = {"table": None, "history": "history", "over": "more"}


def _open(bank, screen: str) -> None:
    from tests.gui.walk import to_table

    to_table(bank)
    if screen == "history":
        bank.tap("menu-history")
    elif screen == "over":
        bank.tap("more")
        bank.until("More", lambda: bank.screen == "more")
        bank.tap("go-over")
    bank.until(f"the {screen} screen", lambda: bank.screen == screen)
    bank.pump(3)


def _named(bank, kind: str):
    """The ``kind`` button on show, and the entry the next ``kind`` would take back."""
    desk = bank.app.desk
    button = bank.find(kind)
    return button, desk.taken_back(kind)


def test_every_undo_and_redo_names_the_entry_it_takes_back_and_then_the_next(bank, tmp_path):
    app = bank.app
    assert app.open_game(evening_under_way(tmp_path, "city-life", {}, seed=1001)) is None
    desk = app.desk
    for screen in SCREENS:
        _open(bank, screen)
        for _ in range(2):  # the last entry, then the one before it
            button, (seq, sentence) = _named(bank, "undo")
            assert button.text == f"Undo: {sentence}", f"Undo on {screen} reads {button.text!r}"
            assert button.promise == ("undo", seq, sentence)
            bank.tap(widget=button)
            bank.until("the undo", lambda seq=seq, sentence=sentence: desk.taken_back("redo") == (seq, sentence))
            bank.pump(2)
            assert bank.find("undo").promise != ("undo", seq, sentence), (
                f"Undo on {screen} still names what it took back"
            )
            assert bank.find("undo").text == f"Undo: {desk.taken_back('undo')[1]}"
        if screen != "over":
            for _ in range(2):
                button, (seq, sentence) = _named(bank, "redo")
                assert button.text == f"Redo: {sentence}", f"Redo on {screen} reads {button.text!r}"
                assert button.promise == ("redo", seq, sentence)
                bank.tap(widget=button)
                bank.until("the redo", lambda seq=seq, sentence=sentence: desk.taken_back("undo") == (seq, sentence))
        else:
            for _ in range(2):
                assert desk.redo().ok

    # a game ended by mistake: the scores' Undo names the end, and takes it back
    from tests.gui.walk import play

    assert play(bank, "end_game") == "ended"
    assert desk.table.get("over")
    _open(bank, "over")
    button, (seq, sentence) = _named(bank, "undo")
    assert sentence.startswith("Game over") and button.text == f"Undo: {sentence}"
    bank.tap(widget=button)
    bank.until("the game to go on", lambda: not desk.table.get("over"))


def test_an_undo_that_named_another_entry_asks_first_and_counts_as_new(bank, tmp_path):
    import time

    from companion.ui.widgets import SEEN_SECONDS, Aimed
    from tests.gui.walk import box_open

    app = bank.app
    assert app.open_game(evening_under_way(tmp_path, "classic", {}, seed=5)) is None
    desk = app.desk
    _open(bank, "table")
    button = bank.find("undo")
    before = button.promise
    # a phone's payment comes in; the table has not been drawn again when the finger comes down
    desk.banker.do({"action": "transfer", "from": "bank", "to": "Ann", "amount": 15})
    paid = desk.taken_back("undo")
    assert button.promise == before != ("undo", *paid)
    version = desk.version
    app.undo(button)
    bank.pump(2)
    box = box_open(bank)
    assert box is not None, "an Undo that named another entry took back the payment in one tap"
    assert paid[1] in box.question and desk.version == version
    bank.tap("confirm-yes")
    bank.until("the payment to be taken back", lambda: desk.taken_back("redo") == paid)

    # the button now names another entry: to the tap guard it has just appeared
    bank.pump(3)
    assert button.promise == ("undo", *desk.taken_back("undo"))
    Aimed.seen_seconds = SEEN_SECONDS
    try:
        desk.banker.do({"action": "transfer", "from": "bank", "to": "Bob", "amount": 5})
        bank.pump(3)
        assert button.too_new(time.monotonic()), "an Undo naming a new entry took a tap at once"
    finally:
        Aimed.seen_seconds = 0


def test_the_on_screen_trading_units_undo_asks_first_naming_the_entry(bank, tmp_path):
    """Its UNDO is too small to name a sentence: on the touchscreen a press asks on the unit's line,
    naming what it takes back now, and YES takes it back."""
    import time

    from companion.ui.widgets import SEEN_SECONDS, Aimed

    app = bank.app
    assert app.open_game(evening_under_way(tmp_path, "classic", {}, seed=9)) is None
    desk = app.desk
    _open(bank, "table")
    bank.tap("menu-unit")
    bank.until("the unit", lambda: bank.screen == "unit")
    bank.pump(3)
    unit = bank.current.ids.holder.children[0]
    named = desk.taken_back("undo")
    version = desk.version
    bank.tap(widget=unit.ids.undo_button)
    bank.pump(3)
    assert unit.request == "confirm_undo" and desk.version == version, "UNDO took back an entry it did not name"
    assert unit.request_text == f"Undo: {named[1]}?" and unit.ids.yes_button.promise == ("undo", *named)
    bank.tap(widget=unit.ids.yes_button)
    bank.until("the undo", lambda: desk.taken_back("redo") == named)

    # a phone's entry comes in while the question is up: it names the new entry, and YES is new again
    bank.tap(widget=unit.ids.undo_button)
    bank.pump(3)
    desk.banker.do({"action": "transfer", "from": "bank", "to": "Cy", "amount": 7})
    paid = desk.taken_back("undo")
    bank.app.refresh()
    bank.pump(3)
    assert unit.request_text == f"Undo: {paid[1]}?" and unit.ids.yes_button.promise == ("undo", *paid)
    Aimed.seen_seconds = SEEN_SECONDS
    try:
        assert unit.ids.yes_button.too_new(time.monotonic())
    finally:
        Aimed.seen_seconds = 0
    bank.tap(widget=unit.ids.yes_button)
    bank.until("the payment to be taken back", lambda: desk.taken_back("redo") == paid)
