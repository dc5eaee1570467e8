"""Which screens live while the banker looks at another (pure: no window)."""

from companion.ui.letting_go import screens_to_let_go


def test_back_at_the_table_after_paying_rent_only_the_table_lives():
    made = {"table", "ask", "amount", "history", "more"}
    assert screens_to_let_go(made, "table") == ["amount", "ask", "history", "more"]


def test_while_ann_picks_the_auction_lot_on_the_chooser_the_auction_stays():
    made = {"table", "auction", "ask", "history"}
    assert screens_to_let_go(made, "ask") == ["history"]


def test_an_auction_still_counting_down_stays_even_at_the_table():
    made = {"table", "auction", "ask"}
    assert screens_to_let_go(made, "table", busy={"auction"}) == ["ask"]


def test_the_screen_shown_and_the_table_are_never_let_go():
    assert screens_to_let_go({"table", "settings"}, "settings") == []
    assert screens_to_let_go({"table"}, "table") == []


def test_leaving_the_games_list_for_a_new_games_form_lets_the_list_go_and_keeps_the_form():
    assert screens_to_let_go({"start", "setup", "table"}, "setup") == ["start"]
    assert screens_to_let_go({"start", "setup", "table"}, "start") == []
