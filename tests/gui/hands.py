"""Driving the touchscreen app under Xvfb: one app per test module, taps on real widgets.

:class:`Hands` is what a test does with the screen: look for a widget by its name, tap it, type a
name, read a refusal, take a screenshot. Two pairs of hands do the tapping:

- :class:`PointerHands` taps with the X server's pointer (xdotool, see :mod:`tests.gui.pointer`) at a
  person's pace, 150 to 600 ms apart, jittered: the event goes the whole way a finger's goes. Each
  tap waits for its button to be drawn, enabled and still, and then for the button to say it was
  released; a tap that never arrives fails the test at once (:class:`TapLost`). The evenings of
  every family (tests/gui/test_family_games.py) and the no-tap-is-lost tests use these.
- :class:`SimulatedHands` presses widgets with touch objects made in Python and sent through the
  window: quick, for the tests of single screens.

``start_app`` starts the app in a temporary games folder (no phones' server, no GPIO) and gives the
hands; ``shot("table")`` saves a screenshot under artifacts/screenshots/. The window is made once per
process; each module's app reuses it and resizes it instead of restarting.
"""

from __future__ import annotations

import os
import random
import tempfile
import time
from pathlib import Path

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))

SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"

#: Every screen that can be shown without an action under way, in the order the walks over every screen
#: show them (the table first; the start and new-game screens last).
SCREENS = [
    "table",
    "more",
    "deeds",
    "auction",
    "trade",
    "loans",
    "history",
    "requests",
    "join",
    "settings",
    "card",
    "over",
    "start",
    "setup",
]

#: A person's pace between two taps, in seconds.
HUMAN_PACE = (0.15, 0.6)

#: Frames a second while a test waits on the app's state (the display's pace, as Kivy runs it).
WAITING_FPS = 60


class NotOnScreen(AssertionError):
    "The widget the test wants to tap is not visible on the current screen."


class TapLost(AssertionError):
    "A tap the banker made never reached the screen or the ledger."


