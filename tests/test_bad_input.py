"""Bad input at the table: every one is refused with one clear line, and the game file stays byte for byte.

Exit codes of the `companion` command: 2 for malformed input, 1 for what a rule refuses.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pytest

from companion.core.errors import BankerError
from companion.service import Banker
from tests.command import companion, companion_process  # companion(): the command line in this process


def fingerprint(path: Path) -> dict[str, str]:
    """The bytes of the game file and of its write-ahead log, as a digest each (an empty log holds nothing)."""
    out = {}
    for suffix in ("", "-wal"):
        f = Path(f"{path}{suffix}")
        data = f.read_bytes() if f.exists() else b""
        out[suffix or "game"] = hashlib.sha256(data).hexdigest() if data else "nothing"
    return out


@pytest.fixture
def game(tmp_path: Path) -> Path:
    path = tmp_path / "friday.game"
    rc, _, err = companion("new", str(path), "--rules", "classic", "--player", "Ann", "--player", "Bob")
    assert rc == 0, err
    return path


def refused_cleanly(game: Path, *args: str | bytes, code: int, says: str, stdin: bytes | None = None) -> str:
    before = fingerprint(game)
    rc, out, err = companion(*args, stdin=stdin)
    assert rc == code, err
    assert err.startswith("companion: ") and err.count("\n") == 1, err[:300]
    assert len(err) <= len("companion: ") + 200 + 1
    assert says in err, err
    assert fingerprint(game) == before
    return err


def test_json_nested_a_hundred_thousand_deep_is_malformed(game):
    deep = ("[" * 100_000 + "]" * 100_000).encode()
    refused_cleanly(game, "do", str(game), "-", code=2, says="at most", stdin=deep + b"\n")


def test_json_nested_deeper_than_any_action_is_malformed(game):
    deep = '{"action": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "memo": %s}' % ("[" * 50 + "]" * 50)
    refused_cleanly(game, "do", str(game), deep, code=2, says="nested deeper than")


def test_a_memo_with_a_broken_character_is_refused(game):
    action = '{"action": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "memo": "lunch \\ud800"}'
    refused_cleanly(game, "do", str(game), action, code=2, says="lone surrogate")


def test_an_action_id_with_a_broken_character_is_refused(game):
    action = '{"action": "salary", "player": "Ann", "id": "tap-\\udc00"}'
    refused_cleanly(game, "do", str(game), action, code=2, says="id")


def test_a_player_name_in_bytes_that_are_not_utf8_is_refused(tmp_path):
    path = tmp_path / "bytes.game"
    # bytes as the shell hands them to a program (the interpreter decodes its own arguments)
    rc, _, err = companion_process(
        "new", str(path), "--rules", "classic", "--player", b"\xff\xfeAnn", "--player", "Bob"
    )
    assert rc == 2 and err.count("\n") == 1 and "broken character" in err
    assert not path.exists()


def test_a_game_file_name_longer_than_the_file_system_allows(tmp_path):
    path = tmp_path / ("g" * 300 + ".game")
    rc, _, err = companion("new", str(path), "--rules", "classic", "--player", "Ann", "--player", "Bob")
    assert rc == 2 and err.count("\n") == 1 and "too long" in err


def test_an_immutable_game_file_is_refused_for_one_action_and_a_batch(game):
    if shutil.which("chattr") is None or subprocess.run(["chattr", "+i", str(game)], capture_output=True).returncode:
        pytest.skip("this file system cannot mark a file immutable")
    try:
        refused_cleanly(
            game, "do", str(game), '{"action": "salary", "player": "Ann"}', code=2, says="cannot be written"
        )
        refused_cleanly(
            game,
            "do",
            str(game),
            "-",
            code=2,
            says="cannot be written",
            stdin=b'{"action": "salary", "player": "Ann"}\n',
        )
    finally:
        subprocess.run(["chattr", "-i", str(game)], check=True)


def test_a_read_only_game_file_is_refused_for_a_reader_without_rights(game, tmp_path):
    os.chmod(game, 0o444)
    try:
        if os.geteuid() == 0:  # root may write anyway: the game then simply goes on
            rc, _, err = companion("do", str(game), '{"action": "salary", "player": "Ann"}')
            assert rc == 0, err
        else:
            refused_cleanly(
                game, "do", str(game), '{"action": "salary", "player": "Ann"}', code=2, says="cannot be written"
            )
    finally:
        os.chmod(game, 0o644)


@pytest.mark.parametrize("amount", ['"' + "9" * 5000 + '"', "9" * 5000])
def test_an_amount_with_five_thousand_digits_is_refused(game, amount):
    action = '{"action": "transfer", "from": "Ann", "to": "Bob", "amount": %s}' % amount
    refused_cleanly(game, "do", str(game), action, code=2, says="too long")


def test_a_player_called_pot_with_a_colour_that_is_none_is_refused(tmp_path):
    rc, _, err = companion(
        "new", str(tmp_path / "p.game"), "--rules", "classic", "--player", "pot:x", "--player", "Bob"
    )
    assert rc == 2 and "not a player colour" in err


@pytest.mark.parametrize("name", ["Bank", "BANK", "ｂａｎｋ", "everyone"])
def test_reserved_names_are_refused_whatever_the_spelling(tmp_path, name):
    rc, _, err = companion("new", str(tmp_path / "r.game"), "--rules", "classic", "--player", name, "--player", "Bob")
    assert rc == 2 and "cannot be a player's name" in err, err


@pytest.mark.parametrize("name", ["pot:lottery", "Pot: Free Parking", "POT:x"])
def test_a_pot_s_name_is_no_player_s_name(tmp_path, name):
    with pytest.raises(BankerError, match="cannot be a player's name"):
        Banker.create(tmp_path / "pots.game", "classic", [{"name": name}, {"name": "Bob"}])
    assert not (tmp_path / "pots.game").exists()


def test_two_names_the_same_under_case_folding_are_refused(tmp_path):
    rc, _, err = companion(
        "new", str(tmp_path / "s.game"), "--rules", "classic", "--player", "Straße", "--player", "STRASSE"
    )
    assert rc == 2 and "two players are called" in err


def test_straße_is_found_when_the_banker_types_strasse(tmp_path):
    with Banker.create(tmp_path / "s.game", "classic", ["Straße", "Bob"]) as b:
        assert b.do({"action": "salary", "player": "STRASSE"}).summary == "Straße collected $200 salary"


@pytest.mark.parametrize("name", ["", "   ", "\u200b", "\u200b\u200d", "\u202e"])
def test_names_that_are_empty_or_invisible_are_refused(tmp_path, name):
    rc, _, err = companion("new", str(tmp_path / "e.game"), "--rules", "classic", "--player", name, "--player", "Bob")
    assert rc == 2 and err.count("\n") == 1, err


def test_a_ten_megabyte_memo_is_refused_not_stored(game):
    memo = "x" * 10_000_000
    action = json.dumps({"action": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "memo": memo}).encode()
    err = refused_cleanly(game, "do", str(game), "-", code=2, says="at most", stdin=action + b"\n")
    assert len(err) < 250


def test_a_ten_megabyte_deed_name_gets_a_one_line_reason(tmp_path):
    with Banker.create(tmp_path / "big.game", "classic", ["Ann", "Bob"]) as b:
        before = b.version
        with pytest.raises(BankerError) as caught:
            b.do({"action": "buy", "player": "Ann", "deed": "B" * 10_000_000})
        assert len(str(caught.value)) <= 200 and "\n" not in str(caught.value)
        assert b.version == before


def test_a_memo_over_the_limit_is_refused_never_cut(tmp_path):
    with Banker.create(tmp_path / "memo.game", "classic", ["Ann", "Bob"]) as b:
        with pytest.raises(BankerError, match="at most 120"):
            b.do({"action": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "memo": "m" * 121})
        assert b.do(
            {"action": "transfer", "from": "Ann", "to": "Bob", "amount": 5, "memo": "m" * 120}
        ).summary.endswith("m)")


@pytest.mark.parametrize("rules,low", [("classic", 2), ("greenopoly", 2), ("game-of-life", 2)])
def test_a_game_for_one_player_is_refused_by_the_packs_rule(tmp_path, rules, low):
    rc, _, err = companion("new", str(tmp_path / "one.game"), "--rules", rules, "--player", "Ann")
    assert rc == 2 and f"takes {low} to" in err


def test_a_greenopoly_game_for_seven_players_is_refused(tmp_path):
    players = [arg for name in "ABCDEFG" for arg in ("--player", f"P{name}")]
    rc, _, err = companion("new", str(tmp_path / "seven.game"), "--rules", "greenopoly", *players)
    assert rc == 2 and "takes 2 to 6 players, not 7" in err


def test_a_game_file_cut_off_mid_page_says_damaged_and_names_the_backup(tmp_path):
    path = tmp_path / "cut.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=1, backup_quiet=0) as b:
        for _ in range(5):
            b.do({"action": "salary", "player": "Ann"})
    con = sqlite3.connect(path)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.close()
    data = path.read_bytes()
    path.write_bytes(data[: len(data) // 2 + 100])
    rc, _, err = companion("show", str(path))
    assert rc == 2 and err.count("\n") == 1
    assert "damaged" in err and "companion restore" in err and "not a Table Banker game" not in err
    assert "backup" in err
