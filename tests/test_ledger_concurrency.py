"""The ledger decides every action on the newest committed table, whoever wrote it.

Other programs write the same game (the phones' server, a `companion do` in a terminal), and two
Bankers may hold it in one process. Whatever they committed before an action is taken into account
before that action is decided, so nothing is refused, or accepted, on a table that is no longer true.
"""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from contextlib import closing

import pytest

from companion.cli import main
from companion.core.errors import Refused
from companion.service import SNAPSHOT_EVERY, Banker
from companion.store import Store


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "saturday.game"
    Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0).close()
    return path


def pay(payer: str, payee: str, amount: int, **extra) -> dict:
    return {"action": "transfer", "from": payer, "to": payee, "amount": amount, **extra}


def companion(*args: str) -> dict:
    """Run the real command in a child process and return its JSON answer (``--json``: for programs)."""
    done = subprocess.run(
        [sys.executable, "-m", "companion.cli", *args, "--json"], capture_output=True, text=True, check=True
    )
    return json.loads(done.stdout)


def test_a_batch_sees_a_payment_another_program_made_between_its_lines(game):
    """`companion do GAME -` decides each line on the game as it stands when the line arrives: Ann pays
    Bob $1,400, the phones' server pays Ann $500 meanwhile, and Ann's next $550 is accepted."""
    batch = subprocess.Popen(
        [sys.executable, "-m", "companion.cli", "do", str(game), "-", "--json"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        batch.stdin.write(json.dumps(pay("Ann", "Bob", 1400)) + "\n")
        batch.stdin.flush()
        first = json.loads(batch.stdout.readline())  # waits for the batch's answer to the first line
        assert first["summary"].startswith("Ann paid Bob $1,400")

        other = companion("do", str(game), json.dumps(pay("bank", "Ann", 500)))
        assert other["seq"] == first["seq"] + 1

        batch.stdin.write(json.dumps(pay("Ann", "Bob", 550)) + "\n")
        batch.stdin.close()
        second = json.loads(batch.stdout.readline())
        assert second["summary"].startswith("Ann paid Bob $550") and second["seq"] == other["seq"] + 1
        assert batch.wait(timeout=60) == 0, batch.stderr.read()
    finally:
        if batch.poll() is None:
            batch.kill()
            batch.wait()
        batch.stdout.close()
        batch.stderr.close()
    with Banker.open(game, backup_every=0) as b:
        assert b.table["accounts"]["Ann"] == 1500 - 1400 + 500 - 550
        assert b.verify() == []


def test_two_bankers_in_one_process_never_decide_on_an_old_table(game):
    """The touchscreen and the phones' server each hold the game: what one commits, the other decides on
    at once, whether that makes a payment possible or impossible."""
    with Banker.open(game, backup_every=0) as screen, Banker.open(game, backup_every=0) as phones:
        screen.do(pay("Ann", "Bob", 1400))  # Ann is down to $100
        phones.do(pay("bank", "Ann", 500))  # a phone's approved request: Ann has $600 now
        screen.do(pay("Ann", "Bob", 550))  # no refresh in between: still accepted
        assert screen.table["accounts"]["Ann"] == 50

        with pytest.raises(Refused, match=r"\$50"):  # the phones' Banker has not looked since
            phones.do(pay("Ann", "Bob", 500))
        assert phones.table == screen.table and phones.version == screen.version
        assert screen.verify() == [] and phones.verify() == []


def test_what_another_program_wrote_is_told_before_the_action_built_on_it(game):
    """Subscribers (the screen, the phones) hear the other program's payment first, then ours."""
    with Banker.open(game, backup_every=0) as screen, Banker.open(game, backup_every=0) as phones:
        heard = []
        screen.subscribe(lambda outcome: heard.append(outcome.entry.action))
        phones.do(pay("bank", "Ann", 500))
        screen.do({"action": "salary", "player": "Bob"})
        assert heard == [pay("bank", "Ann", 500), {"action": "salary", "player": "Bob"}]


def test_a_refused_action_still_brings_the_table_up_to_date(game):
    """Bob's tap is refused, but the payment another program made before it is on screen all the same."""
    with Banker.open(game, backup_every=0) as screen, Banker.open(game, backup_every=0) as phones:
        heard = []
        screen.subscribe(lambda outcome: heard.append(outcome.entry.action))
        phones.do(pay("bank", "Ann", 500))
        with pytest.raises(Refused):
            screen.do(pay("Bob", "Ann", 5000))
        assert screen.table["accounts"]["Ann"] == 2000 and heard == [pay("bank", "Ann", 500)]


def test_a_retried_buy_after_an_undo_says_it_was_undone(game):
    """Bob's phone asks to buy Park Place, the banker undoes it, and the phone retries the same request:
    the answer is the first outcome, marked as undone since; Bob keeps his $1,500 and nothing is bought."""
    with Banker.open(game, backup_every=0) as b:
        buy = {"action": "buy", "player": "Bob", "deed": "Park Place", "id": "phone-7"}
        first = b.do(buy)
        assert not first.undone and first.summary == "Bob bought Park Place for $350"
        b.undo()
        again = b.do(dict(buy))
        assert again.repeated and again.undone and again.entry.seq == first.entry.seq
        assert again.summary == "Bob bought Park Place for $350 (since undone)"
        assert b.table["accounts"]["Bob"] == 1500 and b.table["deeds"]["Park Place"].get("owner") is None
        assert b.earlier_outcome(buy).undone

        b.redo()  # back in force: a retry is an ordinary repeat again
        assert not b.do(dict(buy)).undone
        b.undo()  # undoing the redo takes the buy back once more
        assert b.do(dict(buy)).undone


def test_the_command_line_says_a_repeated_action_was_undone(game):
    """The same through `companion do`: the answer carries "undone": true and says "(since undone)"."""
    buy = json.dumps({"action": "buy", "player": "Bob", "deed": "Park Place", "id": "phone-7"})
    assert companion("do", str(game), buy)["undone"] is False
    assert main(["undo", str(game)]) == 0
    again = companion("do", str(game), buy)
    assert again["repeated"] is True and again["undone"] is True
    assert again["summary"] == "Bob bought Park Place for $350 (since undone)"


def test_undo_and_redo_always_name_the_action_itself(game):
    """Undo of a redo, redo of an undone redo: one prefix each, never "Undone: Redone: ..."."""
    with Banker.open(game, backup_every=0) as b:
        b.do({"action": "salary", "player": "Ann"})
        said = [b.undo().summary, b.redo().summary, b.undo().summary, b.redo().summary, b.undo().summary]
        assert said == ["Undone: Ann collected $200 salary", "Redone: Ann collected $200 salary"] * 2 + [
            "Undone: Ann collected $200 salary"
        ]
        assert b.next_redo().summary == "Ann collected $200 salary"  # what the redo button names
        assert b.redo().summary == "Redone: Ann collected $200 salary"
        assert b.table["accounts"]["Ann"] == 1700 and b.verify() == []
    with Banker.open(game, backup_every=0) as b:  # rebuilt from the log alone, the same words
        assert b.next_undo().summary == "Ann collected $200 salary"
        assert b.undo().summary == "Undone: Ann collected $200 salary"


@pytest.mark.slow
def test_the_snapshot_waits_for_a_pause_in_the_taps(tmp_path):
    """A long evening: the table is saved as a snapshot every few hundred entries, but not inside a tap's
    commit; it is written once the taps pause (here: when the game is flushed), and opening uses it."""
    path = tmp_path / "long.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0, backup_quiet=600) as b:
        for _ in range(SNAPSHOT_EVERY):
            b.do(pay("bank", "Ann", 1))
        with _readonly(path) as store:
            assert [seq for seq, _, _ in store.snapshots()] == [0]  # still waiting for a lull
        b.lull.flush()
        with _readonly(path) as store:
            assert [seq for seq, _, _ in store.snapshots()] == [0, SNAPSHOT_EVERY]
        expected = b.table
    with Banker.open(path, backup_every=0) as b:
        assert b.table == expected and b.verify() == []


def test_a_snapshot_lost_to_a_pulled_plug_is_made_again(tmp_path):
    """The plug was pulled before the snapshot was saved: opening replays the longer tail, and saves it."""
    path = tmp_path / "unplugged.game"
    with Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0) as b:
        for _ in range(SNAPSHOT_EVERY + 5):
            b.do(pay("bank", "Bob", 1))
    con = sqlite3.connect(path)
    con.execute("DELETE FROM snapshots WHERE seq > 0")  # as if the lull never came
    con.commit()
    con.close()
    with Banker.open(path, backup_every=0) as b:
        assert b.table["accounts"]["Bob"] == 1500 + SNAPSHOT_EVERY + 5
        version = b.version
    with _readonly(path) as store:
        assert [seq for seq, _, _ in store.snapshots()] == [0, version]


def _readonly(path) -> closing[Store]:
    """The game file read by another program, as the phones' server or a backup would."""
    return closing(Store.open(path, readonly=True))
