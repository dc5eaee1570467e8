"""deploy/update.sh: new code in place, the games and the family's settings untouched, a way back."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from tests.deploy.harness import Pi, make_pi

pytestmark = [pytest.mark.needs("root"), pytest.mark.slow]

APP = "/opt/table-banker/app/companion/usb_backup.py"


@pytest.fixture
def pi(tmp_path) -> Pi:
    """A Pi that has been the bank for a while: a game, the touchscreen's settings, its own defaults."""
    pi = make_pi(tmp_path)
    pi.install()
    games = pi.path("/var/lib/table-banker")
    (games / "friday.game").write_bytes(b"Friday's game")
    (games / "touchscreen.json").write_text('{"theme": "light"}')
    for written_by_the_app in games.iterdir():  # the bank wrote them, as its own user
        os.chown(written_by_the_app, games.stat().st_uid, games.stat().st_gid)
    pi.path("/etc/default/table-banker").write_text("SDL_KMSDRM_DEVICE_INDEX=1\n")
    return pi


def untouched(pi: Pi) -> bool:
    return (
        pi.path("/var/lib/table-banker/friday.game").read_bytes() == b"Friday's game"
        and pi.path("/var/lib/table-banker/touchscreen.json").read_text() == '{"theme": "light"}'
        and pi.path("/etc/default/table-banker").read_text() == "SDL_KMSDRM_DEVICE_INDEX=1\n"
    )


def git(checkout: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-c", "user.name=Ann", "-c", "user.email=ann@example.org", "-C", str(checkout), *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout


def test_an_update_brings_the_new_code_and_leaves_the_games_alone(pi):
    (pi.source / "companion" / "usb_backup.py").write_text("# version 2\n")

    done = pi.install(script="update.sh")

    assert "install the code from" in done.stdout
    assert pi.path(APP).read_text() == "# version 2\n"
    assert untouched(pi)


def test_an_update_with_nothing_new_changes_nothing(pi):
    before = pi.snapshot()
    done = pi.install(script="update.sh")
    assert "nothing to change" in done.stdout
    assert pi.snapshot() == before


def test_rollback_goes_back_to_the_code_the_update_replaced(pi):
    first = pi.path(APP).read_text()
    (pi.source / "companion" / "usb_backup.py").write_text("# version 2 has a bug\n")
    pi.install(script="update.sh")

    done = pi.install("--rollback", script="update.sh")

    assert "going back to the code in" in done.stdout
    assert pi.path(APP).read_text() == first
    assert untouched(pi)
    assert f"SOURCE={pi.source}" in pi.path("/etc/table-banker/install.conf").read_text()


@pytest.mark.needs("git")
def test_an_update_to_a_tagged_release_of_the_checkout(pi):
    git(pi.source, "init", "-q")
    git(pi.source, "add", "-A")
    git(pi.source, "commit", "-q", "-m", "the release")
    git(pi.source, "tag", "v1")
    (pi.source / "companion" / "usb_backup.py").write_text("# work in progress\n")
    git(pi.source, "commit", "-q", "-am", "work in progress")
    released = git(pi.source, "show", "v1:companion/usb_backup.py")

    pi.install("--ref", "v1", script="update.sh")
    assert pi.path(APP).read_text() == released
    assert f"SOURCE={pi.source}" in pi.path("/etc/table-banker/install.conf").read_text()

    pi.install("--ref", "HEAD", script="update.sh")
    assert pi.path(APP).read_text() == "# work in progress\n"
    assert untouched(pi)

    missing = pi.install("--ref", "v9", script="update.sh", check=False)
    assert missing.returncode == 1 and "has no tag, branch or commit v9" in missing.stderr


def test_a_dry_run_update_only_says_what_it_would_do(pi):
    (pi.source / "companion" / "usb_backup.py").write_text("# version 2\n")
    before = pi.snapshot()
    done = pi.install("--dry-run", script="update.sh")
    assert "would install the code from" in done.stdout
    assert pi.snapshot() == before


def test_updating_a_pi_that_was_never_installed_says_so(tmp_path):
    pi = make_pi(tmp_path)
    done = pi.install(script="update.sh", check=False)
    assert done.returncode == 1
    assert "the Table Banker is not installed here" in done.stderr
