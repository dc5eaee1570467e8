"""How many examples a property test or a seeded fuzz tries: all of them in `make test`, a quarter in
`make check` (the quick run while working, started with ``--hypothesis-profile=check``).

The profile is registered in tests/conftest.py, before hypothesis's pytest plugin loads the one named on
the command line. A test that sets its own count asks for it here, so the count in `make test` is the one
written in the test and `make check` tries the same machines on fewer examples.
"""

from __future__ import annotations

from hypothesis import settings

CHECK = "check"  # the profile `make check` loads
SHARE_IN_CHECK = 4  # make check tries one in this many of a test's examples


def examples(full: int, least: int = 5) -> int:
    """``full`` in the whole suite; a quarter of it (at least ``least``) under the ``check`` profile."""
    if settings.get_current_profile_name() == CHECK:
        return min(full, max(least, full // SHARE_IN_CHECK))
    return full
