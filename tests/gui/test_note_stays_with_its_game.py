"""The note of money moved belongs to the game it moved in: opening another game takes it away, and
one still on its way to the screen never lands on the other game's screens (the card editor)."""

import pytest

from companion.service import Banker
from tests.gui.hands import start_app, stop_app

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    hands = start_app(tmp_path_factory.mktemp("games"))
    yield hands
    stop_app(hands)


def notes(bank) -> list[str]:
    from companion.ui.widgets import DoneNote

    return [w.text for w in bank.app.layer.children if isinstance(w, DoneNote)]


def two_games(bank, week: int):
    for name in ("monday", "tuesday"):
        Banker.create(bank.folder / f"{name}-{week}.game", "classic", ["Ann", "Bob"], {}, backup_every=0).close()
    assert bank.app.open_game(bank.folder / f"monday-{week}.game") is None
    bank.until("Monday's table", lambda: bank.screen == "table")


def correct_a_card_in_tuesdays_game(bank, week: int):
    assert bank.app.open_game(bank.folder / f"tuesday-{week}.game") is None
    bank.app.screens["card"].deed = "Boardwalk"
    bank.app.show("card")
    bank.until("Tuesday's card editor", lambda: bank.screen == "card")
    bank.pump(3)


def test_ann_passes_go_on_monday_and_tuesdays_card_editor_shows_no_note(bank):
    two_games(bank, 1)
    bank.tap("salary")
    bank.until("the note of Ann's salary", lambda: notes(bank) == ["Ann collected $200 salary"])
    correct_a_card_in_tuesdays_game(bank, 1)
    assert notes(bank) == []


def test_a_note_still_on_its_way_when_the_game_changes_never_lands(bank):
    two_games(bank, 2)
    assert bank.app.act({"action": "salary", "player": "Ann"})  # its note is drawn on the next frame
    correct_a_card_in_tuesdays_game(bank, 2)
    assert notes(bank) == []
