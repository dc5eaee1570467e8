"""How soon the touchscreen and the phones see an action another program wrote.

A second process (standing in for `companion do` in a terminal, or the phones' server run on its own)
applies transfers at random moments and notes when each COMMIT returned. This process holds the same
game open and looks for other programs' writes the way the adapters do: woken by the kernel's file
notifications as the phones' server and the touchscreen are (``companion/watch.py``, Linux), and
``Banker.refresh()`` every ``WATCH_SECONDS`` on its loop as the touchscreen's Kivy clock did. Each
entry's delay is from the writer's COMMIT to the subscriber hearing it. Both processes read the same
system-wide monotonic clock. Prints one JSON line per figure.

    python benchmarks/watch.py [--writes N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from companion.service import WATCH_SECONDS, Banker  # noqa: E402

OLD_POLL_SECONDS = 0.5  # what the adapters used before ``PRAGMA data_version`` made looking cheap


def emit(**figure) -> None:
    print(json.dumps(figure), flush=True)


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    return ordered[max(0, min(len(ordered) - 1, round(p / 100 * (len(ordered) - 1))))]


def writer(game: Path, writes: int, seed: int) -> None:
    """The other program: ``writes`` transfers at random moments, printing "seq committed-at" for each."""
    rnd = random.Random(seed)
    with Banker.open(game, backup_every=0) as banker:
        for i in range(writes):
            time.sleep(rnd.uniform(0.01, 0.09))
            outcome = banker.do({"action": "transfer", "from": "bank", "to": ("Ann", "Bob")[i % 2], "amount": 1})
            print(outcome.entry.seq, time.monotonic(), flush=True)


async def watch(game: Path, writes: int, every: float | None, seed: int) -> tuple[list[float], int]:
    """Follow the game while another process writes: polling every ``every`` seconds as the touchscreen
    does, or (``every`` None) as the phones' server does, woken by the kernel (companion/watch.py).
    The delay of each entry, and how many times this process looked."""
    from companion.watch import GameWatch

    heard: dict[int, float] = {}
    looks = 0
    with Banker.open(game, backup_every=0) as banker:
        banker.subscribe(lambda outcome: heard.setdefault(outcome.entry.seq, time.monotonic()))
        kernel = GameWatch(banker.refresh, banker.path) if every is None else None
        if kernel is not None:
            assert kernel.kernel, "no file notifications here"
            kernel.start()
        child = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--writer",
            str(game),
            str(writes),
            str(seed),
            stdout=asyncio.subprocess.PIPE,
            cwd=ROOT,
        )
        committed: dict[int, float] = {}

        async def read() -> None:
            assert child.stdout is not None
            async for line in child.stdout:
                seq, at = line.split()
                committed[int(seq)] = float(at)

        reader = asyncio.create_task(read())
        while not (reader.done() and all(seq in heard for seq in committed)):
            await asyncio.sleep(every or 0.02)  # the kernel's watch: only waiting for the writer to finish
            if kernel is None:
                banker.refresh()
                looks += 1
        await child.wait()
        if kernel is not None:
            looks = kernel.looks
            kernel.stop()
    return [heard[seq] - at for seq, at in committed.items()], looks


def idle_refresh_cost(game: Path, n: int = 20000) -> float:
    """Seconds one ``refresh()`` takes when nothing changed: the price of looking often."""
    with Banker.open(game, backup_every=0) as banker:
        t0 = time.perf_counter()
        for _ in range(n):
            banker.refresh()
        return (time.perf_counter() - t0) / n


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--writer"]:
        writer(Path(argv[1]), int(argv[2]), int(argv[3]))
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("--writes", type=int, default=200)
    args = ap.parse_args(argv)
    with tempfile.TemporaryDirectory(
        prefix="table-banker-bench-"
    ) as tmp:  # under the system temp, never in the checkout
        game = Path(tmp) / "watched.game"
        Banker.create(game, "classic", ["Ann", "Bob"], backup_every=0).close()
        rounds = [(WATCH_SECONDS, args.writes), (OLD_POLL_SECONDS, max(20, args.writes // 5))]
        if sys.platform.startswith("linux"):
            rounds.insert(0, (None, args.writes))
        for every, writes in rounds:
            delays, looks = asyncio.run(watch(game, writes, every, seed=writes))
            name = "seen_by_kernel_watch" if every is None else "seen_elsewhere"
            for p in (50, 99):
                emit(
                    figure=f"{name}_p{p}",
                    unit="ms",
                    value=round(percentile(delays, p) * 1000, 1),
                    poll_s=every,
                    target=100 if every in (None, WATCH_SECONDS) else None,
                    samples=len(delays),
                    what="another program's COMMIT to this program's subscriber",
                )
            emit(
                figure=f"{name}_max",
                unit="ms",
                value=round(max(delays) * 1000, 1),
                poll_s=every,
                looks=looks,
                writes=writes,
            )
        emit(
            figure="refresh_when_nothing_changed",
            unit="us",
            value=round(idle_refresh_cost(game) * 1e6, 2),
            per_second=round(1 / WATCH_SECONDS),
            note="the cost of looking every WATCH_SECONDS",
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
