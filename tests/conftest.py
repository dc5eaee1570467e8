import ctypes
import os
import resource
import shutil
import signal
import subprocess
import time

import pytest
from hypothesis import settings as hypothesis_settings

# No GPIO on test machines: gpiozero's mock pins stand in everywhere.
os.environ.setdefault("GPIOZERO_PIN_FACTORY", "mock")

from tests import schedule, timeline  # noqa: E402
from tests.table import AtTheTable  # noqa: E402
from tests.examples import CHECK, SHARE_IN_CHECK  # noqa: E402

# A property is about what the code does, not how fast a shared machine runs one example: no deadline
# (hypothesis's 200 ms per example failed a JSON writer's property once beside a busy benchmark).
hypothesis_settings.register_profile("suite", deadline=None)
hypothesis_settings.load_profile("suite")
# `make check` (--hypothesis-profile=check) tries a quarter of each property test's examples; `make test` all.
hypothesis_settings.register_profile(
    CHECK, parent=hypothesis_settings.get_profile("suite"), max_examples=100 // SHARE_IN_CHECK
)

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


def pytest_addoption(parser):
    parser.addoption(
        "--write-durations",
        action="store_true",
        help="after a whole run, keep each module's and each long test's wall time in tests/durations.json, "
        "by which pytest-xdist's processes are dealt their work longest first (`make durations`)",
    )


def pytest_configure(config):
    """Under pytest-xdist every worker gets its own screen; a single process without DISPLAY gets one too."""
    distributing = bool(config.getoption("numprocesses", default=None))  # the controller runs no test
    if config.option.collectonly:
        return  # no test runs (the Makefile's collection ahead of the processes)
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


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """Under pytest-xdist a module's tests run in one process, in order, sharing its module fixtures (one
    app per module), unless the module is marked ``spread`` (each test goes wherever a process is free) or
    ``groups(n)`` (its tests are dealt into n groups, each run in one process with a module fixture of its
    own). These scopes go out longest first by the last measured durations (tests/schedule.py), each to the
    next process free, so that the processes end together."""
    from xdist.scheduler import LoadScopeScheduling

    groups = schedule.module_groups()

    class LongestFirst(LoadScopeScheduling):
        scope_of: dict[str, str] = {}

        def _split_scope(self, nodeid: str) -> str:
            return self.scope_of.get(nodeid, nodeid.split("::")[0])

        def schedule(self) -> None:
            if self.collection is not None:  # a process was added: as pytest-xdist does
                super().schedule()
                return
            if not self._check_nodes_have_same_collection():
                self.log("**Different tests collected, aborting run**")
                return
            collection = list(next(iter(self.registered_collections.values())))
            self.collection = collection
            if not collection:
                return
            estimates = schedule.Estimates.read(collection)
            self.scope_of = schedule.scopes(collection, groups, estimates)
            units: dict[str, dict[str, bool]] = {}
            for nodeid in collection:
                units.setdefault(self.scope_of[nodeid], {})[nodeid] = False
            for scope in schedule.longest_first(self.scope_of, estimates):
                self.workqueue[scope] = units[scope]
            for _ in range(len(self.nodes) - len(self.workqueue)):  # more processes than scopes
                unused, _nothing = self.assigned_work.popitem()
                unused.shutdown()
            for node in self.nodes:
                self._assign_work_unit(node)
            for node in self.nodes:
                self._reschedule(node)
            if not self.workqueue:
                for node in self.nodes:
                    node.shutdown()

        def _reschedule(self, node) -> None:
            """A process is given its next scope only when one test of its own is left (the one it runs:
            it starts that test once it knows the next), not two as pytest-xdist's default: the later a scope
            is bound to a process, the better the processes end together."""
            if node.shutting_down:
                return
            if not self.workqueue:
                node.shutdown()
                return
            if self._pending_of(self.assigned_work[node]) <= 1:
                self._assign_work_unit(node)

    return LongestFirst(config, log)


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
    In one process, modules holding a test marked ``slow`` run first, then those with a screen or a
    browser, so no long test starts last (on pytest-xdist's processes the scheduler above deals the
    work longest first by measured time instead)."""
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


# And when each test ran (wall clock, setup to teardown) in which process: the suite's timeline, printed at
# the end, and kept in --junitxml's properties (benchmarks/suite_timeline.py reads them).
_RAN: dict[str, tuple[str, float, float]] = {}


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_setup(item):
    item._cpu_started = _cpu_now()
    item._wall_started = time.time()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    if call.when == "teardown" and hasattr(item, "_cpu_started"):
        properties = outcome.get_result().user_properties
        properties.append(("cpu_seconds", _cpu_now() - item._cpu_started))
        properties.append(("process", os.environ.get("PYTEST_XDIST_WORKER", "main")))
        properties.append(("started", item._wall_started))
        properties.append(("ended", time.time()))


def pytest_runtest_logreport(report):
    ran = dict(report.user_properties)
    if "cpu_seconds" in ran:
        _CPU_SECONDS[report.nodeid] = ran["cpu_seconds"]
    if "started" in ran:
        _RAN[report.nodeid] = (ran["process"], ran["started"], ran["ended"])


def pytest_terminal_summary(terminalreporter):
    if len(_CPU_SECONDS) < 20:
        return
    write = terminalreporter.write_line
    if len({process for process, _, _ in _RAN.values()}) > 1:
        terminalreporter.section("the test processes (seconds from the first test's start)")
        for line in timeline.summary(_RAN):
            write(line)
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


def pytest_sessionfinish(session, exitstatus):
    if session.config.getoption("write_durations") and not os.environ.get("PYTEST_XDIST_WORKER") and _RAN:
        schedule.write(_RAN)
