"""Which screens live while the banker looks at another (pure: no window)."""

from companion.ui.letting_go import (
    COLLECT_AFTER_WIDGETS,
    MADE_ONCE,
    screens_done_with,
    screens_to_let_go,
    screens_to_set_back,
    worth_collecting,
)


def test_back_at_the_table_after_paying_rent_the_keypad_chooser_and_menu_are_set_back_the_rest_let_go():
    made = {"table", "ask", "amount", "history", "more"}
    assert screens_done_with(made, "table") == ["amount", "ask", "history", "more"]
    assert screens_to_let_go(made, "table") == ["history"]
    assert screens_to_set_back(made, "table") == ["amount", "ask", "more"]


def test_the_keypad_the_chooser_the_deeds_and_more_are_kept_made_and_nothing_else():
    assert MADE_ONCE == {"amount", "ask", "more"}


def test_the_more_menu_left_for_an_actions_chooser_is_set_back_at_once_not_at_the_table():
    assert screens_to_set_back({"table", "more", "ask"}, "ask") == ["more"]


def test_the_keypad_used_before_the_history_stays_as_it_is_until_the_table_is_back():
    made = {"table", "amount", "history"}
    assert screens_to_set_back(made, "history") == []
    assert screens_to_set_back(made, "table") == ["amount"]


def test_the_deeds_looked_at_are_let_go_at_the_table_not_kept():
    made = {"table", "deeds", "history"}
    assert screens_to_set_back(made, "table") == []
    assert sorted(screens_to_let_go(made, "table")) == ["deeds", "history"]


def test_while_ann_picks_the_auction_lot_on_the_chooser_the_auction_stays():
    made = {"table", "auction", "ask", "history"}
    assert screens_to_let_go(made, "ask") == ["history"]
    assert screens_to_set_back(made, "ask") == []


def test_an_auction_still_counting_down_stays_even_at_the_table():
    made = {"table", "auction", "ask"}
    assert screens_to_let_go(made, "table", busy={"auction"}) == []
    assert screens_to_set_back(made, "table", busy={"auction"}) == ["ask"]


def test_the_screen_shown_and_the_table_are_never_let_go():
    assert screens_to_let_go({"table", "settings"}, "settings") == []
    assert screens_to_let_go({"table"}, "table") == []


def test_leaving_the_games_list_for_a_new_games_form_lets_the_list_go_and_keeps_the_form():
    assert screens_to_let_go({"start", "setup", "table"}, "setup") == ["start"]
    assert screens_to_let_go({"start", "setup", "table"}, "start") == []


def test_another_game_opened_lets_go_of_the_last_games_kept_screens():
    made = {"table", "ask", "amount", "deeds", "more", "history"}
    assert screens_to_let_go(made, "table", kept=frozenset()) == ["amount", "ask", "deeds", "history", "more"]
    assert screens_to_set_back(made, "table", kept=frozenset()) == []


def test_ann_glances_at_more_and_back_at_the_table_and_nothing_is_collected():
    assert not worth_collecting(screens_let_go=0, widgets_let_go=0)  # More set back: nothing let go


def test_a_history_let_go_is_collected_at_once():
    assert worth_collecting(screens_let_go=1, widgets_let_go=0)


def test_one_payments_rows_wait_but_a_screens_worth_of_them_is_collected():
    assert not worth_collecting(0, 14)  # the keypad's two rows of payers and payees
    assert worth_collecting(0, COLLECT_AFTER_WIDGETS)  # a few payments, or a chooser of deeds, later


def test_the_text_box_kivy_kept_is_collected_at_once():
    assert worth_collecting(0, 0, text_box_dropped=True)
