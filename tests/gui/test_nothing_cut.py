"""Nothing that carries meaning is cut: on every screen of every family (the six packs, City Life with
its advanced rules too), in a game well under way, at 800x480, 1024x600 and 1280x800, no label on
show is shortened ("the b...0,000"), loses lines to its box, or draws outside it. A sum, a name or a
preview is read whole or the screen is wrong.

One app for the whole module: each size opens every game in turn and shows every screen and the
first screen of every action (what test_words and test_type_scale walk); at the larger sizes, where
every size is the 800x480 one scaled by ``app.u``, one action per screen it opens on. Screens that
read the same whatever the game (start, setup, settings, requests, phones) are read once per size. At 800x480
each screen is saved under artifacts/screenshots/layout/<family>/ to be looked at.
"""

from __future__ import annotations

import os
import random
import re

import pytest

from companion.core.errors import BankerError
from companion.service import Banker
from tests.gui.hands import SHOTS, start_app, stop_app
from tests.gui.survey import SCREENS, action_screens, show
from tests.random_actions import GENERATORS, game_name, variants

pytestmark = [pytest.mark.gui, pytest.mark.groups(3)]  # a process for each size

SIZES = [(800, 480), (1024, 600), (1280, 800)]
WALK = SCREENS + ["unit"]
#: Players with names of a table's usual lengths, the longest one among them.
PLAYERS = ["Annabel", "Bob", "Cy", "Dee"]
#: How many random actions each game has seen before the screens are read.
UNDER_WAY = 90


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    for pack, options in variants():
        rnd = random.Random(7)
        with Banker.create(folder / f"{game_name(pack, options)}.game", pack, PLAYERS, options, backup_every=0) as b:
            for _ in range(UNDER_WAY):
                try:
                    b.do(GENERATORS[pack](b.table, rnd))
                except BankerError:
                    pass
    hands = start_app(folder)  # its heap settled: the collections after each screen walk only what is new
    yield hands
    stop_app(hands)


_MARKUP = re.compile(r"\[/?[a-z_]+(=[^\]]*)?\]")


def _squashed(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _plain(label) -> str:
    text = label.text
    if label.markup:
        text = _MARKUP.sub("", text).replace("&bl;", "[").replace("&br;", "]").replace("&amp;", "&")
    return text


def cut_labels(bank, where: str) -> list[str]:
    """Every label on show whose words are not all drawn inside its box."""
    from kivy.uix.label import Label

    problems = []
    for w in bank.all():
        if not isinstance(w, Label) or not w.text.strip():
            continue
        core = w._label
        if core is None:
            continue
        text = _plain(w)
        if getattr(core, "is_shortened", False):
            shown = " ".join(word.text for line in core._cached_lines for word in line.words)
            problems.append(f"{where}: {text!r} shortened to {shown!r}")
            continue
        shown = "".join(word.text for line in core._cached_lines for word in line.words)
        if _squashed(shown) != _squashed(text):
            problems.append(f"{where}: {text!r} cut to {shown!r} in {w.width:.0f}x{w.height:.0f}")
            continue
        lines = [" ".join(word.text for word in line.words) for line in core._cached_lines]
        if " ".join(lines).split() != text.split():  # a word too long for its box is broken in two
            problems.append(f"{where}: {text!r} broken inside a word as {lines!r}")
            continue
        tw, th = w.texture_size
        if tw > w.width + 2 or th > w.height + 2:
            problems.append(f"{where}: {text!r} drawn {tw:.0f}x{th:.0f} in a {w.width:.0f}x{w.height:.0f} box")
    return problems


def _shot(bank, family: str, name: str) -> None:
    from kivy.core.window import Window

    if (Window.width, Window.height) != (800, 480):
        return
    bank.turn()  # the survey looks without drawing: the screen is drawn once, for its picture
    folder = SHOTS / "layout" / family
    folder.mkdir(parents=True, exist_ok=True)
    made = Window.screenshot(str(folder / f".shot-{os.getpid()}.png"))  # Kivy numbers the name it is given
    os.replace(made, folder / f"{name}.png")


#: Screens that read the same whatever the game (its players at most): read once per size.
SAME_FOR_EVERY_GAME = {"start", "setup", "settings", "requests", "join"}


def walk(bank, family: str, *, every_action: bool, first: bool) -> list[str]:
    """Show every screen of the open game (those the same for every game only for the ``first``) and
    the first screen of every action (``every_action``), or of one action per screen it opens on (a
    larger window: the same layout, scaled); what is cut."""
    problems = []
    for name in WALK:
        if name in SAME_FOR_EVERY_GAME and not first:
            continue
        show(bank, name)
        problems += cut_labels(bank, f"{family} {name}")
        _shot(bank, family, name)
    opened: set[str] = set()
    for button in action_screens(bank, lambda screen: every_action or screen not in opened):
        problems += cut_labels(bank, f"{family} {button} ({bank.screen})")
        _shot(bank, family, f"action-{button}")
        opened.add(bank.screen)
    return problems


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_no_sum_name_or_preview_is_cut_on_any_screen_of_any_family(bank, size):
    bank.size(*size)
    problems: list[str] = []
    try:
        for number, (pack, options) in enumerate(variants()):
            family = game_name(pack, options)
            assert bank.app.open_game(bank.folder / f"{family}.game") is None
            problems += walk(bank, family, every_action=size == SIZES[0], first=number == 0)
    finally:
        bank.size(800, 480)
    assert not problems, f"{len(problems)} cut:\n" + "\n".join(sorted(set(problems)))


def test_the_check_sees_a_sum_shortened_wrapped_out_of_its_box_drawn_past_it_or_a_name_broken(bank):
    from kivy.core.window import Window
    from kivy.uix.label import Label

    sentence = "the bank pays $760,000"
    labels = [
        Label(text=sentence, shorten=True, text_size=(80, None), size_hint=(None, None), size=(80, 30)),
        Label(text=sentence, text_size=(80, 24), size_hint=(None, None), size=(80, 24)),
        Label(text=sentence, size_hint=(None, None), size=(80, 30)),
        Label(text="Annabel", font_size=24, text_size=(60, None), size_hint=(None, None), size=(60, 80)),
        Label(text=sentence, size_hint=(None, None), size=(400, 40)),
    ]
    for label in labels:
        Window.add_widget(label)
    try:
        bank.pump(3)
        found = cut_labels(bank, "here")
    finally:
        for label in labels:
            Window.remove_widget(label)
    assert len(found) == 4, found
    assert any("shortened to" in f for f in found) and any("cut to" in f for f in found)
    assert any("drawn" in f for f in found) and any("broken inside a word" in f for f in found)
