import ctypes
import os
import shutil
import signal
import subprocess
import time
from pathlib import Path

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


def _die_with_parent() -> None:
    """In the child, before exec: the kernel ends it when the test process ends, however that ends."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def own_screen() -> subprocess.Popen | None:
    """A virtual screen (Xvfb) of this test process's own, its number chosen by the server
    (``-displayfd``); DISPLAY is set to it before anything imports Kivy. Each pytest-xdist worker has
    one, so the real-pointer tests of two workers never move the same pointer. None without Xvfb."""
    xvfb = shutil.which("Xvfb")
    if xvfb is None:
        return None
    read, write = os.pipe()
    server = subprocess.Popen(
        [xvfb, "-displayfd", str(write), "-screen", "0", "1280x800x24", "-nolisten", "tcp", "-noreset"],
        pass_fds=(write,),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        preexec_fn=_die_with_parent,  # safe here: no threads yet, the session has not started
    )
    os.close(write)
    with os.fdopen(read) as told:
        number = told.readline().strip()  # written once the server accepts connections
    if not number:
        server.kill()
        return None
    os.environ["DISPLAY"] = f":{number}"
    os.environ.pop("XAUTHORITY", None)  # our server has no cookie: it takes local connections
    return server


def pytest_configure(config):
    """Under pytest-xdist every worker gets its own screen; a single process without DISPLAY gets one too."""
    distributing = bool(config.getoption("numprocesses", default=None))  # the controller runs no test
    if os.environ.get("PYTEST_XDIST_WORKER") or not (os.environ.get("DISPLAY") or distributing):
        config._own_screen = own_screen()


def pytest_unconfigure(config):
    server = getattr(config, "_own_screen", None)
    if server is not None:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


TESTS = Path(__file__).resolve().parent


def spread_modules() -> set[str]:
    """The test modules marked ``spread`` (``pytestmark`` naming ``pytest.mark.spread``), as node ids."""
    root = TESTS.parent
    return {
        path.relative_to(root).as_posix()
        for path in TESTS.rglob("test_*.py")
        if "pytest.mark.spread" in path.read_text(encoding="utf-8")
    }


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Under pytest-xdist a module's tests run in one process, in order, sharing its module fixtures (one
    app per module), unless the module is marked ``spread``: then each test goes wherever a process is
    free. (The scheduler runs where nothing is collected, so it reads the marks from the modules' text.)"""
    from xdist.scheduler import LoadScopeScheduling

    spread = spread_modules()

    class ByModule(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::")[0]
            return nodeid if module in spread else module

    return ByModule(config, log)


#: Tests that fail on main today, each with what is known of why. Listed in one place so the list is short-lived:
#: a test leaves it when it passes again (they run, and a pass shows as XPASS).
KNOWN_FAILURES = {
    "tests/gui/test_family_games.py::test_a_short_game_at_the_table": "typing a name on the setup screen is lost",
    "tests/gui/test_law.py::test_every_action_shows_its_money_before_the_tap_that_moves_it[monopoly-city]": (
        "a district tile on the Build chooser sometimes does not take the walk's touch"
    ),
}


def _known_failure(nodeid: str) -> str | None:
    for key, reason in KNOWN_FAILURES.items():
        if nodeid == key or nodeid.startswith(key + "::") or nodeid.startswith(key + "["):
            return reason
    return None


def pytest_collection_modifyitems(config, items):
    """GUI and browser tests skip on a developer's machine without a display or Chromium, never on CI.
    Modules holding a test marked ``slow`` run first, so no long test starts last."""
    have_display = bool(os.environ.get("DISPLAY"))
    have_chromium = os.path.exists("/usr/bin/chromium")
    slow_files = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.nodeid.split("::")[0] not in slow_files)  # stable: order kept within
    for item in items:
        known = _known_failure(item.nodeid)
        if known:
            item.add_marker(pytest.mark.xfail(reason=f"known failure: {known}", strict=False))
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


# The CPU each test's own process spent (setup, call and teardown; not Xvfb, xdotool, Chromium or the
# programs a test starts). Printed beside pytest's slowest durations: a test slow on the wall clock but
# light on CPU is waiting (a person's pace, a timer), and runs beside others at little cost.
_CPU_SECONDS: dict[str, float] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    item._cpu_started = time.process_time()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if call.when == "teardown" and hasattr(item, "_cpu_started"):
        outcome.get_result().user_properties.append(("cpu_seconds", time.process_time() - item._cpu_started))


def pytest_runtest_logreport(report):
    for key, value in report.user_properties:
        if key == "cpu_seconds":
            _CPU_SECONDS[report.nodeid] = value


def pytest_terminal_summary(terminalreporter):
    if len(_CPU_SECONDS) < 20:
        return
    write = terminalreporter.write_line
    terminalreporter.section("the ten tests using the most CPU (their own process)")
    for nodeid, seconds in sorted(_CPU_SECONDS.items(), key=lambda kv: -kv[1])[:10]:
        write(f"{seconds:7.1f}s cpu  {nodeid}")
    by_module: dict[str, float] = {}
    for nodeid, seconds in _CPU_SECONDS.items():
        module = nodeid.split("::")[0]
        by_module[module] = by_module.get(module, 0.0) + seconds
    write(f"{sum(_CPU_SECONDS.values()):7.1f}s cpu  in all, {len(_CPU_SECONDS)} tests; the heaviest modules:")
    for module, seconds in sorted(by_module.items(), key=lambda kv: -kv[1])[:10]:
        write(f"{seconds:7.1f}s cpu  {module}")
