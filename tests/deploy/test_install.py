"""deploy/install.sh run for real in a throwaway Pi root: a fresh Pi becomes the bank, a second run
changes nothing, --dry-run predicts every change, and --uninstall leaves only the games."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.deploy.harness import Pi, changes, make_pi

pytestmark = [pytest.mark.needs("root"), pytest.mark.slow]  # real useradd and chown in the throwaway root

EVERYTHING_BUT_THE_GAMES = [
    "/opt/table-banker",
    "/etc/table-banker",
    "/etc/default/table-banker",
    "/etc/pam.d/table-banker",
    "/etc/systemd/system/table-banker.service",
    "/etc/systemd/user/table-banker-desktop.service",
    "/etc/udev/rules.d/90-table-banker-usb.rules",
    "/etc/systemd/journald.conf.d/table-banker.conf",
    "/etc/xdg/autostart/table-banker.desktop",
    "/media/table-banker",
    "/etc/systemd/system/multi-user.target.wants/table-banker.service",
]


@pytest.fixture
def pi(tmp_path) -> Pi:
    return make_pi(tmp_path)


@pytest.fixture
def checkout(pi) -> Path:
    """The checkout the Pi is installed from: ours to change."""
    return pi.source


def passwd_line(pi: Pi, name: str) -> str:
    return next(line for line in pi.path("/etc/passwd").read_text().splitlines() if line.startswith(name + ":"))


def members(pi: Pi, group: str) -> set[str]:
    line = next(line for line in pi.path("/etc/group").read_text().splitlines() if line.startswith(group + ":"))
    return set(filter(None, line.split(":")[3].split(",")))


def test_a_fresh_pi_becomes_the_bank(pi):
    done = pi.install()

    assert "Done:" in done.stdout
    assert passwd_line(pi, "table-banker").endswith(":Table Banker:/var/lib/table-banker:/usr/sbin/nologin")
    for group in ("video", "render", "input", "gpio", "audio"):
        assert "table-banker" in members(pi, group), group
    data = pi.path("/var/lib/table-banker")
    assert oct(data.stat().st_mode & 0o7777) == "0o2770"
    assert (
        pi.path("/opt/table-banker/app/companion/usb_backup.py").read_bytes()
        == (pi.source / "companion" / "usb_backup.py").read_bytes()
    )
    assert not pi.path("/opt/table-banker/app/tests").exists()  # the Pi needs the app, not its tests
    assert pi.path("/etc/systemd/system/multi-user.target.wants/table-banker.service").is_symlink()
    assert pi.path("/etc/table-banker/kivy-kms/config.ini").read_text().count("probesysfs") == 1
    assert "Storage=volatile" not in pi.path("/etc/systemd/journald.conf.d/table-banker.conf").read_text()
    rule = pi.path("/etc/udev/rules.d/90-table-banker-usb.rules").read_text()
    uid = passwd_line(pi, "table-banker").split(":")[2]
    assert f"uid={uid}," in rule and "@UID@" not in rule
    assert not pi.path("/etc/xdg/autostart/table-banker.desktop").exists()
    assert pi.path("/etc/table-banker/install.conf").read_text().splitlines()[1:] == [
        "EDITION=lite",
        "DESKTOP_USER=",
        "LOGS=persistent",
        "GPIO=no",
        f"SOURCE={pi.source}",
    ]

    log = pi.log
    assert any(line.startswith("apt-get install") and "libgl1-mesa-dri" in line and "libmtdev1" in line for line in log)
    assert any(line.startswith("pip install") and line.rstrip().endswith("/opt/table-banker/app") for line in log)
    # Nothing reached this machine's services: systemctl only ever ran on the root, udevadm never.
    assert all("--root=" in line for line in log if line.startswith("systemctl"))
    assert not any(line.startswith("udevadm") for line in log)


def test_a_second_run_changes_nothing(pi):
    pi.install()
    before = pi.snapshot()
    pi.clear_log()

    again = pi.install()

    assert changes(again.stdout) == []
    assert "nothing to change" in again.stdout
    assert pi.snapshot() == before
    assert not [
        line
        for line in pi.log
        if line.startswith(("apt-get", "pip", "useradd", "groupadd", "usermod", "python3 -m venv", "systemctl"))
    ]


def test_dry_run_prints_every_change_and_makes_none(pi, tmp_path):
    before = pi.snapshot()
    dry = pi.install("--dry-run")
    assert pi.snapshot() == before
    assert not [line for line in pi.log if not line.startswith(("chroot ROOT dpkg", "chroot ROOT python3 -c"))]

    real = pi.install()
    predicted = [line.removeprefix("would ") for line in changes(dry.stdout)]
    assert all(line.startswith("would ") for line in changes(dry.stdout))
    made = changes(real.stdout)
    # Before the environment exists the dry run cannot ask Kivy for its defaults; it says so.
    predicted = [line.split(" (Kivy's defaults")[0] for line in predicted]
    assert predicted == made


def test_an_installed_pi_dry_run_says_nothing_would_change(pi):
    pi.install()
    dry = pi.install("--dry-run")
    assert changes(dry.stdout) == [] and "nothing to change" in dry.stdout


def test_the_games_on_the_card_are_kept_and_given_to_the_bank(pi):
    games = pi.path("/var/lib/table-banker")
    games.mkdir(parents=True)
    game = games / "friday.game"
    sqlite3.connect(game).execute("CREATE TABLE t (x)").connection.close()
    before = game.read_bytes()

    done = pi.install()

    assert "give the games in /var/lib/table-banker to table-banker" in done.stdout
    uid = int(passwd_line(pi, "table-banker").split(":")[2])
    assert game.stat().st_uid == uid and game.read_bytes() == before


def test_the_familys_own_settings_survive_a_reinstall(pi):
    pi.install()
    own = pi.path("/etc/default/table-banker")
    own.write_text("SDL_KMSDRM_DEVICE_INDEX=2\n")
    pi.install()
    assert own.read_text() == "SDL_KMSDRM_DEVICE_INDEX=2\n"


def test_rerunning_after_a_code_change_upgrades_in_place(pi, checkout):
    pi.install()
    (checkout / "companion" / "usb_backup.py").write_text("# the next version\n")
    pi.clear_log()

    done = pi.install()  # the checkout is remembered

    assert changes(done.stdout) == [
        f"install the code from {checkout} into /opt/table-banker/app "
        "(the code it replaces is kept in /opt/table-banker/app.previous)",
        "compile the code for a faster start",
    ]
    assert pi.path("/opt/table-banker/app/companion/usb_backup.py").read_text() == "# the next version\n"
    assert pi.path("/opt/table-banker/app.previous/companion/usb_backup.py").read_text().startswith('"""A copy')
    assert not any(line.startswith("pip") for line in pi.log)  # same libraries: no download


