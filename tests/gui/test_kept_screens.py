"""The screens a banker comes back to most (More, the keypad, the chooser) are made once and set
back when done with: the next visit shows nothing of the last one (no amount, no payer, no open deed,
no scroll, nothing typed), follows the game as it stands (an entry undone behind it, the game ended),
is let go with its game when another opens, and its buttons count as new under the finger when it
shows again."""

from __future__ import annotations

import time

import pytest

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def evening(bank):
    from companion.service import Banker

    with Banker.create(bank.folder / "kept.game", "classic", ["Ann", "Bob"], {}, backup_every=0) as b:
        for deed in ("Mediterranean Avenue", "Baltic Avenue", "Oriental Avenue", "Vermont Avenue", "Boardwalk"):
            b.do({"action": "buy", "player": "Bob", "deed": deed})
    Banker.create(bank.folder / "green.game", "greenopoly", ["Cy", "Dee"], {}, backup_every=0).close()
    assert bank.app.open_game(bank.folder / "kept.game") is None
    return bank


def set_back(bank, name: str):
    """Back at the table, once the app has set the screen back (the frame after the table shows)."""
    screen = bank.app.screens[name]
    bank.app.to_table()
    bank.until(f"the {name} screen to be set back", lambda: not screen.visited)
    return screen


def let_go(bank, name: str) -> None:
    """Back at the table, once the app has let the screen go (one not kept between visits)."""
    bank.app.to_table()
    bank.until(f"the {name} screen to be let go", lambda: name not in bank.app.screens.made())


def test_ann_pays_bob_50_then_the_next_transfer_opens_the_same_keypad_with_nothing_typed(evening):
    app = evening.app
    evening.tap("transfer")
    keypad = app.screens["amount"]
    keys = list(keypad.ids.keygrid.children)
    evening.tap("to-Bob")
    evening.keys("50")
    assert keypad.figure == "$50"
    evening.tap("confirm")
    evening.until("the table", lambda: evening.screen == "table")
    set_back(evening, "amount")
    assert (keypad.form, keypad.figure, keypad.sentence, keypad.promise) == (None, "", "", None)

    evening.tap("transfer")
    assert app.screens["amount"] is keypad and evening.screen == "amount"
    assert list(keypad.ids.keygrid.children) == keys  # the very keys: made once
    assert keypad.form.values.get("from") == "Ann" and "to" not in keypad.form.values  # Bob is not picked
    assert keypad.keypad.value() is None and not keypad.ready
    assert not [t for t in evening.all() if getattr(t, "name", "") == "to-Bob" and t.selected]
    set_back(evening, "amount")


def test_bobs_deeds_scrolled_to_boardwalk_then_the_deeds_again_show_everyones_from_the_top(evening):
    app = evening.app
    evening.size(800, 480)
    app.look_at("Bob")
    evening.pump()
    deeds = app.screens["deeds"]
    evening.tap("deed-Boardwalk")
    deeds.ids.board_scroll.scroll_y = 0
    evening.pump()
    assert deeds.whose == "Bob" and deeds.deed == "Boardwalk" and deeds.card.get("name") == "Boardwalk"
    let_go(evening, "deeds")

    evening.tap("menu-deeds")
    deeds = app.screens["deeds"]  # made anew: the deeds are not kept between visits
    assert evening.screen == "deeds" and deeds.whose == "" and deeds.ids.board_scroll.scroll_y == 1
    assert [t.value for t in deeds.ids.players.children if t.selected] == [""]  # "All", not Bob
    app.to_table()


def test_ann_scrolls_the_buy_chooser_cancels_and_the_next_question_starts_at_the_top_with_its_own_answers(evening):
    app = evening.app
    evening.tap("buy")
    chooser = app.screens["ask"]
    assert evening.screen == "ask"
    chooser.ids.scroll.scroll_y = 0
    evening.pump()
    evening.tap("cancel")
    set_back(evening, "ask")
    assert chooser.form is None and not chooser.ids.choices.children and chooser.title == ""

    app.press("tax")  # which tax Ann pays: no deeds among the answers
    evening.pump()
    assert app.screens["ask"] is chooser and evening.screen == "ask"
    assert chooser.ids.scroll.scroll_y == 1
    names = {getattr(t, "name", "") for t in chooser.ids.choices.children}
    assert names and not any("Avenue" in n or "Boardwalk" in n for n in names)
    set_back(evening, "ask")


