"""install.sh on a running Pi (no --root): what it changes, it tells systemd and udev about, once,
even when the run that made the change did not live to tell them.

The Pi is this machine seen through a throwaway layer (see harness.make_running_pi); its systemd and
udev are recording fakes.
"""

from __future__ import annotations

import pytest

from tests.deploy.harness import RunningPi, changes, make_running_pi

pytestmark = [pytest.mark.needs("root", "unshare"), pytest.mark.slow]  # a private mount namespace with an overlay

TOLD = [
    "systemctl daemon-reload",
    "udevadm control --reload",
    "systemctl restart systemd-journald",
    "systemctl try-restart table-banker.service",
]


@pytest.fixture
def pi(tmp_path) -> RunningPi:
    return make_running_pi(tmp_path)


def told(pi: RunningPi) -> list[str]:
    """What the running system was told, in order."""
    return [line for line in pi.log if line in TOLD]


def test_a_first_install_tells_the_running_system_once(pi):
    first = pi.install()

    assert pi.path("/etc/systemd/system/table-banker.service").exists()
    assert pi.path("/etc/systemd/system/multi-user.target.wants/table-banker.service").is_symlink()
    assert told(pi) == TOLD
    assert "run: systemctl daemon-reload" in changes(first.stdout)
    assert not pi.path("/run/table-banker-install").exists() or not any(pi.path("/run/table-banker-install").iterdir())

    pi.clear_log()
    again = pi.install()
    assert "nothing to change" in again.stdout
    assert told(pi) == []


def test_the_power_goes_out_after_the_units_are_written_and_the_next_run_still_reloads(pi):
    pi.power_cut_at_enable()
    cut = pi.install(check=False)
    assert cut.returncode != 0
    assert pi.path("/etc/systemd/system/table-banker.service").exists()  # written before the cut
    assert told(pi) == []  # the run died before telling anyone

    pi.power_cut_at_enable(False)
    pi.clear_log()
    after = pi.install()
    # Nothing about the units changed in this run, yet systemd has not read them: it is told now.
    assert "write /etc/systemd/system/table-banker.service" not in changes(after.stdout)
    assert told(pi) == TOLD

    pi.clear_log()
    assert "nothing to change" in pi.install().stdout
    assert told(pi) == []


def test_a_dry_run_on_a_pi_owed_a_reload_says_so_and_leaves_it_owed(pi):
    pi.power_cut_at_enable()
    pi.install(check=False)
    pi.power_cut_at_enable(False)

    dry = pi.install("--dry-run")
    assert "would run: systemctl daemon-reload" in changes(dry.stdout)
    assert told(pi) == []

    pi.install()
    assert "systemctl daemon-reload" in told(pi)
