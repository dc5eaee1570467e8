"""Where the screen tests' CPU goes: one run of pytest on the test files given, split by who spent it.

Runs ``python -m pytest -q -p no:cacheprovider FILES`` in a child process without a DISPLAY, so the test
process starts its own Xvfb (tests/conftest.py), and watches the process tree twice a second:

- ``python``: the test process's own Python thread (the app, its kv rules, layout, text, the test's waits);
- ``llvmpipe``: Mesa's software rasteriser threads in the same process (drawing the frames);
- ``other_threads``: the test process's other threads (the game's housekeeping, SDL's, Kivy's);
- ``xvfb``: the X server (the frames copied into its screen, the events it makes);
- ``programs``: every other program the tests ran and waited for (xdotool, the command line).

Prints one JSON line with the figures and the test process's wall time. Not part of ``make bench``:
it runs tests, so run it by hand, one module at a time, on a quiet machine:

    nice .venv/bin/python benchmarks/gui_cpu.py tests/gui/test_real_pointer.py

Extra arguments after ``--`` go to pytest. Figures only: nothing here asserts.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TICK = os.sysconf("SC_CLK_TCK")


def _stat(path: Path) -> tuple[str, int, float] | None:
    """(name, parent pid, CPU seconds) of a process or thread, or None once it is gone."""
    try:
        text = path.read_text()
    except OSError:
        return None
    name = text[text.index("(") + 1 : text.rindex(")")]
    fields = text.rsplit(")", 1)[1].split()
    return name, int(fields[1]), (int(fields[11]) + int(fields[12])) / TICK


def _threads(pid: int) -> dict[int, tuple[str, float]]:
    found: dict[int, tuple[str, float]] = {}
    try:
        tids = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return found
    for tid in tids:
        seen = _stat(Path(f"/proc/{pid}/task/{tid}/stat"))
        if seen is not None:
            found[int(tid)] = (seen[0], seen[2])
    return found


def _children_named(pid: int, name: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            seen = _stat(Path(f"/proc/{entry}/stat"))
            if seen is not None and seen[1] == pid and seen[0] == name:
                found.append(int(entry))
    return found


def main(argv: list[str]) -> int:
    files, extra = (argv[: argv.index("--")], argv[argv.index("--") + 1 :]) if "--" in argv else (argv, [])
    if not files:
        print(__doc__.strip().splitlines()[0], "\nusage: gui_cpu.py TEST_FILE... [-- PYTEST_ARGS]", file=sys.stderr)
        return 2
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    env["PYTHONPATH"] = str(ROOT)
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *files, *extra]
    started = time.monotonic()
    proc = subprocess.Popen(command, cwd=ROOT, env=env)
    threads: dict[int, tuple[str, float]] = {}
    xvfb: dict[int, float] = {}
    while proc.poll() is None:
        threads.update(_threads(proc.pid))
        for server in _children_named(proc.pid, "Xvfb"):
            seen = _stat(Path(f"/proc/{server}/stat"))
            if seen is not None:
                xvfb[server] = seen[2]
        time.sleep(0.5)
    wall = time.monotonic() - started
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    everything = children.ru_utime + children.ru_stime  # pytest and all it waited for, Xvfb included
    by_kind = {"python": 0.0, "llvmpipe": 0.0, "other_threads": 0.0}
    for tid, (name, seconds) in threads.items():
        kind = "python" if tid == proc.pid else "llvmpipe" if name.startswith("llvmpipe") else "other_threads"
        by_kind[kind] += seconds
    seen_total = sum(by_kind.values()) + sum(xvfb.values())
    figures = {
        "measure": "gui_test_cpu",
        "files": files,
        "returncode": proc.returncode,
        "wall_s": round(wall, 1),
        **{k: round(v, 1) for k, v in by_kind.items()},
        "xvfb": round(sum(xvfb.values()), 1),
        "programs": round(max(0.0, everything - seen_total), 1),
        "all_cpu_s": round(everything, 1),
    }
    print(json.dumps(figures), flush=True)
    return proc.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