class Hands:
    """The banker's hands on the touchscreen, for tests: looking, waiting and tapping."""

    def __init__(self, app, folder: Path) -> None:
        self.app = app
        self.folder = folder
        self.taps = 0

    # -- the loop ----------------------------------------------------------------------------------
    def turn(self) -> None:
        """One turn of the app's loop: a frame (Clock, layout, drawing)."""
        from kivy.base import EventLoop

        EventLoop.idle()

    def pump(self, frames: int = 3) -> None:
        for _ in range(frames):
            self.turn()

    def until(self, what: str, ready, seconds: float = 20.0) -> None:
        """Keep the app running until ``ready()`` is true; if it never is, say what was awaited.

        While it waits the loop turns at the display's pace even where a test runs its frames as fast
        as they come (the law's walk): what is awaited is mostly a timer (a list's quarter second
        before it hands a still touch on, a box fading), and a loop turning without pause would only
        spin a core until it runs out."""
        if ready():
            return
        from kivy.clock import Clock

        end = time.monotonic() + seconds
        fps = Clock._max_fps
        Clock._max_fps = fps or WAITING_FPS
        try:
            while not ready():
                if time.monotonic() > end:
                    raise TapLost(f"waited {seconds:.0f} s for {what} (screen: {self.screen}, said: {self.bubble()!r})")
                self.turn()
        finally:
            Clock._max_fps = fps

    def wait(self, seconds: float) -> None:
        """Let real time pass with the loop running (a timer a test means to see run out)."""
        end = time.monotonic() + seconds
        self.until(f"{seconds} s to pass", lambda: time.monotonic() >= end, seconds=seconds + 5)

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
        found: list = []

        def shown() -> bool:
            found[:] = self.all(name, text)
            for _ in range(40):  # an answer further down a chooser whose tiles are made as it scrolls
                if found or not (name or "").startswith(("choice-", "in-", "out-")) or not self._swipe_for_more():
                    break
                found[:] = self.all(name, text)
            return bool(found)

        try:
            self.until(f"{name or text!r} on show", shown, seconds=within)
        except TapLost:
            raise NotOnScreen(f"nothing named {name!r} / reading {text!r} on the {self.screen} screen") from None
        return found[0]

    def _swipe_for_more(self) -> bool:
        """Swipe the chooser's list down a screenful, as the banker does looking for an answer further
        on, when it has answers below the tiles made so far (they are made as the list comes near
        them); False when every answer has its tile."""
        screen = self.current
        if getattr(screen, "made_all", True):
            return False
        scroll, grid = screen.ids.scroll, screen.ids.choices
        if grid.height <= scroll.height or scroll.scroll_y <= 0:
            screen.make_shown()  # laid out yet? the list makes what its height now asks for
            self.turn()
            return not getattr(screen, "made_all", True) and scroll.scroll_y > 0
        scroll.scroll_y = max(0.0, scroll.scroll_y - scroll.height / (grid.height - scroll.height))
        if scroll.effect_y is not None:
            scroll.effect_y.velocity = 0
        self.pump(2)
        return True

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
    def tap(self, name: str | None = None, text: str | None = None, *, widget=None):
        """Tap the widget named ``name`` (or reading ``text``, or ``widget``) once it is on show, drawn
        where it will stay, and let the app answer. Returns the widget."""
        self._still()  # layout first: a screen just shown (or a list just filled) places its widgets over frames
        self._boxes_gone()
        w = widget if widget is not None else self.find(name, text, within=self.patience)
        self._settled(w)
        self._scroll_into_view(w)
        self._press(w)
        self.taps += 1
        if self.after_tap is not None:
            self.after_tap(w)
        return w

    #: Called after every tap with the widget tapped (a referee checking the ledger against the screen).
    after_tap = None

    #: How long a tap waits for its widget to appear (found at once when it is there; a loaded machine
    #: may take seconds to lay out a screen just shown).
    patience = 10.0

    def _press(self, w) -> None:
        raise NotImplementedError

    def type(self, text: str, *, widget) -> None:
        """Type into a text field (the on-screen keyboard on the Pi)."""
        widget.text = text
        self.pump(2)

    def keys(self, amount: str) -> None:
        """Type an amount on the keypad, key by key."""
        for key in amount:
            self.tap(f"key-{key}")

    def _boxes_gone(self) -> None:
        """Wait while a box fades in or out (while fading out it still catches every touch)."""
        from kivy.core.window import Window
        from kivy.uix.modalview import ModalView

        self.until(
            "a box to finish opening or closing",
            lambda: not any(isinstance(c, ModalView) and c._anim_alpha < 1 for c in Window.children),
            5.0,
        )

    def _still(self, frames: int = 60) -> None:
        """Wait until nothing on the screen moves from one frame to the next (the finger aims at what
        is drawn, the way a person waits for a screen to settle)."""

        def places():
            # every widget's place in the window, in one pass: the screen's lists and layouts only shift
            # what they hold (to_parent is a translation), so each child's offset is its parent's plus that
            found: list = []

            def visit(w, dx: float, dy: float) -> None:
                found.append((id(w), w.x + dx, w.y + dy, w.width, w.height))
                ox, oy = w.to_parent(0, 0)
                for child in w.children:
                    visit(child, dx + ox, dy + oy)

            visit(self.current, *self.current.to_window(0, 0))
            return found

        self.turn()
        last = places()
        for _ in range(frames):
            self.turn()
            now = places()
            if now == last:
                return
            last = now

    def _settled(self, w) -> tuple[float, float]:
        """The widget's centre in the window once layout has stopped moving it (a grid of many tiles
        takes a few frames to place them all)."""
        last = None
        for _ in range(20):
            here = (*w.to_window(*w.center), *w.size)
            if here == last:
                return here[:2]
            last = here
            self.turn()
        return last[:2]

    @staticmethod
    def _list_of(w):
        """The scrolling list holding the widget, if any."""
        from kivy.uix.scrollview import ScrollView

        parent = w.parent
        while parent is not None and not isinstance(parent, ScrollView):
            parent = None if parent.parent is parent else parent.parent  # the window is its own parent
        return parent

    @staticmethod
    def _lists_of(w) -> list:
        """Every scrolling list holding the widget, the innermost first."""
        from kivy.uix.scrollview import ScrollView

        found = []
        parent = w.parent
        while parent is not None:
            if isinstance(parent, ScrollView):
                found.append(parent)
            parent = None if parent.parent is parent else parent.parent  # the window is its own parent
        return found

    @staticmethod
    def _why_not_taken(w, touch) -> str:
        """Why a widget the finger came down on did not take the touch, as far as the tap guard says."""
        from companion.ui.widgets import touched_at

        if not hasattr(w, "too_new") or not w.too_new(touched_at(touch)):
            return ""
        from companion.ui.widgets import Sight

        down = touched_at(touch)
        why = (
            f"the view changed {Sight.changed_at - down:.3f} s after it (the window's children: "
            f"{[type(c).__name__ for c in w.get_root_window().children] if w.get_root_window() else []})"
            if Sight.changed_at > down
            else f"it was put, moved or shown {max(w._put_at, w._shifted_at) - down:.3f} s after it"
        )
        return f": the tap guard saw it come into sight {w.appeared_at() - down:.3f} s after the finger: {why}"

    @staticmethod
    def _what_changed(w, aimed_at: tuple, took: list) -> str:
        """What became of the widget between the finger going down and the list handing the touch on."""
        if w.get_root_window() is None:
            where = "it was no longer on the window (made anew meanwhile)"
        else:
            now = (*w.to_window(*w.center), *w.size)
            where = "" if now == aimed_at else f"it moved from {aimed_at} to {now}"
        names = [str(getattr(t, "name", "") or type(t).__name__) for t in took]
        return "".join(f"; {part}" for part in (where, f"the touch went to {names}" if names else "") if part)

    def _scroll_into_view(self, w) -> bool:
        """Scroll the list holding the widget (if any) to show it, as the banker's swipe would, and let
        it come to rest; True if it is in a list."""
        parent = self._list_of(w)
        if parent is None:
            return False

        def shown() -> bool:
            x, y = w.to_window(*w.center)
            left, bottom = parent.to_window(parent.x, parent.y)
            return left <= x <= left + parent.width and bottom <= y <= bottom + parent.height

        for _ in range(30):  # until the button's centre is inside the list's visible part (layout may move it)
            if shown():
                break  # a list scrolled when it need not be springs back, and a touch on a moving list only stops it
            parent.scroll_to(w, padding=10, animate=False)
            for effect in (parent.effect_x, parent.effect_y):
                if effect is not None:
                    effect.velocity = 0  # no momentum left from the jump: the touch must not stop a scroll
            self.pump(2)
        effects = [e for e in (parent.effect_x, parent.effect_y) if e is not None]
        self.until("the list to come to rest", lambda: all(abs(e.velocity) < 1 for e in effects), 5.0)
        self._settled(w)
        return True

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

    def close(self) -> None:
        """Let go of the screen (nothing to release for simulated touches)."""


