"""The game's -wal gets its room for the evening once, when a table settles in (companion/wal_room.py):
the evening's commits overwrite blocks the file owns instead of growing it, and nothing about what a
pulled plug or a flipped bit leaves behind changes. (That the table's own watch hears none of it:
tests/web/test_watch.py.)"""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import companion.service as service
from companion.cli import main
from companion.head_record import read_head
from companion.service import Banker
from companion.wal_room import ROOM_PAGES, make_room, wal_of

ROOM = 32 + ROOM_PAGES * (24 + 4096)


def pay_ann(b: Banker, times: int) -> None:
    for _ in range(times):
        b.do({"action": "transfer", "from": "bank", "to": "Ann", "amount": 10})


def settled(path: Path) -> Banker:
    """Ann and Bob's table, opened for the evening: the room is made as it opens and synced in its
    first lull, before the first payment."""
    b = Banker.open(path, backup_every=0)
    b.settle_in()
    b.lull.flush()
    return b


def test_an_evening_at_the_table_gives_its_log_room_once_and_its_payments_do_not_grow_it(tmp_path):
    path = tmp_path / "friday.game"
    Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0).close()
    with settled(path) as b:
        assert wal_of(path).stat().st_size == ROOM
        pay_ann(b, 60)
        assert wal_of(path).stat().st_size == ROOM, "sixty payments wrote into the room"
        assert make_room(path) == 0  # a second program settling in finds the room made
    assert not wal_of(path).exists()  # the last connection closed: SQLite folds the -wal in and deletes it
    with Banker.open(path, backup_every=0) as b:
        assert b.version == 61 and b.table["accounts"]["Ann"] == 1500 + 600


def test_a_pulled_plug_after_the_room_was_made_loses_no_payment(tmp_path):
    path = tmp_path / "friday.game"
    plugged = tmp_path / "plugged" / "friday.game"
    plugged.parent.mkdir()
    Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0).close()
    with settled(path) as b:
        pay_ann(b, 25)
        for suffix in ("", "-wal"):  # the files as the plug left them: nothing closed, nothing folded in
            shutil.copy(f"{path}{suffix}", f"{plugged}{suffix}")
    with Banker.open(plugged, backup_every=0) as b:
        assert b.version == 26 and b.table["accounts"]["Ann"] == 1500 + 250
        assert b.store.integrity_check() == ["ok"]


def test_a_flipped_bit_among_the_evenings_frames_still_names_the_lost_payments(tmp_path, capsys):
    """As without the room (tests/test_log_chain.py): one bit in the middle of what the evening wrote to
    the -wal drops that frame and those after it, and `check` names the lost entries; the zeros after
    the last frame change nothing of that."""
    path = tmp_path / "friday.game"
    plugged = tmp_path / "plugged" / "friday.game"
    plugged.parent.mkdir()
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0) as b:
        pay_ann(b, 20)
    with settled(path) as b:
        b.store.con.execute("PRAGMA wal_autocheckpoint = 0")
        pay_ann(b, 10)
        b.lull.flush()  # the head record names entry 31
        for suffix in ("", "-wal", ".head"):
            shutil.copy(f"{path}{suffix}", f"{plugged}{suffix}")
    assert read_head(plugged)[0] == 31
    wal = wal_of(plugged)
    data = bytearray(wal.read_bytes())
    assert len(data) == ROOM
    written = len(data.rstrip(b"\0"))
    data[written // 2] ^= 0x10
    wal.write_bytes(bytes(data))
    code = main(["check", str(plugged)])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1 and "-31 are lost" in err, err


def test_the_room_is_written_as_the_table_settles_in_and_synced_in_its_first_lull(tmp_path, monkeypatch):
    path = tmp_path / "friday.game"
    synced: list[Path] = []
    monkeypatch.setattr(service, "sync_room", synced.append)
    Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0).close()
    with Banker.open(path, backup_every=0, backup_quiet=60) as b:
        b.settle_in()
        assert wal_of(path).stat().st_size == ROOM and synced == []  # written now; the lull syncs it
        b.lull.quiet = 0  # the taps stop: the lull comes
        b.lull.flush()
        assert synced == [path]


def test_a_table_closed_before_its_first_lull_leaves_the_room_unsynced(tmp_path, monkeypatch):
    """Closing folds the -wal into the game and deletes it: a sync of the room then is for nothing."""
    path = tmp_path / "friday.game"
    synced: list[Path] = []
    monkeypatch.setattr(service, "sync_room", synced.append)
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0, backup_quiet=60) as b:
        b.settle_in()
        pay_ann(b, 1)
    assert synced == []  # closing ran the lull's jobs at once, but not this one
    assert not wal_of(path).exists()


def test_no_room_is_made_while_another_program_writes_and_the_first_lull_makes_it(tmp_path):
    path = tmp_path / "friday.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0, backup_quiet=60) as b:
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # a phones' server's commit in another process, under way
        try:
            assert make_room(path, busy_seconds=0.05) == 0
            b.settle_in()  # waits a moment for the lock, then leaves the room to its first lull
            assert wal_of(path).stat().st_size < ROOM
        finally:
            other.execute("ROLLBACK")
            other.close()
        b.lull.quiet = 0  # the taps stop: the lull comes
        b.lull.flush()
        assert wal_of(path).stat().st_size == ROOM
        pay_ann(b, 3)
        assert b.version == 4


def test_a_game_without_its_log_file_gets_none_made(tmp_path):
    path = tmp_path / "friday.game"
    Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0).close()
    assert not wal_of(path).exists()
    assert make_room(path) == 0
    assert not wal_of(path).exists()  # never created: only SQLite makes a -wal
