"""Driving the touchscreen app under Xvfb: one app per test module, real touches on real widgets.

The ``bank`` fixture (tests/gui/conftest.py) starts the app in a temporary games folder (no phones' server, no GPIO) and gives a
:class:`Hands` object: ``bank.tap("new-game")`` finds the visible widget named so and presses it with a
simulated touch sent through the window (so what is on top really gets it), ``bank.shot("table")``
saves a screenshot under artifacts/screenshots/. The window is made once per process; each module's
app reuses it and resizes it instead of restarting.
"""
from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


class NotOnScreen(AssertionError):
    "The widget the test wants to tap is not visible on the current screen."


class Hands:
    """The banker's hands on the touchscreen, for tests."""

    def __init__(self, app, folder: Path) -> None:
        self.app = app
        self.folder = folder

    # -- the loop ----------------------------------------------------------------------------------
    def pump(self, frames: int = 3) -> None:
        from kivy.base import EventLoop

        for _ in range(frames):
            EventLoop.idle()

    def wait(self, seconds: float) -> None:
        """Let real time pass with the loop running (Clock intervals, the ledger poll)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            self.pump(1)
            time.sleep(0.02)

    def size(self, width: int, height: int) -> None:
        from kivy.core.window import Window

        Window.size = (width, height)
        self.pump(4)

    # -- looking -----------------------------------------------------------------------------------
    @property
    def screen(self) -> str:
        return self.app.manager.current

    @property
    def current(self):
        return self.app.screens[self.screen]

    def _roots(self):
        from kivy.core.window import Window

        # modal boxes and bubbles first: they are on top
        return [w for w in Window.children if w is not self.app.root] + [self.app.layer, self.current]

    def all(self, name: str | None = None, text: str | None = None) -> list:
        found = []
        for root in self._roots():
            for w in root.walk(restrict=True):
                if name is not None and getattr(w, "name", None) != name:
                    continue
                if text is not None and getattr(w, "text", None) != text:
                    continue
                if w.get_root_window() is None or w.width <= 1 or w.height <= 1 or w.opacity == 0:
                    continue
                found.append(w)
        return found

    def find(self, name: str | None = None, text: str | None = None, *, within: float = 0.6):
        """The visible widget so named; waits a moment for one still appearing (a box fading in)."""
        found = self.all(name, text)
        end = time.monotonic() + within
        while not found and time.monotonic() < end:
            self.pump(1)
            time.sleep(0.01)
            found = self.all(name, text)
        if not found:
            raise NotOnScreen(f"nothing named {name!r} / reading {text!r} on the {self.screen} screen")
        return found[0]

    def has(self, name: str | None = None, text: str | None = None, *, within: float = 0.0) -> bool:
        try:
            self.find(name, text, within=within)
        except NotOnScreen:
            return False
        return True

    def bubble(self) -> str | None:
        """The refusal on show, if any."""
        from companion.ui.widgets import ReasonBubble

        for w in self.app.layer.children:
            if isinstance(w, ReasonBubble):
                return w.text
        return None

    # -- touching ----------------------------------------------------------------------------------
    def tap(self, name: str | None = None, text: str | None = None, *, widget=None) -> None:
        """Touch the widget's centre through the window, as a finger would, and let the app react."""
        from kivy.tests.common import UnitTestTouch

        from companion.ui.widgets import Tap

        self._still()  # layout first: a screen just shown (or a list just filled) places its widgets over frames
        self._boxes_gone()
        w = widget if widget is not None else self.find(name, text)
        self._settled(w)  # a list just filled places its tiles over a few frames: scroll once they are placed
        scrolled = self._scroll_into_view(w)
        x, y = self._settled(w)
        Tap.forget_last()  # tests tap faster than a person: the double-tap guard is tested on its own
        touch = UnitTestTouch(x, y)
        touch.touch_down()
        if scrolled:
            # a finger rests until the list has handed the still touch to the button under it (after
            # its scroll timeout; a quicker tap is delivered late, or taken as "stop scrolling")
            end = time.monotonic() + 3.0
            self.pump(1)
            while getattr(w, "state", "down") != "down" and time.monotonic() < end:
                self.pump(1)
                time.sleep(0.01)
            if getattr(w, "state", "down") != "down":
                touch.touch_up()
                raise NotOnScreen(f"the list never handed the touch to {w.name or w.text!r} (at {x:.0f},{y:.0f})")
        else:
            self.pump(1)
        touch.touch_up()
        self.pump(3)
        if scrolled:  # a list may pass the finger's lift on a moment later: wait until the button is up
            end = time.monotonic() + 3.0
            while getattr(w, "state", "normal") != "normal" and time.monotonic() < end:
                self.pump(1)
                time.sleep(0.01)

    def _boxes_gone(self) -> None:
        """Wait while a box fades in or out (while fading out it still catches every touch)."""
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        end = time.monotonic() + 1.0
        while time.monotonic() < end and any(isinstance(c, ModalView) and c._anim_alpha < 1 for c in Window.children):
            self.pump(1)
            time.sleep(0.01)

    def _still(self, frames: int = 60) -> None:
        """Wait until nothing on the screen moves from one frame to the next (the finger aims at what
        is drawn, the way a person waits for a screen to settle)."""
        def places():
            return [(id(w), tuple(w.to_window(*w.pos)), tuple(w.size)) for w in self.current.walk(restrict=True)]

        self.pump(1)
        last = places()
        for _ in range(frames):
            self.pump(1)
            now = places()
            if now == last:
                return
            last = now

    def _settled(self, w) -> tuple[float, float]:
        """The widget's centre in the window once layout has stopped moving it (a grid of many tiles
        takes a few frames to place them all)."""
        last = None
        for _ in range(20):
            here = w.to_window(*w.center)
            if here == last:
                return here
            last = here
            self.pump(1)
        return last

    def _scroll_into_view(self, w) -> bool:
        """Scroll the list holding the widget (if any) to show it; True if it is in a list."""
        from kivy.uix.scrollview import ScrollView

        parent = w.parent
        while parent is not None and not isinstance(parent, ScrollView):
            parent = None if parent.parent is parent else parent.parent  # the window is its own parent
        if parent is None:
            return False
        for _ in range(30):  # until the button's centre is inside the list's visible part (layout may move it)
            parent.scroll_to(w, padding=10, animate=False)
            for effect in (parent.effect_x, parent.effect_y):
                if effect is not None:
                    effect.velocity = 0  # no momentum left from the jump: the touch must not stop a scroll
            self.pump(2)
            x, y = w.to_window(*w.center)
            left, bottom = parent.to_window(parent.x, parent.y)
            if left <= x <= left + parent.width and bottom <= y <= bottom + parent.height:
                break
        return True

    def type(self, text: str, *, widget) -> None:
        """Type into a text field (the on-screen keyboard on the Pi)."""
        widget.text = text
        self.pump(2)

    def keys(self, amount: str) -> None:
        """Type an amount on the keypad, key by key."""
        for key in amount:
            self.tap(f"key-{key}")

    # -- recording ---------------------------------------------------------------------------------
    def shot(self, label: str) -> Path:
        from kivy.core.window import Window

        SHOTS.mkdir(parents=True, exist_ok=True)
        self._boxes_gone()
        self.pump(3)
        target = SHOTS / f"{label}-{Window.width}x{Window.height}.png"
        made = Window.screenshot(str(SHOTS / f".shot-{os.getpid()}.png"))  # unique: suites may run side by side
        os.replace(made, target)
        return target


def start_app(folder: Path, game: Path | None = None, size=(800, 480)):
    from companion.ui.app import configure_kivy

    configure_kivy(size=size)
    from kivy.core.window import Window

    from companion.ui.bank_app import TableBankerApp
    from companion.settings import UiSettings

    Window.size = size
    app = TableBankerApp(game=game, data=folder, settings=UiSettings(folder=str(folder), phones=False, hardware=False))
    app._run_prepare()
    hands = Hands(app, folder)
    hands.pump(4)
    return hands


def stop_app(hands: Hands) -> None:
    """Close the app but keep the window for the next module's app."""
    from kivy.app import App
    from kivy.core.window import Window

    app = hands.app
    app.dispatch("on_stop")
    for child in list(Window.children):
        Window.remove_widget(child)
    hands.pump(3)  # let pending kv callbacks run while the app is still there
    App._running_app = None
