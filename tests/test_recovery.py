"""After a mishap at the table: restores that keep every copy, the last game found again after a clock
jump, a batch stopped by a full disk that says where it stopped, and a failed backup that leaves nothing."""

from __future__ import annotations

import io
import json
import os
import sqlite3
import time
from pathlib import Path

import pytest

from companion import store as store_module
from companion.backups import Backups, backup_folder, list_backups
from companion.cli import main
from companion.paths import last_game, remember_last_game
from companion.restore import restore
from companion.service import Banker
from companion.store import Store


def pay_ann(b: Banker, times: int, amount: int = 10) -> None:
    for _ in range(times):
        b.do({"action": "transfer", "from": "bank", "to": "Ann", "amount": amount})


def test_two_restores_in_the_same_second_keep_both_replaced_games(tmp_path, monkeypatch):
    """The banker restores entry 3, then at once entry 5: the game as it stood before the first restore
    (entry 7) and the one before the second (entry 3) are both kept."""
    path = tmp_path / "friday.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0) as b:
        pay_ann(b, 2)
        three = b.backups.take(3)
        pay_ann(b, 2)
        five = b.backups.take(5)
        pay_ann(b, 2)
    frozen = time.localtime()
    monkeypatch.setattr("companion.restore._dt.datetime", _FrozenClock(frozen))
    restore(path, three)
    first_kept = next(p for p in tmp_path.glob("friday.game.replaced-*") if p.is_file())
    five = backup_folder(first_kept) / five.name  # it holds entries after 3: it went with the replaced game
    restore(path, five)
    kept = sorted(p for p in tmp_path.glob("friday.game.replaced-*") if p.is_file())
    assert len(kept) == 2
    versions = set()
    for copy in kept:
        with Banker.open(copy) as old:
            versions.add(old.version)
    assert versions == {7, 3}
    with Banker.open(path) as b:
        assert b.version == 5


class _FrozenClock:
    """``datetime`` whose ``now()`` never moves: both restores fall in the same second."""

    def __init__(self, moment: time.struct_time) -> None:
        import datetime as dt

        self.moment = dt.datetime(*moment[:6])

    def now(self):
        return self.moment


def test_run_without_a_game_reopens_the_game_opened_last_even_when_the_clock_jumped(tmp_path):
    """Ann's game was opened last; then the Pi's clock jumped back, so Bob's older game file carries the
    newer modification time. The record, not the file times, decides."""
    anns, bobs = tmp_path / "anns.game", tmp_path / "bobs.game"
    for path in (bobs, anns):
        Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0).close()
    remember_last_game(tmp_path, bobs)
    remember_last_game(tmp_path, anns)
    future = time.time() + 3600
    os.utime(bobs, (future, future))  # the clock jumped: Bob's file looks newest
    assert last_game(tmp_path) == anns.resolve()


def test_a_missing_record_falls_back_and_a_gone_game_is_not_reopened(tmp_path):
    only = tmp_path / "only.game"
    Banker.create(only, "classic", ["Ann", "Bob"], backup_every=0).close()
    assert last_game(tmp_path) == only  # no record yet (games from before the record): the newest file
    remember_last_game(tmp_path, only)
    only.unlink()
    assert last_game(tmp_path) is None


def test_a_batch_stopped_by_a_full_disk_says_how_many_lines_were_applied(tmp_path, monkeypatch, capsys):
    """Five payments are piped in; the disk fills up while the third is written. The banker is told that
    two were applied, that line 3 failed, and that nothing after it was tried; the game holds two."""
    path = tmp_path / "full.game"
    Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0).close()
    real_append = Store.append
    calls = {"n": 0}

    def append(self, **kwargs):
        calls["n"] += 1
        if calls["n"] == 3:
            error = sqlite3.OperationalError("database or disk is full")
            error.sqlite_errorcode = sqlite3.SQLITE_FULL
            raise error
        return real_append(self, **kwargs)

    monkeypatch.setattr(Store, "append", append)
    line = json.dumps({"action": "transfer", "from": "bank", "to": "Ann", "amount": 10})
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join([line] * 5) + "\n"))
    code = main(["do", str(path), "-"])
    out, err = capsys.readouterr()
    assert code != 0
    assert len(out.splitlines()) == 2
    assert err.count("\n") == 1, err
    assert "line 3 failed" in err and "(2 applied, none after)" in err and "disk is full" in err
    assert "Traceback" not in err
    monkeypatch.setattr(Store, "append", real_append)
    with Banker.open(path) as b:
        assert b.version == 3 and b.table["accounts"]["Ann"] == 1520


