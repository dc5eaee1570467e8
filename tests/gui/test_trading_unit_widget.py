"""The trading unit on the touchscreen shows what the unit decides, and touches work like its buttons."""

import random

import pytest

from companion.trading_unit import TradingUnit

pytestmark = pytest.mark.gui


class FakeClock:
    """Time at the table, moved by the test."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class Table:
    def __init__(self, window, frame):
        from companion.ui.trading_unit import TradingUnitWidget

        self.clock, self.frame = FakeClock(), frame
        self.next_turns, self.undos = [], []
        self.unit = TradingUnit(
            rng=random.Random(4),
            on_next_turn=lambda: self.next_turns.append(self.clock.now),
            on_undo=lambda: self.undos.append(self.clock.now),
        )
        self.widget = TradingUnitWidget(self.unit, clock=self.clock)
        self.ids = self.widget.ids
        window.add_widget(self.widget)
        frame()

    def wait(self, until, draw=True):
        """Time passes; the widget renders the unit (labels follow at once) and the screen redraws."""
        self.clock.now = until
        view = self.widget.refresh()
        if draw:
            self.frame()
        return view

    def light_colour(self):
        """The red light disc's colour as drawn (red, green, blue) in 0..255."""
        disc = self.ids.light_disc
        texture = disc.export_as_image().texture
        w, h = texture.size
        i = 4 * ((h // 2) * w + w // 2)
        return tuple(texture.pixels[i : i + 3])


@pytest.fixture
def table(window, frame):
    table = Table(window, frame)
    yield table
    table.widget.detach()
    window.remove_widget(table.widget)


def test_the_banker_touches_auction_and_the_screen_counts_down_from_50(table, touch):
    touch(table.ids.auction_button)
    assert table.unit.view(0.0)["mode"] == "auction"
    assert table.ids.heading.text == "AUCTION" and table.ids.seconds.text == "50"
    assert table.widget.light == table.unit.outputs(0.0).light == 1.0
    red, green, _ = table.light_colour()
    assert red > 200 and green < 80
    table.wait(0.6)
    assert table.widget.light == 0.0 and table.light_colour()[0] < 120


def test_45_seconds_pass_the_ring_turns_red_and_the_buzzer_shows(table, touch):
    touch(table.ids.auction_button)
    table.wait(45.0)
    assert table.ids.seconds.text == "5" and table.widget.warning
    assert table.ids.beep.text == "BEEP" and table.widget.ring == pytest.approx(0.1)
    table.wait(45.3)
    assert table.ids.beep.text == "" and table.ids.seconds.text == "5"
    table.wait(50.0)
    assert table.ids.seconds.text == "" and table.ids.bid_line.text == "No bids: not sold"


def test_the_screen_shows_the_same_state_as_the_unit_at_every_moment(table, touch):
    touch(table.ids.restart_clock)
    touch(table.ids.build_button)
    table.wait(3.0)
    touch(table.ids.auction_button)
    table.unit.bid(table.clock.now, "Ann", 90_000)
    for step in range(160):
        now = 3.0 + step * 0.37
        view = table.wait(now, draw=step % 40 == 0)
        out = table.unit.outputs(now)
        assert table.widget.light == out.light and table.widget.sound == out.sound
        assert table.ids.seconds.text == (str(view["seconds_left"]) if view["mode"] != "idle" else "")
        assert table.widget.ring == pytest.approx(view["ring"])
        assert table.ids.clock_label.text == f"Turn 1\nClock {view['clock_text']}"
        assert table.ids.build_button.text == view["face_text"]
        expected_line = "Ann bids 90,000" if view["mode"] == "auction" else "SOLD to Ann for 90,000"
        assert table.ids.bid_line.text == expected_line


def test_bids_typed_on_screen_are_recorded_and_a_low_one_is_refused(table, touch):
    touch(table.ids.auction_button)
    table.ids.bidder.text, table.ids.amount.text = "Ann", "120000"
    touch(table.ids.bid_button)
    assert table.unit.highest_bid.amount == 120_000 and table.ids.bid_line.text == "Ann bids 120,000"
    table.ids.bidder.text, table.ids.amount.text = "Bob", "100000"
    touch(table.ids.bid_button)
    table.wait(1.0)
    assert table.unit.highest_bid.bidder == "Ann"
    assert table.ids.message.text == "A bid must be a whole amount of at least 120001"


def test_a_second_touch_on_auction_asks_and_yes_cancels(table, touch):
    touch(table.ids.auction_button)
    table.wait(10.0)
    touch(table.ids.auction_button)
    assert table.ids.message.text == "Cancel the auction? Press again or touch YES."
    assert table.ids.yes_button.opacity == 1 and not table.ids.yes_button.disabled
    touch(table.ids.no_button)
    assert table.widget.request == "" and table.ids.yes_button.disabled
    touch(table.ids.auction_button)
    touch(table.ids.yes_button)
    table.wait(10.5)
    assert table.ids.bid_line.text == "Auction cancelled" and table.widget.mode == "idle"


def test_a_deal_is_timed_and_agreed_on_screen(table, touch):
    touch(table.ids.deal_button)
    assert table.ids.heading.text == "DEAL" and table.ids.close_button.text == "DEAL AGREED"
    assert table.ids.bid_row.disabled
    table.wait(12.0)
    touch(table.ids.close_button)
    table.wait(12.1)
    assert table.ids.bid_line.text == "Deal agreed"


def test_the_build_button_spins_once_per_turn(table, touch):
    touch(table.ids.build_button)
    assert table.widget.spinner == "spinning"
    table.wait(2.0)
    face = table.unit.spins[-1].face
    assert (
        table.ids.build_button.text == {"1": "1 block", "2": "2 blocks", "3": "3 blocks", "railroad": "Railroad"}[face]
    )
    touch(table.ids.build_button)
    table.wait(2.1)
    assert "One spin per turn" in table.ids.message.text
    touch(table.ids.next_turn_button)
    table.wait(2.2)
    assert table.next_turns == [2.1] and table.ids.build_button.text == "BUILD"
    assert table.ids.clock_label.text.startswith("Turn 2")


def test_a_quick_touch_on_undo_undoes(table, touch):
    touch(table.ids.undo_button)
    assert table.undos == [0.0]


def test_holding_undo_asks_first(table, touch):
    touch(table.ids.undo_button, between=lambda: table.wait(1.5))
    assert table.undos == []
    assert table.ids.message.text == "Undo the last action?"
    touch(table.ids.yes_button)
    assert table.undos == [1.5]


def test_the_game_clock_starts_and_counts_down(table, touch):
    assert table.ids.restart_clock.text == "START CLOCK"
    touch(table.ids.restart_clock)
    assert table.ids.clock_label.text == "Turn 1\nClock 60:00"
    table.wait(1800.4)
    assert table.ids.clock_label.text == "Turn 1\nClock 30:00"
    assert table.ids.restart_clock.text == "RESTART CLOCK"


def test_a_screenshot_can_be_taken(table, touch, window, tmp_path):
    touch(table.ids.auction_button)
    table.wait(46.0)
    saved = window.screenshot(str(tmp_path / "trading_unit.png"))
    assert saved and (tmp_path / saved.rsplit("/", 1)[-1]).stat().st_size > 10_000


def test_the_kv_file_is_loaded_once_however_often_it_is_asked_for(table):
    from kivy.lang import Builder

    from companion.ui.trading_unit import TradingUnitWidget, load_kv

    load_kv("trading_unit.kv")
    second = TradingUnitWidget(TradingUnit(), clock=table.clock)
    assert sum(f.endswith("trading_unit.kv") for f in Builder.files) == 1
    assert len(second.ids) == len(table.widget.ids)
    second.detach()
