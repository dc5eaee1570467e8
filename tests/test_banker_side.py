"""The Banker's own work for one action, made smaller, decides and records exactly as before.

Under the write lock the Banker reads other programs' entries only when the file's data version says
one committed; the chain's head is recorded by a job the lull keeps rather than one asked for at every
commit; the new entry and its outcome are made in one step each.
"""

from __future__ import annotations

import threading

import pytest

from companion.core import engine
from companion.core.errors import Refused
from companion.lull import Lull
from companion.service import Banker, Outcome
from companion.store import Entry


def pay(payer: str, payee: str, amount: int) -> dict:
    return {"action": "transfer", "from": payer, "to": payee, "amount": amount}


@pytest.fixture
def game(tmp_path):
    path = tmp_path / "friday.game"
    Banker.create(path, "classic", ["Ann", "Bob"], backup_every=0).close()
    return path


def test_bob_pays_ann_from_the_terminal_right_after_the_table_looked_and_the_table_knows(game):
    with Banker.open(game) as table, Banker.open(game) as terminal:
        table.do(pay("Ann", "bank", 1400))  # Ann keeps $100
        assert not table.refresh()  # the table has just looked: nothing new
        terminal.refresh()
        terminal.do(pay("Bob", "Ann", 500))  # written by another program after that look
        outcome = table.do(pay("Ann", "Bob", 550))  # decided on $600, not on the $100 it last saw
        assert table.table["accounts"]["Ann"] == 50
        assert [entry.seq for entry in table.log()] == [1, 2, 3, 4]
        assert outcome.entry.seq == 4


def test_ann_is_refused_on_the_table_as_it_stands_when_the_terminal_took_her_money(game):
    with Banker.open(game) as table, Banker.open(game) as terminal:
        terminal.do(pay("Ann", "bank", 1400))
        with pytest.raises(Refused, match=r"Ann has \$100 but needs \$500"):
            table.do(pay("Ann", "Bob", 500))
        assert table.version == 2 and table.table["accounts"]["Ann"] == 100


def test_ann_pays_bob_at_the_table_just_after_the_terminal_paid_her_and_both_payments_stand(game):
    told: list[tuple[int, bool]] = []
    with Banker.open(game) as table, Banker.open(game) as terminal:
        table.subscribe(lambda outcome: told.append((outcome.version, outcome.elsewhere)))
        terminal.do(pay("Bob", "Ann", 500))  # entry 2, which the table has not read yet
        outcome = table.do(pay("Ann", "Bob", 10))  # yes on either table: its number tells it to read first
        assert outcome.entry.seq == 3 and table.version == 3
        assert table.table["accounts"] == table.replay()["accounts"]
        assert table.table["accounts"]["Ann"] == 1500 + 500 - 10
    assert told == [(2, True), (3, False)]  # the terminal's entry is told first, as another program's


def test_a_catch_up_cut_short_is_read_again_before_the_next_decision(game, monkeypatch):
    with Banker.open(game) as table, Banker.open(game) as terminal:
        terminal.do(pay("Bob", "Ann", 500))
        fold = engine.fold
        broken = {"once": True}

        def fails_once(t, events):
            if broken.pop("once", False):
                raise OSError("the disk hiccuped")
            return fold(t, events)

        monkeypatch.setattr(engine, "fold", fails_once)
        with pytest.raises(OSError):
            table.refresh()  # the file's version was read, its entries not folded in
        assert table.version == 1
        table.do(pay("Ann", "Bob", 1800))  # $2,000 only with Bob's $500 taken into account
        assert table.table["accounts"]["Ann"] == 200 and table.version == 3


def test_the_new_entry_and_its_outcome_are_the_ones_the_constructors_make():
    made = Entry.appended(7, "do", None, pay("Ann", "Bob", 5), [], "Ann paid Bob $5", None, "2026-11-27T14:05:25+00:00")
    assert made == Entry(7, "do", None, pay("Ann", "Bob", 5), [], "Ann paid Bob $5", None, "2026-11-27T14:05:25+00:00")
    assert made.hash is None and made.said is None and made.kept is None
    with pytest.raises(AttributeError):
        made.seq = 8  # type: ignore[misc]
    assert Outcome.of(made) == Outcome(made, 7)
    assert Outcome.of(made).as_json() == Outcome(made, 7).as_json()


def test_a_phone_that_stops_listening_while_an_entry_is_told_leaves_the_others_told(game):
    heard: list[str] = []
    with Banker.open(game) as table:
        stop_first = None

        def first(outcome):
            heard.append("first")
            assert stop_first is not None
            stop_first()

        stop_first = table.subscribe(first)
        table.subscribe(lambda outcome: heard.append("second"))
        table.do(pay("Ann", "Bob", 1))
        table.do(pay("Ann", "Bob", 1))
    assert heard == ["first", "second", "second"]


def test_the_chain_head_is_recorded_in_the_lull_after_ann_pays_bob(game):
    from companion.head_record import read_head

    with Banker.open(game, backup_quiet=0.05) as table:
        table.do(pay("Ann", "Bob", 10))
        table.do(pay("Ann", "Bob", 10))
        table.lull.flush()
        assert read_head(game) == (3, table.store.stored_hash(3))