def test_the_installed_copy_of_the_installer_uses_the_remembered_checkout(pi):
    pi.install()
    again = pi.install(scripts=pi.path("/opt/table-banker/app/deploy"))
    assert f"installing the lite edition from {pi.source} into" in again.stdout
    assert changes(again.stdout) == []


def test_new_libraries_are_installed_when_the_project_file_changes(pi, checkout):
    pi.install()
    pyproject = checkout / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('"qrcode>=7.4",', '"qrcode>=7.4",\n    "platformdirs>=4.1",'))
    pi.clear_log()
    done = pi.install()
    assert any(line.startswith("install the app and its Python libraries") for line in changes(done.stdout))
    assert any(line.startswith("pip install") for line in pi.log)


def test_volatile_logs_are_a_remembered_choice(pi):
    pi.install("--volatile-logs")
    assert "Storage=volatile" in pi.path("/etc/systemd/journald.conf.d/table-banker.conf").read_text()
    again = pi.install()
    assert changes(again.stdout) == []
    pi.install("--persistent-logs")
    assert "Storage=volatile" not in pi.path("/etc/systemd/journald.conf.d/table-banker.conf").read_text()


def test_a_pi_with_a_desktop_gets_the_desktop_edition(tmp_path):
    pi = make_pi(tmp_path, desktop=True)
    done = pi.install()

    assert "installing the desktop edition" in done.stdout
    assert "table-banker" in members(pi, "table-banker") or "pi" in members(pi, "table-banker")
    assert "pi" in members(pi, "table-banker")
    assert pi.path("/etc/xdg/autostart/table-banker.desktop").exists()
    assert pi.path("/etc/systemd/user/table-banker-desktop.service").exists()
    assert not pi.path("/etc/systemd/system/multi-user.target.wants/table-banker.service").exists()
    assert not pi.path("/etc/udev/rules.d/90-table-banker-usb.rules").exists()  # the desktop mounts sticks itself
    assert "DESKTOP_USER=pi" in pi.path("/etc/table-banker/install.conf").read_text()
    assert changes(pi.install().stdout) == []


def test_switching_from_the_kiosk_to_the_desktop_edition(pi):
    pi.install()
    done = pi.install("--edition", "desktop", "--desktop-user", "pi")
    assert (
        "stop starting the kiosk at boot (disable table-banker.service): the desktop edition is chosen" in done.stdout
    )
    assert not pi.path("/etc/systemd/system/multi-user.target.wants/table-banker.service").exists()
    assert pi.path("/etc/xdg/autostart/table-banker.desktop").exists()


def test_the_desktop_edition_needs_a_real_user(pi):
    done = pi.install("--edition", "desktop", "--desktop-user", "nobody-here", check=False)
    assert done.returncode == 1
    assert done.stderr.strip() == "error: there is no user nobody-here for the desktop edition"


def test_uninstall_removes_everything_but_the_games(pi):
    pi.install()
    game = pi.path("/var/lib/table-banker/friday.game")
    game.write_bytes(b"a game")

    done = pi.install("--uninstall")

    for path in EVERYTHING_BUT_THE_GAMES:
        assert not pi.path(path).exists() and not pi.path(path).is_symlink(), path
    assert "table-banker:" not in pi.path("/etc/passwd").read_text()
    assert not any(line.startswith("table-banker:") for line in pi.path("/etc/group").read_text().splitlines())
    assert game.read_bytes() == b"a game"
    assert done.stdout.strip().endswith(
        "The games stay in /var/lib/table-banker (1 game files); delete that folder to remove them too."
    )
    again = pi.install("--uninstall")
    assert "nothing to remove" in again.stdout


def test_installing_again_after_uninstalling_gives_the_games_back_to_the_bank(pi):
    pi.install()
    game = pi.path("/var/lib/table-banker/friday.game")
    game.write_bytes(b"a game")
    pi.install("--uninstall")
    pi.install()
    uid = int(passwd_line(pi, "table-banker").split(":")[2])
    assert game.stat().st_uid == uid and game.read_bytes() == b"a game"
