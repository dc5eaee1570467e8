"""More... at 800x480, for every family: the family's other actions on one screen with no scrolling,
only what the family has (no Deeds, Auction or trading unit where there are none), and ending the
game last, apart from the rest."""

from __future__ import annotations

import pytest

from companion.service import Banker
from tests.gui.hands import start_app, stop_app
from tests.random_actions import game_name, variants

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    for pack, options in variants():
        Banker.create(folder / f"{game_name(pack, options)}.game", pack, ["Ann", "Bob", "Cy"], options).close()
    hands = start_app(folder, size=(800, 480))
    yield hands
    stop_app(hands)


def _inside_window(w) -> bool:
    from kivy.core.window import Window

    x, y = w.to_window(w.x, w.y)
    return x >= 0 and y >= 0 and x + w.width <= Window.width + 0.5 and y + w.height <= Window.height + 0.5


@pytest.mark.parametrize("game", [game_name(p, o) for p, o in variants()])
def test_more_shows_the_familys_actions_on_one_screen_and_ends_the_game_last_apart(bank, game):
    from companion.ui import flows

    app = bank.app
    bank.size(800, 480)
    assert app.open_game(bank.folder / f"{game}.game") is None
    bank.tap("more")
    bank.until("the More menu", lambda: bank.screen == "more")
    bank.pump(3)
    screen = bank.current
    scroll = screen.ids.scroll
    assert scroll.children[0].height <= scroll.height + 0.5, "More scrolls at 800x480"

    _, more = flows.buttons_for(app.desk.specs)
    buttons = {}
    for item in more:
        shown = bank.all(f"action-{item['name']}")
        assert shown, f"{item['label']} is not on More"
        assert _inside_window(shown[0]), f"{item['label']} is off the screen"
        buttons[item["name"]] = shown[0]

    # only what the family has: More leads where the table does not, and never to Deeds, Auction or the unit
    places = {w.name for w in bank.all() if getattr(w, "name", "").startswith("go-")}
    assert not places & {"go-deeds", "go-auction", "go-unit", "go-history"}
    assert ("go-loans" in places) == flows.has_debts(app.desk.specs)
    app.show("table")
    bank.pump(2)
    table_top = {w.name for w in bank.all() if getattr(w, "name", "").startswith("menu-")}
    assert ("menu-deeds" in table_top) == flows.has_deeds(app.desk.specs)
    assert ("menu-unit" in table_top) == flows.has_unit(app.desk.specs)

    # ending the game: the last button, bottom right, beyond a gap from everything on its row
    end = buttons.pop("end_game")
    ex, ey = end.to_window(end.x, end.y)
    others = list(buttons.values()) + [w for w in screen.walk() if getattr(w, "name", "").startswith("go-")]
    for w in others:
        x, y = w.to_window(w.x, w.y)
        if y >= ey + end.height - 0.5:
            continue  # above it
        assert y >= ey - 0.5, f"{w.text} sits below End the game"
        assert x + w.width <= ex - 16 * app.u, f"{w.text} sits with End the game"


def test_the_game_of_life_more_has_no_deeds_auction_or_unit_and_its_ending_is_apart(bank):
    from companion.ui import flows

    app = bank.app
    assert app.open_game(bank.folder / "game-of-life.game") is None
    view = flows.more_view(app.desk.specs)
    assert not flows.has_unit(app.desk.specs) and "auction" not in app.desk.specs
    assert view["ending"]["name"] == "end_game"
    assert all(a["name"] != "end_game" for g in view["groups"] for a in g["actions"])
    assert [p["name"] for p in view["places"]] == ["loans", "requests", "join", "settings", "over", "start"]
    app.show("more")
    bank.pump(3)
    bank.shot("more-game-of-life")


@pytest.mark.parametrize("pack", ["classic", "game-of-life"])
def test_a_finished_games_more_greys_every_action_with_the_reason_and_keeps_undo_naming_the_end(bank, pack):
    """Ann's game is ended by mistake: More offers nothing that cannot be done (each action greyed, a
    tap saying the engine's reason, ending it again the rule's), and Undo, naming the end, takes it back."""
    from companion.core import engine
    from tests.gui.walk import box_open

    app = bank.app
    bank.size(800, 480)
    path = bank.folder / f"finished-{pack}.game"
    Banker.create(path, pack, ["Ann", "Bob", "Cy"], {}).close()
    assert app.open_game(path) is None
    desk = app.desk
    bank.tap("more")
    bank.until("the More menu", lambda: bank.screen == "more")
    assert not bank.has("undo"), "More shows Undo while the game goes on"
    bank.tap("action-end_game")
    bank.until("the question", lambda: box_open(bank) is not None)
    bank.tap("confirm-yes")
    bank.until("the game to end", lambda: bool(desk.table.get("over")))
    app.show("more")
    bank.pump(3)

    actions = [w for w in bank.all() if str(getattr(w, "name", "")).startswith("action-")]
    assert len(actions) > 3
    for tap in actions:
        name = tap.name.removeprefix("action-")
        why = engine.closed(desk.table, name) or desk.preview({"action": name})[1]
        assert why, f"{tap.text!r} is live on a finished game"
        assert tap.kind == "disabled", f"{tap.text!r} is not greyed on a finished game"
        assert tap.promise is None and "$" not in tap.text, f"{tap.text!r} shows money it cannot move"
    for tap in [actions[0], bank.find("action-end_game")]:
        version = desk.version
        bank.tap(widget=tap)
        said = bank.bubble()
        name = tap.name.removeprefix("action-")
        assert said and said.lower() == (desk.closed(name) or "").lower(), f"{tap.text!r} said {said!r}"
        assert desk.version == version and bank.screen == "more"
    assert desk.closed("end_game") != engine.GAME_OVER  # ending again: the rule's own reason

    # Undo names the end, and takes it back: the actions are live again
    (seq, sentence) = desk.taken_back("undo")
    undo = bank.find("undo")
    assert sentence.startswith("Game over") and undo.text == f"Undo: {sentence}"
    assert undo.promise == ("undo", seq, sentence)
    bank.shot(f"more-finished-{pack}")
    bank.tap(widget=undo)
    bank.until("the game to go on", lambda: not desk.table.get("over"))
    app.show("more")
    bank.pump(3)
    assert all(w.kind != "disabled" for w in bank.all() if str(getattr(w, "name", "")).startswith("action-"))
    assert not bank.has("undo")