def test_bob_mortgages_boardwalk_between_two_looks_at_his_deeds_and_an_undo_lifts_it_again(evening):
    app = evening.app

    def boardwalk_card() -> dict:
        app.look_at("Bob")
        evening.pump()
        evening.tap("deed-Boardwalk")
        card = dict(app.screens["deeds"].card)
        let_go(evening, "deeds")
        return card

    assert not boardwalk_card().get("mortgaged")
    assert app.act({"action": "mortgage", "player": "Bob", "deed": "Boardwalk"}).ok
    assert boardwalk_card().get("mortgaged")
    app.undo()
    assert not boardwalk_card().get("mortgaged")


def test_another_game_opened_the_last_games_keypad_is_let_go_and_the_new_one_shows_its_players_and_money(evening):
    import weakref

    app = evening.app
    evening.tap("transfer")
    keypad = weakref.ref(app.screens["amount"])
    classic_keys = sorted(t.text for t in app.screens["amount"].ids.quick.children)
    set_back(evening, "amount")
    try:
        assert app.open_game(evening.folder / "green.game") is None
        evening.until("the last game's keypad let go", lambda: "amount" not in app.screens.made())
        evening.tap("transfer")
        assert app.screens["amount"] is not keypad()
        sides = {getattr(t, "name", "") for t in evening.all() if getattr(t, "account", "")}
        assert {"to-Dee"} <= sides and not {"to-Bob", "to-Ann"} & sides
        assert app.screens["amount"].figure.startswith("€")
        assert sorted(t.text for t in app.screens["amount"].ids.quick.children) != classic_keys
        set_back(evening, "amount")
    finally:
        assert app.open_game(evening.folder / "kept.game") is None


def test_the_kept_keypad_shown_again_swallows_a_tap_the_moment_it_shows_and_takes_one_a_moment_later(evening):
    """The second finger of a double tap on the table's Transfer lands on the keypad's 5 where the
    screen change put it: swallowed, as on a screen made new; a tap once it has been in sight counts."""
    from kivy.tests.common import UnitTestTouch

    from companion.ui.widgets import SEEN_SECONDS, Aimed, Tap

    app = evening.app
    evening.tap("transfer")
    set_back(evening, "amount")
    app.press("transfer")
    keypad = app.screens["amount"]
    five = next(t for t in evening.all() if getattr(t, "name", "") == "key-5")

    def finger() -> None:
        Tap.forget_last()
        touch = UnitTestTouch(*five.to_window(*five.center))
        touch.touch_down()
        evening.pump(1)
        touch.touch_up()
        evening.pump(2)

    Aimed.seen_seconds = SEEN_SECONDS
    try:
        finger()
        assert keypad.keypad.value() is None  # swallowed: the keypad had just come into sight
        shown = five.appeared_at()
        evening.until("the keypad to be in sight a moment", lambda: time.monotonic() - shown > SEEN_SECONDS + 0.05)
        finger()
        assert keypad.keypad.value() == 5
    finally:
        Aimed.seen_seconds = 0
    set_back(evening, "amount")


def test_a_game_ended_between_two_looks_at_the_deeds_shows_the_ended_games_cards(evening):
    from companion.service import Banker
    from companion.ui.deeds_view import deed_card

    app = evening.app
    with Banker.create(evening.folder / "ending.game", "classic", ["Ann", "Bob"], {}, backup_every=0) as b:
        b.do({"action": "buy", "player": "Bob", "deed": "Boardwalk"})
    try:
        assert app.open_game(evening.folder / "ending.game") is None
        app.look_at("Bob")
        evening.pump()
        evening.tap("deed-Boardwalk")
        live = dict(app.screens["deeds"].card)
        let_go(evening, "deeds")
        assert app.act({"action": "end_game"}).ok
        evening.until("the game's end", lambda: evening.screen == "over")
        app.look_at("Bob")
        evening.pump()
        evening.tap("deed-Boardwalk")
        ended = dict(app.screens["deeds"].card)
        assert ended == deed_card(app.desk, "Boardwalk", app.player_to_play())
        assert ended != live
        let_go(evening, "deeds")
    finally:
        assert app.open_game(evening.folder / "kept.game") is None


