import ctypes
import os
import re
import resource
import shutil
import signal
import subprocess
import time
from pathlib import Path

import pytest
from hypothesis import settings as hypothesis_settings

# No GPIO on test machines: gpiozero's mock pins stand in everywhere.
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

from tests.table import AtTheTable  # noqa: E402
from tests.examples import CHECK, SHARE_IN_CHECK  # noqa: E402

# `make check` (--hypothesis-profile=check) tries a quarter of each property test's examples; `make test` all.
hypothesis_settings.register_profile(CHECK, max_examples=100 // SHARE_IN_CHECK)

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


_GROUPS = re.compile(r"pytest\.mark\.groups\((\d+)\)")


def module_groups() -> dict[str, int]:
    """How many groups each test module may be split into across processes, as node ids: a module marked
    ``spread`` (``pytestmark`` naming ``pytest.mark.spread``) has a group per test; one marked
    ``pytest.mark.groups(n)`` has n, each sharing its own module fixtures (its own app)."""
    root = TESTS.parent
    groups = {}
    for path in TESTS.rglob("test_*.py"):
        text = path.read_text(encoding="utf-8")
        found = _GROUPS.search(text)
        if "pytest.mark.spread" in text:
            groups[path.relative_to(root).as_posix()] = 0
        elif found:
            groups[path.relative_to(root).as_posix()] = int(found.group(1))
    return groups


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Under pytest-xdist a module's tests run in one process, in order, sharing its module fixtures (one
    app per module), unless the module is marked ``spread``: then each test goes wherever a process is
    free; or ``groups(n)``: its tests are dealt in turn into n groups, each run in one process with a
    module fixture of its own, so one long module is no longer the suite's last minutes. (The scheduler
    runs where nothing is collected, so it reads the marks from the modules' text.)"""
    from xdist.scheduler import LoadScopeScheduling

    groups = module_groups()
    dealt: dict[str, str] = {}
    counts: dict[str, int] = {}

    class ByModule(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::")[0]
            n = groups.get(module)
            if n is None:
                return module
            if n == 0:
                return nodeid
            if nodeid not in dealt:  # the tests come in the order they were collected: deal them in turn
                counts[module] = counts.get(module, -1) + 1
                dealt[nodeid] = f"{module}#{counts[module] % n}"
            return dealt[nodeid]

    return ByModule(config, log)


#: Tests that fail on main today, each with what is known of why. Listed in one place so the list is short-lived:
#: a test leaves it when it passes again (they run, and a pass shows as XPASS).
KNOWN_FAILURES: dict[str, str] = {}


def _known_failure(nodeid: str) -> str | None:
    for key, reason in KNOWN_FAILURES.items():
        if nodeid == key or nodeid.startswith(key + "::") or nodeid.startswith(key + "["):
            return reason
    return None


def pytest_collection_modifyitems(config, items):
    """GUI and browser tests skip on a developer's machine without a display or Chromium, never on CI.
    Modules holding a test marked ``slow`` run first, then those with a screen or a browser, so no long
    test starts last (`make test` keeps this order: pytest-xdist's --no-loadscope-reorder)."""
    have_display = bool(os.environ.get("DISPLAY"))
    have_chromium = os.path.exists("/usr/bin/chromium")
    slow_files = {item.nodeid.split("::")[0] for item in items if item.get_closest_marker("slow")}
    long_files = {item.nodeid.split("::")[0] for item in items if "gui" in item.keywords or "browser" in item.keywords}

    def weight(item) -> int:
        module = item.nodeid.split("::")[0]
        return 0 if module in slow_files else 1 if module in long_files else 2

    items.sort(key=weight)  # stable: order kept within
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


# The CPU each test spent (setup, call and teardown): its own process's and that of the programs it ran
# and waited for (the command line, a served table); not Xvfb's or a browser left running. Printed beside pytest's slowest durations: a test slow on the wall clock but
# light on CPU is waiting (a person's pace, a timer), and runs beside others at little cost.
_CPU_SECONDS: dict[str, float] = {}


def _cpu_now() -> float:
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    item._cpu_started = _cpu_now()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if call.when == "teardown" and hasattr(item, "_cpu_started"):
        outcome.get_result().user_properties.append(("cpu_seconds", _cpu_now() - item._cpu_started))


def pytest_runtest_logreport(report):
    for key, value in report.user_properties:
        if key == "cpu_seconds":
            _CPU_SECONDS[report.nodeid] = value


def pytest_terminal_summary(terminalreporter):
    if len(_CPU_SECONDS) < 20:
        return
    write = terminalreporter.write_line
    terminalreporter.section("the ten tests using the most CPU (their process and the programs they ran)")
    for nodeid, seconds in sorted(_CPU_SECONDS.items(), key=lambda kv: -kv[1])[:10]:
        write(f"{seconds:7.1f}s cpu  {nodeid}")
    by_module: dict[str, float] = {}
    for nodeid, seconds in _CPU_SECONDS.items():
        module = nodeid.split("::")[0]
        by_module[module] = by_module.get(module, 0.0) + seconds
    write(f"{sum(_CPU_SECONDS.values()):7.1f}s cpu  in all, {len(_CPU_SECONDS)} tests; the heaviest modules:")
    for module, seconds in sorted(by_module.items(), key=lambda kv: -kv[1])[:10]:
        write(f"{seconds:7.1f}s cpu  {module}")
