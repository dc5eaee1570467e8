"""The banker, with the real pointer (xdotool under Xvfb): the table screen's badge counts what the
phones ask that waits for the banker's tap and leads to it; the settings screen turns players' actions
from their phones off for this game and on again, each change an entry the table's Undo takes back.
The phones' server listens on loopback only; the players' taps are the phones' own calls."""

from __future__ import annotations


import pytest

from companion.core.errors import Refused
from companion.service import Banker

pytestmark = pytest.mark.gui


REAL_POINTER = True


def games(folder):
    with Banker.create(folder / "badge-night.game", "classic", ["Ann", "Bob"], {}) as b:
        b.do({"action": "buy", "player": "Ann", "deed": "Boardwalk"})


@pytest.fixture(scope="module")
def bank(phones_bank):
    phones_bank.app.show("table")
    phones_bank.until("the table", lambda: phones_bank.screen == "table")
    return phones_bank


def test_the_badge_counts_what_waits_for_the_banker_and_leads_to_it(bank):
    app, desk = bank.app, bank.app.desk
    plays = app.phones.server.plays
    assert not bank.has("phones-waiting")  # nothing waits: no badge
    ann_salary, _ = plays.start("Ann", "salary", {}, "tap-salary-badge")  # the bank's money: waits for the banker
    bob_salary, _ = plays.start("Bob", "salary", {}, "tap-salary-badge")
    bank.until("the badge counts two", lambda: bank.find("phones-waiting").text == "Phones: 2")
    bank.shot("table-phones-badge")
    had = desk.table["accounts"]["Ann"]
    bank.tap("phones-waiting")
    bank.until("the requests screen", lambda: bank.screen == "requests")
    bank.tap(f"approve-{ann_salary.id}")
    bank.until("Ann's salary is paid", lambda: desk.table["accounts"]["Ann"] == had + 200)
    bank.tap("back")
    bank.until("the badge counts one", lambda: bank.find("phones-waiting").text == "Phones: 1")
    plays.cancel(bob_salary.id, "Bob")  # Bob withdraws his own: nothing waits, the badge goes
    bank.until("no badge", lambda: not bank.has("phones-waiting"))


def test_the_banker_turns_phones_actions_off_in_settings_and_undo_turns_them_on(bank):
    app, desk = bank.app, bank.app.desk
    plays = app.phones.server.plays
    bank.tap("more")
    bank.until("the More menu", lambda: bank.screen == "more")
    bank.tap("go-settings")
    bank.until("the settings", lambda: bank.screen == "settings")
    switch = bank.find("option-phone_actions")
    assert switch.text == "Players' actions from their phones: on"
    bank.tap("option-phone_actions")
    bank.until(
        "the switch says off",
        lambda: bank.find("option-phone_actions").text == "Players' actions from their phones: off",
    )
    assert desk.table["options"]["phone_actions"] is False
    entry = desk.banker.log()[-1]
    assert entry.action["action"] == "set_option" and entry.summary == (
        "The banker turned off players' actions from their phones"
    )
    switches = app.screens["settings"].ids.switches
    view = switches.parent
    while type(view).__name__ != "ScrollView":
        view = view.parent
    view.scroll_to(switches, padding=app.u * 60, animate=False)  # the Phones section whole, for the picture
    bank.pump(4)
    bank.shot("settings-phone-actions-off")
    with pytest.raises(Refused, match="turned off"):
        plays.start("Bob", "rent", {"deed": "Boardwalk"}, "tap-rent-off")
    bank.tap("back")
    bank.until("the table", lambda: bank.screen == "table")
    bank.until(
        "Undo names the change", lambda: "turned off players' actions from their phones" in bank.find("undo").text
    )
    bank.tap("undo")
    bank.until("the option is back on", lambda: desk.table["options"]["phone_actions"] is True)
    play, _ = plays.start("Bob", "rent", {"deed": "Boardwalk"}, "tap-rent-on")
    assert play.status == "done"
    bank.tap("more")
    bank.until("the More menu", lambda: bank.screen == "more")
    bank.tap("go-settings")
    bank.until(
        "the switch says on", lambda: bank.find("option-phone_actions").text == "Players' actions from their phones: on"
    )
    bank.tap("option-phone_actions")  # off, then on again from the same screen: two entries
    bank.until("off", lambda: desk.table["options"]["phone_actions"] is False)
    bank.tap("option-phone_actions")
    bank.until("on", lambda: desk.table["options"]["phone_actions"] is True)
    assert [e.action.get("on") for e in desk.banker.log()[-2:]] == [False, True]
    bank.tap("back")