def test_more_scrolled_down_then_shown_again_starts_at_the_top_and_says_what_each_action_moves_now(evening):
    app = evening.app
    more = app.show("more")
    evening.pump()
    buttons = [w for w in more.ids.actions.walk(restrict=True) if str(getattr(w, "name", "")).startswith("action-")]
    more.ids.scroll.scroll_y = 0
    evening.pump()
    set_back(evening, "more")
    assert app.act({"action": "salary", "player": "Ann"}).ok  # behind it: Undo now names the salary
    assert app.show("more") is more
    evening.pump()
    assert more.ids.scroll.scroll_y == 1
    again = [w for w in more.ids.actions.walk(restrict=True) if str(getattr(w, "name", "")).startswith("action-")]
    assert again == buttons  # the very buttons: made once
    assert "Ann collected $200 salary" in more.undo_text
    set_back(evening, "more")


def test_more_shown_and_left_lets_nothing_go_and_runs_no_collection(evening, monkeypatch):
    """A collection walks everything made since the heap last settled, however little is garbage:
    More set back lets nothing go, so it runs none (it ran one on every visit)."""
    import companion.ui.bank_app as bank_app

    app = evening.app
    evening.until("any collection still due to have run", lambda: not app._collect_trigger.is_triggered)
    collections: list[int] = []
    monkeypatch.setattr(bank_app, "collect_young", lambda: collections.append(1) or 0)
    app.show("more")
    evening.pump()
    set_back(evening, "more")
    assert (app._screens_let_go, app._widgets_let_go) == (0, 0)
    assert not app._collect_trigger.is_triggered and collections == []


def test_bob_looks_from_boardwalk_to_baltic_and_the_card_keeps_its_rows_with_baltics_lines(evening):
    app = evening.app
    app.look_at("Bob")
    evening.pump()
    deeds = app.screens["deeds"]
    evening.tap("deed-Boardwalk")
    rows = list(reversed(deeds.ids.lines.children))
    mortgage = evening.find("do-mortgage")
    evening.tap("deed-Baltic Avenue")
    assert deeds.card["name"] == "Baltic Avenue"
    again = list(reversed(deeds.ids.lines.children))
    assert again[: len(rows)] == rows[: len(again)]  # the very rows, saying Baltic's lines
    assert [(row.label, row.text) for row in again] == [tuple(line) for line in deeds.card["lines"]]
    assert evening.find("do-mortgage") is not mortgage  # another deed's buttons are made anew
    let_go(evening, "deeds")


def test_ann_looks_from_bobs_deeds_to_everyones_and_the_tiles_put_back_count_as_new(evening):
    """The board's tiles made for Bob's deeds are put back for everyone's: each says its deed now and
    counts as a tile just put there for the tap guard."""
    app = evening.app
    app.look_at("Bob")
    evening.pump()
    deeds = app.screens["deeds"]
    bobs = list(reversed(deeds.ids.board.children))
    before = time.monotonic()
    evening.tap("whose-all")
    evening.pump()
    tiles = list(reversed(deeds.ids.board.children))
    assert tiles[: len(bobs)] == bobs and len(tiles) > len(bobs)
    assert [t.name for t in tiles] == [f"deed-{t.text}" for t in tiles] == [f"deed-{t.value}" for t in tiles]
    assert "deed-Mediterranean Avenue" in [t.name for t in tiles] and "deed-Park Place" in [t.name for t in tiles]
    assert all(t._put_at >= before for t in tiles)
    let_go(evening, "deeds")