class SimulatedHands(Hands):
    """Touches made in Python and sent through the window (so what is on top really gets them)."""

    def _press(self, w) -> None:
        from companion.ui.widgets import Aimed, Tap

        x, y = self._settled(w)
        scrolled = self._list_of(w) is not None
        Tap.forget_last()  # these touches come faster than a person's: the double-tap guard is tested on its own
        Aimed.seen_seconds = 0  # and than a person sees: the tap guard is tested with the real pointer
        answered: list[bool] = []
        listens = "on_release" in w.events() and not w.disabled

        def heard(*_) -> None:
            answered.append(True)

        if listens:
            w.fbind("on_release", heard)
        try:
            self._touch(w, x, y, scrolled)
            if listens:  # a list hands a quick tap's lift on after a delay (Kivy's ScrollView, 0.2 s): wait for it
                try:
                    self.until(f"{w.name or w.text!r} to answer the tap", lambda: bool(answered), 5.0)
                except TapLost:
                    pass  # something on top took it (a box): what the test asserts next says whether that was right
        finally:
            if listens:
                w.funbind("on_release", heard)

    def _touch(self, w, x: float, y: float, scrolled: bool) -> None:
        from kivy.tests.common import UnitTestTouch

        touch = UnitTestTouch(x, y)
        touch.touch_down()
        aimed_at = (x, y, *w.size)
        if scrolled:
            # a finger rests until the list has handed the still touch to the button under it: Kivy's
            # ScrollView decides after its scroll timeout and three frames, however long those frames
            # take on a busy machine (a quicker tap is delivered late, or taken as "stop scrolling")
            lists = self._lists_of(w)
            self.until(
                f"the list to hand the touch on to {w.name or w.text!r}",
                lambda: not any(sv._touch is touch for sv in lists),
                60.0,  # only a backstop: the list always decides, three frames are seconds at worst
            )
            if getattr(w, "state", "down") != "down":
                took = [g() for g in touch.grab_list if g() is not None]
                touch.touch_up()
                raise NotOnScreen(
                    f"the list handed the touch on, and {w.name or w.text!r} (at {x:.0f},{y:.0f}) did not take it"
                    f"{self._why_not_taken(w, touch)}{self._what_changed(w, aimed_at, took)}"
                )
        else:
            self.pump(1)
        touch.touch_up()
        self.pump(3)
        if scrolled:  # a list may pass the finger's lift on a moment later: wait until the button is up
            self.until("the button to come up", lambda: getattr(w, "state", "normal") == "normal", 3.0)


