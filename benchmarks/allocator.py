"""`companion run` on each allocator: what starting again on glibc's costs, and the memory at the start.

Run under a display (Xvfb on a server): ``xvfb-run -a .venv/bin/python benchmarks/allocator.py``.
Printed as JSON lines:

* ``first_stage``: the work a start does twice when the command starts itself again on glibc's allocator
  (``companion.heap.on_c_allocator``): the interpreter and ``companion.cli``'s import, median and least of
  15 starts;
* ``start``: ``companion run`` from its command until the phones' server answers beside the first screen,
  and its resident memory 3 s later, started the way a shell starts it (the command starts itself
  again), and on each allocator chosen by ``PYTHONMALLOC`` (no start again), alternating, three runs each.

The evening's memory on each allocator is ``benchmarks/ui.py``'s (it runs on the allocator ``companion
run`` uses, or on the one ``PYTHONMALLOC`` names).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUNS = 3


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _answers(port: int) -> bool:
    try:
        urllib.request.build_opener(urllib.request.ProxyHandler({})).open(f"http://127.0.0.1:{port}/", timeout=0.5)
    except urllib.error.HTTPError:
        return True
    except OSError:
        return False
    return True


def _rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def first_stage() -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONMALLOC": "malloc"}
    times = []
    for _ in range(15):
        started = time.perf_counter()
        subprocess.run([sys.executable, "-c", "import companion.cli, companion.heap"], env=env, check=True)
        times.append((time.perf_counter() - started) * 1000)
    return {"measure": "first_stage", "median_ms": round(statistics.median(times)), "min_ms": round(min(times))}


def start(allocator: str | None) -> dict:
    """One start of `companion run`; ``allocator`` None: as a shell starts it (it starts itself again)."""
    from companion.service import Banker

    with tempfile.TemporaryDirectory() as data:
        Banker.create(Path(data) / "friday.game", "classic", ["Ann", "Bob"], {}).close()
        port = _free_port()
        (Path(data) / "touchscreen.json").write_text(
            json.dumps({"host": "127.0.0.1", "port": port, "advertise": False, "hardware": False})
        )
        env = {k: v for k, v in os.environ.items() if k != "PYTHONMALLOC"}
        env.update(
            KIVY_HOME=tempfile.mkdtemp(prefix="kivy-home-"),
            COMPANION_LAN_ADDRESS="127.0.0.1",
            KIVY_NO_CONSOLELOG="1",
            KIVY_NO_FILELOG="1",
            GPIOZERO_PIN_FACTORY="mock",
            PYTHONPATH=str(ROOT),
        )
        if allocator is not None:
            env["PYTHONMALLOC"] = allocator
        started = time.perf_counter()
        proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "--data", data, "run"],
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            while proc.poll() is None and not _answers(port):
                time.sleep(0.05)
            seconds = time.perf_counter() - started
            time.sleep(3)
            rss = _rss_mb(proc.pid)
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=60)
    return {
        "measure": "start",
        "allocator": allocator or "as the command chooses (malloc, started again)",
        "to_first_screen_s": round(seconds, 2),
        "rss_mb": round(rss, 1),
    }


def main() -> int:
    print(json.dumps(first_stage()), flush=True)
    for _ in range(RUNS):
        for allocator in (None, "malloc", "pymalloc"):
            print(json.dumps(start(allocator)), flush=True)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
