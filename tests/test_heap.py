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
        # frozen, and still held frozen (a frozen object another thread lets go leaves the count, so no equality)
        assert frozen > 0 and gc.get_freeze_count() > 0
        seat = Seat()
        seat.me = seat
        gone = weakref.ref(seat)
        del seat
        gc.collect()
        assert gone() is None
    finally:
        gc.unfreeze()


def _started(*python: str, **env: str) -> list[str]:
    import os
    import subprocess
    import sys

    clean = {k: v for k, v in os.environ.items() if k not in ("PYTHONMALLOC", "COMPANION_STARTED_AGAIN")}
    out = subprocess.run([sys.executable, *python], capture_output=True, text=True, timeout=120, env={**clean, **env})
    assert out.returncode == 0, out.stderr
    return out.stdout.splitlines()


#: A command as `companion run` begins: it says who it is, starts again on the C allocator, then says
#: what it runs on and what a program it starts is given.
COMMAND = """
import os, subprocess, sys
print("start", os.getpid(), os.environ.get("PYTHONMALLOC"), flush=True)
from companion.heap import on_c_allocator
on_c_allocator()
try:
    import _testcapi
    print("allocator", _testcapi.pymem_getallocatorsname())
except ImportError:  # an interpreter built without its test module
    print("allocator unknown")
print("options", sys.flags.dev_mode, sys.warnoptions)
child = "import os; print(os.environ.get('PYTHONMALLOC'), os.environ.get('COMPANION_STARTED_AGAIN'))"
print("child", subprocess.run([sys.executable, "-c", child], capture_output=True, text=True).stdout.strip())
"""


def test_the_touchscreen_starts_again_on_the_c_allocator_keeping_every_interpreter_option():
    """`companion run` started with -X dev and -W starts again in the same process on glibc's allocator,
    with the same options; a program it starts then gets the environment it was started with."""
    lines = _started("-X", "dev", "-W", "error::DeprecationWarning", "-c", COMMAND)
    first, again = lines[0].split(), lines[1].split()
    assert first[0] == again[0] == "start" and first[1] == again[1]  # the same process
    assert first[2] == "None" and again[2] == "malloc"
    assert lines[2] in ("allocator malloc", "allocator malloc_debug", "allocator unknown")
    assert lines[3].startswith("options True [") and "'error::DeprecationWarning'" in lines[3]
    assert lines[4] == "child None None"
    assert len(lines) == 5  # started again once


def test_an_allocator_the_environment_chose_is_kept_and_handed_on():
    lines = _started("-c", COMMAND, PYTHONMALLOC="pymalloc")
    assert lines[0].split()[2] == "pymalloc" and len(lines) == 4  # not started again
    assert lines[1] in ("allocator pymalloc", "allocator unknown")
    assert lines[3] == "child pymalloc None"  # the environment's own choice is the children's too


def test_an_interpreter_that_ignores_the_environment_is_not_started_again():
    lines = _started("-E", "-c", COMMAND)
    assert len(lines) == 4 and lines[1] in ("allocator pymalloc", "allocator unknown")


def test_companion_run_starts_again_before_reading_its_arguments():
    """`companion run --help` answers at once; `companion run` asks for the C allocator before the parser
    is built (the work a start does twice, benchmarks/allocator.py)."""
    import inspect

    from companion import cli

    source = inspect.getsource(cli.main)
    assert source.index("on_c_allocator()") < source.index("build_parser()")
    lines = _started("-m", "companion", "run", "--help")
    assert lines[0].startswith("usage: companion run")
