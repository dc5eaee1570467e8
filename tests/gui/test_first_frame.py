"""The start screen reaches the glass on the Pi's kiosk: after the first frame the app draws one more.

SDL's KMS/DRM video driver (the kiosk's SDL_VIDEODRIVER=kmsdrm) makes its drawing surfaces anew at the
first buffer swap after the window was made full screen, so the first frame is thrown away and the
screen stays black until something changes (found by `make pi-vm-check`; see docs/raspberry-pi.md).
Here, on Xvfb, the test shows the app asking for that second frame, once."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.gui


def follows_up(window) -> bool:
    """Whether the app's once-only handler is still waiting for a frame (Kivy keeps it as a weak method)."""
    return any(
        getattr(observer, "method_name", None) == "_draw_the_first_frame_again"
        for observer in window.get_property_observers("on_flip")
    )


def test_the_first_frame_is_followed_by_one_more_and_then_the_screen_rests(tmp_path):
    from kivy.base import EventLoop
    from kivy.core.window import Window

    from companion.settings import UiSettings
    from companion.ui.app import configure_kivy
    from companion.ui.bank_app import TableBankerApp
    from tests.gui.hands import SimulatedHands, stop_app

    configure_kivy(size=(800, 480))
    Window.size = (800, 480)
    app = TableBankerApp(data=tmp_path, settings=UiSettings(folder=str(tmp_path), phones=False, hardware=False))
    app._run_prepare()
    hands = SimulatedHands(app, tmp_path)
    try:
        assert follows_up(Window), "the app waits for its first frame"

        EventLoop.idle()  # the first frame: drawn and swapped

        assert not follows_up(Window), "only the first frame is followed up"
        assert Window.canvas.needs_redraw, "the frame after the first is asked for, whatever else changed"
        hands.pump(4)
        assert not follows_up(Window)
    finally:
        stop_app(hands)
