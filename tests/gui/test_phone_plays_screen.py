"""The banker sees players' own actions from their phones on the touchscreen the moment they are committed,
with whose phone started them, undoes one, approves the bank's money and pauses every phone with one tap.
The phones' server runs on loopback only."""

import pytest


pytestmark = pytest.mark.gui


def games(folder) -> None:
    """Phones night: Ann owns Boardwalk."""
    from companion.service import Banker

    with Banker.create(folder / "phones-night.game", "classic", ["Ann", "Bob"], {}) as b:
        b.do({"action": "buy", "player": "Ann", "deed": "Boardwalk"})


@pytest.fixture(scope="module")
def bank(phones_bank):
    return phones_bank


def test_bob_pays_rent_from_his_phone_and_the_banker_sees_it_and_undoes_it(bank):
    app, desk = bank.app, bank.app.desk
    app.show("table")
    plays = app.phones.server.plays
    play, _outcome = plays.start("Bob", "rent", {"deed": "Boardwalk"}, "tap-rent-1")
    assert play.status == "done"
    bank.until(
        "the phone's entry on the table", lambda: app.last_text == "Bob's phone: Bob paid Ann $50 rent for Boardwalk"
    )
    assert desk.table["accounts"]["Bob"] == 1450
    app.show("history")
    assert bank.has(text="Bob's phone", within=2.0)  # the log says whose phone started it
    app.show("table")
    bank.until(
        "the Undo button names what it takes back",
        lambda: "Bob paid Ann $50 rent for Boardwalk" in bank.find("undo").text,
    )
    bank.tap("undo")
    bank.until("the rent is back", lambda: desk.table["accounts"]["Bob"] == 1500)


def test_ann_s_salary_waits_for_the_banker_who_approves_it_seeing_the_sentence(bank):
    app, desk = bank.app, bank.app.desk
    plays = app.phones.server.plays
    had = desk.table["accounts"]["Ann"]
    play, _ = plays.start("Ann", "salary", {}, "tap-salary-1")
    assert play.status == "waiting"
    app.show("requests")
    bank.until("the waiting action", lambda: any(type(w).__name__ == "RequestRow" for w in bank.all()))
    row = next(w for w in bank.all() if type(w).__name__ == "RequestRow")
    assert row.words == f"Ann's phone: {play.summary}" and row.kind == "play"
    bank.shot("phone-play-waiting")
    bank.tap(f"approve-{play.id}")
    bank.until("the salary is paid", lambda: desk.table["accounts"]["Ann"] == had + 200)
    assert plays.get(play.id).status == "done"


def test_one_tap_pauses_every_phone_and_another_lets_them_act(bank):
    from companion.core.errors import Refused

    app = bank.app
    plays = app.phones.server.plays
    app.show("requests")
    bank.tap("pause-phones")
    assert plays.paused
    with pytest.raises(Refused, match="paused"):
        plays.start("Bob", "rent", {"deed": "Boardwalk"}, "tap-rent-2")
    bank.until("the button says how to resume", lambda: bank.find("pause-phones").text == "Let phones act")
    bank.tap("pause-phones")
    assert not plays.paused
