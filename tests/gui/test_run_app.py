"""`companion run`: the real command opens the window on the last game and, on the same asyncio loop,
the phones' server (here on loopback, without zeroconf), and closes cleanly when interrupted."""

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.gui


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port: int) -> bool:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=0.5)
    except urllib.error.HTTPError:
        return True  # it answered (a page without a token is refused, as it should be)
    except OSError:
        return False
    return True


@pytest.mark.parametrize("parent_ignores_ctrl_c", [False, True])
def test_companion_run_opens_the_last_game_with_the_phones_beside_it(tmp_path, parent_ignores_ctrl_c):
    """Ctrl-C closes it, even when it was started by a program that ignores Ctrl-C (which the app then
    inherits unless it sets its own handler)."""
    from companion.service import Banker

    Banker.create(tmp_path / "last-night.game", "classic", ["Ann", "Bob"], {}).close()
    port = free_port()
    (tmp_path / "touchscreen.json").write_text(
        json.dumps({"host": "127.0.0.1", "port": port, "advertise": False, "hardware": False})
    )
    env = dict(
        os.environ,
        KIVY_HOME=tempfile.mkdtemp(prefix="kivy-home-"),
        COMPANION_LAN_ADDRESS="127.0.0.1",
        KIVY_NO_CONSOLELOG="1",
        KIVY_NO_FILELOG="1",
        GPIOZERO_PIN_FACTORY="mock",
    )
    env.pop("PYTHONMALLOC", None)  # as a shell starts it: the command starts itself again on the C allocator
    command = [sys.executable, "-m", "companion", "--data", str(tmp_path), "run"]
    ignore = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if parent_ignores_ctrl_c else None
    proc = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
        preexec_fn=ignore,
    )
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and proc.poll() is None and not answers(port):
            time.sleep(0.2)
        assert proc.poll() is None, proc.communicate()[1][-2000:]
        assert answers(port), "the phones' server never answered"
        proc.send_signal(signal.SIGINT)
        # The window, the phones' server (3 s grace for open streams) and the game file all close before
        # the process ends; on a CI machine busy with other tests that can take well over 20 s.
        out, err = proc.communicate(timeout=90)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()
    assert proc.returncode in (0, 130), err[-2000:]
    assert "Traceback" not in err, err[-3000:]
    assert not answers(port)


def test_ctrl_c_right_after_a_game_opens_leaves_nothing_to_draw_on_the_stopped_app(tmp_path):
    """A redraw asked for just before Ctrl-C (a ledger entry, the game closing) comes due after Kivy has
    let go of the app: it must find nothing to do, not a screen with no app (which ended `companion
    run` with status 1 and no word, Kivy holding stderr)."""
    from kivy.app import App
    from kivy.base import EventLoop
    from kivy.core.window import Window

    from companion.service import Banker
    from tests.gui.hands import start_app

    Banker.create(tmp_path / "last-night.game", "classic", ["Ann", "Bob"], {}).close()
    hands = start_app(tmp_path, tmp_path / "last-night.game")
    app = hands.app
    assert hands.screen == "table"
    app._refresh_trigger()  # a redraw due, as after any entry
    app._let_go_trigger()
    try:
        app.dispatch("on_stop")  # what App.stop does on Ctrl-C ...
        App._running_app = None  # ... before the Clock's next tick
        for _ in range(3):
            EventLoop.idle()
    finally:
        hands.close()
        for child in list(Window.children):
            Window.remove_widget(child)
