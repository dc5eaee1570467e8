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


def _started(code: str, **env: str) -> str:
    import os
    import subprocess
    import sys

    clean = {k: v for k, v in os.environ.items() if k != "PYTHONMALLOC"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         env={**clean, **env})
    assert out.returncode == 0, out.stderr
    return out.stdout


def test_the_touchscreen_starts_again_on_the_c_allocator_as_the_same_command():
    """`companion run` begins with on_c_allocator(["run", ...]): the same command starts again in the
    same process on glibc's allocator (shown here with `companion rules`, which needs no window)."""
    code = ("import os; print('before', os.environ.get('PYTHONMALLOC'), flush=True); "
            "from companion.heap import on_c_allocator; on_c_allocator(['rules']); print('not started again')")
    lines = _started(code).splitlines()
    assert lines[0] == "before None" and "not started again" not in lines
    assert any(line.split()[0] == "classic" for line in lines[1:])


def test_an_allocator_the_environment_chose_is_kept():
    code = ("from companion.heap import on_c_allocator; on_c_allocator(['rules']); print('not started again')")
    assert _started(code, PYTHONMALLOC="pymalloc").strip() == "not started again"
