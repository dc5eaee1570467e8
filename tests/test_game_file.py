"""The game file: durable, append-only, self-checking, and never silently replaced."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
import time

import pytest

from companion.backups import list_backups
from companion.core.errors import GameFileError, Refused
from companion.restore import restore
from companion.service import SNAPSHOT_EVERY, Banker
from companion.store import Store


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "friday.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0) as b:
        b.do({"action": "buy", "player": "Ann", "deed": "Boardwalk"})
    return path


def test_the_file_is_wal_with_full_sync(game):
    with Banker.open(game) as b:
        assert b.store.con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert b.store.con.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_the_log_cannot_be_rewritten(game):
    con = sqlite3.connect(game)
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        con.execute("UPDATE entries SET summary = 'nothing happened'")
    with pytest.raises(sqlite3.DatabaseError, match="append-only"):
        con.execute("DELETE FROM entries")
    con.close()


def test_a_new_game_never_overwrites_an_existing_file(game):
    with pytest.raises(GameFileError, match="already exists"):
        Banker.create(game, "classic", ["Cy", "Di"])
    with Banker.open(game) as b:
        assert b.table["deeds"]["Boardwalk"]["owner"] == "Ann"


def test_a_file_that_is_not_a_game_is_refused_and_left_alone(tmp_path):
    junk = tmp_path / "notes.game"
    junk.write_bytes(b"shopping list: milk, dice\n" * 10)
    with pytest.raises(GameFileError, match="not a Table Banker game"):
        Banker.open(junk)
    assert junk.read_bytes().startswith(b"shopping list")
    other = tmp_path / "other.db"
    sqlite3.connect(other).execute("CREATE TABLE t (x)").connection.close()
    with pytest.raises(GameFileError, match="not a Table Banker game"):
        Banker.open(other)
    with pytest.raises(GameFileError, match="no game at"):
        Banker.open(tmp_path / "missing.game")


def test_a_damaged_file_is_reported_not_replaced(game):
    data = bytearray(game.read_bytes())
    for i in range(4096 + 16, len(data), 97):
        data[i] ^= 0x5A
    game.write_bytes(bytes(data))
    with pytest.raises(GameFileError, match="damaged|not a Table Banker game"):
        Banker.open(game)
    assert game.read_bytes() == bytes(data)


def test_snapshots_are_taken_and_opening_uses_them(tmp_path):
    path = tmp_path / "long.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0) as b:
        for i in range(SNAPSHOT_EVERY + 10):
            b.do({"action": "transfer", "from": "bank", "to": "Ann" if i % 2 else "Bob", "amount": 1})
        expected = b.table
    store = Store.open(path)
    assert [seq for seq, _, _ in store.snapshots()] == [0, SNAPSHOT_EVERY]
    store.close()
    with Banker.open(path) as b:
        assert b.table == expected
        assert b.replay() == expected
        assert b.verify() == []


def test_the_same_action_id_twice_is_one_action(game):
    with Banker.open(game) as b:
        act = {"action": "transfer", "from": "Bob", "to": "Ann", "amount": 20, "id": "tap-1"}
        first = b.do(act)
        again = b.do(dict(act))
        assert again.repeated and again.entry.seq == first.entry.seq
        assert b.table["accounts"]["Bob"] == 1480
        with pytest.raises(Refused, match="already used for a different action"):
            b.do({**act, "amount": 30})


def test_undo_appends_a_reversal_and_redo_reapplies(game):
    with Banker.open(game) as b:
        b.do({"action": "salary", "player": "Bob"})
        b.undo()
        assert b.table["accounts"]["Bob"] == 1500
        b.redo()
        assert b.table["accounts"]["Bob"] == 1700
        kinds = [e.kind for e in b.log()]
        assert kinds == ["start", "do", "do", "undo", "redo"]


def test_a_new_action_after_undo_clears_redo(game):
    with Banker.open(game) as b:
        b.do({"action": "salary", "player": "Bob"})
        b.undo()
        b.do({"action": "salary", "player": "Ann"})
        with pytest.raises(Refused, match="nothing to redo"):
            b.redo()


def test_undo_walks_back_to_the_start_but_not_past_it(game):
    with Banker.open(game) as b:
        b.undo()
        assert b.table["accounts"]["Ann"] == 1500
        with pytest.raises(Refused, match="nothing to undo"):
            b.undo()


def test_undo_of_a_redo_and_redo_again(game):
    with Banker.open(game) as b:
        b.undo()
        b.redo()
        b.undo()
        b.redo()
        assert b.table["deeds"]["Boardwalk"]["owner"] == "Ann"
        assert b.verify() == []


def test_rotating_backups_every_n_actions_and_restore(tmp_path):
    path = tmp_path / "backed.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=5, backup_keep=3, backup_quiet=0) as b:
        for _ in range(24):
            b.do({"action": "transfer", "from": "bank", "to": "Ann", "amount": 10})
            b.backups.flush()
    backups = list_backups(path)
    # the start is entry 1, so 24 actions end at entry 25; the newest three copies are kept, each
    # named after the last entry it holds
    assert [p.name for p in backups] == ["backed-0000015.game", "backed-0000020.game", "backed-0000025.game"]
    for copy in backups:
        with Banker.open(copy) as old:
            assert copy.name == f"backed-{old.version:07d}.game"
    held = 20
    message = restore(path, backups[1])
    assert f"entry {held}" in message
    with Banker.open(path) as b:
        assert b.version == held and b.table["accounts"]["Ann"] == 1500 + 10 * (held - 1)
    kept = [p for p in tmp_path.glob("backed.game.replaced-*") if p.is_file()]
    assert len(kept) == 1
    with Banker.open(kept[0]) as previous:
        assert previous.version == 25
    # the backup of entry 25 belongs to the replaced game now: it went with it
    assert [p.name for p in list_backups(path)] == ["backed-0000015.game", "backed-0000020.game"]
    assert [p.name for p in list_backups(kept[0])] == ["backed-0000025.game"]


def test_backups_wait_for_a_lull_in_the_taps_and_one_copy_serves_a_burst(tmp_path):
    path = tmp_path / "burst.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=5, backup_quiet=2.0) as b:
        for _ in range(30):
            b.do({"action": "transfer", "from": "bank", "to": "Ann", "amount": 1})
        assert list_backups(path) == []  # nothing copied while the banker was busy
        b.backups.flush()
        assert [p.name for p in list_backups(path)] == ["burst-0000031.game"]


def test_a_second_process_writes_and_the_open_game_sees_it(game):
    with Banker.open(game) as b:
        seen = []
        b.subscribe(lambda outcome: seen.append(outcome.summary))
        subprocess.run(
            [sys.executable, "-m", "companion.cli", "do", str(game), '{"action": "salary", "player": "Bob"}'],
            check=True,
            capture_output=True,
        )
        deadline = time.monotonic() + 1.0
        while not b.refresh() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert b.table["accounts"]["Bob"] == 1700
        assert seen == ["Bob collected $200 salary"]
        b.do({"action": "salary", "player": "Ann"})  # our next write builds on theirs: no fork
        assert [e.seq for e in b.log()] == [1, 2, 3, 4]


def test_a_write_catches_up_with_another_process_first(game):
    with Banker.open(game) as b, Banker.open(game) as other:
        other.do({"action": "salary", "player": "Bob"})
        b.do({"action": "salary", "player": "Bob"})  # no refresh in between
        assert b.table["accounts"]["Bob"] == 1900
        assert b.verify() == []


def test_a_held_write_lock_gives_a_clear_refusal(game, monkeypatch):
    import companion.store as store_mod

    monkeypatch.setattr(store_mod, "BUSY_MS", 100)
    locker = sqlite3.connect(game, isolation_level=None)
    locker.execute("BEGIN IMMEDIATE")
    try:
        b = Banker.open(game)
        b.store.con.execute("PRAGMA busy_timeout = 100")
        from companion.core.errors import GameBusy

        with pytest.raises(GameBusy, match="another program is writing"):
            b.do({"action": "salary", "player": "Bob"})
        b.close()
    finally:
        locker.execute("ROLLBACK")
        locker.close()
    with Banker.open(game) as b:
        assert b.table["accounts"]["Bob"] == 1500


def test_a_retried_buy_returns_its_first_outcome_instead_of_a_refusal(game):
    with Banker.open(game) as b:
        act = {"action": "buy", "player": "Bob", "deed": "Park Place", "id": "phone-7"}
        first = b.do(act)
        again = b.do(dict(act))
        assert again.repeated and again.entry.seq == first.entry.seq
        assert b.table["accounts"]["Bob"] == 1150


def test_every_game_may_turn_phone_requests_off(tmp_path):
    with Banker.create(tmp_path / "quiet.game", "classic", ["Ann", "Bob"], {"phone_requests": "false"}) as b:
        assert b.table["options"]["phone_requests"] is False
