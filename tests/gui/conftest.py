"""Kivy under Xvfb for the GUI tests: settings Kivy reads once, and the fixtures the widget tests share.

Kivy is configured before it is first imported (no command-line parsing, a throw-away KIVY_HOME, no
log files). ``window``, ``frame`` and ``touch`` serve tests of single widgets (the trading unit);
``bank`` is the whole app on an empty games folder, pressed by the simulated touches of
:class:`tests.gui.hands.SimulatedHands`, for tests of single screens; ``phones_bank`` the same with the
phones' server on loopback, on the games the module's own ``games(folder)`` writes. The evenings at the table
(test_family_games, test_real_pointer, test_city_build, test_city_double) start their own app tapped
by the real pointer (``start_app(..., real_pointer=True)``).
"""

from __future__ import annotations

import os
import tempfile

import pytest

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
os.environ.setdefault("KIVY_HOME", tempfile.mkdtemp(prefix="kivy-home-"))
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")  # the touchscreen's sounds play to a dummy device, never a real one
# The test screens draw without multisampling (Kivy's default asks for 2 samples, which Mesa's software
# renderer serves as 4): a frame costs a third of the CPU (benchmarks/README.md, "Where the time goes
# now"). Only the edges' anti-aliasing differs; no test reads an edge's pixels. Kivy reads KCFG_* once,
# when kivy.config is first imported, and the apps these tests start as programs inherit it.
os.environ.setdefault("KCFG_GRAPHICS_MULTISAMPLES", "0")


@pytest.fixture
def window():
    """Kivy's window (made once per process); widgets a test adds are its own to remove."""
    from kivy.base import EventLoop

    EventLoop.ensure_window()
    return EventLoop.window


@pytest.fixture
def frame(window):
    """Draw: run the loop for a few frames so properties, layout and canvas catch up."""
    from kivy.base import EventLoop

    def draw(frames: int = 3) -> None:
        for _ in range(frames):
            EventLoop.idle()

    return draw


@pytest.fixture
def touch(window, frame):
    """touch(widget, between=None): a finger on the widget's centre, then off (``between`` runs while
    it is down, to hold a button); the touch goes through the window like a real one."""
    from kivy.tests.common import UnitTestTouch

    def press(widget, between=None) -> None:
        from companion.ui.widgets import Aimed

        Aimed.seen_seconds = 0  # quicker than a person sees: the tap guard has its own tests
        x, y = widget.to_window(*widget.center)
        finger = UnitTestTouch(x, y)
        finger.touch_down()
        frame(1)
        if between is not None:
            between()
        finger.touch_up()
        frame()

    return press


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    """The touchscreen app on an empty games folder, at 800x480, for a whole test module (simulated touches)."""
    from tests.gui.hands import start_app, stop_app

    hands = start_app(tmp_path_factory.mktemp("games"))
    yield hands
    stop_app(hands)


def need_phone_server():
    """The phones' server's factory; without it a developer's machine skips, CI=true fails."""
    from companion.appliance import phone_server

    if phone_server() is None:
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail("the phones' server is not installed under CI=true")
        pytest.skip("the phones' server is not installed")
    return phone_server()


@pytest.fixture(scope="module")
def phones_bank(tmp_path_factory, request):
    """The touchscreen app with the phones' server on loopback (any free port, not advertised), on a
    games folder the test module fills with its ``games(folder)``; simulated touches, or the real
    pointer where the module says ``REAL_POINTER = True``. Skips without the server on a developer's
    machine, fails under CI=true."""
    import asyncio

    from companion.ui.phones import Phones
    from tests.gui.hands import start_app, stop_app

    factory = need_phone_server()
    folder = tmp_path_factory.mktemp("games")
    request.module.games(folder)
    hands = start_app(folder, real_pointer=getattr(request.module, "REAL_POINTER", False))
    app = hands.app
    app.settings_store = app.settings_store.change("host", "127.0.0.1").change("port", 0)
    app.phones = Phones(app.settings_store, server_factory=factory, advertise=False, lan_address="127.0.0.1")
    loop = asyncio.new_event_loop()
    assert loop.run_until_complete(app.phones.start(app.desk.banker, on_change=lambda r: app.refresh())) is None
    yield hands
    loop.run_until_complete(app.phones.stop())
    loop.close()
    stop_app(hands)
