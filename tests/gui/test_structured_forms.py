"""Side bets, speculation and quiz answers put together with tiles, never typed: each round is played
through the touchscreen with a finger, and the ledger entry it leaves is checked.

Each game is set up as it stands at the table (a game file with its players, and the money they have
earned so far), then opened on the app; every step of the round itself is a tap.
"""

import pytest

from companion.core.model import current_player
from companion.service import Banker

pytestmark = pytest.mark.gui

PEOPLE = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}, {"name": "Cy", "colour": "green"}]


def open_table(bank, tmp_path, pack, options=None, earned=None, to_play="Ann"):
    """A game of ``pack`` at the table with ``to_play`` to play; ``earned``: money the bank has paid out so far."""
    path = tmp_path / f"{pack}.game"
    banker = Banker.create(path, pack, PEOPLE, options or {}, backup_every=0)
    for player, amount in (earned or {}).items():
        banker.do({"action": "transfer", "from": "bank", "to": player, "amount": amount, "memo": "earned so far"})
    while current_player(banker.table) != to_play:
        banker.do({"action": "next_turn"})
    banker.close()
    assert bank.app.open_game(path) is None
    assert bank.screen == "table"
    return bank.app.desk


def from_more(bank, action):
    bank.app.show("table")
    bank.tap("more")
    bank.tap(f"action-{action}")


def resize(bank, size):
    """The window at another size, waiting until the screen is drawn at it."""
    from kivy.core.window import Window

    bank.size(*size)
    for _ in range(100):
        if tuple(Window.size) == tuple(size) and tuple(bank.current.size) == tuple(size):
            break
        bank.pump(1)
    bank.find("confirm")  # laid out again: a tap finds it where it is drawn
    bank.pump(6)


def last_entry(desk):
    return desk.banker.log()[-1]


def test_ann_spins_7_and_bobs_20000_on_7_wins_ten_times_his_stake(bank, tmp_path):
    desk = open_table(bank, tmp_path, "game-of-life", earned={"Bob": 20000, "Cy": 5000})
    bob, cy = desk.table["accounts"]["Bob"], desk.table["accounts"]["Cy"]
    from_more(bank, "spin")
    assert bank.screen == "ask"
    bank.tap("choice-7")  # Ann spun 7
    assert bank.screen == "form"
    assert not bank.has("form-0-player-Ann")  # the spinner cannot bet
    bank.tap("form-add-Bob")  # Bob bets $20,000 on 7
    bank.tap("form-0-number-7")
    bank.tap("form-0-amount-20000")
    bank.tap("form-add-Cy")  # Cy bets $5,000 on 3
    bank.tap("form-1-number-3")
    bank.tap("form-1-amount-5000")
    bank.shot("form-spin-bets")
    confirm = bank.find("confirm")
    assert confirm.text == "Ann spun 7; bets: Bob won $200,000, Cy lost $5,000"
    bank.tap("confirm")
    assert bank.screen == "table", bank.bubble()
    entry = last_entry(desk)
    assert entry.action["bets"] == [
        {"player": "Bob", "number": 7, "amount": 20000},
        {"player": "Cy", "number": 3, "amount": 5000},
    ]
    assert desk.table["accounts"]["Bob"] == bob - 20000 + 200000
    assert desk.table["accounts"]["Cy"] == cy - 5000


def test_a_bet_half_made_says_what_is_missing_and_a_removed_bet_is_gone(bank, tmp_path):
    desk = open_table(bank, tmp_path, "game-of-life", earned={"Bob": 20000})
    from_more(bank, "spin")
    bank.tap("choice-4")
    bank.tap("form-add-Bob")
    assert bank.find("confirm").text == "Bet 1: choose the number"
    version = desk.version
    bank.tap("confirm")
    assert bank.bubble() and desk.version == version  # nothing done: the reason is on show
    bank.tap("form-0-remove")
    assert not bank.has("form-0-player-Bob")
    # no bets and nobody's Lucky Number: nothing rides on the spin, and the button says so
    assert bank.find("confirm").text.startswith("Nothing rides on Ann's spin of 4")
    bank.tap("cancel")
    assert bank.screen == "table" and desk.version == version