class PointerHands(Hands):
    """The banker's finger through the X server: each tap at a person's pace after the last one
    (jittered in :data:`HUMAN_PACE`), on a widget drawn, enabled and still, and answered: the tap
    waits for the widget to report its release (a text field: its focus). A tap the app never got
    raises :class:`TapLost` naming the widget."""

    patience = 20.0  # a screen on a loaded machine may take a while to draw what the finger aims at

    def __init__(self, app, folder: Path, pointer, *, pace: tuple[float, float] = HUMAN_PACE, seed: int = 12) -> None:
        super().__init__(app, folder)
        self.pointer = pointer
        self.pace = pace
        self._rng = random.Random(seed)
        self._last = 0.0

    def turn(self) -> None:
        self.pointer.turn()

    def close(self) -> None:
        self.pointer.close()

    def _why_not_ready(self, w) -> str | None:
        """Why the finger cannot aim at ``w`` yet (None when it is drawn inside the window and enabled)."""
        from kivy.core.window import Window

        if w.get_root_window() is None:
            return "not on the window"
        if w.disabled or w.opacity == 0:
            return "disabled" if w.disabled else "hidden"
        x, y = w.to_window(*w.center)
        return None if 0 < x < Window.width and 0 < y < Window.height else f"outside the window at ({x:.0f}, {y:.0f})"

    def _aim(self, w):
        """``w`` once it is ready to be tapped; if the screen has drawn it anew meanwhile (a list
        refilled), the new widget of the same name."""
        name = getattr(w, "name", "") or None
        aimed = [w]

        def ready() -> bool:
            if self._why_not_ready(aimed[0]) is None:
                return True
            if name is not None and aimed[0].get_root_window() is None:
                found = [c for c in self.all(name) if self._why_not_ready(c) is None]
                if found:
                    aimed[0] = found[0]
                    return True
            return False

        try:
            self.until("the widget to be drawn and enabled", ready)
        except TapLost:
            label = name or getattr(w, "text", "") or type(w).__name__
            raise TapLost(
                f"{label!r} never ready to tap: {self._why_not_ready(aimed[0])} (screen: {self.screen})"
            ) from None
        return aimed[0]

    def _press(self, w, after: float | None = None) -> None:
        w = self._aim(w)
        label = getattr(w, "name", "") or getattr(w, "text", "") or type(w).__name__
        gap = self._rng.uniform(*self.pace) if after is None else after
        self.until("the banker's pace", lambda: time.monotonic() - self._last >= gap, seconds=gap + 5)
        w = self._aim(w)
        if getattr(w, "guard", False):  # the same button again: a person's second tap, not a double tap
            from companion.ui.widgets import FINGER_CLOCK  # a finger counts from the loop's last look before it

            self.until(
                "the double-tap window of the last tap to close",
                lambda: not w.is_second_tap(FINGER_CLOCK.counts_from()),
                seconds=5,
            )
        self._scroll_into_view(w)
        x, y = self._settled(w)
        self._seen(w)
        answered = []

        def heard(*_):
            answered.append(True)

        event = "on_release" if "on_release" in w.events() else "focus"  # a text field answers by taking the focus
        w.fbind(event, heard)
        try:
            self.pointer.press_at(x, y)
            self._last = time.monotonic()
            self.until(f"{label!r} to answer the tap made at ({x:.0f}, {y:.0f})", lambda: bool(answered), 10.0)
        finally:
            w.funbind(event, heard)
        self._still()  # what the tap changed is drawn before the next look at the screen

    def _seen(self, w) -> None:
        """A person taps what they have seen: wait until the widget has been in sight, where it is, for
        the app's tap guard (companion.ui.widgets.Aimed); the monkey does not wait, and checks."""
        from companion.ui.widgets import FINGER_CLOCK, SEEN_SECONDS, Aimed

        Aimed.seen_seconds = SEEN_SECONDS
        if self.blind or not hasattr(w, "too_new"):
            return
        # a finger counts from no later than the loop's last look for fingers (widgets.FingerClock)
        self.until("the widget to have been in sight a moment", lambda: not w.too_new(FINGER_CLOCK.counts_from()), 10.0)

    #: Tap without waiting for the widget to have been seen (the monkey, the double taps).
    blind = False

    def tap(self, name: str | None = None, text: str | None = None, *, widget=None, after: float | None = None):
        """Tap as a person would; ``after`` sets the pause since the last tap (else a jittered pace)."""
        if after is None:
            return super().tap(name, text, widget=widget)
        self._boxes_gone()
        w = widget if widget is not None else self.find(name, text, within=self.patience)
        self._settled(w)
        self._scroll_into_view(w)
        self._press(w, after)
        self.taps += 1
        if self.after_tap is not None:
            self.after_tap(w)
        return w

    def type(self, text: str, *, widget) -> None:
        """Tap the text field and type on the keyboard, key by key; done when the field reads ``text``."""
        if not widget.focus:
            self.tap(widget=widget)
        if widget.text:
            self.pointer.keys("ctrl+a", "BackSpace")
            self.until("the field to empty", lambda: widget.text == "", 5.0)
        self.pointer.type(text)
        self.until(
            f"the field to read {text!r}", lambda: widget.text == text, 60.0
        )  # xdotool types slowly on a busy machine
        widget.focus = False
        self.turn()


