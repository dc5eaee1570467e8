"""The `companion` command: the contract scripts and the other adapters rely on."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.cli import main


def companion(*args, stdin=None):
    """Run the real command in a child process; returns (exit code, stdout, stderr)."""
    p = subprocess.run([sys.executable, "-m", "companion.cli", *args], input=stdin, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "night.game"
    assert main(["new", str(path), "--rules", "classic", "--player", "Ann", "--player", "Bob:red"]) == 0
    return str(path)


def test_new_show_and_do(game, capsys):
    capsys.readouterr()
    assert main(["do", game, '{"action": "buy", "player": "ann", "deed": "BOARDWALK"}']) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["summary"] == "Ann bought Boardwalk for $400"
    assert out["events"][0] == {"type": "Paid", "from": "Ann", "to": "bank", "amount": 400, "memo": "bought Boardwalk"}
    assert main(["show", game, "--json"]) == 0
    state = json.loads(capsys.readouterr().out)
    assert state["rules"] == "classic" and state["version"] == 2
    ann = state["players"][0]
    assert (ann["name"], ann["cash"], ann["deeds"], ann["net_worth"]) == ("Ann", 1100, ["Boardwalk"], 1500)
    assert state["players"][1]["colour"] == "red"
    assert {"players", "pots", "deeds", "turn", "version", "rules"} <= set(state)
    assert main(["show", game]) == 0
    assert "Ann" in capsys.readouterr().out


@pytest.mark.parametrize(
    "action, code, reason",
    [
        ('{"action": "transfer", "from": "Ann", "to": "Bob", "amount": -5}', 2, "more than zero"),
        ('{"action": "transfer", "from": "Ann", "to": "Bob", "amount": 0}', 2, "more than zero"),
        ('{"action": "transfer", "from": "Ann", "to": "Bob", "amount": 2.5}', 2, "whole number"),
        ('{"action": "transfer", "from": "Ann", "to": "Bob", "amount": 1e300}', 2, "too large"),
        ('{"action": "transfer", "from": "Ann", "to": "Zed", "amount": 5}', 1, "no player called 'Zed'"),
        ('{"action": "buy", "player": "Ann", "deed": "Mayfair"}', 1, "no deed called 'Mayfair'"),
        ('{"action": "transfer", "from": "Ann", "to": "Bob", "amount": 9000}', 1, "Ann has $1,500 but needs $9,000"),
        ('{"action": "mortgage", "player": "Ann", "deed": "Boardwalk"}', 1, "belongs to the bank, not Ann"),
        ('{"action": "build", "player": "Ann", "deed": "Boardwalk"}', 1, "belongs to the bank"),
        ('{"action": "buy", "player": "Ann"', 2, "not valid JSON"),
        ('[1, 2]', 2, "JSON object"),
        ('{"action": "teleport"}', 2, "unknown action"),
    ],
)
def test_refusals_exit_with_the_right_code_and_one_line(game, action, code, reason):
    before = companion("show", game, "--json")[1]
    rc, out, err = companion("do", game, action)
    assert rc == code
    assert reason in err and err.count("\n") == 1 and out == ""
    assert companion("show", game, "--json")[1] == before


def test_buying_an_owned_deed_and_uneven_building(game):
    companion("do", game, '{"action": "buy", "player": "Ann", "deed": "Boardwalk"}')
    rc, _, err = companion("do", game, '{"action": "buy", "player": "Bob", "deed": "Boardwalk"}')
    assert rc == 1 and err.strip() == "companion: Boardwalk already belongs to Ann"
    companion("do", game, '{"action": "buy", "player": "Ann", "deed": "Park Place"}')
    companion("do", game, '{"action": "build", "player": "Ann", "deed": "Boardwalk"}')
    rc, _, err = companion("do", game, '{"action": "build", "player": "Ann", "deed": "Boardwalk"}')
    assert rc == 1 and "build evenly" in err
    companion("do", game, '{"action": "build", "player": "Ann", "deed": "Park Place"}')
    rc, _, err = companion("do", game, '{"action": "mortgage", "player": "Ann", "deed": "Park Place"}')
    assert rc == 1 and "sell the buildings" in err


def test_json_lines_from_standard_input_each_applied_on_its_own(game):
    lines = "\n".join([
        '{"action": "salary", "player": "Ann"}',
        '{"action": "buy", "player": "Ann", "deed": "Nowhere"}',
        '{"action": "salary", "player": "Bob"',
        '{"action": "salary", "player": "Bob"}',
    ])
    rc, out, err = companion("do", game, "-", stdin=lines)
    assert rc == 2
    assert len(out.splitlines()) == 2
    assert "line 2" in err and "line 3" in err
    state = json.loads(companion("show", game, "--json")[1])
    assert [p["cash"] for p in state["players"]] == [1700, 1700]


def test_undo_redo_log_and_export(game):
    companion("do", game, '{"action": "salary", "player": "Ann"}')
    rc, out, _ = companion("undo", game)
    assert rc == 0 and out.strip() == "Undone: Ann collected $200 salary"
    rc, out, _ = companion("redo", game)
    assert rc == 0 and out.strip() == "Redone: Ann collected $200 salary"
    rc, out, _ = companion("log", game, "--json")
    kinds = [json.loads(line)["kind"] for line in out.splitlines()]
    assert kinds == ["start", "do", "undo", "redo"]
    rc, out, _ = companion("export", game, "--csv")
    rows = out.splitlines()
    assert rows[0] == "seq,at,kind,summary,from,to,amount,memo"
    assert any(",bank,Ann,200,salary" in r for r in rows)


def test_rules_lists_the_packs():
    rc, out, _ = companion("rules")
    assert rc == 0 and "classic" in out and "bibleopoly" in out


def test_new_refuses_bad_options_and_existing_files(game, tmp_path):
    rc, _, err = companion("new", game, "--rules", "classic", "--player", "Cy", "--player", "Di")
    assert rc == 2 and "already exists" in err
    rc, _, err = companion("new", str(tmp_path / "x.game"), "--rules", "classic", "--player", "A", "--option", "jackpot=1")
    assert rc == 2 and "unknown option 'jackpot'" in err
    rc, _, err = companion("new", str(tmp_path / "y.game"), "--rules", "monopoly-junior", "--player", "A")
    assert rc == 2 and "unknown rules" in err
    rc, _, err = companion("new", str(tmp_path / "z.game"), "--rules", "classic", "--player", "Bank")
    assert rc == 2 and "cannot be a player's name" in err


def test_a_file_that_is_not_a_game(tmp_path):
    junk = tmp_path / "photo.game"
    junk.write_bytes(b"\x89PNG not a game")
    rc, _, err = companion("show", str(junk))
    assert rc == 2 and "not a Table Banker game" in err
    assert junk.read_bytes() == b"\x89PNG not a game"


def test_an_edited_pack_file_is_house_rules_as_data(tmp_path):
    from companion.rules.pack import PACK_DIR

    text = (PACK_DIR / "classic.toml").read_text().replace("salary = 200", "salary = 400")
    pack = tmp_path / "our-house.toml"
    pack.write_text(text)
    game = str(tmp_path / "house.game")
    assert companion("new", game, "--rules", str(pack), "--player", "Ann", "--player", "Bob")[0] == 0
    companion("do", game, '{"action": "salary", "player": "Ann"}')
    state = json.loads(companion("show", game, "--json")[1])
    assert state["players"][0]["cash"] == 1900


def test_deeds_lists_and_corrects_a_card(game):
    rc, out, _ = companion("deeds", game)
    assert rc == 0 and "Boardwalk" in out
    rc, out, _ = companion("deeds", game, "--set", "Boardwalk", "price=450")
    assert rc == 0 and "corrected Boardwalk" in out
    rc, _, err = companion("deeds", game, "--set", "Boardwalk", "rent=[1,2]")
    assert rc == 2 and "6 rents" in err
    rc, out, _ = companion("deeds", game, "--json")
    assert next(d for d in json.loads(out) if d["name"] == "Boardwalk")["price"] == 450