def test_ann_has_a_lucky_day_and_speculates_on_3_and_8_then_spins_8(bank, tmp_path):
    desk = open_table(bank, tmp_path, "game-of-life")
    ann = desk.table["accounts"]["Ann"]
    from_more(bank, "lucky_day")
    assert bank.screen == "form"
    assert bank.find("confirm").text == "Keep the money: Ann collected $10,000 on a Lucky Day and kept it"
    bank.tap("form-3")
    bank.tap("form-8")
    assert bank.app.screens["form"].value == [3, 8]
    bank.shot("form-speculate")
    assert bank.find("confirm").text == "Next"
    bank.tap("confirm")
    assert bank.screen == "ask"  # the spin, each number with what it means
    bank.tap("choice-8")
    assert bank.screen == "table", bank.bubble()
    entry = last_entry(desk)
    assert entry.action["speculate"] == [3, 8] and entry.action["spin"] == 8
    assert desk.table["accounts"]["Ann"] == ann + 150000


def test_bob_has_a_lucky_day_and_keeps_the_money(bank, tmp_path):
    desk = open_table(bank, tmp_path, "game-of-life", to_play="Bob")
    bob = desk.table["accounts"]["Bob"]
    from_more(bank, "lucky_day")
    bank.tap("player-Bob")  # Bob landed on a Lucky Day in his turn
    bank.tap("confirm")
    assert bank.screen == "table", bank.bubble()
    assert "speculate" not in last_entry(desk).action
    assert desk.table["accounts"]["Bob"] == bob + 10000


def test_a_quiz_card_round_pays_ann_for_two_answers_and_bob_for_one(bank, tmp_path):
    desk = open_table(bank, tmp_path, "city-life", options={"advanced": True})
    before = dict(desk.table["accounts"])
    judge = "Cy"  # the player before Ann in the rotation judges, and cannot answer
    from_more(bank, "quiz")
    assert bank.screen == "form"
    assert not bank.has(f"form-{judge}-1")
    assert not bank.has("form-Ann-4")  # a Quiz Card has three questions
    bank.tap("form-Ann-2")
    bank.tap("form-Bob-1")
    bank.shot("form-quiz")
    assert bank.find("confirm").text == "Quiz Card round for Ann's roll of 3: Ann $600, Bob $300"
    bank.tap("confirm")
    assert bank.screen == "table", bank.bubble()
    assert last_entry(desk).action["answers"] == {"Ann": 2, "Bob": 1}
    assert desk.table["accounts"]["Ann"] == before["Ann"] + 600
    assert desk.table["accounts"]["Bob"] == before["Bob"] + 300


def test_a_quiz_after_a_spin_shows_no_strip_of_who_acts_left_from_the_spin(bank, tmp_path):
    open_table(bank, tmp_path, "game-of-life", earned={"Bob": 20000})
    from_more(bank, "spin")
    bank.tap("choice-5")
    assert bank.screen == "form" and bank.current.ids.who.children  # Ann spins: the strip says so
    bank.tap("cancel")
    open_table(bank, tmp_path, "city-life", options={"advanced": True})
    from_more(bank, "quiz")
    assert bank.screen == "form"
    assert not bank.current.ids.who.children  # the round is Ann's roll: nobody to pick


def test_a_trade_is_put_together_on_its_own_two_columns_never_typed(bank, tmp_path):
    open_table(bank, tmp_path, "classic")
    from_more(bank, "trade")
    assert bank.screen == "trade"


def gardener(desk):
    return next((k, c) for k, c in desk.pack["characters"].items() if c["title"] == "Gardener")


