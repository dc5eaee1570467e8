"""No traceback from any damaged file: a seeded fuzz of flipped bits, cut files, edited entries and a
damaged -wal. Every command ends in "ok, and the same table" or one line that names the damage and the
backup to restore.

A few hundred cases run in the whole suite (a quarter of them in `make check`); ``FUZZ_CASES=5000`` (and
``FUZZ_SEED``) run more.
"""

from __future__ import annotations

import io
import json
import os
import random
import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from companion import service
from companion.backups import list_backups
from companion.cli import main
from companion.service import Banker
from tests.examples import examples

CASES = int(os.environ.get("FUZZ_CASES") or examples(300, least=60))  # a quarter in make check
SEED = int(os.environ.get("FUZZ_SEED", "2126"))
PAY = {"action": "transfer", "from": "bank", "to": "Bob", "amount": 7}


@dataclass
class Baseline:
    folder: Path
    game: Path  # every entry in the file itself
    wal_game: Path  # the last entries still in its -wal, as a pulled plug leaves it
    show: dict
    log: str
    export: str


def _run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    """The real command in this process; an exception escaping it (a traceback) fails the test."""
    import contextlib

    out, err = io.StringIO(), io.StringIO()
    saved = os.sys.stdin
    os.sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    finally:
        os.sys.stdin = saved
    return code, out.getvalue(), err.getvalue()


def _play(b: Banker, n: int, rng: random.Random) -> None:
    for _ in range(n):
        who = rng.choice(["Ann", "Bob"])
        b.do({"action": "transfer", "from": "bank", "to": who, "amount": rng.randint(1, 99)})
        b.backups.flush()


@pytest.fixture(scope="module")
def baseline(tmp_path_factory) -> Baseline:
    """Ann and Bob's evening: 45 entries, snapshots every 20 (so some entries come after the newest
    snapshot and some before), a backup every 10 entries."""
    folder = tmp_path_factory.mktemp("fuzz")
    rng = random.Random(SEED)
    game = folder / "evening.game"
    saved = service.SNAPSHOT_EVERY
    service.SNAPSHOT_EVERY = 20
    try:
        with Banker.create(game, "classic", ["Ann", "Bob"], backup_every=10, backup_quiet=0) as b:
            b.do({"action": "buy", "player": "Ann", "deed": "Boardwalk"})
            _play(b, 43, rng)
            b.lull.flush()
        # the same evening, copied while it is open with its last entries only in the -wal
        wal_game = folder / "plugged" / "evening.game"
        wal_game.parent.mkdir()
        with Banker.open(game, backup_every=0, backup_quiet=0) as b:
            b.store.con.execute("PRAGMA wal_autocheckpoint = 0")
            b.store.con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            _play(b, 12, rng)
            b.lull.flush()  # the head record names the last entry
            shutil.copy(game, wal_game)
            shutil.copy(f"{game}-wal", f"{wal_game}-wal")
            shutil.copy(f"{game}.head", f"{wal_game}.head")
            shutil.copytree(f"{game}.backups", f"{wal_game}.backups")
    finally:
        service.SNAPSHOT_EVERY = saved
    assert len(list_backups(game)) >= 3
    code, show, _ = _run(["show", str(game), "--json"])
    assert code == 0
    log, export = _run(["log", str(game), "--json"])[1], _run(["export", str(game), "--csv"])[1]
    return Baseline(folder, game, wal_game, json.loads(show), log, export)


def _fresh(base: Baseline, case: int, source: Path) -> Path:
    """A copy of ``source`` with its -wal, head record and backups, to damage."""
    folder = base.folder / f"case{case}"
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir()
    game = folder / "evening.game"
    for suffix in ("", "-wal", ".head"):
        if Path(f"{source}{suffix}").exists():
            shutil.copy(f"{source}{suffix}", f"{game}{suffix}")
    shutil.copytree(f"{source}.backups", f"{game}.backups")
    return game


def _flip(path: Path, rng: random.Random, start: int = 0) -> str:
    data = bytearray(path.read_bytes())
    at = rng.randrange(start, len(data))
    bit = rng.randrange(8)
    data[at] ^= 1 << bit
    path.write_bytes(bytes(data))
    return f"bit {bit} of byte {at} of {path.name}"


