"""The real pointer: taps made by the X server (xdotool under Xvfb), not by touch objects made in Python.

A :class:`Pointer` moves the pointer over the app's window and presses the left button for about as
long as a finger rests on glass, then lets go. The event goes the whole way a banker's tap goes: X
server, SDL, Kivy's input provider, the window, the widget tree. While xdotool runs, the app's loop
keeps turning, so nothing waits on a sleep: the pace between taps is the human's, and every check
waits on the screen's or the ledger's state.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import time

import pytest

ON_CI = os.environ.get("CI", "").lower() == "true"

#: How long the button stays down: a finger's tap on glass.
PRESS_SECONDS = 0.08


def need_xdotool() -> str:
    """xdotool's path; a test without it fails under CI=true (it is in the Makefile's TEST_DEBS)."""
    found = shutil.which("xdotool")
    if found is None:
        if ON_CI:
            pytest.fail("no xdotool under CI=true: the real-pointer tests must run (make test installs it)")
        pytest.skip("no xdotool (run `make test` as root, which installs it)")
    return found


class TapLost(AssertionError):
    "A tap the banker made never reached the screen or the ledger."


class Pointer:
    """The banker's finger, through the X server."""

    def __init__(self, hands, xdotool: str) -> None:
        from kivy.base import EventLoop
        from kivy.input.providers.mouse import MouseMotionEventProvider

        self.hands = hands
        self.xdotool = xdotool
        self.window = self._window_id()
        self.taps = 0
        self._last = 0.0
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
        from kivy.base import EventLoop

        self.provider.stop()
        EventLoop.remove_input_provider(self.provider)

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

    def until(self, what: str, ready, seconds: float = 20.0) -> None:
        """Keep the app running until ``ready()`` is true; a tap lost says so (what was awaited)."""
        end = time.monotonic() + seconds
        while not ready():
            if time.monotonic() > end:
                raise TapLost(f"waited {seconds:.0f} s for {what} (screen: {self.hands.screen})")
            self.turn()

    def target(self, name: str):
        """The widget named so, on show and laid out (waits for the screen to draw it)."""
        found: list = []

        def shown() -> bool:
            found[:] = self.hands.all(name)
            return bool(found) and self._placed(found[0])

        self.until(f"{name!r} to be on show", shown)
        return found[0]

    def _placed(self, w) -> bool:
        from kivy.core.window import Window

        x, y = w.to_window(*w.center)
        return 0 < x < Window.width and 0 < y < Window.height

    def tap(self, name: str, *, after: float = 0.0):
        """Tap the widget named ``name`` once it is drawn, at least ``after`` seconds after the last tap
        (a person's pace), with the real pointer. Returns the widget."""
        from kivy.core.window import Window

        w = self.target(name)
        self.until("the banker's pace", lambda: time.monotonic() - self._last >= after, seconds=after + 5)
        x, y = w.to_window(*w.center)
        self._run("mousemove", "--window", self.window, str(int(x)), str(int(Window.height - y)),
                  "mousedown", "1", "sleep", str(PRESS_SECONDS), "mouseup", "1")
        self._last = time.monotonic()
        self.taps += 1
        return w
