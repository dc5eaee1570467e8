"""What the auction's readout shows is what Record records, tapped with the real pointer.

Classic at the table: Boardwalk goes under the hammer. Bob bids 220, tapped as +$200 +$20: the readout
says $220 and the unit records $220 (never the highest bid plus the steps). Ann then outbids him: her
bid starts at the highest bid plus the smallest step, $221, and says so; +$10 makes it $231, which is
what she pays when the hammer comes down.
"""

from __future__ import annotations

import time

import pytest

from companion.service import Banker
from tests.gui.hands import start_app, stop_app

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    Banker.create(folder / "friday.game", "classic", ["Ann", "Bob", "Cy"], {}).close()
    hands = start_app(folder, real_pointer=True)
    link = hands.app.unit_link
    later = [0.0]
    link.clock = lambda: time.monotonic() + later[0]  # the test's hand on the unit's time
    hands.later = later
    yield hands
    stop_app(hands)


def readout(bank) -> str:
    return bank.current.view["amount_text"]


def test_bob_bids_220_as_two_steps_and_220_is_recorded(bank):
    bank.tap("auction")
    bank.tap("choice-Boardwalk")
    assert bank.screen == "auction"
    bank.tap("start-timer")
    bank.tap("bidder-Bob")
    assert readout(bank) == "$0"  # no bid yet: the steps add up from nothing
    bank.tap("raise-200")
    bank.tap("raise-20")
    assert readout(bank) == "$220"
    record = bank.find("record-bid")
    assert record.text == "Record: Bob bids $220"
    bank.tap("record-bid")
    best = bank.app.unit_link.unit.highest_bid
    assert (best.bidder, best.amount) == ("Bob", 220)


def test_a_bid_that_does_not_beat_the_highest_says_so_in_the_packs_money(bank):
    bank.tap("bidder-Cy")
    bank.tap("bid-clear")
    bank.tap("raise-200")
    bank.tap("record-bid")
    bank.until("the reason", lambda: bank.bubble() is not None)
    assert bank.bubble() == "A bid must beat the highest, Bob's $220"
    assert bank.app.unit_link.unit.highest_bid.amount == 220


def test_ann_outbids_from_the_highest_bid_plus_the_smallest_step(bank):
    bank.tap("bidder-Ann")
    assert readout(bank) == "$221"
    assert bank.current.view["price_text"] == "Ann starts at the highest $220 + $1"
    bank.tap("raise-10")
    assert readout(bank) == "$231"
    bank.tap("record-bid")
    assert bank.app.unit_link.unit.highest_bid.amount == 231
    desk = bank.app.desk
    ann = desk.table["accounts"]["Ann"]
    bank.tap("sold")
    bank.until("Boardwalk sold", lambda: desk.table["deeds"]["Boardwalk"].get("owner") == "Ann")
    assert desk.table["accounts"]["Ann"] == ann - 231
    assert desk.banker.log()[-1].summary == "Ann won Boardwalk at auction for $231"
