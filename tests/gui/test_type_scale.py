"""Text comes in a few sizes only: every label on every screen of every family is a step of the type
scale, a big balance shrinks through the steps, and an evening's walk through the screens opens few
fonts (each size is another font the touchscreen keeps in memory all evening)."""

from __future__ import annotations

import pytest

from companion.rules import pack_names
from companion.service import Banker
from companion.ui.type_scale import SIZES, SMALLEST, STEPS, at_most, shrunk
from tests.gui.hands import start_app, stop_app
from tests.gui.survey import SCREENS, action_screens, close_boxes, show

# One process for the module: the evening's count of fonts is over every family's walk, and a family
# walked in another process would be walked here again.
pytestmark = pytest.mark.gui

#: The screens each family's walk shows: the survey's list; the keypad and chooser come with the actions.
WALK = SCREENS + ["unit"]
#: The screens to look at, saved under artifacts/screenshots/ as type-<screen>-<size>.png.
LOOK_AT = ["table", "more", "deeds", "amount", "auction", "unit", "settings"]


# -- the scale itself ----------------------------------------------------------------------------------


def test_a_wanted_size_snaps_down_to_the_nearest_step():
    assert len(STEPS) <= 7
    assert at_most(20) == 20
    assert at_most(21) == 20 and at_most(23.9) == 20
    assert at_most(44) == 40
    assert at_most(500) == max(SIZES)
    assert at_most(11) == SMALLEST  # nothing smaller: the label shortens instead


def test_a_long_balance_shrinks_one_step_at_least_and_never_below_the_smallest():
    # "$1,234,567" at 40 px is 260 px wide; the tile has 200 px of room
    assert shrunk(40, room=200, width=260) == 24  # 40 * 200/260 = 30.8: the step below is 24
    assert shrunk(40, room=200, width=205) == 32  # only just too wide: one step down
    assert shrunk(40, room=200, width=180) == 40  # fits: stays
    assert shrunk(SMALLEST, room=50, width=400) == SMALLEST


# -- the touchscreen -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def fonts_opened():
    """Every font a label asks Kivy for while the module runs (one FreeType font per distinct id)."""
    from kivy.core.text.text_sdl2 import LabelSDL2

    asked = set()
    original = LabelSDL2._get_font_id

    def recording(self):
        font_id = original(self)
        asked.add(font_id)
        return font_id

    LabelSDL2._get_font_id = recording
    yield asked
    LabelSDL2._get_font_id = original


@pytest.fixture(scope="module")
def bank(tmp_path_factory, fonts_opened):
    folder = tmp_path_factory.mktemp("games")
    for pack in pack_names():
        Banker.create(folder / f"{pack}.game", pack, ["Ann", "Bob", "Cy"], {}).close()
    with Banker.create(folder / "evening.game", "classic", ["Ann", "Bob", "Cy", "Dee"], {}) as b:
        b.do({"action": "buy", "player": "Ann", "deed": "Boardwalk"})
        b.do({"action": "transfer", "from": "bank", "to": "Bob", "amount": 1_234_567})  # a long balance
    hands = start_app(folder)
    yield hands
    stop_app(hands)


def off_the_scale(bank, where: str) -> list[str]:
    from kivy.uix.label import Label
    from kivy.uix.textinput import TextInput

    u = bank.app.u
    return [
        f"{where}: {w.text[:30]!r} at {w.font_size / u:.2f} x u"
        for w in bank.all()
        if isinstance(w, (Label, TextInput)) and not any(abs(w.font_size - step * u) < 0.01 for step in SIZES)
    ]


WALKED: set[str] = set()  # the families walked so far in this module


def walk_every_screen(bank, pack: str) -> list[str]:
    """Show every screen of the pack's game and the first screen of every action; what is off the scale."""
    WALKED.add(pack)
    problems = []
    for name in WALK:
        show(bank, name)
        problems += off_the_scale(bank, f"{pack} {name}")
    for button in action_screens(bank):
        problems += off_the_scale(bank, f"{pack} {button} ({bank.screen})")
    return problems


@pytest.mark.parametrize("pack", pack_names())
def test_every_label_of_every_family_is_a_step_of_the_scale(bank, pack):
    assert bank.app.open_game(bank.folder / f"{pack}.game") is None
    problems = walk_every_screen(bank, pack)
    assert not problems, "\n".join(sorted(set(problems)))


def test_bobs_long_balance_shrinks_to_a_step_on_his_tile(bank):
    from companion.ui.widgets import Figure

    assert bank.app.open_game(bank.folder / "evening.game") is None
    show(bank, "table")
    u = bank.app.u
    figures = [w for w in bank.all() if isinstance(w, Figure) and w.text]
    assert figures, "the table shows the players' balances"
    for figure in figures:
        assert any(abs(figure.font_size - step * u) < 0.01 for step in SIZES), (figure.text, figure.font_size)
    bobs = next(f for f in figures if "1,2" in f.text)
    assert bobs.font_size <= bobs.base_size


def test_a_billion_on_a_narrow_tile_shrinks_through_the_steps_only(bank):
    from kivy.core.window import Window

    from companion.ui.widgets import Figure

    u = bank.app.u
    sizes_taken = []
    figure = Figure(text="$1,234,567,890", base_size=u * 40, size_hint=(None, None), size=(u * 150, u * 60))
    figure.bind(font_size=lambda _, size: sizes_taken.append(size / u))
    Window.add_widget(figure)
    try:
        bank.pump(6)
        assert figure.font_size < figure.base_size
        assert figure.texture_size[0] <= figure.width or figure.font_size == SMALLEST * u
        assert sizes_taken and all(any(abs(size - step) < 0.01 for step in SIZES) for size in sizes_taken), sizes_taken
    finally:
        Window.remove_widget(figure)


def test_an_evening_through_every_screen_opens_few_fonts(bank, fonts_opened):
    """After the walks above (any family not walked yet is walked now), all at 800x480."""
    for pack in set(pack_names()) - WALKED:
        assert bank.app.open_game(bank.folder / f"{pack}.game") is None
        walk_every_screen(bank, pack)
    at_800 = {font for font in fonts_opened if float(font.split("|")[0]) in SIZES}
    print(
        f"\nfonts opened over every screen of {len(pack_names())} families: {len(fonts_opened)}"
        f" ({len(at_800)} at the scale's sizes); the scale has {len(SIZES)} steps"
    )
    for font in sorted(fonts_opened):
        print("  ", font)
    assert len(fonts_opened) <= 2 * len(SIZES)  # regular and bold of each step, at most


@pytest.mark.parametrize("size", [(800, 480), (1280, 800)], ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_screens_to_look_at_keep_the_scale_at_every_size(bank, size):
    bank.size(*size)
    try:
        assert bank.app.open_game(bank.folder / "evening.game") is None
        problems = []
        for name in LOOK_AT:
            if name == "amount":
                bank.app.show("table")
                bank.app.press("transfer")
                bank.pump(4)
            else:
                show(bank, name)
            problems += off_the_scale(bank, name)
            bank.shot(f"type-{name}")
            close_boxes(bank)
        bank.app.show("table")
        assert not problems, "\n".join(sorted(set(problems)))
    finally:
        bank.size(800, 480)
