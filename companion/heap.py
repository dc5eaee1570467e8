"""The heap a long evening runs on: what start-up built lives until the process ends.

Modules, classes, the pack, the screens' kv rules and the server's routes are made once and never
freed. Left in the collector's oldest generation, every full collection walks all of them again:
48 ms in one go for the phones' server (measured in ``benchmarks/phones.py``), longer beside Kivy,
holding every phone's next page, or a frame of the touchscreen, for that long. Once start-up is
done, :func:`settle` collects what start-up threw away and moves the rest out of the collector's
sight (``gc.freeze``), so a full collection walks only what the evening itself made (about 1 ms).
Objects frozen are still freed by reference counting; only cycles among them would stay, and
start-up's cycles are the ones that live all evening anyway.

The touchscreen runs on the C library's allocator (:func:`on_c_allocator`). Python's own small-object
allocator takes memory in 1 MB arenas and returns an arena only once every object in it is gone: an
evening of screens made and let go leaves dozens of arenas each held by a few long-lived objects
(measured: 40 arenas holding 21 MB of objects). glibc's allocator, with the app's two arenas and the
``malloc_trim`` at a pause (:mod:`companion.ui.tidy`), hands back every free page instead: the
evening ended 6 MB lower over an empty window, at the same speed per action (``benchmarks/ui.py``).
"""

from __future__ import annotations

import gc
import os
import sys

__all__ = ["settle", "on_c_allocator", "started_again", "ALLOCATOR", "STARTED_AGAIN"]

#: The allocator the touchscreen runs on (``PYTHONMALLOC``): the C library's.
ALLOCATOR = "malloc"

#: Set in the environment of the command started again, and taken out of it at once with
#: ``PYTHONMALLOC``: the programs it starts get the environment the command was started with.
STARTED_AGAIN = "COMPANION_STARTED_AGAIN"


def started_again() -> bool:
    """In the command started again on the C allocator: take the two variables that did it out of the
    environment (the interpreter has read ``PYTHONMALLOC`` already) and say so; False elsewhere."""
    if os.environ.pop(STARTED_AGAIN, None) is None:
        return False
    os.environ.pop("PYTHONMALLOC", None)
    return True


def on_c_allocator() -> None:
    """Start this same command again on the C library's allocator, keeping the process (its id, its
    signals, its systemd unit) and every interpreter option it was started with (``-X dev``, ``-W``:
    ``sys.orig_argv``); nothing when it already runs on one chosen by the environment, or ignores the
    environment (``-E``, ``-I``). Python reads ``PYTHONMALLOC`` only as it starts, so this is done before
    anything else; the command started again takes it out of its environment at once
    (:func:`started_again`), so the programs it starts get the environment it was started with."""
    if started_again() or os.environ.get("PYTHONMALLOC") or not sys.executable or sys.flags.ignore_environment:
        return
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(
        sys.executable,
        [sys.executable, *sys.orig_argv[1:]],
        {**os.environ, "PYTHONMALLOC": ALLOCATOR, STARTED_AGAIN: "1"},
    )


def settle() -> int:
    """Collect start-up's garbage, then freeze what is left; the number of objects frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
