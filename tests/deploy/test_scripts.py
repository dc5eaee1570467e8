"""Every script passes shellcheck, every unit passes systemd-analyze verify, every other file parses."""

from __future__ import annotations

import configparser
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.deploy.harness import DEPLOY, changes

SCRIPTS = sorted(DEPLOY.glob("*.sh"))
UNITS = {
    "system": DEPLOY / "systemd" / "table-banker.service",
    "user": DEPLOY / "systemd" / "table-banker-desktop.service",
}
# What the units run, stood up for the check (systemd-analyze insists that ExecStart= exists).
PROGRAMS = ["/opt/table-banker/venv/bin/companion"]


def test_the_scripts_are_all_here():
    assert {p.name for p in SCRIPTS} >= {
        "install.sh",
        "update.sh",
        "doctor.sh",
        "desktop-start.sh",
        "lib.sh",
        "pi-check.sh",
        "pi-kiosk.sh",
        "pi-boot.sh",
        "pi-screen.sh",
        "pi-vm-check.sh",
        "check-lib.sh",
    }
    for script in SCRIPTS:
        if script.read_text().startswith("#!"):  # the others (lib.sh, check-lib.sh, pi-screen.sh) are only sourced
            assert script.stat().st_mode & 0o111, f"{script.name} is not executable"


@pytest.mark.needs("shellcheck")
@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_shellcheck_finds_nothing(script):
    done = subprocess.run(
        ["shellcheck", "--external-sources", "--severity=style", script.name],
        cwd=DEPLOY,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def _verify(unit: Path, scope: str, tmp_path: Path) -> subprocess.CompletedProcess:
    """systemd-analyze verify on the unit as shipped, in a private mount namespace where /opt holds
    stand-ins for the programs the unit runs (nothing of this machine's /opt is touched)."""
    stand_ins = " && ".join(
        f"mkdir -p {Path(p).parent} && printf '#!/bin/sh\\n' > {p} && chmod +x {p}" for p in PROGRAMS
    )
    user = "--user " if scope == "user" else ""
    script = f"mount -t tmpfs tmpfs /opt && {stand_ins} && systemd-analyze {user}verify --man=no {unit}"
    runtime = tmp_path / "runtime"
    runtime.mkdir(mode=0o700)
    command = ["unshare", "--mount", "--propagation", "private", "sh", "-c", script]
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/sbin:/usr/bin:/sbin:/bin", "XDG_RUNTIME_DIR": str(runtime)},
    )


@pytest.mark.needs("systemd-analyze", "unshare", "root")
@pytest.mark.parametrize("scope", UNITS)
def test_systemd_analyze_verify_passes(scope, tmp_path):
    unit = UNITS[scope]
    done = _verify(unit, scope, tmp_path)
    about_ours = [line for line in (done.stdout + done.stderr).splitlines() if unit.name in line]
    assert done.returncode == 0 and not about_ours, done.stdout + done.stderr


def unit_settings(unit: Path) -> dict[str, list[str]]:
    """Key -> every value it is given in the unit (systemd keys repeat)."""
    settings: dict[str, list[str]] = {}
    for line in unit.read_text().splitlines():
        if "=" in line and not line.lstrip().startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            settings.setdefault(key.strip(), []).append(value.strip())
    return settings


def test_the_kiosk_keeps_its_devices_and_is_hardened_around_them():
    kiosk = unit_settings(UNITS["system"])
    assert kiosk["User"] == ["table-banker"]
    assert kiosk["ProtectSystem"] == ["strict"] and kiosk["NoNewPrivileges"] == ["yes"]
    assert kiosk["PrivateTmp"] == ["yes"] and kiosk["StateDirectory"] == ["table-banker"]
    for breaks_devices in ("PrivateDevices", "ProtectClock", "ProtectKernelLogs", "DeviceAllow", "DevicePolicy"):
        assert breaks_devices not in kiosk, f"{breaks_devices}= would shut the app out of /dev/dri, /dev/input or GPIO"
    assert kiosk["Restart"] == ["always"] and kiosk["StartLimitBurst"] == ["5"]
    env = dict(v.split("=", 1) for v in kiosk["Environment"])
    assert env["SDL_VIDEODRIVER"] == "kmsdrm" and env["KIVY_WINDOW"] == "sdl2"
    assert env["SDL_TOUCH_MOUSE_EVENTS"] == "0"  # the touch provider is Kivy's mtdev, never SDL's as well


def test_the_desktop_unit_restarts_after_a_crash_only():
    desktop = unit_settings(UNITS["user"])
    assert desktop["Restart"] == ["on-failure"] and desktop["UMask"] == ["0007"]
    assert "User" not in desktop  # it runs as the desktop's user


def test_both_units_start_the_same_program():
    kiosk, desktop = unit_settings(UNITS["system"]), unit_settings(UNITS["user"])
    assert kiosk["ExecStart"] == desktop["ExecStart"] == ["/opt/table-banker/venv/bin/companion run --fullscreen"]