def start_app(folder: Path, game: Path | None = None, size=(800, 480), *, real_pointer: bool = False) -> Hands:
    """The app on ``folder`` (``game`` open), and the hands that tap it: the real pointer's, or
    simulated touches."""
    from companion.ui.app import configure_kivy

    configure_kivy(size=size)
    from kivy.core.window import Window

    from companion.settings import UiSettings
    from companion.ui.bank_app import TableBankerApp

    xdotool = None
    if real_pointer:
        from tests.gui.pointer import need_xdotool

        xdotool = need_xdotool()
    Window.size = size
    # settle_heap: as `companion run` starts it, what start-up built (and the test process's own modules) is
    # frozen out of the cycle collector's sight, so the quick collection after each screen let go walks
    # only what the app made since (else it walks the whole test process: a third of a screen walk's CPU)
    app = TableBankerApp(
        game=game,
        data=folder,
        settings=UiSettings(folder=str(folder), phones=False, hardware=False),
        settle_heap=True,
    )
    app._run_prepare()
    if real_pointer:
        from tests.gui.pointer import Pointer

        hands: Hands = PointerHands(app, folder, Pointer(xdotool))
    else:
        hands = SimulatedHands(app, folder)
    hands.pump(4)
    return hands


def stop_app(hands: Hands) -> None:
    """Close the app but keep the window for the next module's app."""
    from kivy.app import App
    from kivy.core.window import Window

    app = hands.app
    hands.close()
    app.dispatch("on_stop")
    for child in list(Window.children):
        Window.remove_widget(child)
    for _ in range(3):  # let pending kv callbacks run while the app is still there
        from kivy.base import EventLoop

        EventLoop.idle()
    App._running_app = None
    from kivy.lang.parser import global_idmap

    # kv's ``app`` met the app again in those frames: forget it, or the next module's kv rules would
    # read this app's scale
    object.__setattr__(global_idmap["app"], "_obj", None)
    import gc

    gc.unfreeze()  # what this app settled is garbage now: the next app's settling collects it
