"""The minimal window: a new game from the start screen, Ann pays Bob, the balances on the table change.

Real touches through the window on real widgets (Xvfb); the ledger is checked after each step.
"""

import pytest


pytestmark = pytest.mark.gui


def tile(bank, name):
    return next(w for w in bank.all() if type(w).__name__ == "PlayerTile" and w.name == name)


def test_an_empty_games_folder_opens_on_the_start_screen(bank):
    assert bank.screen == "start"
    assert bank.has(text="No saved games yet.")
    bank.shot("start-empty")


def test_the_banker_starts_a_classic_game_for_ann_and_bob(bank):
    bank.tap("new-game")
    assert bank.screen == "setup"
    bank.tap("pack-classic")
    assert [w.text for w in bank.all(name="colour")] == ["Red", "Blue"]
    bank.tap(widget=bank.all(name="colour")[1])  # Bob would rather be green
    assert [w.text for w in bank.all(name="colour")] == ["Red", "Green"]
    names = [w for w in bank.all() if type(w).__name__ == "Entry" or w.__class__.__name__.endswith("TextInput")]
    players = [w for w in names if w.hint_text.startswith("Player")]
    bank.type("Ann", widget=players[0])
    bank.type("Bob", widget=players[1])
    bank.shot("setup")
    bank.tap("start-game")
    assert bank.screen == "table"
    desk = bank.app.desk
    assert desk.table["order"] == ["Ann", "Bob"]
    assert [desk.table["players"][p]["colour"] for p in ("Ann", "Bob")] == ["red", "green"]
    assert desk.table["accounts"]["Ann"] == 1500
    assert tile(bank, "Ann").cash_text == "$1,500"
    assert tile(bank, "Bob").cash_text == "$1,500"
    bank.shot("table-new")


def test_ann_pays_bob_200_and_both_tiles_show_it(bank):
    bank.tap("transfer")
    assert bank.screen == "amount"
    bank.tap("to-Bob")
    bank.keys("200")
    assert bank.find("confirm").text == "Ann paid Bob $200"  # the sentence that goes in the log
    bank.shot("amount-transfer")
    bank.tap("confirm")
    assert bank.screen == "table"
    assert bank.app.desk.table["accounts"]["Ann"] == 1300
    assert bank.app.desk.table["accounts"]["Bob"] == 1700
    assert tile(bank, "Ann").cash_text == "$1,300"
    assert tile(bank, "Bob").cash_text == "$1,700"
    assert bank.find("undo").text == "Undo: Ann paid Bob $200"
    bank.shot("table-after-transfer")


def test_a_payment_ann_cannot_afford_is_refused_where_she_tapped_and_changes_nothing(bank):
    version = bank.app.desk.version
    bank.tap("transfer")
    bank.tap("to-Bob")
    bank.keys("5000")
    bank.tap("confirm")
    assert bank.screen == "amount"
    assert bank.bubble().startswith("Ann has $1,300 but needs $5,000")
    assert bank.app.desk.version == version
    bank.shot("amount-refused")
    bank.tap("cancel")
    assert bank.screen == "table"
    assert tile(bank, "Ann").cash_text == "$1,300"


def test_undo_puts_the_200_back(bank):
    bank.tap("undo")
    assert bank.app.desk.table["accounts"]["Ann"] == 1500
    assert tile(bank, "Ann").cash_text == "$1,500"
    assert tile(bank, "Bob").cash_text == "$1,500"


def test_a_double_tap_on_salary_pays_it_once(bank):
    from kivy.tests.common import UnitTestTouch

    version = bank.app.desk.version
    button = bank.find("salary")
    x, y = button.to_window(*button.center)
    for _ in range(2):  # two quick taps, as a hurried finger does
        finger = UnitTestTouch(x, y)
        finger.touch_down()
        bank.pump(1)
        finger.touch_up()
        bank.pump(1)
    assert bank.app.desk.version == version + 1
    assert bank.app.desk.table["accounts"]["Ann"] == 1700
    bank.tap("undo")


def test_what_another_program_writes_appears_within_a_second(bank):
    """The phones' server or `companion do` in another process: the table follows the game file."""
    from companion.service import Banker

    other = Banker.open(bank.app.desk.path)  # its own connection, like another process
    try:
        other.do({"action": "transfer", "from": "bank", "to": "Bob", "amount": 55, "memo": "from elsewhere"})
    finally:
        other.close()
    bank.wait(1.0)
    assert tile(bank, "Bob").cash_text == "$1,555"
    assert bank.find("undo").text == "Undo: the bank paid Bob $55 (from elsewhere)"


def test_holding_the_undo_button_on_the_box_asks_on_the_table_first(bank):
    """The GPIO undo button held down: the table asks "Undo: ...?" and only Yes undoes."""
    desk, link = bank.app.desk, bank.app.unit_link
    desk.do({"action": "salary", "player": "Ann"})
    version = desk.version
    now = link.clock()
    link.unit.press_undo(now)
    link.unit.advance(now + 1.5)  # held for a second and a half
    assert bank.find("confirm-yes").text == "Undo"
    bank.tap("confirm-no")
    assert desk.version == version
    link.unit.press_undo(now + 2.0)
    link.unit.advance(now + 3.5)
    bank.tap("confirm-yes")
    assert desk.version == version + 1 and desk.table["accounts"]["Ann"] == 1500