def test_the_autostart_entry_runs_the_desktop_start_script():
    entry = configparser.ConfigParser(interpolation=None)
    entry.optionxform = str
    entry.read(DEPLOY / "xdg" / "table-banker.desktop")
    assert entry["Desktop Entry"]["Type"] == "Application"
    assert entry["Desktop Entry"]["Exec"] == "/opt/table-banker/app/deploy/desktop-start.sh"
    assert (DEPLOY / "desktop-start.sh").exists()


def test_the_udev_rule_mounts_fat_and_exfat_sticks_for_the_bank():
    rules = [
        line
        for line in (DEPLOY / "udev" / "90-table-banker-usb.rules").read_text().splitlines()
        if line and not line.startswith("#")
    ]
    assert len(rules) == 2
    pair = re.compile(r'^[A-Z_]+(\{[A-Za-z_]+\})?(==|!=|\+=|=)"[^"]*"$')
    for rule in rules:
        for part in re.findall(r'[A-Z_]+(?:\{[A-Za-z_]+\})?(?:==|!=|\+=|=)"[^"]*"', rule):
            assert pair.match(part)
        assert rule.count('"') % 2 == 0
        assert "uid=@UID@,gid=@GID@" in rule and "/usr/bin/systemd-mount" in rule
    assert 'ENV{ID_FS_TYPE}=="vfat"' in rules[0] and 'ENV{ID_FS_TYPE}=="exfat"' in rules[1]
    assert "flush" not in rules[1]  # exFAT refuses the option


@pytest.mark.parametrize("name", ["persistent.conf", "volatile.conf"])
def test_the_journald_drop_ins_are_journal_sections(name):
    conf = configparser.ConfigParser()
    conf.optionxform = str
    conf.read(DEPLOY / "journald" / name)
    assert conf.sections() == ["Journal"]
    if name == "volatile.conf":
        assert conf["Journal"]["Storage"] == "volatile"


@pytest.mark.parametrize("edition", ["kms", "desktop"])
def test_kivy_gets_one_touch_provider(edition):
    text = subprocess.run(
        [sys.executable, str(DEPLOY / "kivy_config.py"), edition],
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    ).stdout
    config = configparser.RawConfigParser()
    config.optionxform = str
    config.read_string(text)
    providers = dict(config.items("input"))
    assert providers.pop("mouse") == "mouse,disable_multitouch"
    if edition == "kms":
        assert providers == {"touchscreen": "probesysfs,provider=mtdev"}
    else:
        assert providers == {}  # the desktop already turns touches into the pointer
    assert config.get("kivy", "log_enable") == "0"
    assert config.getint("kivy", "config_version") > 0  # Kivy will read it as is, never rewrite it
    assert config.get("graphics", "allow_screensaver") == "0"


def test_doctor_runs_on_a_machine_without_the_bank(tmp_path):
    done = subprocess.run(["bash", str(DEPLOY / "doctor.sh")], capture_output=True, text=True, timeout=120)
    assert "not installed" in done.stdout or "installed:" in done.stdout
    assert done.stdout.strip().splitlines()[-1].endswith(("problem(s) found.", "No problem found."))


def test_a_dry_run_on_this_very_machine_changes_nothing(tmp_path):
    """No --root, no fakes: the real dpkg-query, python3 and passwd are read, and nothing is written."""
    if Path("/etc/table-banker").exists() or Path("/opt/table-banker").exists():
        pytest.skip("the bank is installed on this machine")
    done = subprocess.run(
        ["bash", str(DEPLOY / "install.sh"), "--dry-run"],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "LC_ALL": "C"},
    )
    assert done.returncode == 0, done.stderr
    lines = changes(done.stdout)
    assert lines and all(line.startswith("would ") for line in lines)
    assert "would run: systemctl daemon-reload" in lines  # what only a real machine gets told
    assert not Path("/opt/table-banker").exists() and not Path("/etc/table-banker").exists()


def test_the_installer_copies_only_what_git_tracks_from_a_checkout(tmp_path):
    """A benchmark's folder or a stray file beside the checkout (even one being written) is not copied."""
    src, dest = tmp_path / "checkout", tmp_path / "copy"
    (src / "companion").mkdir(parents=True)
    (src / "companion" / "app.py").write_text("print('bank')\n")
    (src / "tests").mkdir()
    (src / "tests" / "test_app.py").write_text("")
    git = ["git", "-c", "user.name=T", "-c", "user.email=t@example.invalid", "-C", str(src)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "app"], check=True)
    (src / "tmpbench123").mkdir()
    (src / "tmpbench123" / "game.game-wal").write_text("being written")
    (src / "notes.txt").write_text("untracked")
    done = subprocess.run(
        ["bash", "-c", f'source "{DEPLOY / "lib.sh"}"; copy_tree "{src}" "{dest}"'],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    copied = sorted(str(p.relative_to(dest)) for p in dest.rglob("*"))
    assert copied == ["companion", "companion/app.py"]
    (src / ".git").rename(src / "was-git")  # no git here: everything but the usual leftovers
    subprocess.run(
        ["bash", "-c", f'source "{DEPLOY / "lib.sh"}"; copy_tree "{src}" "{tmp_path / "plain"}"'], check=True
    )
    assert (tmp_path / "plain" / "notes.txt").exists() and not (tmp_path / "plain" / "tests").exists()
