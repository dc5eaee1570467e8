"""The table hears what happens: each event asks the touchscreen for its own sound, and under Xvfb with a
dummy audio device the sounds really play through Kivy's audio."""

from __future__ import annotations

import pytest

from tests.gui.hands import start_app, stop_app

pytestmark = pytest.mark.gui


@pytest.fixture
def evening(tmp_path):
    from companion.service import Banker

    Banker.create(tmp_path / "loud-table.game", "classic", ["Ann", "Bob"], {}).close()
    hands = start_app(tmp_path)
    hands.app.sounds.asked.clear()
    yield hands
    stop_app(hands)


def test_each_event_at_the_table_asks_for_its_sound(evening):
    from companion.trading_unit.events import ClockRanOut, Outputs, TimerEnded

    app = evening.app
    sounds = app.sounds
    app.act({"action": "buy", "player": "Ann", "deed": "Boardwalk"})  # money moves
    assert sounds.asked[-1] == "money"
    app.act({"action": "buy", "player": "Bob", "deed": "Boardwalk"})  # refused: already Ann's
    assert sounds.asked[-1] == "refusal"
    app.act({"action": "auction", "deed": "Park Place", "winner": "Bob", "bid": 200})
    assert sounds.asked[-1] == "sold"
    link = app.unit_link
    real = link.unit.outputs
    link.unit.outputs = lambda now: Outputs(1.0, True, 880.0)  # the unit's buzzer beeps a warning
    app.poll()
    app.poll()  # one beep, one sound: heard on the rising edge only
    assert sounds.asked[-2:] == ["sold", "warning"]
    link.unit.outputs = real
    app.poll()
    app._unit_event(TimerEnded(at=1.0, purpose="auction", outcome="no_bids"))
    assert sounds.asked[-1] == "timer_end"
    app._unit_event(ClockRanOut(at=2.0))
    assert sounds.asked[-1] == "timer_end"
    app.act({"action": "end_game"})
    assert sounds.asked[-1] == "game_over"
    assert set(sounds.played) == {
        "money",
        "refusal",
        "sold",
        "warning",
        "timer_end",
        "game_over",
    }  # a dummy device plays them


def test_the_settings_screen_turns_the_volume_and_mutes(evening):
    app = evening.app
    app.show("settings")
    evening.tap("volume-down")
    assert app.settings_store.volume == 70 and app.sounds.volume == 70
    evening.tap("sound")
    assert app.sounds.muted and not app.settings_store.sound
    heard = len(app.sounds.played)
    app.act({"action": "buy", "player": "Ann", "deed": "Boardwalk"})
    assert app.sounds.asked[-1] == "money" and len(app.sounds.played) == heard  # asked for, not heard: muted
    from companion.settings import UiSettings

    saved = UiSettings.load(app.folder)
    assert saved.volume == 70 and saved.sound is False  # kept in touchscreen.json
