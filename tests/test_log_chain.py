"""The log proves itself: every entry's hash chains it to the one before, snapshots and backups record
the head, a changed digit is caught and named with the backup to restore, and games written before the
chain are brought up to date without losing anything."""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from companion.backups import list_backups
from companion.cli import main
from companion.core.errors import GameFileError
from companion.chain import content, entry_hash
from companion.head_record import read_head, write_head
from companion.service import SNAPSHOT_EVERY, Banker, glance
from companion.store import FORMAT, Store

FIXTURES = Path(__file__).parent / "fixtures"


def pay(b: Banker, times: int, to: str = "Ann", amount: int = 10) -> None:
    for _ in range(times):
        b.do({"action": "transfer", "from": "bank", "to": to, "amount": amount})


def tamper(path: Path, sql: str, *args: object) -> None:
    """Change the file behind the game's back, as a flipped bit or a hand edit would."""
    con = sqlite3.connect(path)
    con.execute("DROP TRIGGER IF EXISTS entries_append_only_u")
    con.execute("DROP TRIGGER IF EXISTS snapshots_append_only_u")
    con.execute(sql, args)
    con.commit()
    con.close()


def run(*args: str, capsys) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def game(tmp_path):
    """Ann and Bob's game: 30 payments to Ann, a backup every 10 entries."""
    path = tmp_path / "friday.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=10, backup_quiet=0) as b:
        for _ in range(30):
            pay(b, 1)
            b.backups.flush()  # each backup holds exactly the entry it was taken after: 10, 20, 30
    return path


