"""One tap copies every game to a USB stick; the stick brings them back. A temp folder is the stick."""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion import usb_backup
from companion.service import Banker
from companion.usb_backup import (
    Stick,
    StickProblem,
    backup_to_stick,
    choose_stick,
    restore_from_stick,
    stick_backups,
    sticks_from_mounts,
)

FRIDAY = dt.datetime(2025, 11, 21, 20, 30, 5)


@pytest.fixture
def games(tmp_path):
    """The games folder after two evenings: Friday's game is still open, mid-round."""
    folder = tmp_path / "games"
    with Banker.create(folder / "sunday.game", "classic", ["Ann", "Bob"], backup_every=0) as b:
        b.do({"action": "buy", "player": "Ann", "deed": "Boardwalk"})
    friday = Banker.create(folder / "friday night.game", "classic", ["Cat", "Dan"], backup_every=0)
    friday.do({"action": "buy", "player": "Cat", "deed": "Park Place"})
    friday.do({"action": "rent", "payer": "Dan", "deed": "Park Place"})
    yield folder
    friday.close()


@pytest.fixture
def stick(tmp_path):
    path = tmp_path / "media" / "table-banker" / "sda1"
    path.mkdir(parents=True)
    return Stick(path, "KINGSTON", "/dev/sda1")


def cash(game: Path, who: str) -> int:
    with Banker.open(game) as b:
        return b.table["accounts"][who]


def test_one_tap_copies_every_game_into_a_dated_folder(games, stick):
    copied = backup_to_stick(games, stick, now=FRIDAY)

    assert copied.folder == stick.path / "table-banker" / "2025-11-21_203005"
    assert sorted(p.name for p in copied.folder.iterdir()) == ["friday night.game", "manifest.json", "sunday.game"]
    assert copied.games == {"friday night.game": 3, "sunday.game": 2}
    assert copied.text == (
        "Copied 2 games to KINGSTON (table-banker/2025-11-21_203005); you can pull the stick out now"
    )
    manifest = json.loads((copied.folder / "manifest.json").read_text())
    assert manifest == {"format": 1, "made": "2025-11-21T20:30:05", "games": copied.games}


def test_the_game_still_being_played_is_copied_whole(games, stick):
    """Friday's game is open with its entries still in the WAL: the copy has every one of them."""
    assert (games / "friday night.game-wal").stat().st_size > 0
    copied = backup_to_stick(games, stick, now=FRIDAY)
    copy = copied.folder / "friday night.game"
    assert not Path(f"{copy}-wal").exists()
    assert cash(copy, "Dan") == cash(games / "friday night.game", "Dan") == 1500 - 35


def test_a_second_tap_the_same_second_makes_a_second_folder(games, stick):
    first = backup_to_stick(games, stick, now=FRIDAY)
    second = backup_to_stick(games, stick, now=FRIDAY)
    assert first.folder.name == "2025-11-21_203005"
    assert second.folder.name == "2025-11-21_203005-2"
    assert [b.folder for b in stick_backups(stick)] == [second.folder, first.folder]


def test_backups_are_listed_newest_first_and_half_copies_are_never_offered(games, stick):
    older = backup_to_stick(games, stick, now=FRIDAY - dt.timedelta(days=7))
    newer = backup_to_stick(games, stick, now=FRIDAY)
    pulled_too_early = stick.path / "table-banker" / "2025-11-22_100000.part"
    pulled_too_early.mkdir()
    (stick.path / "table-banker" / "holiday photos").mkdir()

    assert [b.folder for b in stick_backups(stick)] == [newer.folder, older.folder]
    assert stick_backups(stick)[0].games == {"friday night.game": 3, "sunday.game": 2}


def test_restore_brings_a_lost_game_back(games, stick, tmp_path):
    backup_to_stick(games, stick, now=FRIDAY)
    new_card = tmp_path / "new sd card"

    done = restore_from_stick(stick_backups(stick)[0], new_card)

    assert sorted(p.name for p in new_card.glob("*.game")) == ["friday night.game", "sunday.game"]
    assert cash(new_card / "sunday.game", "Ann") == 1500 - 400
    assert done.text == "Brought back 2 games from the stick (2025-11-21_203005)"


def test_restore_over_a_game_keeps_the_current_one_aside(games, stick):
    backup_to_stick(games, stick, now=FRIDAY)
    with Banker.open(games / "sunday.game") as b:
        b.do({"action": "rent", "payer": "Bob", "deed": "Boardwalk"})
    assert cash(games / "sunday.game", "Bob") == 1500 - 50

    done = restore_from_stick(stick_backups(stick)[0].folder, games, ["sunday.game"])

    assert cash(games / "sunday.game", "Bob") == 1500
    kept = list(games.glob("sunday.game.replaced-*"))
    assert len(kept) == 1 and cash(kept[0], "Bob") == 1500 - 50
    assert "kept as" in done.lines[0]


def test_a_damaged_copy_on_the_stick_is_refused_and_the_game_is_untouched(games, stick):
    backup = backup_to_stick(games, stick, now=FRIDAY)
    (backup.folder / "sunday.game").write_bytes(b"this is not a game" * 100)
    before = (games / "sunday.game").read_bytes()

    with pytest.raises(StickProblem, match="sunday.game on the stick cannot be used"):
        restore_from_stick(stick_backups(stick)[0], games, ["sunday.game"])
    assert (games / "sunday.game").read_bytes() == before
    assert not list(games.glob("*.replaced-*"))


