"""The deploy checks need tools from Debian (shellcheck, systemd-analyze) and root (real useradd and
chown inside a throwaway root). ``@pytest.mark.needs("shellcheck", "root")`` says so: without them a
test skips on a developer's machine and FAILS under CI=true, like the gui and browser tests.
The Debian packages: shellcheck, systemd (systemd-analyze), util-linux (unshare), passwd (useradd).
"""

from __future__ import annotations

import os
import shutil

import pytest

from tests.conftest import ON_CI

HOW = {
    "shellcheck": "apt-get install shellcheck",
    "systemd-analyze": "apt-get install systemd",
    "unshare": "apt-get install util-linux",
    "git": "apt-get install git",
    "Xvfb": "apt-get install xvfb",
    "root": "run the tests as root (make test does, on CI)",
}


def pytest_configure(config):
    config.addinivalue_line("markers", "needs(*tools): tools (or 'root') a deploy check cannot run without")


def _missing(tool: str) -> bool:
    if tool == "root":
        return os.geteuid() != 0
    return shutil.which(tool, path=os.environ.get("PATH", "") + ":/usr/sbin:/sbin") is None


@pytest.fixture(autouse=True)
def _needs(request):
    for marker in request.node.iter_markers("needs"):
        for tool in marker.args:
            if _missing(tool):
                message = f"needs {tool}: {HOW.get(tool, 'install it')}"
                if ON_CI:
                    pytest.fail(f"{message} (CI=true: deploy checks must run)")
                pytest.skip(message)
