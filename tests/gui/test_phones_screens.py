"""Phones at the table: a QR code per player, revoking one, and payments asked from a phone that the
banker approves or declines on the touchscreen. The phones' server runs on loopback only."""

import pytest


pytestmark = pytest.mark.gui


def games(folder) -> None:
    """Pizza night: a new game of three."""
    from companion.service import Banker

    Banker.create(folder / "pizza-night.game", "classic", ["Ann", "Bob", "Cy"], {}).close()


@pytest.fixture(scope="module")
def bank(phones_bank):
    return phones_bank


def rows_on_screen(bank) -> list:
    """The payments waiting on the Requests screen, as drawn."""
    return [w for w in bank.all() if type(w).__name__ == "RequestRow"]


def test_each_player_has_a_code_to_scan(bank):
    bank.app.show("join")
    join = bank.current
    bank.until("Ann's code drawn", lambda: join.texture is not None)
    assert join.who == "Ann" and join.url.startswith("http://127.0.0.1:") and "/j/" in join.url
    assert join.texture is not None and join.texture.width > 100
    bank.shot("join-live")
    bank.tap("join-Bob")
    bank.until("Bob's code", lambda: join.who == "Bob")
    assert join.who == "Bob" and join.url == bank.app.phones.join_url("Bob")


def test_revoking_bobs_code_asks_first_then_gives_him_a_new_one(bank):
    bank.app.show("join")
    bank.tap("join-Bob")
    old = bank.current.url
    bank.tap("revoke")
    assert bank.has("confirm-yes", within=10)
    bank.tap("confirm-no")
    assert bank.current.url == old
    bank.tap("revoke")
    bank.tap("confirm-yes")
    bank.until("Bob's new code", lambda: bank.current.url != old)
    assert bank.current.url != old and bank.current.url.startswith("http://127.0.0.1:")


def test_bob_asks_to_pay_ann_for_the_pizza_and_the_banker_approves(bank):
    requests = bank.app.phones.server.requests
    pizza = requests.ask("Bob", "Ann", 30, "pizza")
    bank.app.show("requests")
    bank.until("Bob's request on the screen", lambda: rows_on_screen(bank))
    assert [r.words for r in rows_on_screen(bank)] == ["Bob asks to pay Ann $30 (pizza)"]
    bank.shot("requests-live")
    bank.tap(f"approve-{pizza.id}")
    desk = bank.app.desk
    bank.until("the pizza paid", lambda: requests.get(pizza.id).status == "approved" and not rows_on_screen(bank))
    assert desk.table["accounts"]["Bob"] == 1470 and desk.table["accounts"]["Ann"] == 1530


def test_cy_asks_for_too_much_and_the_banker_declines_with_the_reason(bank):
    requests = bank.app.phones.server.requests
    desk = bank.app.desk
    taxi = requests.ask("Cy", "bank", 1000, "taxi")
    desk.do({"action": "transfer", "from": "Cy", "to": "bank", "amount": 900})  # meanwhile, at the table
    bank.app.show("requests")
    bank.until("Cy's request on the screen", lambda: rows_on_screen(bank))
    row = rows_on_screen(bank)[0]
    assert row.refused.startswith("Cy has $600 but needs $1,000")
    version = desk.version
    bank.tap(f"approve-{taxi.id}")
    bank.until("the refusal on show", lambda: bank.bubble() is not None)
    assert bank.bubble().startswith("Cy has $600") and desk.version == version
    bank.tap(f"decline-{taxi.id}")
    bank.tap(f"reason-{row.refused}")
    bank.until("the taxi declined", lambda: requests.get(taxi.id).status != "pending")
    assert requests.get(taxi.id).status == "declined"
    assert requests.get(taxi.id).reason.startswith("Cy has $600")
