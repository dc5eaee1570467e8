"""Words on screen are for people: no markup, no code names, no developer hints, on any screen of any
family. Each pack's game is opened, every screen is shown, and so is the first screen of every action
a family has (table buttons and More...); every text on show is read."""

from __future__ import annotations

import re

import pytest

from companion.rules import pack_names
from companion.service import Banker
from tests.gui.hands import start_app, stop_app
from tests.gui.survey import SCREENS, action_screens, show

pytestmark = pytest.mark.gui

#: What a developer's words look like on a screen made for players.
NOT_FOR_PEOPLE = [
    (re.compile(r"`"), "a backtick"),
    (re.compile(r"[A-Za-z0-9]_[A-Za-z0-9]"), "an underscore inside a word"),
    (re.compile(r"\b(None|False|True|null)\b"), "a code value"),
    (re.compile(r"\b[A-Z][A-Za-z]*(Error|Exception|Warning|Unsupported)\b|Traceback"), "an exception name"),
    (re.compile(r"\[/?[bi]\]|\[/?color|\[/?ref"), "markup"),
    (re.compile(r"\b(true|false)\b"), "true/false wording"),
    (re.compile(r"(?<![\d,.])\d{5,}(?![\d,])"), "an ungrouped number over 9,999"),
]


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    for pack in pack_names():
        Banker.create(folder / f"{pack}.game", pack, ["Ann", "Bob", "Cy"], {}).close()
    hands = start_app(folder)
    yield hands
    stop_app(hands)


def words_on_show(bank) -> list[str]:
    texts = []
    for w in bank.all():
        for attr in ("text", "hint_text"):
            value = getattr(w, attr, None)
            if isinstance(value, str) and value.strip():
                texts.append(value)
    return texts


def problems_in(texts: list[str], where: str) -> list[str]:
    return [f"{where}: {why} in {text!r}" for text in texts for pattern, why in NOT_FOR_PEOPLE if pattern.search(text)]


@pytest.mark.parametrize("pack", pack_names())
def test_every_screen_of_every_family_speaks_to_people(bank, pack):

    app = bank.app
    assert app.open_game(bank.folder / f"{pack}.game") is None
    problems = []
    for name in SCREENS:
        show(bank, name, pack)
        problems += problems_in(words_on_show(bank), f"{pack} {name}")
    for button in action_screens(bank):
        problems += problems_in(words_on_show(bank), f"{pack} {button} ({bank.screen})")
    assert not problems, "\n".join(sorted(set(problems)))
