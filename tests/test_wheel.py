"""The wheel runs: built from a copy of the checkout, installed into a fresh environment outside it,
`companion serve` answers phones and `companion run` draws its first screen, with no file read from the
checkout (the layouts, the pin map, the packs and the phones' page are package data).

The fresh environment gets the app from the wheel alone; the libraries it needs (Kivy, aiohttp, ...) are
the ones this test runs with, added to its path by a ``.pth`` file, so the test needs no network.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import sysconfig
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

from companion.service import Banker

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
LEFT_OUT = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "artifacts",
    "__pycache__",
    "*.egg-info",
    ".hypothesis",
    ".pytest_cache",
    ".mypy_cache",
    ".ruff_cache",
    "*.game*",
)


def clean_env(**extra: str) -> dict[str, str]:
    """The environment of a person's shell: nothing pointing back at the checkout."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "COMPANION_", "VIRTUAL_ENV"))}
    return {**env, "GPIOZERO_PIN_FACTORY": "mock", **extra}


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh environment with the wheel installed; its ``bin`` folder."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "source"
    shutil.copytree(REPO, source, symlinks=True, ignore=LEFT_OUT)
    built = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            "-q",
            "-w",
            str(work / "dist"),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=clean_env(),
    )
    assert built.returncode == 0, built.stderr[-3000:]
    (wheel,) = (work / "dist").glob("table_banker-*.whl")
    venv = work / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=300)
    site = Path(
        subprocess.run(
            [venv / "bin" / "python", "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
    )
    # the libraries this test runs with, after the fresh environment's own packages (a plain path line:
    # .pth files there, such as an editable install of the checkout, are not read)
    (site / "libraries.pth").write_text(sysconfig.get_path("purelib") + "\n")
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(venv / "bin" / "python"),
            "install",
            "--no-deps",
            "--no-index",
            "--disable-pip-version-check",
            "-q",
            str(wheel),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env=clean_env(),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    shutil.rmtree(source)  # nothing may be read from the copy either
    return venv / "bin"


def test_the_package_data_comes_from_the_installed_wheel(installed, tmp_path):
    probe = (
        "import json, companion, companion.hardware as h, companion.ui.app as a, companion.rules as r\n"
        "print(json.dumps([companion.__file__, str(a.KV_DIR), str(h.PINS_FILE), sorted(r.pack_names())]))"
    )
    out = subprocess.run(
        [installed / "python", "-c", probe], capture_output=True, text=True, cwd=tmp_path, env=clean_env(), timeout=120
    )
    assert out.returncode == 0, out.stderr[-3000:]
    package, kv, pins, packs = json.loads(out.stdout)
    venv = installed.parent
    assert Path(package).is_relative_to(venv) and Path(kv).is_relative_to(venv) and Path(pins).is_relative_to(venv)
    assert {p.name for p in Path(kv).glob("*.kv")} == {p.name for p in (REPO / "kv").glob("*.kv")}
    assert Path(pins).read_text() == (REPO / "hw" / "pins.toml").read_text()
    assert "classic" in packs and "city-life" in packs


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_companion_serve_from_the_wheel_answers_a_phone(installed, tmp_path):
    Banker.create(tmp_path / "friday.game", "classic", ["Ann", "Bob"], {}).close()
    serve = subprocess.Popen(
        [
            installed / "companion",
            "serve",
            str(tmp_path / "friday.game"),
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--no-zeroconf",
            "--lan-address",
            "127.0.0.1",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=clean_env(),
    )
    try:
        lines = [serve.stdout.readline() for _ in range(4)]  # "Serving ... at URL", the banker, Ann, Bob
        assert lines[0].startswith("Serving"), (lines, serve.stderr.read()[-3000:] if serve.poll() is not None else "")
        ann = lines[2].split(": ", 1)[1].strip()
        with urllib.request.urlopen(ann, timeout=60) as page:  # the join link: to Ann's page, from package data
            assert page.status == 200 and "<html" in page.read().decode().lower()
    finally:
        serve.terminate()
        serve.communicate(timeout=60)


def answers(port: int) -> bool:
    try:
        urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5)
    except urllib.error.HTTPError:
        return True  # it answered (a page without a token is refused, as it should be)
    except OSError:
        return False
    return True


def colours_on(display: str) -> int:
    """How many colours the screen shows (an empty Xvfb is one black; a drawn screen has text)."""
    from PIL import ImageGrab

    return len(ImageGrab.grab(xdisplay=display).convert("RGB").getcolors(1 << 24) or [])


@pytest.mark.gui
def test_companion_run_from_the_wheel_draws_its_first_screen(installed, tmp_path):
    """Friday's game is the last one played: the app opens on its table, with the phones' server beside it."""
    Banker.create(tmp_path / "friday.game", "classic", ["Ann", "Bob"], {}).close()
    port = free_port()
    (tmp_path / "touchscreen.json").write_text(
        json.dumps({"host": "127.0.0.1", "port": port, "advertise": False, "hardware": False})
    )
    number = tmp_path / "display"
    with number.open("w") as told:  # a screen of its own, the touchscreen's size, empty to start with
        xvfb = subprocess.Popen(
            ["Xvfb", "-displayfd", str(told.fileno()), "-screen", "0", "800x480x24", "-nolisten", "tcp"],
            pass_fds=(told.fileno(),),
            stderr=subprocess.DEVNULL,
        )
    run = None
    try:
        deadline = time.monotonic() + 60
        while not number.read_text().strip() and time.monotonic() < deadline:
            time.sleep(0.1)
        display = ":" + number.read_text().strip()
        log = (tmp_path / "run.log").open("w+")
        run = subprocess.Popen(
            [installed / "companion", "--data", str(tmp_path), "run"],
            cwd=tmp_path,
            stdout=log,
            stderr=subprocess.STDOUT,
            env=clean_env(DISPLAY=display, KIVY_HOME=str(tmp_path / "kivy"), COMPANION_LAN_ADDRESS="127.0.0.1"),
        )
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and run.poll() is None and colours_on(display) < 16:
            time.sleep(0.5)
        log.seek(0)
        assert run.poll() is None, log.read()[-3000:]
        assert colours_on(display) >= 16, "the first screen never came: " + log.read()[-3000:]
        while time.monotonic() < deadline and run.poll() is None and not answers(port):
            time.sleep(0.5)
        assert answers(port), "the phones' server beside the screen never answered: " + log.read()[-3000:]
    finally:
        if run is not None:
            run.terminate()
            try:
                run.wait(90)
            except subprocess.TimeoutExpired:
                run.kill()
                run.wait()
        xvfb.terminate()
        xvfb.wait(30)
