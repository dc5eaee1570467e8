"""The real pointer and keyboard: events made by the X server (xdotool under Xvfb), not objects made in Python.

A :class:`Pointer` moves the pointer over the app's window and presses the left button for about as
long as a finger rests on glass, then lets go; it types on the keyboard key by key. The events go the
whole way a banker's tap goes: X server, SDL, Kivy's input provider, the window, the widget tree.
While xdotool runs, the app's loop keeps turning, so nothing waits on a sleep: the pace between taps
is the human's (:class:`tests.gui.hands.PointerHands`), and every check waits on the screen's or the
ledger's state.
"""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

ON_CI = os.environ.get("CI", "").lower() == "true"

#: How long the button stays down: a finger's tap on glass.
PRESS_SECONDS = 0.08
#: A finger on the glass and off again, in xdotool's words.
FINGER = ("mousedown", "1", "sleep", str(PRESS_SECONDS), "mouseup", "1")
#: Between two keys typed: a person on the on-screen keyboard.
KEY_MS = 120


def need_xdotool() -> str:
    """xdotool's path, with an X display to drive; without them a test skips, and fails under
    CI=true (xvfb and xdotool are in the Makefile's TEST_DEBS, and make test runs under xvfb-run)."""
    found = shutil.which("xdotool")
    missing = (
        "no xdotool"
        if found is None
        else "no X display (run under xvfb-run)"
        if not os.environ.get("DISPLAY")
        else None
    )
    if missing:
        if ON_CI:
            pytest.fail(
                f"{missing} under CI=true: the real-pointer tests must run (make test installs and starts them)"
            )
        pytest.skip(f"{missing}: run `make test` (as root it installs xdotool and Xvfb)")
    return found


class Pointer:
    """The banker's finger and keyboard, through the X server."""

    def __init__(self, xdotool: str) -> None:
        from kivy.base import EventLoop
        from kivy.input.providers.mouse import MouseMotionEventProvider

        self.xdotool = xdotool
        self.window = self._window_id()
        # what runTouchApp does for a running app: the mouse as an input provider of the loop
        self.provider = MouseMotionEventProvider("pointer", "disable_multitouch")
        EventLoop.add_input_provider(self.provider)
        self.provider.start()
        # The hand over the screen before the first tap: the X pointer's first entry into a window and
        # a press in the same instant reach SDL as "entered" only (a finger on the Pi's touchscreen
        # comes through evdev, where there is no such entry).
        self._run("mousemove", "--window", self.window, "1", "1")
        for _ in range(5):
            self.turn()

    def close(self) -> None:
        """Take the pointer out of the loop; safe to call twice."""
        from kivy.base import EventLoop

        if self.provider is None:
            return
        self.provider.stop()
        EventLoop.remove_input_provider(self.provider)
        self.provider = None

    def turn(self) -> None:
        """One turn of the app's loop as a running app makes it: a frame, then the window's events."""
        from kivy.base import EventLoop

        EventLoop.idle()
        EventLoop.window.mainloop()

    def _window_id(self) -> str:
        found = subprocess.run([self.xdotool, "search", "--pid", str(os.getpid())], capture_output=True, text=True)
        ids = found.stdout.split()
        assert ids, f"no window of this process on {os.environ.get('DISPLAY')}"
        return ids[-1]

    def _run(self, *args: str) -> None:
        """Run xdotool while the app's loop keeps turning (it handles the events as they arrive)."""
        proc = subprocess.Popen([self.xdotool, *args])
        while proc.poll() is None:
            self.turn()
        assert proc.returncode == 0, f"xdotool {' '.join(args)} failed"

    def over(self, x: float, y: float) -> tuple[str, ...]:
        """xdotool's words for moving the pointer to (x, y) in Kivy's window coordinates (origin bottom left)."""
        from kivy.core.window import Window

        return ("mousemove", "--window", self.window, str(int(x)), str(int(Window.height - y)))

    def where(self) -> str:
        """Where the X server has the pointer, the app's window and the keyboard's focus, and the touches
        Kivy still holds from this pointer: what a tap that never reached the app is explained by."""
        from kivy.core.window import Window

        def ask(*args: str) -> str:
            done = subprocess.run([self.xdotool, *args], capture_output=True, text=True)
            return " ".join(done.stdout.split()) or done.stderr.strip()

        provider = self.provider
        held = sorted(provider.touches) if provider is not None else []
        return (
            f"pointer: {ask('getmouselocation')}; window {self.window}: {ask('getwindowgeometry', self.window)}; "
            f"Kivy's window {Window.size}; keyboard focus on window {ask('getwindowfocus', '-f')}; touches held: {held}"
        )

    def press_at(self, x: float, y: float) -> None:
        """A finger's tap at (x, y) in Kivy's window coordinates (origin bottom left)."""
        self._run(*self.over(x, y), *FINGER)

    def type(self, text: str) -> None:
        """Type ``text`` key by key into the focused field."""
        self._keyboard_here()
        self._run("type", "--delay", str(KEY_MS), "--", text)

    def keys(self, *names: str) -> None:
        """Press keys by X name, one after the other ("ctrl+a", "BackSpace")."""
        self._keyboard_here()
        self._run("key", "--delay", str(KEY_MS), *names)

    def _keyboard_here(self) -> None:
        """The X server's keyboard focus on the app's window, as the Pi's keyboard belongs to the app.
        With no window manager, a window another program shows on the same screen takes the focus
        (SDL does so itself), and once that window closes the focus goes nowhere: every key typed after
        it is dropped (a full run's `companion run` test opens such windows beside the evenings)."""
        self._run("windowfocus", "--sync", self.window)


def double_at(pointer: Pointer, x: float, y: float, gap: float = 0.15) -> None:
    """Two taps at (x, y), the second finger going down ``gap`` seconds after the first (a double tap)."""
    rest = max(0.0, gap - PRESS_SECONDS)
    pointer._run(*pointer.over(x, y), *FINGER, "sleep", f"{rest:.3f}", *FINGER)
