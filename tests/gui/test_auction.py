"""One auction, wherever it starts: the trading unit's button, the table, or a deed's card.

Monopoly City at the table: the banker presses AUCTION on the unit's screen, picks Mill Lane, Ann
bids 1M and Bob 1.5M on the keypad (K and M keys, never typed text); the light goes off and Bob owns
Mill Lane, 1.5M poorer, with the sale in the log; the next auction starts clean. The unit's time is
moved on by the test instead of waiting 50 seconds.
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
    Banker.create(folder / "city.game", "monopoly-city", ["Ann", "Bob", "Cy"], {}).close()
    hands = start_app(folder)
    link = hands.app.unit_link
    later = [0.0]
    link.clock = lambda: time.monotonic() + later[0]  # the test's hand on the unit's time
    hands.later = later
    yield hands
    stop_app(hands)


def light_goes_off(bank) -> None:
    bank.later[0] += 60
    bank.app.poll()
    bank.pump(3)


def test_the_units_auction_button_sells_on_the_one_auction_screen(bank):
    desk = bank.app.desk
    bank.tap("menu-unit")
    unit = bank.current.ids.holder.children[0]
    assert not unit.bids_here  # no typed bids on the unit's screen: bids are tapped on the auction screen
    bank.tap(widget=unit.ids.auction_button)
    assert bank.screen == "auction"
    bank.tap("lot")
    bank.tap("choice-Mill Lane")
    assert bank.screen == "auction" and bank.current.lot == "Mill Lane"
    bank.shot("auction-city")
    bank.tap("start-timer")
    bank.tap("bidder-Ann")
    bank.keys("1M")
    assert bank.current.amount == 1_000_000
    bank.tap("record-bid")
    bank.tap("bidder-Bob")
    bank.keys("1.5M")
    assert bank.current.amount == 1_500_000
    bank.tap("record-bid")
    bank.shot("auction-city-bids")
    bob = desk.table["accounts"]["Bob"]
    light_goes_off(bank)
    assert desk.table["deeds"]["Mill Lane"]["owner"] == "Bob"
    assert desk.table["accounts"]["Bob"] == bob - 1_500_000
    assert "Mill Lane" in desk.banker.log()[-1].summary
    assert bank.screen == "table"


def test_the_next_auction_starts_clean(bank):
    bank.tap("auction")
    assert bank.screen == "ask"
    bank.tap("choice-Brick Row")
    screen = bank.current
    assert bank.screen == "auction" and screen.lot == "Brick Row"
    assert screen.bidder == "" and screen.amount == 0
    assert screen.view["best_text"] == "" and not screen.view["running"]
    bank.tap("back")


def test_a_timer_that_ends_without_bids_sells_nothing_and_the_screen_is_clean(bank):
    desk = bank.app.desk
    version = desk.version
    bank.app.open_auction("Canal Side")
    bank.tap("start-timer")
    light_goes_off(bank)
    assert desk.version == version and desk.table["deeds"]["Canal Side"].get("owner") is None
    assert bank.app.screens["auction"].lot == ""
