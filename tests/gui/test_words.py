"""Words on screen are for people: no markup, no code names, no developer hints, on any screen of any
family. Each pack's game is opened, every screen is shown, and so is the first screen of every action
a family has (table buttons and More...); every text on show is read."""

from __future__ import annotations

import re

import pytest

from companion.rules import pack_names
from companion.service import Banker
from tests.gui.hands import SCREENS as EVERY_SCREEN, start_app, stop_app

pytestmark = [pytest.mark.gui, pytest.mark.groups(2)]  # two processes may share the families

#: Every screen (the amount and the chooser are the first screens of actions, shown below).
SCREENS = list(EVERY_SCREEN)

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


def show(bank, name: str, pack: str = "classic") -> None:
    app, desk = bank.app, bank.app.desk
    first_deed = next(iter(desk.table["deeds"]), "")
    if name == "deeds" and first_deed:
        app.screens["deeds"].open_deed(first_deed)
    elif name == "auction":
        lots = [n for n, d in desk.table["deeds"].items() if not d.get("owner")]
        if lots:
            app.screens["auction"].open_lot(lots[0])
    elif name == "trade":
        app.screens["trade"].start("Ann")
    elif name == "card":
        app.screens["card"].deed = first_deed
    elif name == "setup":  # this pack's tab, with its options as the form shows them
        from companion.ui.games import NewGame

        app.screens["setup"].form = NewGame.start().choose_pack(pack)
    app.show(name)
    bank.pump(4)


def action_screens(bank, frames: int = 4):
    """Each action's first screen in turn, opened from the table (the common buttons, then More's; a
    one-tap action has no screen of its own): yields the button's name while its screen is on show,
    closes the boxes it opened, and ends on the table."""
    from companion.ui import flows

    app = bank.app
    common, more = flows.buttons_for(app.desk.specs)
    for button in [b["name"] for b in common] + [m["name"] for m in more]:
        app.show("table")
        form = app.start(button)
        if form is None or app.desk.next_field(form.action, form.values) is None:
            continue
        app.run_flow(form)
        bank.pump(frames)
        every_answer_made(bank)
        yield button
        close_boxes(bank)
    app.show("table")


def every_answer_made(bank) -> None:
    """A long chooser makes its tiles as the list comes near them: scrolled to its end and back, so
    every answer's tile is there to be read."""
    screen = bank.current
    if getattr(screen, "made_all", True):
        return
    scroll = screen.ids.scroll
    bank.until("the list scrolled to its end", lambda: _scrolled_to_end(bank, scroll), 10.0)
    assert screen.made_all
    scroll.scroll_y = 1
    bank.pump(2)


def _scrolled_to_end(bank, scroll) -> bool:
    scroll.scroll_y = 0
    bank.pump(1)
    if not getattr(bank.current, "made_all", True):
        bank.current.make_shown()  # already at its end before it was laid out: no scroll to hear
    return getattr(bank.current, "made_all", True)


def close_boxes(bank) -> None:
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    for child in list(Window.children):
        if isinstance(child, ModalView):
            child.dismiss(animation=False)
    bank.pump(3)


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
