"""The app's memory and the C allocator: few arenas from the start, freed memory handed back at a pause.

Kivy's widgets hold each other in reference cycles, so a screen let go is only freed by the cycle
collector; and the C allocator keeps freed pages for itself unless asked to return them. Both are
done here, once the table has been still for a moment, never between two taps.

glibc gives each thread that allocates its own arena (up to eight per core), and an arena's free
pages stay with it: the app's threads (the asyncio loop, the ledger's housekeeping, zeroconf, the
GL driver's) would each keep a few MB that no other thread can reuse. :func:`limit_arenas`, called
before the window and those threads start, makes them share two.

What Kivy itself keeps of a screen let go is worked around in :mod:`companion.ui.kivy_fixes`.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc

__all__ = ["give_back", "collect_young", "limit_arenas", "ARENAS", "WHOLE_EVERY"]

#: Every so many pauses the collector walks the whole heap again, settled part included, so nothing
#: settled that has since become garbage outlives a few pauses.
WHOLE_EVERY = 10

#: glibc's ``mallopt`` parameter for the most arenas it makes (``M_ARENA_MAX`` in malloc.h).
_M_ARENA_MAX = -8

#: Arenas the app's threads share: the main thread's own and one for the others.
ARENAS = 2


def _libc():
    """glibc (Raspberry Pi OS and Debian), or None where the C library is another."""
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name) if name else None
    except OSError:
        return None


_LIBC = _libc()
_TRIM = getattr(_LIBC, "malloc_trim", None)
_MALLOPT = getattr(_LIBC, "mallopt", None)


def limit_arenas(arenas: int = ARENAS) -> bool:
    """Make every thread started from now on share ``arenas`` allocator arenas; False where the C
    library cannot (then nothing changes)."""
    if _MALLOPT is None:
        return False
    return bool(_MALLOPT(_M_ARENA_MAX, arenas))


def collect_young() -> int:
    """Free the screens just let go, now: a screen's widgets hold each other in cycles, and left to
    the collector's own pace a few screens' worth of garbage piles up between two pauses. The
    allocator then takes more arenas than the evening needs and keeps them, each held by the few
    objects left in it. Walks only what was made since the heap last settled; most of its time goes
    to freeing the old screen's widgets."""
    return gc.collect()


def give_back(settle: bool = False, whole: bool = False) -> int:
    """Free what nothing refers to any more and hand the free pages back; the objects collected.

    ``settle``: what is left is the evening's steady state (the table and the open game), so it is
    moved out of the collector's sight (``gc.freeze``) and later collections walk only what is new.
    ``whole``: walk the settled part too first, so anything settled that has since been let go (a
    game closed, the table's tiles made anew) is freed."""
    if whole:
        gc.unfreeze()
    found = gc.collect()
    if settle:
        gc.freeze()
    if _TRIM is not None:
        _TRIM(0)
    return found
