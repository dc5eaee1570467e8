"""A screen with a list draws nothing more once it is still: its scroll bar does not fade.

Kivy fades a list's scroll bar half a second after every move of the list, over half a second, and
each step of the fade redraws the whole window: 20 to 40 frames on every visit to More, the deeds,
the history, a chooser or the keypad, also where the list fits and no bar is drawn at all. The app
gives the bar one colour (kv/widgets.kv), so the fade has nothing to change and nothing is drawn
(benchmarks/README.md, "The walks' own CPU").
"""

from __future__ import annotations

import pytest

from tests.gui.walk import evening_under_way

pytestmark = pytest.mark.gui

#: Kivy's wait before the fade and the fade itself (0.5 s each), and a margin.
FADE_OVER = 1.3


def frames_while_still(bank) -> int:
    """Frames the window draws from the moment the screen is still until a fade would be over."""
    from kivy.core.window import Window

    drawn: list[bool] = []

    def flipped(*_: object) -> None:
        drawn.append(True)

    bank._still()
    Window.bind(on_flip=flipped)
    try:
        bank.wait(FADE_OVER)
    finally:
        Window.unbind(on_flip=flipped)
    return len(drawn)


def test_each_screen_with_a_list_rests_once_shown(bank, tmp_path):
    assert bank.app.open_game(evening_under_way(tmp_path, "classic", {})) is None
    bank.pump(3)
    drawn = {}
    bank.tap("more")
    bank.until("More", lambda: bank.screen == "more")
    drawn["more"] = frames_while_still(bank)
    bank.tap("back")
    bank.until("the table", lambda: bank.screen == "table")
    bank.app.look_at("Ann")
    bank.until("the deeds", lambda: bank.screen == "deeds")
    drawn["deeds"] = frames_while_still(bank)
    bank.tap("back")
    bank.app.show("history")
    bank.until("the history", lambda: bank.screen == "history")
    drawn["history"] = frames_while_still(bank)
    bank.tap("back")
    bank.tap("rent")
    bank.until("the chooser", lambda: bank.screen == "ask")
    drawn["chooser"] = frames_while_still(bank)
    bank.tap("cancel")
    bank.tap("pay")
    bank.until("the keypad", lambda: bank.screen == "amount")
    drawn["keypad"] = frames_while_still(bank)
    bank.tap("cancel")
    assert drawn == dict.fromkeys(drawn, 0), f"frames drawn by a still screen in {FADE_OVER} s: {drawn}"
