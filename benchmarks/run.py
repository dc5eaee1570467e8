"""Run every benchmark in this folder; each prints JSON lines, one per figure.

make bench            (or: .venv/bin/python benchmarks/run.py)
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def main() -> int:
    worst = 0
    for script in sorted(HERE.glob("*.py")):
        if script.name in ("run.py", "gui_cpu.py") or script.name.startswith("_"):  # gui_cpu.py runs tests
            continue
        print(f"# {script.stem}", flush=True)
        worst = max(worst, subprocess.call([sys.executable, str(script)]))
    return worst


if __name__ == "__main__":
    sys.exit(main())