def test_a_failed_backup_leaves_no_partial_files(tmp_path, monkeypatch):
    """The disk fills up while a backup is written: its .part, .part-wal and .part-shm are removed, and
    the game goes on."""
    path = tmp_path / "part.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0) as b:
        pay_ann(b, 2)
    real_fsync = os.fsync

    def full_disk(fd: int) -> None:
        if Path(os.readlink(f"/proc/self/fd/{fd}")).name.endswith(".part"):
            # SQLite's -wal and -shm of the half-made copy are still there when the disk fills up
            part = Path(os.readlink(f"/proc/self/fd/{fd}"))
            Path(f"{part}-wal").write_bytes(b"\0" * 64)
            Path(f"{part}-shm").write_bytes(b"\0" * 64)
            raise OSError(28, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(store_module.os, "fsync", full_disk)
    backups = Backups(path, every=0)
    assert backups._copy() is None
    assert "No space left" in (backups.last_error or "")
    assert list(backup_folder(path).iterdir()) == []
    with pytest.raises(OSError):
        store_module.backup_copy(path, tmp_path / "elsewhere.game")
    assert not [p.name for p in tmp_path.iterdir() if "elsewhere" in p.name]
    backups.lull.close()
    monkeypatch.setattr(store_module.os, "fsync", real_fsync)
    assert list_backups(path) == []
    with Banker.open(path) as b:
        assert b.version == 3


@pytest.fixture
def small_disk(tmp_path):
    """A 256 KB file system that fills up after a few dozen actions (a tmpfs: needs root; else skipped)."""
    import subprocess

    mount = tmp_path / "small"
    mount.mkdir()
    done = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=256k", "tmpfs", str(mount)], capture_output=True, check=False
    )
    if done.returncode:
        pytest.skip("cannot mount a small file system here (needs root)")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], capture_output=True, check=False)


def test_a_batch_on_a_really_full_disk_stops_says_where_and_the_game_stays_sound(small_disk, monkeypatch, capsys):
    """The card fills up in the middle of a long batch of payments: the batch says how many were applied
    and which line failed; the game then opens with exactly those, checks ok, and no partial backup is
    left (SQLite's checkpoint, cut short by the full disk, leaves the game file shorter than its header
    says while the -wal still holds the pages: that is not damage)."""
    path = small_disk / "full.game"
    assert main(["new", str(path), "--rules", "classic", "--player", "Ann", "--player", "Bob"]) == 0
    line = json.dumps({"action": "transfer", "from": "bank", "to": "Ann", "amount": 1})
    monkeypatch.setattr("sys.stdin", io.StringIO((line + "\n") * 3000))
    capsys.readouterr()
    code = main(["do", str(path), "-"])
    out, err = capsys.readouterr()
    applied = len(out.splitlines())
    assert code == 2 and 0 < applied < 3000
    assert err.splitlines()[-1] == (
        f"companion: line {applied + 1} failed, the batch stopped ({applied} applied, "
        f"none after): the disk is full; nothing was changed: full.game"
    ), err
    assert main(["show", str(path), "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["version"] == applied + 1
    assert main(["check", str(path)]) == 0
    assert not [p for p in small_disk.rglob("*") if ".part" in p.name or "copying" in p.name]
