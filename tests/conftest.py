import os
import sys

import pytest

# No GPIO on test machines: gpiozero's mock pins stand in everywhere.
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

from tests.table import AtTheTable  # noqa: E402

ON_CI = os.environ.get("CI", "").lower() == "true"


@pytest.fixture
def new_game(tmp_path):
    """new_game("classic", "Ann", "Bob", free_parking=True) -> AtTheTable; closed after the test."""
    games = []

    def make(rules, *players, **options):
        t = AtTheTable.new(tmp_path, rules, *players, name=f"game{len(games)}.game", **options)
        games.append(t)
        return t

    yield make
    for t in games:
        t.close()


def pytest_collection_modifyitems(config, items):
    """GUI and browser tests skip on a developer's machine without a display or Chromium, never on CI."""
    have_display = bool(os.environ.get("DISPLAY"))
    have_chromium = os.path.exists("/usr/bin/chromium")
    for item in items:
        if "gui" in item.keywords and not have_display:
            if ON_CI:
                item.fixturenames.insert(0, "_fail_no_display")
            else:
                item.add_marker(pytest.mark.skip(reason="no DISPLAY (run `make test`, which starts Xvfb)"))
        if "browser" in item.keywords and not have_chromium:
            if ON_CI:
                item.fixturenames.insert(0, "_fail_no_chromium")
            else:
                item.add_marker(pytest.mark.skip(reason="no /usr/bin/chromium (run `make test` as root)"))


@pytest.fixture
def _fail_no_display():
    pytest.fail("no DISPLAY under CI=true: GUI tests must run under Xvfb")


@pytest.fixture
def _fail_no_chromium():
    pytest.fail("no /usr/bin/chromium under CI=true: browser tests must run")
