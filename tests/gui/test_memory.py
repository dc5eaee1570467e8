"""An evening's memory: screens that only show the game as it stands are let go once the banker
leaves them, the table and a flow's screens stay, and freed memory is handed back at a pause."""
import time

import pytest

pytestmark = pytest.mark.gui


def until(condition, seconds: float = 10.0) -> bool:
    """Run the loop until the condition holds (state, not a sleep); False if it never does."""
    from kivy.base import EventLoop

    end = time.monotonic() + seconds
    while not condition() and time.monotonic() < end:
        EventLoop.idle()
        time.sleep(0.01)
    return condition()


@pytest.fixture(scope="module")
def evening(bank):
    from companion.service import Banker

    path = bank.folder / "evening.game"
    Banker.create(path, "classic", ["Ann", "Bob"], {}, backup_every=0).close()
    assert bank.app.open_game(path) is None
    return bank


def test_the_banker_glances_at_the_history_and_the_more_menu_then_both_are_let_go(evening):
    app = evening.app
    app.show("history")
    evening.pump()
    assert "history" in app.screens.made()
    app.show("more")
    app.show("table")
    assert until(lambda: not {"history", "more"} & app.screens.made())
    assert evening.screen == "table"
    assert "table" in app.screens.made()


def test_a_history_shown_again_is_a_fresh_one_with_the_latest_entry(evening):
    app = evening.app
    app.show("history")
    evening.pump()
    first = app.screens["history"]
    app.show("table")
    assert until(lambda: "history" not in app.screens.made())
    app.act({"action": "salary", "player": "Ann"})
    again = app.show("history")
    evening.pump()
    assert again is not first
    assert until(lambda: any("Ann collected $200 salary" in (w.text or "") for w in evening.all()
                             if hasattr(w, "text") and isinstance(w.text, str)))
    app.show("table")


def test_ann_pays_bob_through_the_amount_screen_and_the_flow_screens_stay(evening):
    app = evening.app
    evening.tap("transfer")
    assert evening.screen == "amount"
    amount = app.screens["amount"]
    app.show("table")
    assert until(lambda: "history" not in app.screens.made() and evening.screen == "table")
    assert app.screens["amount"] is amount  # kept: what a flow chose survives a detour


def test_after_a_pause_the_freed_memory_is_handed_back(evening):
    app = evening.app
    before = app.tidied
    app.show("over")
    app.show("table")
    assert until(lambda: app.tidied > before, seconds=30)
    assert "over" not in app.screens.made()
