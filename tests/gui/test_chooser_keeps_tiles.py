"""A chooser's tiles stay under the finger when its answers change around them: the answers that keep
their places keep their tiles, and only the others are made anew (a finger held on a tile while the list
decides whether it is a tap never loses it to a redraw)."""

import pytest

from companion.service import Banker

pytestmark = pytest.mark.gui


def test_ann_with_200_asks_to_see_the_deeds_she_cannot_afford_and_the_ones_on_show_stay(bank, tmp_path):
    path = tmp_path / "short.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], {}, backup_every=0) as b:
        b.do({"action": "transfer", "from": "Ann", "to": "bank", "amount": 1300})
    assert bank.app.open_game(path) is None
    bank.tap("buy")
    bank.until("the Buy chooser", lambda: bank.screen == "ask")
    bank.pump(5)
    ask = bank.current
    grid = ask.ids.choices
    shown = list(reversed(grid.children))
    assert shown and all(not t.refused for t in shown)  # the deeds Ann can pay for
    assert ask.hidden.startswith("Show ")  # the dearer ones behind "Show N more"

    bank.tap("show-all")
    bank.until("every deed on the list", lambda: not ask.hidden and len(ask._rows) > len(shown))
    while not ask.made_all:
        ask.make_shown()
        bank.pump(1)
    now = list(reversed(grid.children))
    assert now[: len(shown)] == shown, "the tiles on show were made anew"
    assert all(t.refused for t in now[len(shown) :])  # the dearer deeds follow, greyed
    bank.tap("cancel")
    bank.until("the table", lambda: bank.screen == "table")
