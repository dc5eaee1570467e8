"""Seeing what other programs write to the game, without looking 20 times a second when nothing happens.

Both long-running adapters watch the game this way: the phones' server (``companion serve``, and beside
the touchscreen) and the touchscreen itself (:mod:`companion.ui.bank_app`), each with its own Banker.
Another program (``companion do`` in a terminal, a second server) commits an entry by writing to the
game's ``-wal`` file. On Linux the kernel says so (inotify, through :mod:`ctypes`, no dependency): the
watch sleeps until the game's folder reports a write to the game or its ``-wal``, then *looks*
(``look()``: :meth:`companion.service.Banker.refresh`, one ``PRAGMA data_version`` when nothing is new).

A write is heard when its first page reaches the ``-wal``, before its COMMIT is visible (the writer
still has to fsync and mark the commit in the shared index, which makes no notification). So one look
is not enough: after another program's write the watch looks at once and again after
:data:`TAIL_SECONDS` (3, 10, 50, 100 and 250 ms after the latest write heard), which sees a commit whose
fsync takes up to a quarter of a second. The table's own commits make the kernel speak too, and the
kernel queues that notification inside the commit's own write: when the Banker tells the watch of its
commit (:meth:`GameWatch.own_commit`, its first subscriber, right after the COMMIT), the watch reads
the queue there and then. The table knows what it wrote, so nothing is looked at and the loop is not
woken for it; another program's write after that is a notification of its own, heard as above.
Besides, a safety look every :data:`SAFETY_SECONDS` catches what a notification could miss (a file
system that sends none, a commit slower than the tail): the only wake-up while idle.

Elsewhere (no inotify) the watch polls, adaptively: every :data:`companion.service.WATCH_SECONDS`
after a change or a phone's request (:meth:`GameWatch.nudge`), slower and slower while nothing
changes, down to one look every :data:`IDLE_POLL_SECONDS`.

``looks`` and ``wakeups`` count what the watch did (the tests, ``benchmarks/phones.py`` and
``benchmarks/ui_idle.py`` read them).
Loop-only: every method runs on the server's asyncio loop; nothing here starts a thread.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import logging
import os
import struct
import sys
from collections.abc import Callable
from pathlib import Path

from companion.service import WATCH_SECONDS

__all__ = ["IDLE_POLL_SECONDS", "SAFETY_SECONDS", "TAIL_SECONDS", "GameWatch", "Inotify"]

log = logging.getLogger(__name__)

#: After another program's write is heard: look again this long after the latest write heard.
TAIL_SECONDS = (0.003, 0.01, 0.05, 0.1, 0.25)
#: The one look while idle, for what a notification could miss.
SAFETY_SECONDS = 2.0
#: The polling fallback's slowest pace while nothing changes.
IDLE_POLL_SECONDS = 1.0

# <sys/inotify.h>
IN_MODIFY = 0x00000002
IN_MOVED_TO = 0x00000080
IN_CREATE = 0x00000100
IN_Q_OVERFLOW = 0x00004000
IN_ONLYDIR = 0x01000000
_EVENT = struct.Struct("iIII")  # wd, mask, cookie, len; then len bytes of name
_READ = 64 * 1024  # bytes read at once: the kernel gives as many whole events as fit
_LARGEST = _EVENT.size + 256  # the largest event: a name of NAME_MAX (255) bytes and its NUL


class Inotify:
    """The kernel's file notifications for one folder, through libc (Linux only).

    :meth:`names` reads what is waiting (never blocks): the names written, created or moved in, and
    ``None`` for a lost queue (so many events that the kernel dropped some: look at everything)."""

    MASK = IN_MODIFY | IN_CREATE | IN_MOVED_TO | IN_ONLYDIR

    def __init__(self, folder: Path) -> None:
        if not sys.platform.startswith("linux"):
            raise OSError("inotify is Linux only")
        libc = ctypes.CDLL(ctypes.util.find_library("c") or None, use_errno=True)
        init = getattr(libc, "inotify_init1", None)
        if init is None:
            raise OSError("this C library has no inotify")
        fd = init(os.O_NONBLOCK | os.O_CLOEXEC)
        if fd < 0:
            raise OSError(ctypes.get_errno(), "inotify_init1 failed")
        libc.inotify_add_watch.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_uint32)
        if libc.inotify_add_watch(fd, os.fsencode(folder), self.MASK) < 0:
            error = ctypes.get_errno()
            os.close(fd)
            raise OSError(error, f"cannot watch {folder}")
        self.fd = fd
        self._buffer = bytearray(_READ)
        self._names: dict[bytes, str] = {}

    def written(self, files: set[str]) -> bool | None:
        """Read what is waiting (never blocks): whether any of ``files`` was written, created or moved
        in (None: a lost queue, look at everything)."""
        names = self.names()
        if None in names:
            return None
        return not files.isdisjoint(names)

    def names(self) -> list[str | None]:
        names: list[str | None] = []
        data = self._buffer  # read into one buffer made once (a game's commit queues an event or two)
        while True:
            try:
                size = os.readv(self.fd, (data,))
            except BlockingIOError:
                return names
            if not size:
                return names
            at = 0
            while at + _EVENT.size <= size:
                _, mask, _, length = _EVENT.unpack_from(data, at)
                at += _EVENT.size
                if mask & IN_Q_OVERFLOW:
                    names.append(None)
                else:
                    raw = bytes(data[at : at + length])  # the name, padded with NULs by the kernel
                    name = self._names.get(raw)
                    if name is None:
                        name = os.fsdecode(raw.rstrip(b"\0"))
                        if len(self._names) < 64:  # a folder's few names, decoded once each
                            self._names[raw] = name
                    names.append(name)
                at += length
            if size <= _READ - _LARGEST:  # the next event would have fitted: the queue was empty
                return names

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


class GameWatch:
    """Calls ``look()`` when another program may have written to the game at ``path``.

    ``look()`` returns True when it found something new. :meth:`own_commit` is told of the table's own
    commits (from a Banker subscription made outside ``look``, best the first one:
    ``banker.subscribe(watch.own_commit, first=True)``). ``kernel=False`` forces the polling fallback
    (what a system without inotify gets)."""

    def __init__(
        self,
        look: Callable[[], bool],
        path: Path,
        *,
        kernel: bool = True,
        tail: tuple[float, ...] = TAIL_SECONDS,
        safety: float = SAFETY_SECONDS,
        fast: float = WATCH_SECONDS,
        idle_poll: float = IDLE_POLL_SECONDS,
    ) -> None:
        self._look = look
        self.path = Path(path)
        self._files = {self.path.name, f"{self.path.name}-wal"}
        self.tail, self.safety = tail, safety
        self.fast, self.idle_poll = fast, idle_poll
        self.looks = 0  # how many times it looked
        self.wakeups = 0  # how many times the kernel woke it for the game's files
        self.own_writes = 0  # notifications of the table's own commits, read at the commit
        self._inotify: Inotify | None = None
        if kernel:
            try:
                self._inotify = Inotify(self.path.parent)
            except OSError as error:
                log.info("no file notifications for %s (%s): polling instead", self.path.parent, error)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._due: list[float] = []  # when to look next (kernel mode), sorted
        self._timer: asyncio.TimerHandle | None = None
        self._safety: asyncio.TimerHandle | None = None
        self._last_look = 0.0
        self._own = False  # polling: the table committed since the last look
        self._looking = False
        self._pace = fast  # the polling fallback's current pace

    @property
    def kernel(self) -> bool:
        """True when the kernel's notifications wake the watch; False when it polls."""
        return self._inotify is not None

    # -- running -----------------------------------------------------------------------------------
    def start(self) -> None:
        loop = self._loop = asyncio.get_running_loop()
        self._last_look = loop.time()
        if self._inotify is not None:
            loop.add_reader(self._inotify.fd, self._heard)
            self._arm_safety()
        else:
            self._timer = loop.call_later(self._pace, self._poll)

    def stop(self) -> None:
        """Stop watching and let go of the notifications. Safe twice."""
        for handle in (self._timer, self._safety):
            if handle is not None:
                handle.cancel()
        self._timer = self._safety = None
        self._due.clear()
        if self._inotify is not None:
            if self._loop is not None:
                self._loop.remove_reader(self._inotify.fd)
            self._inotify.close()
            self._inotify = None
        self._loop = None

    def own_commit(self, outcome: object = None) -> None:
        """The table's own Banker committed (its subscriptions call this, right after the COMMIT).

        With the kernel's notifications, those of the commit's writes are already queued: they are
        read now, so that they neither wake the loop nor cost a look. Only a lost queue (the kernel
        dropped events) is looked at, as another program's write is. Polling: the next poll keeps the
        fast pace. Nothing for an entry the Banker caught up with (another program's: its
        notification is heard as such), nor while the watch itself looks."""
        if self._looking or getattr(outcome, "elsewhere", False):
            return
        if self._inotify is None:
            self._own = True
            return
        written = self._inotify.written(self._files)  # the commit's own notifications, read now
        if written is None:
            self._heard_write()
        elif written:
            self.own_writes += 1

    def nudge(self) -> None:
        """A phone asks for something: polling, look now and keep the fast pace (with the kernel's
        notifications the watch is already up to date)."""
        if self._inotify is None and self._loop is not None:
            self.look()
            self._reschedule_poll(busy=True)

    # -- looking -----------------------------------------------------------------------------------
    def look(self) -> bool:
        self.looks += 1
        self._looking = True
        try:
            return bool(self._look())
        except Exception:  # a busy or briefly locked file: the next look tries again
            log.exception("could not pick up changes to the game")
            return False
        finally:
            self._looking = False
            self._own = False
            if self._loop is not None:
                self._last_look = self._loop.time()

    # -- the kernel's notifications ------------------------------------------------------------------
    def _heard(self) -> None:
        if self._inotify is None or self._loop is None:
            return
        names = self._inotify.names()
        if not any(name is None or name in self._files for name in names):
            return  # another file in the folder (the phones file, another game)
        self.wakeups += 1
        self._heard_write()

    def _heard_write(self) -> None:
        """Another program wrote to the game (or a lost queue may hide it): look now and along the tail."""
        if self._loop is None:
            return
        now = self._loop.time()
        self.look()
        for delay in self.tail:
            self._plan(now + delay)

    def _plan(self, at: float) -> None:
        if any(abs(at - due) < 0.002 for due in self._due):
            return
        self._due.append(at)
        self._due.sort()
        self._arm()

    def _arm(self) -> None:
        if self._loop is None:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._due:
            self._timer = self._loop.call_at(self._due[0], self._tail_look)

    def _tail_look(self) -> None:
        self._timer = None
        if self._loop is None:
            return
        now = self._loop.time()
        self._due = [due for due in self._due if due > now + 0.002]
        self.look()
        self._arm()

    def _arm_safety(self) -> None:
        if self._loop is not None and self.safety:
            self._safety = self._loop.call_at(self._last_look + self.safety, self._safety_look)

    def _safety_look(self) -> None:
        if self._loop is None:
            return
        if self._loop.time() - self._last_look >= self.safety * 0.99:
            self.look()
        self._arm_safety()

    # -- the polling fallback ------------------------------------------------------------------------
    def _poll(self) -> None:
        self._timer = None
        if self._loop is None:
            return
        own = self._own
        found = self.look()
        self._reschedule_poll(found or own)

    def _reschedule_poll(self, busy: bool) -> None:
        if self._loop is None:
            return
        self._pace = self.fast if busy else min(self.idle_poll, self._pace * 1.5)
        if self._timer is not None:
            self._timer.cancel()
        self._timer = self._loop.call_later(self._pace, self._poll)
