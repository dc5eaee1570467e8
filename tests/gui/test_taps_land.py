"""Taps land where they were aimed: a finger's second tap never reaches what the first one's screen
change put under it.

On every screen that closes, the banker double-taps its Back, Cancel, No or confirm with the X
server's pointer (xdotool under Xvfb), the second finger going down 150 ms after the first, while two
CPU-bound processes run beside the app. The first tap does what it says (the screen closes, the
payment is made once); the second lands on whatever the new screen has there (the table's Undo bar,
the Unit button, a chooser's tile) and must do nothing: a widget takes a tap only once it has been in
sight for the tap guard's quarter of a second (companion.ui.widgets.Aimed). Each check waits on the
screen and on the witness having seen both fingers go down and come up.
"""

from __future__ import annotations

import subprocess
import sys
import time

import pytest

from companion.service import Banker
from tests.gui.hands import start_app, stop_app

pytestmark = pytest.mark.gui

PLAYERS = ["Ann", "Bob", "Cy"]


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    with Banker.create(folder / "landing.game", "classic", PLAYERS, {}) as banker:
        banker.do({"action": "buy", "player": "Bob", "deed": "Baltic Avenue"})
        banker.do({"action": "salary", "player": "Ann"})  # Undo is live: a leak onto it would show
    hands = start_app(folder, real_pointer=True)
    busy = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(2)]  # the load
    try:
        yield hands
    finally:
        for proc in busy:
            proc.kill()
            proc.wait()
        stop_app(hands)


def double_tap(hands, name: str) -> list:
    """Double-tap the widget ``name`` (150 ms between the fingers) and wait until the app has seen both."""
    from companion.ui.widgets import FINGER_CLOCK
    from tests.gui.pointer import double_at
    from tests.gui.witness import Witness

    hands._still()
    hands._boxes_gone()
    w = hands.find(name, within=hands.patience)
    for _ in range(5):  # a box lays out its question over a few frames: aim once it is still and seen
        x, y = hands._settled(w)
        hands._seen(w)
        hands.pump(10)
        if hands._settled(w) == (x, y) and not w.too_new(FINGER_CLOCK.counts_from()) and not hands.app.layer.children:
            break
    witness = Witness(hands.app)
    try:
        double_at(hands.pointer, x, y)
        hands.until("both fingers to reach the window", lambda: len(witness.sightings) >= 2, 10)
        hands._still()
        seen = [(x.screen, x.name, round(x.in_sight or 0, 3)) for x in witness.sightings]
    finally:
        witness.close()
    from kivy.core.window import Window

    hands.until("the pointer to be up", lambda: not any(t.grab_current for t in getattr(Window, "_touches", [])), 2)
    return seen


def second_finger_in_a_held_turn(hands, name: str, changed, seconds: float, *, same_button: bool) -> list:
    """Tap the widget ``name`` with the real pointer; at the first frame drawn once ``changed()`` holds,
    the next turn's work holds the loop ``seconds`` (the scenario, not a wait) and a second finger
    comes meanwhile on the same spot, through the X server, read only when the loop turns again.
    ``same_button``: the guard of a second tap on the button tapped last is the one under test; else it
    is set aside and the guard under test is the sight's. Returns what the witness saw under each finger."""
    from kivy.clock import Clock
    from kivy.core.window import Window

    from companion.ui.widgets import Tap
    from tests.gui.pointer import FINGER
    from tests.gui.witness import Witness

    hands._still()
    w = hands.find(name)
    x, y = hands._settled(w)
    hands._seen(w)
    pointer = hands.pointer
    held: list[float] = []

    def hold(_dt: float) -> None:
        if not same_button:
            Tap.forget_last()
        subprocess.run([pointer.xdotool, *pointer.over(x, y), *FINGER], check=True)
        time.sleep(seconds)
        held.append(time.monotonic())

    def drawn(*_: object) -> None:
        if changed():
            Window.unbind(on_flip=drawn)
            Clock.schedule_once(hold, 0)  # the next turn's work, after the change's first frame

    witness = Witness(hands.app)
    Window.bind(on_flip=drawn)
    try:
        pointer.press_at(x, y)
        hands.until("the turn held", lambda: bool(held))
        hands.until("the second finger to reach the window", lambda: len(witness.sightings) >= 2, 10)
        hands._still()
        return [(s.screen, s.name, round(s.in_sight or 0, 3)) for s in witness.sightings]
    finally:
        Window.unbind(on_flip=drawn)
        witness.close()


def opened(hands, *names: str, screen: str) -> None:
    for name in names:
        hands.tap(name)
    hands.until(f"the {screen} screen", lambda: hands.screen == screen)