def test_a_kept_job_runs_once_in_the_lull_after_touches_and_never_without_one():
    runs: list[int] = []
    ran = threading.Event()
    lull = Lull(quiet=0.05)
    try:
        lull.keep("head", lambda: (runs.append(1), ran.set()))
        assert not ran.wait(0.2)  # nothing was committed: nothing to record
        for _ in range(5):
            lull.touch()
        lull.flush()
        assert runs == [1]  # five commits, one record in the lull after them
        lull.touch()
        lull.flush()
        assert runs == [1, 1]
    finally:
        lull.close()


def test_a_kept_job_touched_and_then_closed_runs_at_close():
    runs: list[int] = []
    lull = Lull(quiet=60)  # no lull would come for a minute
    lull.keep("head", lambda: runs.append(1))
    lull.touch()
    lull.close()
    assert runs == [1]
    lull.touch()  # closed: a touch now runs it here
    assert runs == [1, 1]


def test_a_kept_job_with_no_quiet_runs_at_once_after_a_touch():
    ran = threading.Event()
    lull = Lull(quiet=0)
    try:
        lull.keep("head", ran.set)
        lull.touch()
        assert ran.wait(5)
    finally:
        lull.close()


def test_an_entry_of_a_kind_the_log_does_not_hold_is_refused_and_nothing_is_written(game):
    """The schema's CHECK on an entry's kind is held by the Store itself on its own connection."""
    with Banker.open(game) as table:
        with pytest.raises(ValueError, match="an entry's kind is one of start, do, undo, redo"):
            with table.store.writing():
                table.store.append(seq=2, kind="oops", action={"action": "x"}, events=[], summary="x", at="now")
        assert table.store.last_seq() == 1


def test_another_program_still_has_sqlite_check_an_entrys_kind(game):
    import sqlite3

    con = sqlite3.connect(game)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="CHECK constraint failed"):
            con.execute(
                "INSERT INTO entries (seq, kind, action, events, summary, at) VALUES (2, 'oops', '{}', '[]', 'x', 'now')"
            )
    finally:
        con.close()


def test_ann_pays_bob_with_and_without_an_id_and_an_undo_names_its_target_each_column_as_written(game):
    """An entry's INSERT leaves out the columns it has no value for: they read NULL, the others as given."""
    import sqlite3

    with Banker.open(game) as table:
        table.do(pay("Ann", "Bob", 5))
        table.do({**pay("Ann", "Bob", 6), "id": "tap-1"})
        table.undo()
    con = sqlite3.connect(game)
    try:
        rows = con.execute(
            "SELECT seq, kind, action_id, summary, target, said IS NULL FROM entries WHERE seq > 1"
        ).fetchall()
    finally:
        con.close()
    assert rows == [
        (2, "do", None, "Ann paid Bob $5", None, 0),
        (3, "do", "tap-1", "Ann paid Bob $6", None, 0),
        (4, "undo", None, "Undone: Ann paid Bob $6", 3, 1),
    ]


def test_ann_pays_bob_and_the_books_are_checked_where_the_money_moved():
    """A payment of a whole number moves as much out as in: only the two accounts it touched are looked
    at. A rule that sets an account directly, or pays a fraction, has the whole table checked."""
    table = {"accounts": {"bank": -3000, "Ann": 1495, "Bob": 1505, "pot:lottery": 0}}
    paid = [{"type": "Paid", "from": "Ann", "to": "Bob", "amount": 5, "memo": ""}]
    turn = [{"type": "Changed", "path": ["turn", "index"], "old": 0, "new": 1}]
    engine.check_conservation(table, paid + turn)  # sound
    overdrawn = {"accounts": {"bank": -3000, "Ann": -5, "Bob": 3005}}
    with pytest.raises(AssertionError, match="Ann would hold -5"):
        engine.check_conservation(overdrawn, [{**paid[0], "amount": 1500}])
    minted = {"accounts": {"bank": -3000, "Ann": 1600, "Bob": 1500}}  # $100 from nowhere
    set_directly = [{"type": "Changed", "path": ["accounts", "Ann"], "old": 1500, "new": 1600}]
    with pytest.raises(AssertionError, match="money was created or destroyed"):
        engine.check_conservation(minted, set_directly)
    with pytest.raises(AssertionError, match="money was created or destroyed"):
        engine.check_conservation(minted, [{**paid[0], "amount": 0.5}])
    with pytest.raises(AssertionError, match="money was created or destroyed"):
        engine.check_conservation(minted)  # no events: the whole table, as always


def test_a_sentences_parts_written_out_are_the_logged_ones_and_a_copy_taken_is_its_own():
    from companion.core.said import Said, Typed, Who, named

    said = Said(named("Ann"), " paid ", Who("Bob", "is", whose=True), " (", Typed("rent"), ")")
    logged = [
        {"who": "Ann"},
        " paid ",
        {"who": "Bob", "verb": "is", "you": "are", "whose": True},
        " (",
        {"typed": "rent"},
        ")",
    ]
    assert said.logged() == said.as_log() == logged
    copy = said.as_log()
    copy[0]["who"] = "Cy"  # a copy changed by whoever asked for it leaves the sentence as it was
    assert said.logged()[0] == {"who": "Ann"} and named("Ann").as_log() == {"who": "Ann"}


