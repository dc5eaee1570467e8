"""An evening's memory: the table lives all evening, and the keypad, the chooser, the deeds and More
once made (set back to as made when done with); every other screen is let go once the banker leaves it (a
flow's screens once the table is back), is made afresh from the game when shown again, and freed
memory is handed back at a pause."""

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


def test_the_banker_glances_at_the_history_and_the_more_menu_then_the_history_is_let_go(evening):
    app = evening.app
    app.show("history")
    evening.pump()
    assert "history" in app.screens.made()
    more = app.show("more")
    app.show("table")
    assert until(lambda: "history" not in app.screens.made() and not more.visited)
    assert app.screens["more"] is more  # kept made, set back
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
    assert until(
        lambda: any(
            "Ann collected $200 salary" in (w.text or "")
            for w in evening.all()
            if hasattr(w, "text") and isinstance(w.text, str)
        )
    )
    app.show("table")


def test_ann_starts_paying_bob_backs_out_to_the_table_and_the_amount_screen_is_set_back(evening):
    app = evening.app
    evening.tap("transfer")
    assert evening.screen == "amount"
    keypad = app.screens["amount"]
    evening.keys("70")
    app.to_table()
    assert until(lambda: keypad.form is None and evening.screen == "table")
    assert "amount" in app.screens.made()  # kept made, its $70 gone
    evening.tap("transfer")  # a clean keypad, for the player to play, taps and all
    assert app.screens["amount"] is keypad
    assert evening.screen == "amount" and keypad.form.values.get("from") == "Ann" and keypad.keypad.value() is None
    evening.tap("to-Bob")
    evening.keys("50")
    evening.tap("confirm")
    assert until(lambda: evening.screen == "table")
    assert app.desk.table["accounts"]["Ann"] == 1500 + 200 - 50


def test_the_auction_asks_its_lot_on_the_chooser_and_stays_until_the_table_is_back(evening):
    app = evening.app
    app.show("auction")
    evening.pump()
    auction = app.screens["auction"]
    evening.tap("lot")
    assert evening.screen == "ask"
    evening.pump()
    assert app.screens.get("auction") is auction  # the lot and the bid survive the hop to the chooser
    evening.tap("choice-Baltic Avenue")
    assert until(lambda: evening.screen == "auction" and auction.lot == "Baltic Avenue")
    app.to_table()
    assert until(lambda: "auction" not in app.screens.made() and app.screens["ask"].form is None)


def test_the_games_list_settings_and_loans_are_let_go_once_left(evening):
    app = evening.app
    for name in ("start", "settings", "loans", "requests", "table"):
        app.show(name)
        evening.pump()
    assert until(lambda: app.screens.made() <= {"table", "amount", "ask", "deeds", "more"})
    assert not {"start", "settings", "loans", "requests"} & app.screens.made()


def test_after_a_pause_the_freed_memory_is_handed_back(evening):
    app = evening.app
    before = app.tidied
    app.show("over")
    app.show("table")
    assert until(lambda: app.tidied > before, seconds=30)
    assert "over" not in app.screens.made()


def test_a_screen_let_go_is_freed_soon_after_not_at_the_next_pause(evening):
    """Its widgets hold each other in cycles: the app collects them a moment after the next screen is
    drawn, so a few screens' garbage never piles up between two pauses."""
    import gc
    import weakref

    app = evening.app
    # Hold the pause off for this walk: on a busy machine a frame can take longer than the wait for a
    # pause, and then the pause's tidy-up, not the quick collection, would be what freed the screen;
    # and the collector's own pace too.
    trigger = app._tidy_trigger
    waited, trigger.timeout = trigger.timeout, 3600.0
    gc.disable()
    try:
        pauses = app.tidied
        history = weakref.ref(app.show("history"))
        evening.pump()
        app.show("table")
        assert until(lambda: history() is None, seconds=60)
        assert app.tidied == pauses  # freed by the quick collection, not by a pause
    finally:
        gc.enable()
        trigger.timeout = waited
        app._tidy_later()


def test_a_history_left_while_its_list_still_moves_is_freed_soon_after_all_the_same(evening):
    """The banker swipes the history and goes straight back while its list still glides and its scroll
    bar is due to fade: Kivy's clock and its running animations hold the list (from a set the collector
    cannot see into) until they end. The screen is freed by the quick collection all the same."""
    import gc

    app = evening.app
    trigger = app._tidy_trigger
    waited, trigger.timeout = trigger.timeout, 3600.0  # no pause's tidy-up: only the quick collection
    gc.disable()  # nor the collector's own pace: only the app's collections count here
    try:
        pauses = app.tidied
        history = _history_swiped(evening)
        app.show("table")
        assert until(lambda: history() is None, seconds=30)
        assert app.tidied == pauses
    finally:
        gc.enable()
        trigger.timeout = waited
        app._tidy_later()


def _history_swiped(evening):
    """The history on show, its list swiped and still moving; a weak reference to it."""
    import weakref

    from kivy.animation import Animation
    from kivy.uix.scrollview import ScrollView

    shown = evening.app.show("history")
    evening.pump()
    rows = next(w for w in shown.walk(restrict=True) if isinstance(w, ScrollView))  # itself, not kv's weak proxy
    rows.scroll_y = 0
    evening.until("the scroll bar to be due to fade", lambda: _fading(rows), 10)
    Animation(scroll_y=1, d=600).start(
        rows
    )  # still gliding (as a list's scroll_to glides), for as long as the test looks
    return weakref.ref(shown)


def _fading(rows) -> bool:
    from kivy.animation import Animation

    due = rows._bind_inactive_bar_color_ev
    return (due is not None and due.is_triggered) or any(rows.uid in a._widgets for a in list(Animation._instances))