#: (taps that open it, the screen it opens, the closing button)
CLOSING = [
    (("more",), "more", "back"),
    (("menu-deeds",), "deeds", "back"),
    (("menu-history",), "history", "back"),
    (("menu-unit",), "unit", "back"),
    (("more", "go-loans"), "loans", "back"),
    (("auction", "choice-Oriental Avenue"), "auction", "back"),
    (("more", "go-settings"), "settings", "back"),
    (("more", "go-join"), "join", "back"),
    (("more", "go-requests"), "requests", "back"),
    (("more", "go-over"), "over", "back"),
    (("more", "action-trade"), "trade", "cancel"),
    (("rent",), "ask", "cancel"),
    (("pay",), "amount", "cancel"),
]


@pytest.mark.parametrize("opening, screen, closing", CLOSING, ids=[c[1] for c in CLOSING])
def test_a_double_tap_on_a_closing_button_closes_once(table, opening, screen, closing):
    hands = table
    desk = hands.app.desk
    version = desk.version
    opened(hands, *opening, screen=screen)
    double_tap(hands, closing)
    assert hands.screen == "table", f"the second tap went on from the table to {hands.screen}"
    assert desk.version == version, f"the second tap did something: {desk.banker.log(version)[-1].summary}"


def test_a_double_tap_on_confirm_pays_once_and_undoes_nothing(table):
    hands = table
    desk = hands.app.desk
    version, ann = desk.version, desk.table["accounts"]["Ann"]
    opened(hands, "pay", screen="amount")
    for key in "50":
        hands.tap(f"key-{key}")
    double_tap(hands, "confirm")  # the table's Undo bar lies under the amount screen's confirm
    hands.until("the payment", lambda: desk.version > version)
    hands._still()
    assert desk.version == version + 1, f"the second tap did something: {desk.banker.log(version)[-1].summary}"
    assert hands.screen == "table" and desk.table["accounts"]["Ann"] == ann - 50
    assert desk.banker.log(version)[-1].summary == "Ann paid the bank $50"


def test_a_double_tap_on_a_chooser_tile_buys_once(table):
    hands = table
    desk = hands.app.desk
    version = desk.version
    opened(hands, "buy", screen="ask")
    double_tap(hands, "choice-Mediterranean Avenue")
    hands.until("the purchase", lambda: desk.version == version + 1)
    assert hands.screen == "table" and desk.table["deeds"]["Mediterranean Avenue"]["owner"] == "Ann"


def test_a_button_in_sight_for_less_than_the_guard_takes_no_tap(table):
    """The guard itself, whatever the machine's pace: with a guard longer than the test, a tap on the
    live Undo bar right after the view changed is swallowed; with the real guard, once Undo has been
    in sight a quarter of a second, the same tap takes back the last action."""
    from companion.ui.widgets import SEEN_SECONDS, Aimed, Sight
    from tests.gui.witness import Witness

    hands = table
    desk = hands.app.desk
    version = desk.version
    undo = hands.find("undo")
    x, y = hands._settled(undo)
    witness = Witness(hands.app)
    try:
        Sight.changed()
        Aimed.seen_seconds = 600.0
        hands.pointer.press_at(x, y)
        hands.until("the finger to reach the window", lambda: len(witness.sightings) >= 1, 10)
        hands._still()
        assert desk.version == version, "a tap on a widget just put in sight was taken"
    finally:
        Aimed.seen_seconds = SEEN_SECONDS
        witness.close()
    hands.tap("undo")  # a person's tap: Undo has been in sight long enough
    hands.until("the undo", lambda: desk.version == version + 1)
    hands.tap("redo")
    hands.until("the redo", lambda: desk.version == version + 2)


@pytest.mark.parametrize("drawn", [False, True], ids=["before the table is drawn", "after its first frame"])
def test_a_finger_that_comes_while_the_loop_is_held_after_back_is_swallowed(table, drawn):
    """Ann taps Back on More twice. Under load the work after the change (letting More go, setting the
    kept screens back) holds the loop longer than the guard, before the frame that draws the table or
    just after it, and her second finger is read only then: it came when the table's Undo had not
    been in sight a moment, and is swallowed. In sight a moment, the same tap takes back the last
    action. The finger comes the way a display's fingers do: queued, and handed on by the loop's next
    turn (an input provider of the test's own), whatever the machine's pace between the frame and
    the hold."""
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.input.provider import MotionEventProvider
    from kivy.tests.common import UnitTestTouch

    from companion.ui.widgets import SEEN_SECONDS, Sight, Tap

    class Glass(MotionEventProvider):
        """Fingers on the glass, read by the loop's next look for them."""

        def __init__(self) -> None:
            super().__init__("glass", None)
            self.waiting: list[tuple[str, UnitTestTouch]] = []

        def update(self, dispatch_fn) -> None:
            while self.waiting:
                dispatch_fn(*self.waiting.pop(0))

    hands = table
    app, desk = hands.app, table.app.desk
    version = desk.version
    undo = hands.find("undo")  # the table is kept: the same Undo, in the same place, when it is back
    x, y = undo.to_window(*undo.center)
    opened(hands, "more", screen="more")
    glass = Glass()
    EventLoop.add_input_provider(glass)
    try:
        app.to_table()  # Back: the table's Undo under the finger from the next frame drawn
        if drawn:  # the table's first frame drawn, and no more: the hold comes right after it
            hands.until("the table's first frame", lambda: not Sight._pending)
        Clock.tick()  # the loop turns once: the change's own work runs (letting More go) ...
        time.sleep(SEEN_SECONDS + 0.1)  # ... and holds it (the scenario itself, not a wait): no frame drawn
        Tap.forget_last()  # not the same button tapped twice: the guard under test is the sight's
        finger = UnitTestTouch(x, y)
        glass.waiting.append(("begin", finger))  # it came meanwhile; the next turn reads it
        hands.pump(1)
        glass.waiting.append(("end", finger))
        hands.pump(1)
        hands._still()
    finally:
        EventLoop.remove_input_provider(glass)
    assert desk.version == version, "a finger read late, in a held turn, reached Undo"
    hands.tap("undo")  # a person's tap, once the table has been in sight
    hands.until("the undo", lambda: desk.version == version + 1)
    hands.tap("redo")
    hands.until("the redo", lambda: desk.version == version + 2)


