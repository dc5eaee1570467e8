"""A deed the banker is looking at stays in sight while the Rent chooser makes the rows below it.

Ann, Bob, Cy and Dee play classic; Bob owns six deeds and Cy six, so the Rent chooser offers twelve
answers, each with the other players' chips: it shows the first two rows at once and makes the rest a few a frame.
Each new row grows the list below the fold and moves every answer in the list's own coordinates, the
list scrolling them all back by as much: on the glass nothing the banker sees moves, and the tap guard
must not take the top answer for a new one (a finger resting on it while the list decides whether it
is a scroll was swallowed, and the law's walk failed now and then on exactly that). What moves on
the glass (the window resized) is new to the eye as before.
"""

import math

import pytest

from companion.service import Banker
from companion.ui.widgets import SEEN_SECONDS, Aimed
from tests.gui.hands import start_app, stop_app

pytestmark = pytest.mark.gui

PLAYERS = ["Ann", "Bob", "Cy", "Dee"]
OWNED = [
    "Mediterranean Avenue",
    "Baltic Avenue",
    "Oriental Avenue",
    "Vermont Avenue",
    "Connecticut Avenue",
    "St. Charles Place",
    "States Avenue",
    "Virginia Avenue",
    "St. James Place",
    "Tennessee Avenue",
    "New York Avenue",
    "Kentucky Avenue",
]


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    hands = start_app(tmp_path_factory.mktemp("games"))
    yield hands
    stop_app(hands)


def test_bobs_first_deed_stays_in_sight_while_the_rows_below_it_are_made(bank, monkeypatch):
    from companion.ui.screens.ask import AskScreen

    # the rows below wait until the first are drawn and looked at (the test makes them, as the clock
    # would a frame later): on a busy machine a frame can take longer than the chooser's pause
    monkeypatch.setattr(AskScreen, "FRAME", 3600.0)
    bank.size(800, 480)
    path = bank.folder / "twelve.game"
    with Banker.create(path, "classic", PLAYERS, {}) as banker:
        for n, deed in enumerate(OWNED):
            assert banker.do({"action": "buy", "player": "Bob" if n < 6 else "Cy", "deed": deed}).summary
    assert bank.app.open_game(path) is None
    bank.until("the table", lambda: bank.screen == "table")
    bank.tap("rent")
    Aimed.seen_seconds = SEEN_SECONDS  # the guard as at the table (the harness's taps set it to 0)
    try:
        bank.until("the Rent chooser", lambda: bank.screen == "ask")
        chooser = bank.current
        grid = chooser.ids.choices
        bank.until("the first answers made", lambda: len(grid.children) > 0)
        first = grid.children[-1].tile
        assert first.value == "Mediterranean Avenue"
        bank.until("the first row drawn", lambda: first.appeared_at() < math.inf)
        shown, where = first.appeared_at(), (*first.to_window(*first.pos), *first.size)
        assert len(grid.children) < len(OWNED), "every answer was made at once: nothing was made below"

        chooser._stop_making()
        chooser._make_answers_with_others(0)  # the next rows, below the fold
        bank.until("every answer made", lambda: len(grid.children) == len(OWNED))
        bank.pump(2)  # and drawn

        assert (*first.to_window(*first.pos), *first.size) == where  # on the glass it never moved
        assert first.appeared_at() == shown  # so it has been in sight since the first frame

        bank.size(1024, 600)  # the window grows: the answer moves and grows on the glass, new to the eye
        bank.until("the answer drawn where it is now", lambda: first.appeared_at() < math.inf)
        assert (*first.to_window(*first.pos), *first.size) != where
        assert first.appeared_at() > shown
    finally:
        Aimed.seen_seconds = 0