def test_restoring_a_game_the_backup_does_not_hold_is_refused(games, stick):
    backup_to_stick(games, stick, now=FRIDAY)
    with pytest.raises(StickProblem, match="no game called monday.game"):
        restore_from_stick(stick_backups(stick)[0], games, ["monday.game"])


def test_a_stick_too_small_is_refused_before_anything_is_written(games, stick, monkeypatch):
    monkeypatch.setattr(usb_backup.shutil, "disk_usage", lambda p: _Usage(10_000))
    with pytest.raises(StickProblem, match=r"KINGSTON has 9\.8 KB free but the games need"):
        backup_to_stick(games, stick, now=FRIDAY)
    assert not (stick.path / "table-banker").exists()


class _Usage:
    def __init__(self, free: int) -> None:
        self.free, self.total, self.used = free, free, 0


def test_a_read_only_stick_gets_one_clear_line(games, stick):
    locked = Stick(stick.path, "OLDSTICK", "/dev/sdb1", readonly=True)
    with pytest.raises(StickProblem) as caught:
        backup_to_stick(games, locked)
    assert str(caught.value) == "the stick OLDSTICK is read-only: use another stick, or unlock it"


def test_an_empty_games_folder_is_refused(tmp_path, stick):
    with pytest.raises(StickProblem, match="there is no game to copy"):
        backup_to_stick(tmp_path / "nothing yet", stick)


# -- finding the stick ------------------------------------------------------------------------------------
MOUNTS = """\
/dev/mmcblk0p2 / ext4 rw,noatime 0 0
tmpfs /run tmpfs rw,nosuid,nodev 0 0
/dev/mmcblk0p1 /boot/firmware vfat rw,relatime 0 0
/dev/sda1 /media/table-banker/sda1 vfat rw,nosuid,nodev,relatime,uid=999,gid=999 0 0
/dev/sdb1 /media/pi/HOLIDAY\\040PICS exfat ro,nosuid,nodev 0 0
tmpfs /media tmpfs rw 0 0
/dev/sdc1 /run/media/ann/BANK vfat rw 0 0
"""


def test_sticks_are_the_file_systems_mounted_below_media():
    found = sticks_from_mounts(MOUNTS, labels={"/dev/sda1": "KINGSTON"})
    assert found == [
        Stick(Path("/media/table-banker/sda1"), "KINGSTON", "/dev/sda1", False),
        Stick(Path("/media/pi/HOLIDAY PICS"), "HOLIDAY PICS", "/dev/sdb1", True),
        Stick(Path("/run/media/ann/BANK"), "BANK", "/dev/sdc1", False),
    ]


def test_the_one_writable_stick_is_chosen_and_two_are_a_question():
    found = sticks_from_mounts(MOUNTS)
    with pytest.raises(StickProblem, match=r"2 sticks are plugged in \(sda1, BANK\): choose one"):
        choose_stick(found)
    assert choose_stick(found[:2]).label == "sda1"
    assert choose_stick(found[1:2], writable=False).label == "HOLIDAY PICS"
    with pytest.raises(StickProblem, match="HOLIDAY PICS is read-only"):
        choose_stick(found[1:2])
    with pytest.raises(StickProblem, match="no USB stick found"):
        choose_stick([])


def test_udev_label_escapes_are_decoded():
    assert usb_backup._decode_udev("MY\\x20STICK") == "MY STICK"


# -- the command -----------------------------------------------------------------------------------------
def run_module(*args: str, env_data: Path) -> subprocess.CompletedProcess:
    env = {**os.environ, "COMPANION_DATA": str(env_data)}
    return subprocess.run(
        [sys.executable, "-m", "companion.usb_backup", *args], capture_output=True, text=True, env=env, timeout=60
    )


def test_the_command_copies_lists_and_restores(games, stick, tmp_path):
    done = run_module("backup", "--stick", str(stick.path), env_data=games)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Copied 2 games to sda1 (table-banker/")

    listed = run_module("list", "--stick", str(stick.path), env_data=games)
    assert "sunday.game (entry 2)" in listed.stdout

    elsewhere = tmp_path / "elsewhere"
    back = run_module(
        "--data", str(elsewhere), "restore", "--stick", str(stick.path), "--game", "sunday.game", env_data=games
    )
    assert back.returncode == 0, back.stderr
    assert back.stdout.strip().endswith(
        "Brought back 1 game from the stick (" + listed.stdout.split("\t")[0].rsplit("/", 1)[1] + ")"
    )
    assert cash(elsewhere / "sunday.game", "Ann") == 1100


def test_the_command_says_why_in_one_line_and_exits_1(tmp_path):
    done = run_module("backup", "--stick", str(tmp_path / "no stick here"), env_data=tmp_path)
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        f"companion: {tmp_path / 'no stick here'} is not there: is the stick plugged in?"
    ]


def test_the_command_answers_json_for_programs(games, stick):
    import json

    done = run_module("backup", "--stick", str(stick.path), "--json", env_data=games)
    assert done.returncode == 0, done.stderr
    copied = json.loads(done.stdout)
    assert copied["games"] == {"friday night.game": 3, "sunday.game": 2} and copied["said"].startswith("Copied 2 games")
    listed = json.loads(run_module("--json", "list", "--stick", str(stick.path), env_data=games).stdout)
    assert [b["folder"] for b in listed] == [copied["folder"]] and listed[0]["games"] == copied["games"]
