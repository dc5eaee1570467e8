"""The heap a long evening runs on: what start-up built lives until the process ends.

Modules, classes, the pack, the screens' kv rules and the server's routes are made once and never
freed. Left in the collector's oldest generation, every full collection walks all of them again:
48 ms in one go for the phones' server (measured in ``benchmarks/phones.py``), longer beside Kivy,
holding every phone's next page, or a frame of the touchscreen, for that long. Once start-up is
done, :func:`settle` collects what start-up threw away and moves the rest out of the collector's
sight (``gc.freeze``), so a full collection walks only what the evening itself made (about 1 ms).
Objects frozen are still freed by reference counting; only cycles among them would stay, and
start-up's cycles are the ones that live all evening anyway.
"""
from __future__ import annotations

import gc

__all__ = ["settle"]


def settle() -> int:
    """Collect start-up's garbage, then freeze what is left; the number of objects frozen."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
