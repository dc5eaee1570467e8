"""The history's rows are made once a visit, and again only when the window's size changes how they
wrap: Ann collected her salary and Bob paid the bank; the banker opens the history, then the window
grows to 1280x800."""

from __future__ import annotations

import pytest

from companion.service import Banker

pytestmark = pytest.mark.gui


def test_the_history_is_made_once_when_shown_and_again_when_the_window_grows(bank, monkeypatch):
    from kivy.core.window import Window

    from companion.ui.screens.history import HistoryScreen

    with Banker.create(bank.folder / "friday.game", "classic", ["Ann", "Bob"], {}) as banker:
        banker.do({"action": "salary", "player": "Ann"})
        banker.do({"action": "transfer", "from": "Bob", "to": "bank", "amount": 50})
    assert bank.app.open_game(bank.folder / "friday.game") is None
    made: list[tuple[int, int]] = []
    original = HistoryScreen.refresh

    def counted(screen: HistoryScreen) -> None:
        made.append(tuple(Window.size))
        original(screen)

    monkeypatch.setattr(HistoryScreen, "refresh", counted)
    bank.app.show("history")
    bank.until("the history laid out", lambda: tuple(bank.current.size) == tuple(Window.size))
    bank.pump(4)
    assert made == [(800, 480)]  # laid out after it was filled: not made a second time
    heights = [row["height"] for row in bank.current.ids.rows.data]
    assert len(heights) >= 2
    try:
        bank.size(1280, 800)
        bank.until("the history laid out again", lambda: tuple(bank.current.size) == (1280, 800))
        bank.pump(2)
        assert made == [(800, 480), (1280, 800)]  # the rows wrap anew at the new size
        assert [row["height"] for row in bank.current.ids.rows.data] != heights
    finally:
        bank.size(800, 480)
        bank.app.show("table")
