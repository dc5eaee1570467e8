"""The settings screen's one-tap copy to a USB stick: the banker taps it, the screen says it is
copying, then says what happened (here no stick is plugged in, so it says why nothing was copied)."""

from __future__ import annotations

import time

import pytest

from companion.service import Banker
from tests.gui.hands import start_app, stop_app

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    Banker.create(folder / "friday.game", "classic", ["Ann", "Bob"], {}).close()
    hands = start_app(folder)
    yield hands
    stop_app(hands)


def test_the_usb_button_copies_or_says_why_not(bank):
    bank.app.show("settings")
    bank.tap("usb-backup")
    screen = bank.current
    end = time.monotonic() + 30
    while screen.usb_busy and time.monotonic() < end:  # the copy runs beside the loop: wait on the screen
        bank.pump(1)
    assert not screen.usb_busy
    assert screen.usb_text.startswith(("Copied", "Not copied: ")), screen.usb_text
    bank.shot("settings-usb")
    bank.app.show("table")
