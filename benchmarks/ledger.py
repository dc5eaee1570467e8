"""Ledger benchmarks: durable action latency against bare SQLite, and opening large games.

Prints one JSON line per figure. Ratios compare against a baseline measured in the same run on the
same disk, so a noisy shared machine moves both sides together.

    python benchmarks/ledger.py [--actions N] [--sizes 1000,10000,100000]
"""
from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.service import Banker  # noqa: E402


def emit(**figure) -> None:
    print(json.dumps(figure), flush=True)


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    k = max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


def bare_sqlite_latency(folder: Path, n: int) -> list[float]:
    """INSERT + COMMIT of a similar row with the game file's pragmas: the floor for a durable write."""
    con = sqlite3.connect(folder / "bare.db", isolation_level=None)
    con.execute("PRAGMA journal_mode = WAL")
    con.execute("PRAGMA synchronous = FULL")
    con.execute("CREATE TABLE entries (seq INTEGER PRIMARY KEY, kind TEXT, action TEXT, events TEXT, summary TEXT, at TEXT)")
    row = ('{"action":"transfer","amount":1,"from":"bank","to":"Ann"}',
           '[{"amount":1,"from":"bank","memo":"","to":"Ann","type":"Paid"}]', "the bank paid Ann $1")
    samples = []
    for _ in range(n):
        t0 = time.perf_counter()
        con.execute("BEGIN IMMEDIATE")
        con.execute("INSERT INTO entries (kind, action, events, summary, at) VALUES ('do', ?, ?, ?, '2026-01-01')", row)
        con.execute("COMMIT")
        samples.append(time.perf_counter() - t0)
    con.close()
    return samples


def service_latency(folder: Path, n: int, backup_every: int = 20) -> list[float]:
    """Banker.do of a transfer, acknowledged after COMMIT (default: backups every 20 actions)."""
    samples = []
    with Banker.create(folder / "latency.game", "classic", ["Ann", "Bob", "Cy"], backup_every=backup_every) as banker:
        for i in range(n):
            action = {"action": "transfer", "from": "bank", "to": ("Ann", "Bob", "Cy")[i % 3], "amount": 1}
            t0 = time.perf_counter()
            banker.do(action)
            samples.append(time.perf_counter() - t0)
    return samples


def build_game(path: Path, actions: int) -> None:
    """A game of ``actions`` real actions. Built with synchronous=OFF for speed; the file is the same."""
    with Banker.create(path, "classic", ["Ann", "Bob", "Cy", "Dee"], backup_every=0) as banker:
        banker.store.con.execute("PRAGMA synchronous = OFF")
        players = ("Ann", "Bob", "Cy", "Dee")
        for i in range(actions - 1):
            if i % 50 == 49:
                banker.undo()
            else:
                banker.do({"action": "transfer", "from": players[i % 4], "to": players[(i + 1) % 4], "amount": 1 + i % 7})
        banker.store.con.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def open_time(path: Path, repeat: int = 5) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        Banker.open(path, backup_every=0).close()
        best = min(best, time.perf_counter() - t0)
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--actions", type=int, default=1000)
    ap.add_argument("--sizes", default="1000,10000,100000")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=Path(__file__).resolve().parent.parent) as tmp:
        folder = Path(tmp)
        # interleave the measurements in rounds so machine noise hits them alike
        bare: list[float] = []
        service = {20: [], 0: []}
        rounds = 5
        for r in range(rounds):
            for name in (f"b{r}", f"s{r}", f"q{r}"):
                (folder / name).mkdir()
            bare += bare_sqlite_latency(folder / f"b{r}", args.actions // rounds)
            service[20] += service_latency(folder / f"s{r}", args.actions // rounds, backup_every=20)
            service[0] += service_latency(folder / f"q{r}", args.actions // rounds, backup_every=0)
        for every, samples in service.items():
            label = "" if every else "_no_backups"
            what = "default backups every 20 actions" if every else "backups off"
            for p in (50, 99):
                v, b = percentile(samples, p), percentile(bare, p)
                emit(figure=f"action_latency{label}_p{p}", unit="ms", value=round(v * 1000, 3), baseline=round(b * 1000, 3),
                     baseline_is="bare SQLite INSERT+COMMIT, WAL, synchronous=FULL, same disk", ratio=round(v / b, 2),
                     target_ratio=1.5, samples=len(samples), service=what)
            emit(figure=f"action_latency{label}_mean", unit="ms", value=round(statistics.mean(samples) * 1000, 3),
                 baseline=round(statistics.mean(bare) * 1000, 3), ratio=round(statistics.mean(samples) / statistics.mean(bare), 2))
        sizes = [int(s) for s in args.sizes.split(",") if s]
        times = {}
        for size in sizes:
            path = folder / f"open-{size}.game"
            t0 = time.perf_counter()
            build_game(path, size)
            built = time.perf_counter() - t0
            times[size] = open_time(path)
            emit(figure=f"open_game_{size}_actions", unit="s", value=round(times[size], 4),
                 target=0.3 if size == 10000 else None, file_mb=round(path.stat().st_size / 1e6, 2),
                 build_s=round(built, 1))
        if len(sizes) > 1:
            small, big = sizes[0], sizes[-1]
            growth = (times[big] / times[small]) / (big / small)
            emit(figure="open_growth_vs_linear", unit="ratio", value=round(growth, 3),
                 note=f"(open time ratio {big}/{small}) / (size ratio); <= 1 means no faster than linear")
    return 0


if __name__ == "__main__":
    sys.exit(main())
