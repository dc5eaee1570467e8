"""`companion serve GAME`: the phone server without a touchscreen, picking up other programs' actions."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request

from companion.cli import build_parser

DIRECT = urllib.request.build_opener(urllib.request.ProxyHandler({}))


def companion(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "companion.cli", *args], capture_output=True, text=True, timeout=60, **kw
    )


def test_serve_is_a_companion_command_with_host_and_port():
    args = build_parser().parse_args(["serve", "sunday.game", "--host", "127.0.0.1", "--port", "8099"])
    assert (args.game, args.host, args.port) == ("sunday.game", "127.0.0.1", 8099)


def test_serve_shows_links_follows_companion_do_and_stops_on_ctrl_c(tmp_path):
    game = tmp_path / "sunday.game"
    assert companion("new", str(game), "--rules", "classic", "--player", "Ann", "--player", "Bob").returncode == 0
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    # The touchscreen's settings keep the phones' server to this machine; serve reads the same file.
    (tmp_path / "touchscreen.json").write_text(json.dumps({"host": "127.0.0.1", "port": 0, "advertise": False}))
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "companion.cli",
            "serve",
            str(game),
            "--data",
            str(tmp_path),
            "--lan-address",
            "192.168.1.20",
            "--qr",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        links = {}
        banner = None
        deadline = time.monotonic() + 30
        while len(links) < 3 and time.monotonic() < deadline:
            line = proc.stdout.readline()
            assert line, proc.stderr.read()
            banner = banner or re.search(r" at (http://\S+) ", line)
            m = re.match(r"\s+(\w+): (http://127\.0\.0\.1:\d+/j/\S+)$", line)
            if m:
                links[m.group(1)] = m.group(2)
        assert set(links) == {"banker", "Ann", "Bob"}
        assert banner and banner.group(1).startswith("http://127.0.0.1:")  # where it listens, not the LAN
        base = links["Ann"].split("/j/")[0]
        ann = {"Authorization": "Bearer " + links["Ann"].rsplit("/", 1)[1]}
        stream = DIRECT.open(urllib.request.Request(f"{base}/api/v1/events", headers=ann), timeout=10)
        first = _next_state(stream)
        assert first["version"] == 1 and first["me"]["cash"] == 1500

        # Another program (the banker's terminal) applies an action straight to the game file.
        done = companion("do", str(game), '{"action": "salary", "player": "Ann"}')
        assert done.returncode == 0, done.stderr
        second = _next_state(stream)
        assert second["version"] == 2 and second["me"]["cash"] == 1700
        stream.close()
    finally:
        proc.send_signal(signal.SIGINT)
        try:
            assert proc.wait(15) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
            proc.stdout.close()
            proc.stderr.close()


def test_serve_takes_where_to_listen_from_the_touchscreens_settings_unless_told(tmp_path):
    from companion.web.serve import settings_for

    (tmp_path / "touchscreen.json").write_text(json.dumps({"host": "127.0.0.1", "port": 8123, "advertise": False}))
    args = build_parser().parse_args(["serve", "sunday.game", "--data", str(tmp_path)])
    assert settings_for(args) == ("127.0.0.1", 8123, False)
    args = build_parser().parse_args(["serve", "sunday.game", "--data", str(tmp_path), "--port", "0"])
    assert settings_for(args) == ("127.0.0.1", 0, False)
    args = build_parser().parse_args(["serve", "sunday.game", "--data", str(tmp_path / "none"), "--no-zeroconf"])
    assert settings_for(args) == ("0.0.0.0", 8080, False)  # no file: the touchscreen's defaults


def _next_state(stream) -> dict:
    event = None
    while True:
        line = stream.readline().decode()
        if not line:
            raise AssertionError("the stream ended")
        if line.startswith("event: "):
            event = line[7:].strip()
        elif line.startswith("data: ") and event == "state":
            return json.loads(line[6:])