def test_bobs_balance_is_written_anew_when_it_changes_and_each_currency_writes_its_own():
    """A currency keeps what it wrote of each amount: Bob's $1,500 read again is the same text, his
    $1,495 after paying is written for itself, and a pack writing money short keeps its own texts."""
    from companion.core.money import Currency

    dollars, short = Currency(), Currency("$", "short")
    assert [dollars.format(1500), dollars.format(1500), dollars.format(1495)] == ["$1,500", "$1,500", "$1,495"]
    assert [short.format(1500000), dollars.format(1500000), dollars.format(-25)] == ["$1.5M", "$1,500,000", "-$25"]
    assert dollars.format(True) == "$1" and dollars.format(2.0) == "$2"  # as int() reads them, as before
    assert dollars == Currency() and hash(dollars) == hash(Currency())  # what it wrote is not what it is


def test_a_sentence_told_to_ann_and_marked_for_the_phones_reads_as_before():
    from companion.core.said import Said, Typed, Who, named

    said = Said(named("Ann"), " paid ", Who("Bob", "is", whose=True), " (", Typed("rent"), ")")
    assert said.names == frozenset({"Ann", "Bob"}) and said.names is said.names
    assert said.told("Ann") == "You paid Bob's is (rent)"
    assert said.told("Bob") == "Ann paid your are (rent)"
    assert said.told("Cy", lambda text: f"<{text}>") == "<Ann> paid <Bob>'s is (<rent>)"
    assert said.marked(lambda text: f"[{text}]") == "[Ann] paid [Bob]'s is ([rent])"


@pytest.mark.parametrize(
    "raw",
    [
        ' {"action": "transfer", "from": "Ann", "to": "Bob", "amount": 5} ',
        '{"action": "transfer"} {"again": 1}',
        "",
        "   ",
        "[1, 2,",
        '{"amount": 1e400}',
        '"just words"',
        '{"a": NaN}',
        '{"n": 1234567890123456789012}',
    ],
)
def test_an_action_body_is_read_as_the_decoder_reads_it_and_refused_with_its_words(raw):
    """The body's JSON is read by the decoder's own scanner: the same value, or the same error at the
    same character, as ``JSONDecoder.decode``."""
    import json

    from companion.core import contract

    def outcome(read):
        try:
            return ("value", read(raw))
        except json.JSONDecodeError as e:
            return ("error", e.msg, e.pos)
        except Exception as e:  # the contract's own refusals (a number too long, a constant)
            return ("refused", type(e).__name__, str(e))

    assert outcome(contract._decode) == outcome(contract._DECODER.decode)


def test_the_watch_reads_the_tables_own_commit_as_names_would_and_a_lost_queue_is_looked_at():
    """What the kernel queued at the commit, read without making the list of names: the game's -wal
    written, another file of the folder, a lost queue (the kernel dropped events), nothing at all."""
    import os
    import struct

    from companion.watch import IN_MODIFY, IN_Q_OVERFLOW, Inotify

    def event(mask: int, name: str = "") -> bytes:
        raw = name.encode() + b"\0" * (16 - len(name)) if name else b""
        return struct.pack("iIII", 1, mask, 0, len(raw)) + raw

    files = {"friday.game", "friday.game-wal"}
    queued = {
        "the -wal": event(IN_MODIFY, "phones.json") + event(IN_MODIFY, "friday.game-wal"),
        "another file": event(IN_MODIFY, "phones.json"),
        "a lost queue": event(IN_MODIFY, "friday.game-wal") + event(IN_Q_OVERFLOW),
        "nothing": b"",
    }
    read = {}
    for what, data in queued.items():
        for way in ("written", "names"):
            inotify = Inotify.__new__(Inotify)  # the kernel's queue stood in for by a pipe
            inotify._buffer, inotify._names = bytearray(64 * 1024), {}
            inotify.fd, writer = os.pipe()
            os.set_blocking(inotify.fd, False)
            os.write(writer, data)
            read[what, way] = inotify.written(files) if way == "written" else inotify.names()
            os.close(writer)
            inotify.close()
    assert [read[what, "written"] for what in queued] == [True, False, None, False]
    assert [read[what, "names"] for what in queued] == [
        ["phones.json", "friday.game-wal"],
        ["phones.json"],
        ["friday.game-wal", None],
        [],
    ]


def test_a_transfer_at_the_table_says_its_sentence_with_its_slots(game):
    from companion.core.said import Who

    with Banker.open(game) as table:
        plain = table.do(pay("Ann", "bank", 5)).entry.summary
        noted = table.do({**pay("Bob", "Ann", 7), "memo": "rent"}).entry.summary
    assert (plain, plain.parts) == ("Ann paid the bank $5", (Who("Ann"), " paid ", Who("the bank"), " $5"))
    assert noted == "Bob paid Ann $7 (rent)" and noted.told("Ann") == "Bob paid you $7 (rent)"
