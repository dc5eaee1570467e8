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


class BareSqlite:
    """INSERT + COMMIT of a similar row with the game file's pragmas: the floor for a durable write."""

    def __init__(self, path: Path, synchronous: str) -> None:
        self.con = sqlite3.connect(path, isolation_level=None)
        self.con.execute("PRAGMA journal_mode = WAL")
        self.con.execute(f"PRAGMA synchronous = {synchronous}")
        self.con.execute(
            "CREATE TABLE entries (seq INTEGER PRIMARY KEY, kind TEXT, action TEXT, events TEXT, summary TEXT, at TEXT)"
        )
        self.row = (
            '{"action":"transfer","amount":1,"from":"bank","to":"Ann"}',
            '[{"amount":1,"from":"bank","memo":"","to":"Ann","type":"Paid"}]',
            "the bank paid Ann $1",
        )

    def step(self, i: int) -> None:
        self.con.execute("BEGIN IMMEDIATE")
        self.con.execute(
            "INSERT INTO entries (kind, action, events, summary, at) VALUES ('do', ?, ?, ?, '2026-01-01')", self.row
        )
        self.con.execute("COMMIT")

    def close(self) -> None:
        self.con.close()


class Service:
    """Banker.do of a transfer, acknowledged after COMMIT (default backups: every 20 actions)."""

    def __init__(self, path: Path, synchronous: str, backup_every: int) -> None:
        self.banker = Banker.create(path, "classic", ["Ann", "Bob", "Cy"], backup_every=backup_every)
        self.banker.store.con.execute(f"PRAGMA synchronous = {synchronous}")

    def step(self, i: int) -> None:
        self.banker.do({"action": "transfer", "from": "bank", "to": ("Ann", "Bob", "Cy")[i % 3], "amount": 1})

    def close(self) -> None:
        self.banker.close()


def interleaved_latency(
    folder: Path, n: int, per_game: int = 1000, synchronous: str = "FULL", clock=time.perf_counter
) -> dict[str, list[float]]:
    """``n`` writes of each kind, taken in turn (bare, with backups, without), so the noise of a shared
    machine and its disk hits all three alike. Each game runs ``per_game`` actions (snapshots every 200
    and backups every 20 included), then a new one starts. With ``synchronous="OFF"`` no write waits
    for the disk, and with ``clock=time.thread_time`` only this thread's CPU time counts: what is left
    is the work of the action itself, free of the noise of a shared disk and of other programs."""
    samples: dict[str, list[float]] = {"bare": [], "backups": [], "no_backups": []}
    done = 0
    while done < n:
        game = folder / f"g{synchronous}{done}"
        game.mkdir()
        writers = {
            "bare": BareSqlite(game / "bare.db", synchronous),
            "backups": Service(game / "backups.game", synchronous, 20),
            "no_backups": Service(game / "plain.game", synchronous, 0),
        }
        try:
            for i in range(min(per_game, n - done)):
                for name, writer in writers.items():
                    t0 = clock()
                    writer.step(i)
                    samples[name].append(clock() - t0)
        finally:
            for writer in writers.values():
                writer.close()
        done += min(per_game, n - done)
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
                banker.do(
                    {"action": "transfer", "from": players[i % 4], "to": players[(i + 1) % 4], "amount": 1 + i % 7}
                )
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
    ap.add_argument("--actions", type=int, default=3000)
    ap.add_argument("--sizes", default="1000,10000,100000")
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(
        prefix="table-banker-bench-"
    ) as tmp:  # under the system temp, never in the checkout
        folder = Path(tmp)
        runs = (("FULL", time.perf_counter, "action_latency"), ("OFF", time.thread_time, "action_cpu"))
        for synchronous, clock, prefix in runs:
            measured = interleaved_latency(folder, args.actions, synchronous=synchronous, clock=clock)
            bare = measured["bare"]
            for label, what in (("", "default backups every 20 actions"), ("_no_backups", "backups off")):
                samples = measured[label.lstrip("_") or "backups"]
                for p in (50, 99):
                    v, b = percentile(samples, p), percentile(bare, p)
                    emit(
                        figure=f"{prefix}{label}_p{p}",
                        unit="ms",
                        value=round(v * 1000, 3),
                        baseline=round(b * 1000, 3),
                        baseline_is=f"bare SQLite INSERT+COMMIT, WAL, synchronous={synchronous}, same disk"
                        + ("" if synchronous == "FULL" else ", CPU time of this thread"),
                        ratio=round(v / b, 2),
                        target_ratio=1.5 if synchronous == "FULL" else None,
                        samples=len(samples),
                        service=what,
                    )
                emit(
                    figure=f"{prefix}{label}_mean",
                    unit="ms",
                    value=round(statistics.mean(samples) * 1000, 3),
                    baseline=round(statistics.mean(bare) * 1000, 3),
                    ratio=round(statistics.mean(samples) / statistics.mean(bare), 2),
                )
        sizes = [int(s) for s in args.sizes.split(",") if s]
        times = {}
        for size in sizes:
            path = folder / f"open-{size}.game"
            t0 = time.perf_counter()
            build_game(path, size)
            built = time.perf_counter() - t0
            times[size] = open_time(path)
            emit(
                figure=f"open_game_{size}_actions",
                unit="s",
                value=round(times[size], 4),
                target=0.3 if size == 10000 else None,
                file_mb=round(path.stat().st_size / 1e6, 2),
                build_s=round(built, 1),
            )
        if len(sizes) > 1:
            small, big = sizes[0], sizes[-1]
            growth = (times[big] / times[small]) / (big / small)
            emit(
                figure="open_growth_vs_linear",
                unit="ratio",
                value=round(growth, 3),
                note=f"(open time ratio {big}/{small}) / (size ratio); <= 1 means no faster than linear",
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
