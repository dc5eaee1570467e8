"""The games list: a finished game says who won; deleting one asks first and keeps a copy aside."""

from __future__ import annotations

import pytest

from companion.service import Banker
from tests.gui.hands import start_app, stop_app

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    with Banker.create(folder / "last-week.game", "classic", ["Ann", "Bob"], {}) as b:
        b.do({"action": "end_game"})
    Banker.create(folder / "tonight.game", "classic", ["Cy", "Dee"], {}).close()
    hands = start_app(folder)
    yield hands
    stop_app(hands)


def test_last_weeks_game_says_ann_won_and_is_deleted_after_asking(bank):
    bank.app.show("start")
    lines: list[str] = []

    def finished_shown() -> bool:  # a tile's lines take their height once their text is drawn
        lines[:] = [w.text for w in bank.all() if (getattr(w, "text", "") or "").startswith("Finished")]
        return bool(lines)

    bank.until("a finished game's line on the start screen", finished_shown, 10)
    assert lines[0].startswith("Finished: Ann won")
    bank.shot("start-finished")
    bank.tap("delete-last-week.game")
    assert bank.has("confirm-yes", within=10)  # it asks first
    bank.tap("confirm-yes")
    assert not (bank.folder / "last-week.game").exists()
    assert (bank.folder / "deleted" / "last-week.game").exists()
    assert not bank.has("delete-last-week.game") and bank.has("delete-tonight.game")
