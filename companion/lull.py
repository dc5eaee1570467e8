"""Work that waits for a pause in the taps: the game's backup copies and its snapshots.

A banker's tap must never wait for housekeeping, and housekeeping must not compete with the taps for
the disk. So it runs on one worker thread, started when the game opens, and only once no entry has
been committed for ``quiet`` seconds (at the latest ``max_delay`` seconds after it was asked for).

A commit only notes the time (:meth:`Lull.touch`: one float stored, no lock, no thread woken); a job
asked for again before it ran is done once, with the latest request. Closing runs what is left at once.

Threading: ``touch``, ``submit``, ``flush`` and ``close`` are called from the Banker's thread; the
worker shares nothing with it but the job table (under a lock) and the time of the last commit.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Callable

__all__ = ["Lull"]

log = logging.getLogger(__name__)

Job = Callable[[], object]


class Lull:
    """One worker thread running keyed jobs in a lull, in the order of their ``rank``."""

    def __init__(self, *, quiet: float = 1.0, max_delay: float = 30.0, name: str = "game-lull") -> None:
        self.quiet = quiet
        self.max_delay = max_delay
        self._last = time.monotonic()
        self._jobs: dict[str, tuple[int, Job]] = {}
        self._due: float | None = None  # when the oldest waiting job must run, lull or not
        self._running = False
        self._closing = False
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    def touch(self) -> None:
        """An entry was just committed: the lull starts again from now."""
        self._last = time.monotonic()

    def submit(self, key: str, job: Job, *, rank: int = 0) -> None:
        """Run ``job`` in the next lull; a job waiting under the same ``key`` is replaced by this one."""
        if self._thread is None:  # closed: nothing will tap again, so do it now
            _run(key, job)
            return
        with self._cond:
            self._jobs[key] = (rank, job)
            if self._due is None:
                self._due = time.monotonic() + self.max_delay
            self._cond.notify_all()

    def flush(self) -> None:
        """Wait until every job asked for so far has run (the worker goes on)."""
        with self._cond:
            while self._jobs or self._running:
                self._cond.wait()

    def close(self) -> None:
        """Run every waiting job at once and stop the worker. Safe to call twice."""
        thread, self._thread = self._thread, None
        if thread is None:
            return
        with self._cond:
            self._closing = True
            self._cond.notify_all()
        thread.join()

    def _work(self) -> None:
        while True:
            with self._cond:
                while not self._jobs and not self._closing:
                    self._cond.wait()
                if not self._jobs:
                    return
            self._wait_for_a_lull()
            with self._cond:
                jobs = sorted(self._jobs.items(), key=lambda item: item[1][0])
                self._jobs.clear()
                self._due = None
                self._running = True
            try:
                for key, (_, job) in jobs:
                    _run(key, job)
            finally:
                with self._cond:
                    self._running = False
                    self._cond.notify_all()

    def _wait_for_a_lull(self) -> None:
        with self._cond:
            while not self._closing and self.quiet > 0:
                now = time.monotonic()
                idle = now - self._last
                due = self._due if self._due is not None else now
                if idle >= self.quiet or now >= due:
                    return
                self._cond.wait(min(self.quiet - idle, due - now))


def _run(key: str, job: Job) -> None:
    try:
        job()
    except Exception:  # housekeeping must never take the game down; the job reports its own trouble
        log.exception("%s failed", key)
