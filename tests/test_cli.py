"""The `companion` command: the contract scripts and the other adapters rely on."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from companion.cli import main
from tests.command import companion, companion_process  # companion(): the command line in this process


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "night.game"
    assert main(["new", str(path), "--rules", "classic", "--player", "Ann", "--player", "Bob:red"]) == 0
    return str(path)


def test_new_show_and_do(game, capsys):
    capsys.readouterr()
    assert main(["do", game, '{"action": "buy", "player": "ann", "deed": "BOARDWALK"}', "--json"]) == 0
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
        ("[1, 2]", 2, "JSON object"),
        ('{"action": "teleport"}', 2, "unknown action"),
    ],
)
def test_refusals_exit_with_the_right_code_and_one_line(game, action, code, reason):
    before = companion("show", game, "--json")[1]
    rc, out, err = companion("do", game, action)
    assert rc == code
    assert reason in err and err.count("\n") == 1 and out == ""
    assert companion("show", game, "--json")[1] == before


def test_the_program_answers_the_shell_with_the_same_exit_codes(game):
    """The same refusals as a program of its own: the shell sees 0, 1 and 2, and the reason on stderr."""
    assert companion_process("do", game, '{"action": "salary", "player": "Ann"}')[0] == 0
    rc, out, err = companion_process("do", game, '{"action": "transfer", "from": "Ann", "to": "Zed", "amount": 5}')
    assert (rc, out, err) == (1, "", "companion: there is no player called 'Zed' in this game\n")
    rc, out, err = companion_process("do", game, "teleport", "--player", "Ann")
    assert rc == 2 and out == "" and "unknown action" in err and err.count("\n") == 1


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
    lines = "\n".join(
        [
            '{"action": "salary", "player": "Ann"}',
            '{"action": "buy", "player": "Ann", "deed": "Nowhere"}',
            '{"action": "salary", "player": "Bob"',
            '{"action": "salary", "player": "Bob"}',
        ]
    )
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
    for form in ((), ("--csv",)):  # CSV is the default; --csv still says so
        rc, out, _ = companion("export", game, *form)
        rows = out.splitlines()
        assert rc == 0 and rows[0] == "seq,at,kind,summary,from,to,amount,memo"
        assert any(",bank,Ann,200,salary" in r for r in rows)
    rc, out, _ = companion("export", game, "--json")
    events = json.loads(out)
    assert {
        "seq": 2,
        "kind": "do",
        "type": "Paid",
        "from": "bank",
        "to": "Ann",
        "amount": 200,
        "memo": "salary",
    }.items() <= next(e for e in events if e["seq"] == 2).items()


def test_rules_lists_the_packs():
    rc, out, _ = companion("rules")
    assert rc == 0 and "classic" in out and "bibleopoly" in out


def test_new_refuses_bad_options_and_existing_files(game, tmp_path):
    rc, _, err = companion("new", game, "--rules", "classic", "--player", "Cy", "--player", "Di")
    assert rc == 2 and "already exists" in err
    rc, _, err = companion(
        "new", str(tmp_path / "x.game"), "--rules", "classic", "--player", "A", "--option", "jackpot=1"
    )
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


def test_a_pack_file_edited_again_is_read_again_and_each_game_gets_its_own_copy(tmp_path):
    """The house raises the salary to 400, starts a game, then to 500 (the same length of file) for the
    next: each game takes the file as it was when it began, and a change to one game's pack is its own."""
    import os

    from companion.rules.pack import PACK_DIR, load_pack

    pack = tmp_path / "our-house.toml"
    pack.write_text((PACK_DIR / "classic.toml").read_text().replace("salary = 200", "salary = 400"))
    first = load_pack(str(pack))
    first["salary"] = 1
    assert load_pack(str(pack))["salary"] == 400 and load_pack("classic")["salary"] == 200
    written = pack.stat().st_mtime_ns
    pack.write_text((PACK_DIR / "classic.toml").read_text().replace("salary = 200", "salary = 500"))
    os.utime(pack, ns=(written + 1_000_000, written + 1_000_000))  # a clock that barely moved
    assert load_pack(str(pack))["salary"] == 500


def test_deeds_lists_and_corrects_a_card(game):
    rc, out, _ = companion("deeds", game)
    assert rc == 0 and "Boardwalk" in out
    rc, out, _ = companion("deeds", game, "--set", "Boardwalk", "price=450")
    assert rc == 0 and "corrected Boardwalk" in out
    rc, _, err = companion("deeds", game, "--set", "Boardwalk", "rent=[1,2]")
    assert rc == 2 and "6 rents" in err
    rc, out, _ = companion("deeds", game, "--json")
    assert next(d for d in json.loads(out) if d["name"] == "Boardwalk")["price"] == 450