def test_the_banker_corrects_the_gardeners_salary_and_leaves_night_and_detour_as_printed(bank, tmp_path):
    desk = open_table(bank, tmp_path, "greenopoly")
    key, card = gardener(desk)
    from_more(bank, "correct_character")
    bank.tap(f"choice-{key}")
    assert bank.screen == "form" and not bank.has("type-it")
    # the form reads the Gardener's card as it stands: €200K, affected by Night and by Detour
    assert bank.find("form-salary-figure").text == "€200K"
    assert bank.find("form-night-True").selected and not bank.find("form-night-False").selected
    assert bank.find("form-detour-True").selected
    assert bank.find("form-title").text == "Gardener"
    assert bank.find("confirm").text == "Nothing to change: every value reads as printed"
    bank.tap("form-salary-50000")  # the card in the box reads €250K
    assert bank.find("form-salary-figure").text == "€250K"
    assert bank.find("form-salary-row").changed and not bank.find("form-night-row").changed
    bank.tap("form-night-True")  # Night's printed Yes tapped again stays Yes
    assert bank.find("form-night-True").selected
    bank.shot("form-character")
    assert bank.find("confirm").text == "The banker corrected Gardener: salary = €250K"
    bank.tap("confirm")
    assert bank.screen == "table", bank.bubble()
    entry = last_entry(desk)
    assert entry.action["values"] == {"salary": 250000}
    assert entry.summary == "The banker corrected Gardener: salary = €250K"
    now = desk.pack["characters"][key]
    assert (now["salary"], now["night"], now["detour"]) == (250000, card["night"], card["detour"])


def test_the_banker_types_the_cyclists_salary_as_printed_on_the_packs_keypad(bank, tmp_path):
    desk = open_table(bank, tmp_path, "greenopoly")
    from_more(bank, "correct_character")
    bank.tap("choice-Cyclist")
    assert bank.find("form-salary-figure").text == "€250K"
    bank.tap("form-salary-figure")  # the pack's keypad, with K and M
    assert bank.find("figure-typed").text == "€250K"
    bank.keys("175K")
    assert bank.find("figure-typed").text == "€175K"
    bank.shot("form-character-keypad")
    bank.tap("figure-set")
    bank.until("the keypad to close", lambda: not bank.has("figure-set"))
    assert bank.find("form-salary-figure").text == "€175K" and bank.find("form-salary-row").changed
    assert bank.find("confirm").text == "The banker corrected Cyclist: salary = €175K"
    bank.tap("form-salary-figure")  # and a keypad put away changes nothing
    bank.keys("9")
    bank.tap("figure-cancel")
    bank.until("the keypad to close", lambda: not bank.has("figure-cancel"))
    assert bank.find("form-salary-figure").text == "€175K"
    bank.tap("confirm")
    assert bank.screen == "table", bank.bubble()
    assert last_entry(desk).action["values"] == {"salary": 175000}
    assert desk.pack["characters"]["Cyclist"]["salary"] == 175000


def test_the_banker_switches_the_gardeners_night_off_and_back_and_nothing_is_changed(bank, tmp_path):
    desk = open_table(bank, tmp_path, "greenopoly")
    key, card = gardener(desk)
    from_more(bank, "correct_character")
    bank.tap(f"choice-{key}")
    bank.tap("form-night-False")
    assert bank.find("form-night-row").changed
    assert bank.find("confirm").text == "The banker corrected Gardener: night = no"
    bank.tap("form-night-True")  # no: the card in the box does show the moon
    assert not bank.find("form-night-row").changed
    version = desk.version
    bank.tap("confirm")
    assert bank.bubble() == "Nothing to change: every value reads as printed"
    assert desk.version == version and desk.pack["characters"][key] == card
    bank.tap("cancel")
    assert bank.screen == "table" and desk.version == version


def test_the_banker_finds_boardwalk_printed_at_400_and_corrects_its_price_to_450(bank, tmp_path):
    desk = open_table(bank, tmp_path, "classic")
    from_more(bank, "correct_card")
    bank.tap("choice-Boardwalk")
    assert bank.screen == "card"
    assert bank.find("card-field-price").text == "400"  # as the correction declares the card now
    assert bank.find("card-field-rent").text == "50, 200, 600, 1400, 1700, 2000"
    bank.type("450", widget=bank.find("card-field-price"))
    bank.tap("save-card")
    entry = last_entry(desk)
    assert entry.action["values"] == {"price": 450}, bank.bubble()
    assert desk.pack["cards"]["Boardwalk"]["price"] == 450
    assert bank.find("card-field-price").text == "450"  # the editor reads the card as it is now


