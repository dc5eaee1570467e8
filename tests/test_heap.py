"""The heap an evening runs on: start-up's objects are frozen out of the collector's way, and what
the evening itself makes is still collected."""
import gc
import weakref

from companion.heap import settle


class Seat:
    """A player's seat that points at itself: freed only by the collector, never by counting."""


def test_start_up_is_frozen_and_an_evenings_cycle_is_still_freed():
    try:
        frozen = settle()
        assert frozen == gc.get_freeze_count() > 0
        seat = Seat()
        seat.me = seat
        gone = weakref.ref(seat)
        del seat
        gc.collect()
        assert gone() is None
    finally:
        gc.unfreeze()
