"""The banker types the players' names with the real keyboard (xdotool under Xvfb), even after another
program's window came and went on the same screen: with no window manager, that window takes the
keyboard's focus when it opens and leaves it nowhere when it closes, so the test's keyboard gives the
app's window the focus back before it types, as the Pi's keyboard belongs to the app."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.gui.hands import start_app, stop_app

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    hands = start_app(tmp_path_factory.mktemp("games"), real_pointer=True)
    yield hands
    stop_app(hands)


def another_window_comes_and_goes() -> None:
    """Another program opens a window on this screen, draws it a few times and exits."""
    code = (
        "import os; os.environ['KIVY_NO_ARGS'] = '1'; os.environ['KIVY_NO_CONSOLELOG'] = '1'\n"
        "from kivy.base import EventLoop\n"
        "EventLoop.ensure_window()\n"
        "for _ in range(20):\n"
        "    EventLoop.idle()\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)


def test_names_typed_after_another_window_came_and_went_reach_the_setup_screen(bank):
    another_window_comes_and_goes()
    bank.tap("new-game")
    bank.until("the new game's screen", lambda: bank.screen == "setup")
    names = [w for w in bank.all() if type(w).__name__ == "Entry" and w.hint_text.startswith("Player")]
    bank.type("Ann", widget=names[0])
    bank.type("Bob", widget=names[1])
    setup = bank.app.screens["setup"]
    assert [p["name"] for p in setup.form.players[:2]] == ["Ann", "Bob"]
    bank.tap("back")
    bank.until("the start screen", lambda: bank.screen == "start")
