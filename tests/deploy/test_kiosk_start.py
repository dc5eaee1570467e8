"""The app started the way the units start it reaches its first screen, and stops when systemd asks.

The command, environment and working folder are read from the unit files themselves; the installed
paths are mapped onto this checkout's (the environment's ``companion``, Kivy settings made by
deploy/kivy_config.py as install.sh makes them, a games folder with Friday's game). One thing differs
for the kiosk, and only because the test screen is Xvfb: SDL_VIDEODRIVER=kmsdrm becomes x11.
It runs as the test's user, not as table-banker, on a screen of its own the size of the official
7-inch touchscreen (800x480, a private Xvfb). The first screen is saved under artifacts/deploy/.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from companion.service import Banker
from tests.deploy.harness import DEPLOY, REPO
from tests.deploy.test_scripts import UNITS, unit_settings

SHOTS = REPO / "artifacts" / "deploy"
EDITION_OF = {"system": "kms", "user": "desktop"}


@pytest.fixture
def touchscreen(tmp_path):
    """A private X screen of 800x480, like the Pi's touchscreen; yields its DISPLAY."""
    number = tmp_path / "display"
    with number.open("w") as out:
        server = subprocess.Popen(
            ["Xvfb", "-displayfd", str(out.fileno()), "-screen", "0", "800x480x24", "-nolisten", "tcp"],
            pass_fds=(out.fileno(),),
            stderr=subprocess.DEVNULL,
        )
    try:
        deadline = time.monotonic() + 30
        while not number.read_text().strip() and time.monotonic() < deadline and server.poll() is None:
            time.sleep(0.1)
        assert number.read_text().strip(), "Xvfb did not start"
        yield ":" + number.read_text().strip()
    finally:
        server.terminate()
        server.wait(timeout=30)


def unit_command(scope: str, tmp: Path, display: str) -> tuple[list[str], dict[str, str], Path]:
    """ExecStart, Environment and WorkingDirectory of a unit, mapped onto this machine."""
    settings = unit_settings(UNITS[scope])
    runtime, data, kivy_home = tmp / "run", tmp / "games", tmp / "kivy"
    mapping = {
        "/opt/table-banker/venv/bin/companion": str(Path(sys.executable).parent / "companion"),
        f"/etc/table-banker/kivy-{EDITION_OF[scope]}": str(kivy_home),
        "/var/lib/table-banker": str(data),
        "/run/table-banker": str(runtime),
        "%t/table-banker": str(runtime),
    }

    def mapped(value: str) -> str:
        for installed, here in mapping.items():
            value = value.replace(installed, here)
        return value

    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "HOME": str(data), "DISPLAY": display}
    for assignment in settings.get("Environment", []):
        name, _, value = assignment.partition("=")
        env[name] = mapped(value)
    if env.get("SDL_VIDEODRIVER") == "kmsdrm":
        env["SDL_VIDEODRIVER"] = "x11"  # the one change: Xvfb stands in for the DSI screen
    command = shlex.split(mapped(settings["ExecStart"][0]))
    folder = Path(mapped(settings["WorkingDirectory"][0]))

    for made in (runtime, data, kivy_home / "mods", kivy_home / "icon"):
        made.mkdir(parents=True, exist_ok=True)
    # The one setting that differs from a Pi: the phones' server stays on loopback and announces
    # nothing, so a test never sends a packet beyond this machine.
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    (data / "touchscreen.json").write_text(json.dumps({"host": "127.0.0.1", "port": port, "advertise": False}))
    env["COMPANION_LAN_ADDRESS"] = "127.0.0.1"
    config = subprocess.run(
        [sys.executable, str(DEPLOY / "kivy_config.py"), EDITION_OF[scope]],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    (kivy_home / "config.ini").write_text(config)
    return command, env, folder


def screenshot(path: Path, display: str) -> bool:
    """Save the whole screen; True when it shows more than one colour (an empty Xvfb is all black)."""
    from PIL import ImageGrab

    image = ImageGrab.grab(xdisplay=display)
    image.save(path)
    low, high = zip(*image.convert("RGB").getextrema())
    return low != high


@pytest.mark.gui
@pytest.mark.needs("Xvfb")
@pytest.mark.parametrize("scope", ["system", "user"], ids=["kiosk", "desktop"])
def test_the_unit_brings_up_the_first_screen(scope, tmp_path, touchscreen):
    command, env, folder = unit_command(scope, tmp_path, touchscreen)
    with Banker.create(Path(env["COMPANION_DATA"]) / "friday.game", "classic", ["Ann", "Bob"], backup_every=0) as b:
        b.do({"action": "buy", "player": "Ann", "deed": "Boardwalk"})
    SHOTS.mkdir(parents=True, exist_ok=True)
    shot = SHOTS / f"{scope}-first-screen.png"
    log = (tmp_path / "app.log").open("w+")
    app = subprocess.Popen(command, cwd=folder, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        shown, deadline = False, time.monotonic() + 60
        while time.monotonic() < deadline and app.poll() is None:
            time.sleep(1)
            if screenshot(shot, touchscreen):
                time.sleep(1.5)  # let the first frames settle, then keep that picture
                shown = screenshot(shot, touchscreen)
                break
        log.seek(0)
        assert app.poll() is None, f"the app exited with {app.returncode}:\n{log.read()[-3000:]}"
        assert shown, f"nothing was drawn on the screen in a minute:\n{log.read()[-3000:]}"

        app.send_signal(signal.SIGTERM)  # what `systemctl stop` sends
        app.wait(timeout=15)  # TimeoutStopSec=15 in both units
    finally:
        if app.poll() is None:
            os.killpg(app.pid, signal.SIGKILL)
            app.wait()
        log.close()
    with Banker.open(Path(env["COMPANION_DATA"]) / "friday.game") as b:
        assert b.table["deeds"]["Boardwalk"]["owner"] == "Ann"


def test_the_environment_is_read_from_the_unit(tmp_path):
    command, env, folder = unit_command("system", tmp_path, ":99")
    assert command[1:] == ["run", "--fullscreen"] and Path(command[0]).name == "companion"
    assert env["KIVY_HOME"] == str(tmp_path / "kivy") and env["COMPANION_DATA"] == str(tmp_path / "games")
    assert env["LG_WD"] == str(folder) == str(tmp_path / "run")
    assert env["SDL_VIDEODRIVER"] == "x11" and env["DISPLAY"] == ":99"
    assert shutil.which(command[0]) or Path(command[0]).exists()