# -- the command reads like the tools people know ----------------------------------------------------
def test_the_version_is_the_installed_one():
    from importlib.metadata import version

    rc, out, _ = companion_process("--version")  # the entry point and the installed metadata
    assert rc == 0 and out.strip() == f"companion {version('table-banker')}"


def test_an_action_as_a_subcommand_is_the_same_as_its_json(game, tmp_path):
    """Bob lands on Ann's Boardwalk: rent given as options moves the same money as rent given as JSON."""
    import shutil

    twin = str(tmp_path / "twin.game")
    companion("do", game, "buy", "--player", "Ann", "--deed", "Boardwalk")
    shutil.copy(game, twin)
    rc, out, err = companion("do", game, "rent", "--payer", "Bob", "--deed", "Boardwalk", "--json")
    assert rc == 0, err
    by_options = json.loads(out)
    by_json = json.loads(companion("do", twin, '{"action": "rent", "payer": "Bob", "deed": "Boardwalk"}', "--json")[1])
    assert (
        by_options["events"]
        == by_json["events"]
        == [{"type": "Paid", "from": "Bob", "to": "Ann", "amount": 50, "memo": "rent for Boardwalk"}]
    )
    rc, out, _ = companion("do", game, "rent", "--payer", "Bob", "--deed", "Boardwalk")
    assert rc == 0 and out == "Bob paid Ann $50 rent for Boardwalk\n"  # text for people by default


def test_options_of_every_kind_reach_the_contract(game):
    """Repeated deeds, yes/no flags, an idempotency id: the options say what the JSON says."""
    companion("do", game, "buy", "--player", "Ann", "--deed", "Boardwalk", "--id", "ann-boardwalk")
    rc, out, _ = companion("do", game, "buy", "--player", "Ann", "--deed", "Boardwalk", "--id", "ann-boardwalk")
    assert rc == 0 and out.startswith("Already applied under this id: Ann bought Boardwalk")
    rc, _, err = companion("do", game, "rent", "--payer", "Bob")
    assert rc == 2 and err == "companion: rent needs deed\n"
    rc, _, err = companion("do", game, "rent", "--payer", "Bob", "--deed", "Boardwalk", "--colour", "red")
    assert rc == 2 and "unrecognized arguments: --colour red" in err and err.count("\n") == 1
    rc, _, err = companion("do", game, "teleport", "--player", "Ann")
    assert rc == 2 and "unknown action" in err


def test_an_actions_help_lists_its_fields_kinds_and_choices_on_this_game(game):
    companion("do", game, "buy", "--player", "Ann", "--deed", "Boardwalk")
    rc, out, _ = companion("do", game, "rent", "--help")
    assert rc == 0
    assert f"usage: companion do {game} rent" in out
    assert "--payer PLAYER" in out and "(player: a player in the game, by name)" in " ".join(out.split())
    assert "now: Ann, Bob" in " ".join(out.split())  # who may pay
    assert "--dice N" in out and "optional" in out
    assert f"example:\n  companion do {game} rent --payer Bob --deed Boardwalk" in out
    rc, out, _ = companion("do", game, "rent", "--payer", "Bob", "--help")
    assert "now: Boardwalk" in " ".join(out.split())  # the only deed Bob could pay rent on


def test_preview_says_from_and_to_as_the_events_do(game):
    companion("do", game, "buy", "--player", "Ann", "--deed", "Boardwalk")
    rc, out, _ = companion("preview", game, "rent", "--payer", "Bob", "--deed", "Boardwalk")
    assert rc == 0 and out.splitlines() == [
        "Bob paid Ann $50 rent for Boardwalk",
        "  $50 from Bob to Ann (rent for Boardwalk)",
    ]
    rc, out, _ = companion("preview", game, '{"action": "rent", "payer": "Bob", "deed": "Boardwalk"}', "--json")
    assert json.loads(out)["postings"] == [{"from": "Bob", "to": "Ann", "amount": 50, "memo": "rent for Boardwalk"}]
    state = json.loads(companion("show", game, "--json")[1])
    assert [p["cash"] for p in state["players"]] == [1100, 1500]  # nothing written