def test_a_second_finger_the_window_reads_only_after_a_held_turn_is_swallowed(table):
    """Ann taps Cancel on the keypad twice. The table is drawn at once, and then the work after the
    change (setting the keypad back, letting go what the visit made) holds the loop past the guard;
    her second finger comes meanwhile, through the X server, and the window reads it only when the
    loop turns again, a quarter second after the table was drawn. It came while the table's Undo had
    hardly been in sight, and is swallowed. (Kivy stamps a touch when the window reads it, not when
    the finger went down: the guard counts it from no later than the loop's look for fingers before.)"""
    from companion.ui.widgets import SEEN_SECONDS

    hands = table
    app, desk = hands.app, table.app.desk
    version = desk.version
    opened(hands, "pay", screen="amount")
    seen = second_finger_in_a_held_turn(
        hands, "cancel", lambda: app.manager.current == "table", SEEN_SECONDS + 0.1, same_button=False
    )
    assert hands.screen == "table", seen
    assert desk.version == version, f"a finger read late reached Undo: {desk.banker.log(version)[-1].summary} ({seen})"
    hands.tap("undo")  # a person's tap, once the table has been in sight
    hands.until("the undo", lambda: desk.version == version + 1)
    hands.tap("redo")
    hands.until("the redo", lambda: desk.version == version + 2)


def test_a_double_tap_on_no_closes_the_box_and_asks_nothing_again(table):
    """The box fades out for a moment after No, taking every tap meanwhile (so the chooser under it
    gets none): on a slow frame the second finger reaches the fading box, which answers only once."""
    from tests.gui.walk import box_open

    hands = table
    desk = hands.app.desk
    version = desk.version
    opened(hands, "more", "action-bankrupt", screen="ask")
    hands.tap("choice-bank")
    hands.until("the box", lambda: hands.has("confirm-no"))
    box = box_open(hands)
    answers: list[str] = []
    box.no_action = lambda: answers.append("no")
    try:
        seen = double_tap(hands, "confirm-no")  # under No, once the box is gone: the chooser's tiles
        hands.until(f"the box to close (fingers on {seen})", lambda: box_open(hands) is None, 10)
        hands._still()
        assert answers == ["no"], f"the box answered {answers} to a double tap (fingers on {seen})"
        assert hands.screen == "ask" and desk.version == version, seen
    finally:
        if box_open(hands) is not None:
            hands.tap("confirm-no")
            hands.until("the box to close", lambda: box_open(hands) is None, 10)


def test_a_box_answers_once(table):
    """Yes or No, the first answer is the box's only one: taps that reach it while it fades out do nothing."""
    from companion.ui.widgets import ConfirmBox

    answers: list[str] = []
    box = ConfirmBox(
        question="Delete the game?", yes_action=lambda: answers.append("yes"), no_action=lambda: answers.append("no")
    )
    box.yes()
    box.yes()
    box.no()
    assert answers == ["yes"]


def test_a_double_tap_on_salary_read_only_after_a_held_turn_collects_once(table):
    """The banker taps Salary twice. The first tap's entry is written and drawn, and then the turn's work
    holds the loop past the double-tap guard's 0.4 s; the second finger comes meanwhile and is read
    only after. It was the second half of a double tap all the same: the player collects $200 once."""
    from companion.ui.widgets import Tap

    hands = table
    app, desk = hands.app, table.app.desk
    app.to_table()  # where the last test left the banker does not matter
    hands.until("the table", lambda: hands.screen == "table")
    version, player = desk.version, desk.state()["turn"]["player"]
    seen = second_finger_in_a_held_turn(
        hands, "salary", lambda: desk.version > version, Tap.GUARD_SECONDS + 0.1, same_button=True
    )
    summaries = [e.summary for e in desk.banker.log(version)]
    assert summaries == [f"{player} collected $200 salary"], f"{summaries} ({seen})"
    hands.tap("undo")
    hands.until("the undo", lambda: desk.version == version + 2)