def test_the_banker_reads_corner_park_at_100k_and_types_its_price_as_the_notes_read_120k(bank, tmp_path):
    desk = open_table(bank, tmp_path, "greenopoly")
    from_more(bank, "correct_card")
    bank.tap("choice-Corner Park")
    assert bank.find("card-field-price").text == "100K"
    assert bank.find("card-field-rent").text == "6K, 30K, 90K, 270K, 400K"
    bank.type("120K", widget=bank.find("card-field-price"))
    bank.shot("card-greenopoly")
    bank.tap("save-card")
    assert last_entry(desk).action["values"] == {"price": 120000}, bank.bubble()
    assert last_entry(desk).summary == "The banker corrected Corner Park: price = €120K"


def test_every_tile_of_the_bets_form_takes_a_finger_at_800x480_and_reads_well_larger(bank, tmp_path):
    from companion.ui.widgets import Tap

    desk = open_table(bank, tmp_path, "game-of-life", earned={"Bob": 20000})
    from_more(bank, "spin")
    bank.tap("choice-5")
    bank.tap("form-add-Bob")
    from kivy.uix.label import Label

    taps = [w for w in bank.all() if isinstance(w, Tap)]
    assert taps and all(w.height >= 48 and w.width >= 48 for w in taps), [
        (w.name, w.size) for w in taps if w.height < 48 or w.width < 48
    ]
    small = [w.text for w in bank.all() if isinstance(w, Label) and w.text and w.font_size < 17.5]
    assert not small, small  # read at arm's length
    for size in ((1024, 600), (1280, 800)):
        resize(bank, size)
        bank.shot("form-spin-bets")
    resize(bank, (800, 480))
    bank.tap("cancel")
    assert desk.banker.log()[-1].action["action"] == "transfer"  # nothing was done


def test_a_card_value_no_tile_can_answer_is_written_out_only_after_type_it(bank, tmp_path):
    from companion.ui import flows

    desk = open_table(bank, tmp_path, "classic")
    form = flows.ActionForm("correct_card", {"deed": "Boardwalk"}, id=flows.new_id())
    bank.app.screens["form"].ask(form, "values")  # what any structured field without tiles gets
    bank.app.show("form")
    assert not bank.has("form-typed")  # no text box until the banker asks for one
    bank.tap("type-it")
    bank.type('{"price": 450}', widget=bank.find("form-typed"))
    bank.shot("form-type-it")
    assert bank.find("confirm").text == "The banker corrected Boardwalk: price = $450"
    bank.tap("confirm")
    assert bank.screen == "table", bank.bubble()
    assert desk.pack["cards"]["Boardwalk"]["price"] == 450


def test_ann_lands_on_school_15_answers_all_three_and_goes_on_to_school_57_and_the_museum(bank, tmp_path):
    desk = open_table(bank, tmp_path, "city-life", options={"advanced": True})
    ann = desk.table["accounts"]["Ann"]
    from_more(bank, "land")
    bank.tap("choice-15")
    assert bank.screen == "form"  # the Quiz Card round of the School, by player
    bank.tap("form-Ann-3")
    assert bank.find("confirm").text.startswith("Ann landed on square 15 (School): quiz: Ann $900")
    bank.tap("confirm")
    assert bank.screen == "table", bank.bubble()
    assert last_entry(desk).action["answers"] == {"Ann": 3}
    assert desk.table["accounts"]["Ann"] == ann + 900
    # the School sends her on to School 57, a landing of its own: answered on the same form again
    assert last_entry(desk).summary.endswith("to square 57 (School): land there next")
    from_more(bank, "land")
    bank.tap("choice-57")
    bank.tap("form-Ann-3")
    bank.tap("confirm")
    assert bank.screen == "table", bank.bubble()
    assert last_entry(desk).summary.endswith("to square 68 (Museum): land there next")
    # and the Museum's choice is a tile of its own
    from_more(bank, "land")
    bank.tap("choice-68")
    bank.tap("choice-collect")
    assert bank.screen == "table", bank.bubble()
    assert desk.table["accounts"]["Ann"] == ann + 900 + 900 + 1500 - 300  # less the Capital Gains Tax