def test_data_is_where_relative_game_paths_are(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    rc, _, err = companion(
        "--data", str(games), "new", "friday.game", "--rules", "classic", "--player", "Ann", "--player", "Bob"
    )
    assert rc == 0, err
    assert (games / "friday.game").exists()
    assert companion("--data", str(games), "do", "friday.game", "salary", "--player", "Ann")[0] == 0
    rc, out, _ = companion("--data", str(games), "show", "friday.game", "--json")
    assert json.loads(out)["players"][0]["cash"] == 1700
    rc, out, _ = companion("show", str(games / "friday.game"), "--json")  # an absolute path stays as it is
    assert json.loads(out)["players"][0]["cash"] == 1700


def test_backups_says_when_there_are_none(game):
    rc, out, _ = companion("backups", game)
    assert rc == 0 and out.startswith(f"no backups of {game} yet")
    rc, out, _ = companion("backups", game, "--json")
    assert rc == 0 and json.loads(out) == []


def test_every_command_answers_json_for_programs(game):
    assert json.loads(companion("rules", "--json")[1])[0]["name"]
    assert json.loads(companion("check", game, "--json")[1]) == {"game": game, "ok": True, "problems": []}
    assert json.loads(companion("do", game, "salary", "--player", "Ann", "--json")[1])["summary"]
    assert json.loads(companion("undo", game, "--json")[1])["kind"] == "undo"
    assert json.loads(companion("deeds", game, "--json")[1])
    assert json.loads(companion("actions", game, "--json")[1])[0]["properties"]["action"]
    from pathlib import Path

    from companion.store import backup_copy

    kept = Path(game).with_name("kept.game")
    backup_copy(Path(game), kept)
    restored = json.loads(companion("restore", game, str(kept), "--json")[1])
    assert restored["game"] == game and restored["backup"] == str(kept) and restored["said"].startswith("restored")
    fresh = json.loads(
        companion(
            "new",
            str(kept.with_name("fresh.game")),
            "--rules",
            "classic",
            "--player",
            "Ann",
            "--player",
            "Bob",
            "--json",
        )[1]
    )
    assert fresh["players"] == [{"name": "Ann", "cash": 1500}, {"name": "Bob", "cash": 1500}]


def _subcommands():
    from companion.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    return sub.choices


@pytest.mark.parametrize("name", sorted(_subcommands()))
def test_every_commands_help_says_what_it_takes_with_an_example(name):
    rc, out, err = companion(name, "--help")
    assert rc == 0, err
    assert out.startswith(f"usage: companion {name}"), out[:80]
    assert "example" in out.lower() or "examples" in out.lower()
    head = out.split("\n\n")[1]  # the sentence under the usage
    assert not head.lstrip().startswith(("positional arguments", "options")), f"{name} --help says nothing: {out}"


@pytest.mark.slow  # every example a command of its own
def test_readmes_examples_run_as_written(tmp_path):
    """Every line of the README's command block runs as written (those that open a window, serve the
    phones or need the trading unit's pins are shown there but started by tests/gui, tests/web and
    tests/deploy instead)."""
    import os
    import re
    import shlex
    from pathlib import Path

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    block = readme.split("## The `companion` command", 1)[1].split("```sh\n", 1)[1].split("```", 1)[0]
    lines = [line for line in block.splitlines() if line.strip()]
    bin_dir, home, work = tmp_path / "bin", tmp_path / "home", tmp_path / "work"
    for d in (bin_dir, home / "games", work):
        d.mkdir(parents=True)
    (bin_dir / "companion").write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m companion "$@"\n')
    (bin_dir / "companion").chmod(0o755)
    here = str(Path(__file__).resolve().parent.parent)
    env = {
        **os.environ,
        "PATH": f"{bin_dir}:{os.environ['PATH']}",
        "HOME": str(home),
        "PYTHONPATH": os.pathsep.join(filter(None, [here, os.environ.get("PYTHONPATH")])),
    }
    ran = 0
    for line in lines:
        command = line.split("#", 1)[0].strip() if " #" in line else line
        if re.match(r"companion (run|serve|hw-check)\b", command):
            continue
        if command.startswith("companion restore "):  # a backup as the app would have taken it
            from companion.store import backup_copy

            target = work / shlex.split(command)[3]
            target.parent.mkdir(exist_ok=True)
            backup_copy(work / "friday.game", target)
        done = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"{line}\n{done.stderr}"
        ran += 1
    assert ran >= 15
    assert (home / "games" / "saturday.game").exists()
    assert (work / "friday.csv").read_text().startswith("seq,at,kind,summary,from,to,amount,memo")


def test_usb_backup_help_names_the_command_people_type():
    rc, out, _ = companion("usb-backup", "--help")
    assert rc == 0 and out.startswith("usage: companion usb-backup")
