"""Correcting a card to match the box: each correction declares what the card reads now, so every
screen starts from it. A Greenopoly character correction changes only what differs from the card, and
one that changes nothing is refused and leaves the game as it was."""

import pytest

from companion.core.errors import Refused
from tests.table import AtTheTable

K = 1_000


@pytest.fixture
def t(tmp_path):
    table = AtTheTable.new(tmp_path, "greenopoly", "Ann", "Bob", "Cy")
    yield table
    table.banker.close()


def values_field(t):
    return next(s for s in t.banker.actions() if s.name == "correct_character").field("values")


def test_the_correction_form_learns_from_the_declaration_what_the_gardener_reads_now(t):
    values = values_field(t)
    assert values.current_value(t.table, {"character": "Gardener"}) == {
        "salary": 200 * K,
        "night": True,
        "detour": True,
        "stand_in": True,
        "title": "Gardener",
    }
    assert values.current_value(t.table, {}) is None  # no card chosen yet: nothing to show
    assert values.current_value(t.table, {"character": "Nobody"}) is None
    t.do("correct_character", character="Gardener", values={"salary": "250K"})
    assert values.current_value(t.table, {"character": "gardener"})["salary"] == 250 * K


def test_the_banker_sends_the_printed_values_back_and_only_the_salary_goes_in_the_log(t):
    entry = t.do(
        "correct_character",
        character="Gardener",
        values={"salary": "250K", "night": True, "detour": True, "title": "Gardener"},
    )
    assert entry.summary == "The banker corrected Gardener: salary = €250K"
    card = t.table["pack"]["characters"]["Gardener"]
    assert (card["salary"], card["night"], card["detour"]) == (250 * K, True, True)


def test_a_correction_that_changes_nothing_is_refused_and_the_game_is_unchanged(t):
    reason = t.refused("correct_character", character="Park Ranger", values={"salary": "150K", "night": False})
    assert reason == "nothing to change: Park Ranger's card already reads so"
    with pytest.raises(Refused):
        t.do("correct_character", character="Student", values={"title": "  Student "})


def test_boardwalks_card_as_printed_is_declared_and_follows_a_correction(tmp_path):
    t = AtTheTable.new(tmp_path, "classic", "Ann", "Bob", name="classic.game")
    try:
        values = next(s for s in t.banker.actions() if s.name == "correct_card").field("values")
        card = values.current_value(t.table, {"deed": "boardwalk"})
        assert (card["price"], card["mortgage"], card["rent"][0]) == (400, 200, 50)
        t.do("correct_card", deed="Boardwalk", values={"price": 450})
        assert values.current_value(t.table, {"deed": "Boardwalk"})["price"] == 450
        assert values.current_value(t.table, {"deed": "Nowhere Street"}) is None
    finally:
        t.banker.close()
