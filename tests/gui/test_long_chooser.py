"""A long chooser makes its tiles as the list comes near them: Ann lands in City Life, whose board
has about a hundred squares. The screen shows the first rows at once and makes the rest as the banker
scrolls; the list holds its whole height from the start, so nothing on show moves when tiles are made
below it, and every money tile made says its sum."""

import pytest

from companion.service import Banker

pytestmark = pytest.mark.gui


def land_chooser(bank, tmp_path):
    path = tmp_path / "city.game"
    Banker.create(path, "city-life", ["Ann", "Bob"], {"advanced": True}, backup_every=0).close()
    assert bank.app.open_game(path) is None
    bank.tap("more")
    bank.tap("action-land")
    bank.until("the Land chooser", lambda: bank.screen == "ask" and bank.current.field == "square")
    bank.pump(5)
    return bank.current


def made(ask) -> dict:
    return {t.value: t for t in ask.ids.choices.children}


def test_ann_lands_and_only_the_first_squares_are_made_until_the_banker_scrolls(bank, tmp_path):
    ask = land_chooser(bank, tmp_path)
    answers = len(ask._rows)
    assert answers >= 90  # the board's squares
    first = made(ask)
    assert 0 < len(first) < answers // 2 and not ask.made_all
    scroll, grid = ask.ids.scroll, ask.ids.choices
    rows = -(-answers // grid.cols)
    tile = next(iter(first.values()))
    assert grid.height >= rows * tile.height  # the scroll bar tells the whole list's length
    places = {value: tuple(t.pos) for value, t in first.items()}

    scroll.scroll_y = 0.5  # the banker swipes half-way down
    bank.pump(3)
    halfway = made(ask)
    assert len(first) < len(halfway) < answers
    scroll.scroll_y = 0
    bank.pump(3)
    assert len(made(ask)) == answers and ask.made_all
    assert {value: tuple(t.pos) for value, t in made(ask).items() if value in places} == places  # none moved
    heights = {t.height for t in made(ask).values()}
    assert len(heights) == 1  # rows stay even


def test_every_money_tile_made_says_its_sum_and_a_far_square_is_tapped_after_a_swipe(bank, tmp_path):
    ask = land_chooser(bank, tmp_path)
    desk = bank.app.desk
    ask.ids.scroll.scroll_y = 0
    bank.pump(3)
    for row, tile in zip(ask._rows, reversed(ask.ids.choices.children)):
        assert tile.value == row["value"] and tile.detail == str(row.get("detail") or "")
        promise = row.get("promise")
        if promise:  # the tile that completes a money action shows its sentence's sums
            assert tile.promise == promise
    ask.ids.scroll.scroll_y = 1
    bank.pump(3)
    version = desk.version
    far = ask._rows[-1]["value"]
    bank.tap(f"choice-{far}")  # found further down, as the banker swipes to it
    bank.until("an answer to the far square", lambda: desk.version != version or bank.screen != "ask" or bank.bubble())
