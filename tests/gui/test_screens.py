"""Every screen, at the official 7-inch 800x480, at 1024x600 and at 1280x800, in a game well under
way: each is drawn, nothing falls off the edge, every touch target is big enough, and a screenshot
is saved under artifacts/screenshots/ to look at."""

import pytest

from tests.gui.hands import SCREENS as EVERY_SCREEN, start_app, stop_app
from tests.gui.survey import look

pytestmark = pytest.mark.gui

SIZES = [(800, 480), (1024, 600), (1280, 800)]
#: Every screen, the amount and the chooser with them, from the start screen on.
SCREENS = ["start", "setup", "table", "amount", "ask"] + [
    s for s in EVERY_SCREEN if s not in ("start", "setup", "table")
]


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    from companion.service import Banker

    folder = tmp_path_factory.mktemp("games")
    players = [
        {"name": n, "colour": c}
        for n, c in [
            ("Ann", "red"),
            ("Bob", "blue"),
            ("Cy", "green"),
            ("Dee", "yellow"),
            ("Eve", "purple"),
            ("Flo", "orange"),
        ]
    ]
    with Banker.create(folder / "evening.game", "classic", players, {"free_parking": "true"}) as b:
        for action in [
            {"action": "buy", "player": "Ann", "deed": "Boardwalk"},
            {"action": "buy", "player": "Ann", "deed": "Park Place"},
            {"action": "build", "player": "Ann", "deed": "Boardwalk"},
            {"action": "buy", "player": "Bob", "deed": "Reading Railroad"},
            {"action": "mortgage", "player": "Bob", "deed": "Reading Railroad"},
            {"action": "buy", "player": "Cy", "deed": "Baltic Avenue"},
            {"action": "tax", "player": "Dee", "tax": "luxury"},
            {"action": "jail", "player": "Eve"},
            {"action": "miss_turns", "player": "Flo", "turns": 2},
            {"action": "rent", "payer": "Bob", "deed": "Boardwalk"},
            {"action": "next_turn"},
        ]:
            b.do(action)
    hands = start_app(folder)
    yield hands
    stop_app(hands)


def _prepare(bank, name):
    app = bank.app
    if bank.screen != "table":  # each screen reached from the table, as the banker reaches it: the last one is let go
        app.show("table")
        look(bank)
    if name == "amount":
        app.press("transfer")
    elif name == "ask":
        app.press("buy")
    elif name == "setup":
        app.screens["setup"].form = None
        app.show("setup")
    elif name == "deeds":
        app.screens["deeds"].open_deed("Boardwalk")
        app.show("deeds")
    elif name == "auction":
        app.screens["auction"].open_lot("Marvin Gardens")
        app.show("auction")
    elif name == "trade":
        app.screens["trade"].start("Ann", give=["Park Place"])
        app.show("trade")
    elif name == "card":
        app.screens["card"].deed = "Boardwalk"
        app.show("card")
    else:
        app.show(name)
    look(bank)  # laid out without drawing: the screenshot draws it


def _too_small(bank):
    """Touch targets under 9 mm (48 px at 800x480 scale) and text under 18 px at that scale."""
    from kivy.uix.label import Label

    from companion.ui.widgets import Tap

    u = bank.app.u
    small = []
    for w in bank.all():
        if isinstance(w, Tap) and not w.disabled and (w.height < 47 * u or w.width < 47 * u):
            small.append(f"button {w.text!r} {w.width:.0f}x{w.height:.0f}")
        if isinstance(w, Label) and w.text and w.font_size < 17.5 * u:
            small.append(f"text {w.text[:30]!r} at {w.font_size:.0f}px")
    return small


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_every_screen_fits_and_reads_at_arms_length(bank, size):
    bank.size(*size)
    problems = {}
    for name in SCREENS:
        _prepare(bank, name)
        assert bank.screen == name
        small = _too_small(bank)
        if small:
            problems[name] = small
        bank.shot(name)
    bank.app.show("table")
    assert not problems, "\n".join(f"{k}: {v}" for k, v in problems.items())


def test_the_light_theme_is_as_readable(bank):
    bank.size(800, 480)
    bank.app.set_theme("light")
    for name in ("table", "amount", "deeds"):
        _prepare(bank, name)
        bank.shot(f"{name}-light")
    bank.app.set_theme("dark")
    bank.app.show("table")
