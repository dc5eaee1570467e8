"""The banker's screen, tapped with the real pointer where it matters: what each screen shows is whole,
in its place, and for the game on the table.

Classic at the table (Ann, Bob and Cy; Ann's Boardwalk mortgaged): the setup screen shows every game
in the box whole, Monopoly City's start cash the pack's way; Pay bank and Repairs put the keypad in
the same place, and Repairs says which amount it asks; an amount the rules refuse greys its confirm;
Boardwalk's card says in full why no rent is due; Cy, who owns nothing, is shown no other deed's card;
the note of money moved goes when another screen is shown; a finished game opens with its buttons
greyed, each saying why.
"""

from __future__ import annotations

import pytest

from companion.service import Banker
from tests.gui.hands import start_app, stop_app

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    with Banker.create(folder / "friday.game", "classic", ["Ann", "Bob", "Cy"], {}) as banker:
        banker.do({"action": "buy", "player": "Ann", "deed": "Boardwalk"})
        banker.do({"action": "mortgage", "player": "Ann", "deed": "Boardwalk"})
    with Banker.create(folder / "done.game", "classic", ["Ann", "Bob"], {}) as banker:
        banker.do({"action": "end_game"})
    hands = start_app(folder, real_pointer=True)
    hands.app.open_game(folder / "friday.game")
    hands.pump(4)
    yield hands
    stop_app(hands)


def inside_window(w) -> bool:
    from kivy.core.window import Window

    x, y = w.to_window(w.x, w.y)
    return x >= 0 and y >= 0 and x + w.width <= Window.width + 0.5 and y + w.height <= Window.height + 0.5


def whole(label) -> bool:
    """The label's words fit its box (nothing cut at the top or the bottom)."""
    label.texture_update()
    return label.texture_size[1] <= label.height + 1


def entries(bank) -> int:
    return bank.app.desk.version


def test_every_game_in_the_box_shows_whole_on_the_setup_screen(bank):
    app = bank.app
    app.screens["setup"].form = None
    app.show("setup")
    bank.pump(4)
    from companion.rules import pack_names

    for pack in pack_names():
        tab = bank.find(f"pack-{pack}")
        assert inside_window(tab), pack
    bank.tap("pack-monopoly-city")
    entry = next(row.ids.entry for row in app.screens["setup"].ids.options.children if row.key == "start_cash")
    assert entry.text == "₩37.7M"  # the pack's way, never 37700000
    bank.shot("setup-city")
    bank.tap("back")
    app.show("table")


def test_pay_bank_and_repairs_put_the_keypad_in_one_place_and_repairs_says_which_amount(bank):
    bank.tap("pay")
    key = bank.find("key-5")
    here = key.to_window(*key.center)
    bank.tap("cancel")
    bank.tap("more")
    bank.tap("action-repairs")
    assert bank.screen == "amount"
    key = bank.find("key-5")
    assert key.to_window(*key.center) == here
    title = bank.find("amount-title")
    assert title.text == "Repairs: per house" and title.opacity == 1 and title.height > 1
    bank.shot("repairs")
    before = entries(bank)
    bank.keys("25")
    bank.tap("confirm")
    assert bank.find("amount-title").text == "Repairs: per hotel"
    bank.keys("100")
    bank.tap("confirm")
    bank.until("the repairs in the ledger", lambda: entries(bank) == before + 1)
    assert bank.screen == "table"


def test_an_amount_the_rules_refuse_greys_its_confirm_and_a_tap_says_why(bank):
    before = entries(bank)
    bank.tap("pay")
    bank.keys("99999")
    confirm = bank.find("confirm")
    assert confirm.kind == "disabled" and bank.current.warning
    bank.shot("amount-refused")
    bank.tap("confirm")
    bank.until("the reason", lambda: bank.bubble() is not None)
    assert "Ann has $" in bank.bubble()
    assert entries(bank) == before
    bank.tap("cancel")


def test_a_mortgaged_deeds_card_says_in_full_why_no_rent_is_due(bank):
    bank.tap("menu-deeds")
    bank.tap("deed-Boardwalk")
    rent = bank.find("rent-now")
    assert rent.text == "Boardwalk is mortgaged: no rent is due"
    assert whole(rent)
    bank.shot("deed-mortgaged")


def test_cy_who_owns_nothing_is_shown_no_other_deeds_card(bank):
    bank.tap("whose-Cy")
    assert bank.current.deed == ""
    assert bank.current.card["owner_text"] == "Cy owns no deeds yet"
    assert not bank.has("do-buy") and not bank.has("do-mortgage")
    bank.tap("back")


def test_the_note_of_money_moved_goes_when_another_screen_is_shown(bank):
    from companion.ui.widgets import DoneNote

    def note():
        return next((w for w in bank.app.layer.children if isinstance(w, DoneNote)), None)

    bank.tap("salary")
    bank.until("the note of the salary", lambda: note() is not None)
    bank.tap("menu-deeds")
    assert note() is None  # gone with the table, never over the deeds
    bank.tap("back")


def test_a_finished_game_opens_with_its_buttons_greyed_each_saying_why(bank):
    app = bank.app
    app.open_game(bank.folder / "done.game")
    bank.pump(4)
    assert bank.screen == "table"
    before = entries(bank)
    salary = bank.find("salary")
    assert salary.kind == "disabled"
    bank.tap("salary")
    bank.until("the reason", lambda: bank.bubble() is not None)
    assert bank.bubble().startswith("The game is over: Undo goes back into it")
    assert entries(bank) == before and bank.screen == "table"