def _edit_entry(path: Path, rng: random.Random) -> str:
    """Change one digit inside one entry, as a hand edit or a bad sector would."""
    con = sqlite3.connect(path)
    try:
        con.execute("DROP TRIGGER IF EXISTS entries_append_only_u")
        seq = rng.randrange(1, con.execute("SELECT max(seq) FROM entries").fetchone()[0] + 1)
        column = rng.choice(["events", "action", "summary", "at", "said"])  # said: the summary's kept parts
        text = con.execute(f"SELECT {column} FROM entries WHERE seq = ?", (seq,)).fetchone()[0] or ""
        digits = [i for i, c in enumerate(text) if c.isdigit()]
        if not digits:
            return f"nothing to change in entry {seq}'s {column}"
        i = rng.choice(digits)
        new = str((int(text[i]) + rng.randrange(1, 10)) % 10)
        con.execute(f"UPDATE entries SET {column} = ? WHERE seq = ?", (text[:i] + new + text[i + 1 :], seq))
        con.commit()
    finally:
        con.close()
    return f"digit {i} of entry {seq}'s {column}"


def _damage(base: Baseline, case: int, rng: random.Random) -> tuple[Path, str]:
    kind = rng.choice(["flip", "flip", "cut", "cut-short", "edit", "wal"])
    if kind == "wal":
        game = _fresh(base, case, base.wal_game)
        return game, "wal " + _flip(Path(f"{game}-wal"), rng, start=32)  # past the -wal's own header
    game = _fresh(base, case, base.game)
    if kind == "flip":
        return game, _flip(game, rng)
    if kind == "cut":
        size = rng.randrange(0, game.stat().st_size)
        os.truncate(game, size)
        return game, f"cut to {size} bytes"
    if kind == "cut-short":
        size = rng.randrange(0, 101)
        os.truncate(game, size)
        return game, f"cut to {size} bytes"
    return game, _edit_entry(game, rng)


def _one_line_naming_the_backup(err: str, what: str) -> None:
    assert err.startswith("companion: ") and err.count("\n") == 1, f"{what}: {err!r}"
    line = err.lower()
    assert "damaged" in line or "not a table banker game" in line, f"{what}: {err!r}"
    assert "companion restore evening.game evening-" in err or "no backup" in line, f"{what}: {err!r}"


def test_no_damaged_file_makes_a_command_crash_or_show_another_table(baseline):
    rng = random.Random(SEED)
    outcomes = {"ok": 0, "refused": 0}
    for case in range(CASES):
        game, what = _damage(baseline, case, rng)
        g = str(game)
        code, out, err = _run(["show", g, "--json"])
        if code == 0:
            assert json.loads(out) == baseline.show, f"{what}: show gave another table"
            outcomes["ok"] += 1
        else:
            _one_line_naming_the_backup(err, what)
            outcomes["refused"] += 1
        code, out, err = _run(["check", g])
        if code == 0:  # "ok" means the same table, every entry as written
            assert _run(["show", g, "--json"])[1] and json.loads(_run(["show", g, "--json"])[1]) == baseline.show, what
            assert _run(["log", g, "--json"])[1] == baseline.log, f"{what}: check said ok, the log differs"
        else:
            assert err.startswith("companion: ") and "Traceback" not in err, f"{what}: {err!r}"
            for line in err.splitlines():
                assert "damaged" in line or "backup" in line, f"{what}: {line!r}"
        command = rng.choice(["log", "export", "do", "undo", "batch"])
        argv = {
            "log": ["log", g, "--json"],
            "export": ["export", g, "--csv"],
            "do": ["do", g, json.dumps(PAY)],
            "undo": ["undo", g],
            "batch": ["do", g, "-"],
        }[command]
        code, out, err = _run(argv, stdin=json.dumps(PAY) + "\n")
        if code == 0:
            if command == "log":
                assert out == baseline.log, f"{what}: log differs"
            elif command == "export":
                assert out == baseline.export, f"{what}: export differs"
        else:
            _one_line_naming_the_backup(err, f"{what} ({command})")
        shutil.rmtree(game.parent)
    assert outcomes["refused"] > CASES // 4  # the fuzz really damages games


def test_serve_and_run_refuse_a_damaged_game_in_one_line(baseline):
    rng = random.Random(SEED + 1)
    game = _fresh(baseline, 10_000, baseline.game)
    _edit_entry(game, rng)
    con = sqlite3.connect(game)
    con.execute("DROP TRIGGER IF EXISTS entries_append_only_u")
    con.execute("UPDATE entries SET summary = summary || '.' WHERE seq = (SELECT max(seq) FROM entries)")
    con.commit()
    con.close()
    for argv in (["serve", str(game), "--host", "127.0.0.1", "--port", "0", "--no-zeroconf"], ["run", str(game)]):
        code, out, err = _run(argv)
        assert code == 2 and out == "", argv
        _one_line_naming_the_backup(err, argv[0])