def test_each_entry_hashes_the_previous_hash_and_its_canonical_content(game):
    previous = bytes(32)
    con = sqlite3.connect(game)
    rows = con.execute(
        "SELECT seq, kind, action_id, action, events, summary, target, at, hash, said FROM entries ORDER BY seq"
    )
    kept = 0
    for seq, kind, action_id, action, events, summary, target, at, digest, said in rows:
        fields = {
            "seq": seq,
            "kind": kind,
            "id": action_id,
            "action": json.loads(action),
            "events": json.loads(events),
            "summary": summary,
            "target": target,
            "at": at,
        }
        if said is not None:  # the summary's parts, where the entry keeps them
            fields["said"] = json.loads(said)
            kept += 1
        text = json.dumps(fields, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
        assert digest == hashlib.sha256(previous + text).hexdigest()
        previous = bytes.fromhex(digest)
    assert kept == 30  # every payment keeps its sentence's parts ("the bank paid Ann $10")
    # the opening snapshot's head is the empty chain; a backup's head is its last entry's hash
    assert con.execute("SELECT head FROM snapshots WHERE seq = 0").fetchone()[0] == "0" * 64
    newest = list_backups(game)[-1]
    with _opened(newest) as copy:
        seq, head = copy.head()
    assert head == con.execute("SELECT hash FROM entries WHERE seq = ?", (seq,)).fetchone()[0]
    con.close()


class _opened:
    def __init__(self, path: Path) -> None:
        self.store = Store.open(path, readonly=True)

    def __enter__(self) -> Store:
        return self.store

    def __exit__(self, *exc: object) -> None:
        self.store.close()


def test_a_changed_digit_after_the_last_snapshot_is_caught_on_opening(game, capsys):
    """Someone turns Ann's $10 in entry 25 into $19: `show` refuses instead of showing a richer Ann, and
    names the entry and the newest good backup."""
    tamper(game, "UPDATE entries SET events = replace(events, '\"amount\":10', '\"amount\":19') WHERE seq = 25")
    for command in (
        ["show", str(game)],
        ["check", str(game)],
        ["log", str(game)],
        ["export", str(game), "--csv"],
        ["undo", str(game)],
        ["do", str(game), '{"action": "transfer", "from": "bank", "to": "Bob", "amount": 5}'],
    ):
        code, _out, err = run(*command, capsys=capsys)
        assert code == 2 and _out == "", command
        assert err.count("\n") == 1 and "entry 25 differs from what was written" in err, err
        assert "friday-0000030.game" in err and "companion restore friday.game" in err, err


def test_a_changed_slot_in_a_kept_sentence_is_caught_like_any_damaged_entry(game, capsys):
    """Someone turns the slot naming Ann in entry 25's kept sentence into Bob (so Bob's phone would
    read "The bank paid you $10"): every command refuses, naming the entry and the newest good backup."""
    tamper(game, 'UPDATE entries SET said = replace(said, \'"who":"Ann"\', \'"who":"Bob"\') WHERE seq = 25')
    for command in (["show", str(game)], ["check", str(game)], ["log", str(game)], ["undo", str(game)]):
        code, _out, err = run(*command, capsys=capsys)
        assert code == 2 and _out == "", command
        assert err.count("\n") == 1 and "entry 25 differs from what was written" in err, err
        assert "companion restore friday.game friday-0000030.game" in err, err


@pytest.mark.parametrize(
    "kept",
    [
        '[{"who":"Bob"}," paid ",{"who":"Ann"}," $10"]',  # reads otherwise than the entry's summary
        '[{"who":7}," paid ",{"who":"Ann"}," $10"]',  # a slot with no name
        '[{"who":"Ann","verb":"pays"}," $10"]',  # a verb without its second person
        '{"who":"Ann"}',  # not a list of parts
        '[{"who":',  # not JSON
    ],
)
def test_a_kept_sentence_written_wrongly_cannot_be_read_even_when_its_chain_holds(tmp_path, capsys, kept):
    """Entry 2's kept sentence is not one (as a faulty writer would make it) although its hash covers
    it: the game is refused as damaged, naming the entry, and never told from it."""
    path = tmp_path / "faulty.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0) as b:
        pay(b, 1)
    con = sqlite3.connect(path)
    row = con.execute("SELECT seq, kind, action_id, action, events, summary, target, at FROM entries WHERE seq = 2")
    seq, kind, action_id, action, events, summary, target, at = row.fetchone()
    try:
        said = json.loads(kept)
    except ValueError:
        said = kept
    previous = con.execute("SELECT hash FROM entries WHERE seq = 1").fetchone()[0]
    fields = content(seq, kind, action_id, json.loads(action), json.loads(events), summary, target, at, said)
    digest = entry_hash(previous, fields)
    con.close()
    tamper(path, "UPDATE entries SET said = ?, hash = ? WHERE seq = 2", kept, digest)
    write_head(path, 2, digest)
    for command in ("show", "check", "log"):
        code, _out, err = run(command, str(path), capsys=capsys)
        assert code == 2 and err.count("\n") == 1, (command, err)
        assert "entry 2 cannot be read" in err, err


def test_a_changed_digit_before_the_snapshot_is_caught_by_check_and_log(tmp_path, capsys):
    """Opening checks only the entries after the newest snapshot (cheap); `check` and `log` read them
    all and name the entry. The table `show` prints comes from the proved snapshot, so it is the true one."""
    path = tmp_path / "long.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0) as b:
        pay(b, SNAPSHOT_EVERY + 5)
        b.backups.take(b.version)
        truth = b.table
    tamper(path, "UPDATE entries SET events = replace(events, '\"amount\":10', '\"amount\":11') WHERE seq = 7")
    with Banker.open(path) as b:
        assert b.table == truth
    code, _out, err = run("check", str(path), capsys=capsys)
    assert code == 1 and "entry 7 differs from what was written" in err and "long-0000206.game" in err
    code, _out, err = run("log", str(path), capsys=capsys)
    assert code == 2 and "entry 7 differs" in err


def test_a_check_from_where_the_last_one_ended_reads_on_from_there_and_catches_what_changed_since(game):
    """Ann's game was checked after entry 31; ten more payments later a check from that point reads the
    ten and their link to it, and sees a change at the point itself; a change before it is the whole
    check's to find."""
    with Banker.open(game, backup_every=0) as b:
        assert b.verify() == []
        mark = b.verified()
        pay(b, 10)
        assert mark.seq == 31 and b.verify(since=mark) == []
        later = b.verified()
        tamper(game, "UPDATE entries SET events = replace(events, '\"amount\":10', '\"amount\":13') WHERE seq = 7")
        assert "entry 7 differs from what was written" in b.verify()[0]
        assert later.seq == 41 and b.verify(since=later) == []
        tamper(game, "UPDATE entries SET events = replace(events, '\"amount\":10', '\"amount\":12') WHERE seq = 36")
        assert ["entry 36 differs from what was written" in p for p in b.verify(since=mark)] == [True]
        tamper(game, "UPDATE entries SET hash = ? WHERE seq = 31", "0" * 64)
        assert ["entry 31 differs from what was checked before" in p for p in b.verify(since=mark)] == [True]


def test_a_changed_snapshot_is_caught_on_opening(game, capsys, tmp_path):
    path = tmp_path / "snap.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0) as b:
        pay(b, SNAPSHOT_EVERY)
    tamper(path, f"UPDATE snapshots SET state = replace(state, '\"Ann\":', '\"Ann\": ') WHERE seq = {SNAPSHOT_EVERY}")
    code, _out, err = run("show", str(path), capsys=capsys)
    assert code == 2 and f"the snapshot at entry {SNAPSHOT_EVERY} differs from what was written" in err
    assert "it has no backups" in err


def test_check_names_a_backup_that_is_not_on_the_games_chain(game, capsys, tmp_path):
    """A backup of another evening's game slipped into Friday's backups: `check` says it is not a copy."""
    other = tmp_path / "other.game"
    with Banker.create(other, "classic", ["Ann", "Bob"], backup_every=0) as b:
        pay(b, 9, to="Bob")
    stranger = list_backups(game)[0].with_name("friday-0000010.game")
    stranger.unlink()
    shutil.copy(other, stranger)
    code, _out, err = run("check", str(game), capsys=capsys)
    assert code == 1
    assert "backup friday-0000010.game" in err and "not a copy of this game" in err


def test_a_game_shorter_than_its_backup_has_lost_its_tail(game, capsys):
    """The last ten entries vanish (as a damaged -wal drops them): the backup of entry 30 names the loss."""
    Path(f"{game}.head").unlink()  # only the backup is left to know
    tamper(game, "DROP TRIGGER entries_append_only_d")
    tamper(game, "DELETE FROM entries WHERE seq > 21")
    for command in ("show", "check"):
        code, _out, err = run(command, str(game), capsys=capsys)
        assert code == 2 and err.count("\n") == 1
        assert "entries 22-30 are lost" in err and "companion restore friday.game friday-0000030.game" in err


def test_the_head_record_catches_a_lost_tail_no_backup_holds(tmp_path, capsys):
    path = tmp_path / "tail.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0) as b:
        pay(b, 5)
    assert read_head(path)[0] == 6
    tamper(path, "DROP TRIGGER entries_append_only_d")
    tamper(path, "DELETE FROM entries WHERE seq > 4")
    code, _out, err = run("show", str(path), capsys=capsys)
    assert code == 2 and "entries 5-6 are lost" in err


def test_a_flipped_bit_in_the_wal_loses_its_entries_and_check_says_which_instead_of_ok(tmp_path, capsys):
    """A pulled plug leaves Ann's last ten payments only in the -wal, and one bit in the middle of it
    flips: SQLite drops that frame and every frame after it without a word. `check` and `show` say which
    entries are lost (the head record written at the last lull still names entry 31) instead of "ok"."""
    path = tmp_path / "friday.game"
    plugged = tmp_path / "plugged" / "friday.game"
    plugged.parent.mkdir()
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0) as b:
        pay(b, 20)
    with Banker.open(path, backup_every=0) as b:
        b.store.con.execute("PRAGMA wal_autocheckpoint = 0")
        b.store.con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        pay(b, 10)
        b.lull.flush()  # the head record names entry 31
        for suffix in ("", "-wal", ".head"):
            shutil.copy(f"{path}{suffix}", f"{plugged}{suffix}")
    assert read_head(plugged)[0] == 31
    wal = Path(f"{plugged}-wal")
    data = bytearray(wal.read_bytes())
    data[len(data) // 2] ^= 0x10
    wal.write_bytes(bytes(data))
    for command in ("check", "show"):
        code, out, err = run(command, str(plugged), capsys=capsys)
        assert code == 2 and out == "" and err.count("\n") == 1, (command, err)
        assert "are lost" in err and "-31 are lost" in err, (command, err)


def test_a_cut_game_file_says_so_and_names_its_backup(game, capsys):
    whole = game.read_bytes()
    for size in (0, 10, 99, 4096):
        game.write_bytes(whole[:size])
        Path(f"{game}-wal").unlink(missing_ok=True)
        code, _out, err = run("show", str(game), capsys=capsys)
        assert code == 2 and err.count("\n") == 1, err
        assert "cut short" in err and "friday-0000030.game" in err, err
        assert "not a Table Banker game" not in err


def test_a_game_of_the_previous_release_opens_and_is_upgraded_losing_nothing(tmp_path, capsys):
    """tests/fixtures/format1.game was made by the release before the chain (file format 1): Ann bought
    Boardwalk, Bob paid her $50 rent (undone, redone), the bank paid Bob $200."""
    path = tmp_path / "old.game"
    shutil.copy(FIXTURES / "format1.game", path)
    before_log = [json.loads(line) for line in (FIXTURES / "format1.log.jsonl").read_text().splitlines()]
    before_show = json.loads((FIXTURES / "format1.show.json").read_text())
    assert glance(path).problem is None  # a read-only look does not upgrade, and does not fail
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 1
    code, _out, err = run("log", str(path), "--json", capsys=capsys)
    assert code == 0, err
    assert [json.loads(line) for line in _out.splitlines()] == before_log
    code, _out, err = run("show", str(path), "--json", capsys=capsys)
    assert json.loads(_out) == before_show
    code, _out, err = run("check", str(path), capsys=capsys)
    assert code == 0, err
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == FORMAT
    assert con.execute("SELECT count(*) FROM entries WHERE hash IS NULL").fetchone()[0] == 0
    con.close()
    with Banker.open(path) as b:
        assert b.table["accounts"]["Ann"] == 1150 and b.version == 6
        b.do({"action": "transfer", "from": "bank", "to": "Ann", "amount": 1})
        with pytest.raises(sqlite3.DatabaseError):
            b.store.con.execute("UPDATE entries SET summary = 'x' WHERE seq = 1")  # still append-only
    code, _out, err = run("check", str(path), capsys=capsys)
    assert code == 0, err


def test_a_game_of_format_2_opens_keeps_its_chain_and_keeps_the_slots_of_what_is_logged_next(tmp_path, capsys):
    """tests/fixtures/format2.game was made by the release before sentences kept their slots (file
    format 2): the bank paid Ann $500, Ann paid Bob $50 (Bob's lunch), Cy went to jail. A look does not
    change it; opening it for writing adds the column, every hash stays as it was, and the next entry
    keeps its sentence's parts inside the chain."""
    path = tmp_path / "old.game"
    shutil.copy(FIXTURES / "format2.game", path)
    hashes = sqlite3.connect(path).execute("SELECT seq, hash FROM entries ORDER BY seq").fetchall()
    assert glance(path).problem is None
    assert sqlite3.connect(path).execute("PRAGMA user_version").fetchone()[0] == 2
    code, _out, err = run("check", str(path), capsys=capsys)
    assert code == 0, err
    with Banker.open(path, backup_every=0) as b:
        assert b.log()[2].summary == "Ann paid Bob $50 (Bob's lunch)"
        b.do({"action": "transfer", "from": "Bob", "to": "Ann", "amount": 5, "memo": "Ann's change"})
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == FORMAT == 3
    assert con.execute("SELECT seq, hash FROM entries WHERE seq <= 4 ORDER BY seq").fetchall() == hashes
    assert con.execute("SELECT count(*) FROM entries WHERE said IS NOT NULL").fetchone()[0] == 1
    kept = json.loads(con.execute("SELECT said FROM entries WHERE seq = 5").fetchone()[0])
    assert kept == [{"who": "Bob"}, " paid ", {"who": "Ann"}, " $5", " (", {"typed": "Ann's change"}, ")"]
    con.close()
    code, _out, err = run("check", str(path), capsys=capsys)
    assert code == 0, err


def test_opening_a_damaged_game_never_names_a_damaged_backup(game, capsys):
    """The newest backup is itself damaged: the one line names the newest good one instead."""
    backups = list_backups(game)
    tamper(backups[-1], "UPDATE entries SET summary = summary || '!' WHERE seq = 30")
    tamper(game, "UPDATE entries SET summary = summary || '!' WHERE seq = 28")
    code, _out, err = run("show", str(game), capsys=capsys)
    assert code == 2 and backups[-2].name in err and backups[-1].name not in err, err


def test_a_damaged_backup_is_refused_by_restore(game, capsys):
    backups = list_backups(game)
    tamper(backups[-1], "UPDATE entries SET summary = summary || '!' WHERE seq = 30")
    with pytest.raises(GameFileError):
        from companion.restore import restore

        restore(game, backups[-1])


def test_a_new_game_never_takes_an_earlier_games_backups_for_its_own(game, capsys):
    """Friday's file was deleted but its backups were kept: a new game of that name is refused, rather
    than opening later as a game that lost thirty entries."""
    game.unlink()
    code, _out, err = run("new", str(game), "--rules", "classic", "--player", "Ann", "--player", "Bob", capsys=capsys)
    assert code == 2 and "backups of an earlier game" in err
    assert [p.name for p in list_backups(game)] == ["friday-0000010.game", "friday-0000020.game", "friday-0000030.game"]


def test_the_games_list_describes_a_damaged_game_instead_of_failing(game):
    tamper(game, "UPDATE entries SET summary = summary || '!' WHERE seq = 29")
    seen = glance(game)
    assert seen.problem is not None and "entry 29 differs" in seen.problem


def test_a_damaged_game_never_pushes_good_backups_out_of_the_rotation(game):
    """Entry 31 is changed behind the game's back after the backup of entry 30: the next copy is refused
    (not kept, nothing rotated out), so the good backups stay. (A copy proves what it adds to the newest
    backup; damage older than that is found by `check` and by reading the log.)"""
    from companion.backups import Backups

    before = [p.name for p in list_backups(game)]
    tamper(game, "UPDATE entries SET summary = summary || '!' WHERE seq = 31")
    backups = Backups(game, every=0, keep=1)
    try:
        assert backups._copy() is None
    finally:
        backups.lull.close()
    assert "entry 31 differs" in (backups.last_error or "")
    assert [p.name for p in list_backups(game)] == before
    assert sorted(p.name for p in list_backups(game)[0].parent.iterdir()) == before
