"""Work that waits for a pause in the taps: the game's backup copies and its snapshots.

A banker's tap must never wait for housekeeping, and housekeeping must not compete with the taps for
the disk. So it runs on one worker thread, started when the game opens, and only once no entry has
been committed for ``quiet`` seconds (at the latest ``max_delay`` seconds after it was asked for).

A commit only notes the time (:meth:`Lull.touch`: one float and one flag stored, no lock, no thread
woken), and asking for a job wakes nobody either: the worker looks by itself every ``quiet`` seconds. A
job asked for again before it ran is done once, with the latest request. A job wanted after every
commit (recording the chain's head) is kept once (:meth:`Lull.keep`) instead of asked for at each
commit: the worker asks for it when it sees a touch. Closing runs what is left at once.

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
        self._kept: dict[str, tuple[int, Job]] = {}  # asked for again after every touch
        self._touched = False  # a touch since the worker last asked for the kept jobs
        self._due: float | None = None  # when the oldest waiting job must run, lull or not
        self._running = False
        self._closing = False
        self._cond = threading.Condition()
        self._thread: threading.Thread | None = threading.Thread(target=self._work, name=name, daemon=True)
        self._thread.start()

    def touch(self) -> None:
        """An entry was just committed: the lull starts again from now, and the kept jobs are due."""
        self._last = time.monotonic()
        # No lock: the worker clears the flag before it queues the kept jobs, so a touch it clears
        # unseen came before a job that has yet to run, which then sees what that commit wrote.
        self._touched = True
        if self.quiet <= 0 or self._thread is None:
            self._touched_now()

    def _touched_now(self) -> None:
        """A touch when no lull is waited for: the kept jobs run at once (closed: here)."""
        if self._thread is None:
            self._touched = False
            for key, (_, job) in sorted(self._kept.items(), key=lambda item: item[1][0]):
                _run(key, job)
            return
        with self._cond:
            self._cond.notify_all()

    def keep(self, key: str, job: Job, *, rank: int = 0) -> None:
        """Run ``job`` in the lull after every :meth:`touch`, as if each touch submitted it (once per
        lull, however many touches came before it)."""
        with self._cond:
            self._kept[key] = (rank, job)

    def submit(self, key: str, job: Job, *, rank: int = 0) -> None:
        """Run ``job`` in the next lull; a job waiting under the same ``key`` is replaced by this one.

        The worker is not woken (a woken thread would compete with the tap for the interpreter): it
        looks for jobs every ``quiet`` seconds by itself. With ``quiet`` 0 it is woken to run at once."""
        if self._thread is None:  # closed: nothing will tap again, so do it now
            _run(key, job)
            return
        with self._cond:
            self._jobs[key] = (rank, job)
            if self._due is None:
                self._due = time.monotonic() + self.max_delay
            if self.quiet <= 0:
                self._cond.notify_all()

    def flush(self) -> None:
        """Wait until every job asked for so far has run (the worker goes on)."""
        with self._cond:
            self._cond.notify_all()  # no tap is coming while the caller waits: look now
            while self._jobs or self._running or self._kept_due():
                self._cond.wait()

    def _kept_due(self) -> bool:
        return self._touched and bool(self._kept)

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
                jobs = self._ready()
                if jobs is None:
                    if self._closing:
                        return
                    self._cond.wait(self._nap())
                    continue
                self._running = True
            try:
                for key, (_, job) in jobs:
                    _run(key, job)
            finally:
                with self._cond:
                    self._running = False
                    self._cond.notify_all()

    def _ready(self) -> list[tuple[str, tuple[int, Job]]] | None:
        """The jobs to run now, in rank order, taken off the table; None while there are none or the
        taps go on (called under the lock)."""
        if self._touched:
            self._touched = False  # before the jobs are queued: see touch()
            if self._kept:
                self._jobs.update(self._kept)
                if self._due is None:  # due at the latest max_delay after the worker saw the touch
                    self._due = time.monotonic() + self.max_delay
        if not self._jobs:
            return None
        now = time.monotonic()
        lull = self.quiet <= 0 or now - self._last >= self.quiet
        if not (lull or self._closing or (self._due is not None and now >= self._due)):
            return None
        jobs = sorted(self._jobs.items(), key=lambda item: item[1][0])
        self._jobs.clear()
        self._due = None
        return jobs

    def _nap(self) -> float | None:
        """How long the worker may sleep before it looks again (called under the lock)."""
        if self.quiet <= 0:
            return None  # woken by every submit
        if not self._jobs:
            return self.quiet
        now = time.monotonic()
        until_lull = self.quiet - (now - self._last)
        until_due = (self._due - now) if self._due is not None else until_lull
        return max(0.001, min(until_lull, until_due))


def _run(key: str, job: Job) -> None:
    try:
        job()
    except Exception:  # housekeeping must never take the game down; the job reports its own trouble
        log.exception("%s failed", key)
