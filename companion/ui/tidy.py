"""Giving memory back to the system while the banker pauses.

Kivy's widgets hold each other in reference cycles, so a screen let go is only freed by the cycle
collector; and the C allocator keeps freed pages for itself unless asked to return them. Both are
done here, once the table has been still for a moment, never between two taps.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gc

__all__ = ["give_back"]


def _malloc_trim():
    """glibc's ``malloc_trim`` (Raspberry Pi OS and Debian), or None where the C library has none."""
    name = ctypes.util.find_library("c")
    try:
        return ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return None


_TRIM = _malloc_trim()


def give_back() -> int:
    """Free what nothing refers to any more and hand the free pages back; the objects collected."""
    found = gc.collect()
    if _TRIM is not None:
        _TRIM(0)
    return found
