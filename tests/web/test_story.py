"""The game log told to each player in words, and their worth over the game."""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.core import engine
from companion.core.money import Currency
from companion.core.said import Said, does, typed, who, whose
from companion.service import Banker
from companion.store import Entry
from companion.web.chronicle import Chronicle, story_reading, stride, thin, whole_story
from companion.web.story import Reading, entry_lines
from tests.random_actions import GENERATORS, game_name, long_evening, players_for, variants
from tests.table import AtTheTable

fmt = Currency().format
FIXTURES = Path(__file__).parent.parent / "fixtures"


def told(t, outcome, me):
    """The lines of one committed entry on ``me``'s phone, read from the game file as the phones read it
    when they start (each entry's sentence decided again on the table before it)."""
    reading = story_reading(t.banker)
    table = t.banker.opening_table()
    for entry in t.banker.log():
        read = reading.of(entry, table)
        table = engine.fold(table, entry.events)
        if entry.seq == outcome.entry.seq:
            return entry_lines(entry, me, fmt, read, reading.sentence(entry))
    raise AssertionError("no such entry")


def texts(t, outcome, me):
    return [(line["text"], line["change"]) for line in told(t, outcome, me)]


def test_bob_lands_on_boardwalk_with_a_hotel_and_pays_ann_2000(new_game):
    t = new_game("classic", "Ann", "Bob", "Cy")
    t.do("transfer", **{"from": "bank", "to": "Ann", "amount": 5000})
    t.do("buy", player="Ann", deed="Park Place")
    t.do("buy", player="Ann", deed="Boardwalk")
    for _ in range(4):
        t.do("build", player="Ann", deed="Park Place")
        t.do("build", player="Ann", deed="Boardwalk")
    t.do("build", player="Ann", deed="Boardwalk", building="hotel")
    t.do("transfer", **{"from": "bank", "to": "Bob", "amount": 1000})
    rent = t.do("rent", payer="Bob", deed="Boardwalk")
    assert texts(t, rent, "Bob") == [("You paid Ann $2,000 rent for Boardwalk", -2000)]
    assert texts(t, rent, "Ann") == [("Bob paid you $2,000 rent for Boardwalk", 2000)]
    assert texts(t, rent, "Cy") == []


def test_what_a_player_did_reads_as_their_own_deed(new_game):
    t = new_game("classic", "Ann", "Bob", free_parking=True)
    bought = t.do("buy", player="Ann", deed="Mediterranean Avenue")
    assert texts(t, bought, "Ann") == [("You bought Mediterranean Avenue for $60", -60)]
    mortgaged = t.do("mortgage", player="Ann", deed="Mediterranean Avenue")
    assert texts(t, mortgaged, "Ann") == [("You mortgaged Mediterranean Avenue for $30", 30)]
    assert texts(t, mortgaged, "Bob") == []


def test_the_bank_pays_salary_and_a_tax_goes_to_the_pot(new_game):
    t = new_game("classic", "Ann", "Cy", free_parking=True)
    salary = t.do("salary", player="Cy")
    assert texts(t, salary, "Cy") == [("You collected $200 salary", 200)]
    tax = t.do("tax", player="Cy", tax="luxury")
    [(text, change)] = texts(t, tax, "Cy")
    assert text.startswith("You paid $") and change < 0
    assert texts(t, tax, "Ann") == []


def test_a_memo_typed_at_the_table_is_told_in_brackets_and_money_from_the_bank_reads_naturally(new_game):
    t = new_game("classic", "Ann", "Bob", "Cy")
    pizza = t.do("transfer", **{"from": "Ann", "to": "Cy", "amount": 40, "memo": "the pizza"})
    assert texts(t, pizza, "Ann") == [("You paid Cy $40 (the pizza)", -40)]
    assert texts(t, pizza, "Cy") == [("Ann paid you $40 (the pizza)", 40)]
    gift = t.do("transfer", **{"from": "bank", "to": "Bob", "amount": 55})
    assert texts(t, gift, "Bob") == [("The bank paid you $55", 55)]


def test_a_memo_that_looks_like_a_deed_is_still_only_a_memo(new_game):
    """What a memo says never decides how a line reads: "bought the drinks" typed at the table is
    Ann's words about a payment, not something the rules did."""
    t = new_game("classic", "Ann", "Bob")
    drinks = t.do("transfer", **{"from": "Ann", "to": "bank", "amount": 12, "memo": "bought the drinks"})
    assert texts(t, drinks, "Ann") == [("You paid the bank $12 (bought the drinks)", -12)]


def test_cy_collects_from_every_player_in_one_line_and_each_payer_hears_of_their_own_payment(new_game):
    t = new_game("classic", "Ann", "Bob", "Cy")
    birthday = t.do("collect_from_all", player="Cy", amount=10, memo="birthday")
    [(text, change)] = texts(t, birthday, "Cy")
    assert change == 20 and text.startswith("You collected $10 from each of")
    assert texts(t, birthday, "Bob") == [("You paid Cy $10 (birthday)", -10)]


def test_an_undone_rent_tells_the_original_payment_and_gives_the_money_back(new_game):
    t = new_game("classic", "Ann", "Bob")
    t.do("buy", player="Ann", deed="Mediterranean Avenue")
    t.do("rent", payer="Bob", deed="Mediterranean Avenue")
    undone = t.banker.undo()
    assert texts(t, undone, "Bob") == [("Undone: You paid Ann $2 rent for Mediterranean Avenue", 2)]
    assert texts(t, undone, "Ann") == [("Undone: Bob paid you $2 rent for Mediterranean Avenue", -2)]


def test_an_entry_without_my_money_is_told_when_it_concerns_me(new_game):
    t = new_game("classic", "Ann", "Cy", "Cyril")
    jail = t.do("jail", player="Cy")
    assert texts(t, jail, "Cy") == [("You went to jail", 0)]  # on Cy's own phone
    assert texts(t, jail, "Ann") == []
    assert texts(t, jail, "Cyril") == []  # a whole name, not a prefix


def test_an_entry_is_told_to_whom_its_events_concern_even_without_its_action():
    events = [{"type": "Changed", "path": ["players", "Cy", "in_jail"], "old": False, "new": True}]
    said = who("Cy") + " went to jail"
    jail = Entry(3, "do", None, {}, events, said, None, "2026-01-01T00:00:00+00:00")
    assert entry_lines(jail, "Cy", fmt) == [{"seq": 3, "text": "You went to jail", "change": 0}]
    assert entry_lines(jail, "Ann", fmt) == []
    elsewhere = Entry(4, "do", None, {}, [], who("Cyril") + " went to jail", None, "2026-01-01T00:00:00+00:00")
    assert entry_lines(elsewhere, "Cy", fmt) == []


def test_a_sentence_of_plain_words_is_told_as_written():
    """Nothing reads a sentence's words to find who it names: without the rule's slots (an entry whose
    action the rules can no longer decide), the logged text is what the phone shows."""
    events = [{"type": "Changed", "path": ["players", "Cy", "in_jail"], "old": False, "new": True}]
    jail = Entry(3, "do", None, {}, events, "Cy went to jail", None, "2026-01-01T00:00:00+00:00")
    assert entry_lines(jail, "Cy", fmt) == [{"seq": 3, "text": "Cy went to jail", "change": 0}]


def test_cat_is_told_of_her_own_turns_in_the_second_person():
    jailed = who("Cat", "is") + " in jail; Dan pays " + whose("Cat") + " fine"
    assert isinstance(jailed, Said) and jailed == "Cat is in jail; Dan pays Cat's fine"
    assert jailed.told("Cat") == "You are in jail; Dan pays your fine"
    assert jailed.told("Dan") == "Cat is in jail; Dan pays Cat's fine"  # Dan is words here, not a slot
    assert (who("Cat") + " went to jail").told("Catherine") == "Cat went to jail"
    doubled = who("Cat") + " rolled a third double and " + does("Cat", "goes") + " to jail"
    assert doubled.told("Cat") == "You rolled a third double and go to jail"
    with pytest.raises(ValueError):  # a verb after a name is declared with its second person, never guessed
        who("Cat", "jumps")


def _read_back(banker, retell=None):
    """Each entry of the game file with the sentence the story reads for it (``retell``: the rules as
    they are today, or reworded since)."""
    reading = story_reading(banker) if retell is None else Reading(banker.rules.registry.specs.get, retell)
    table = banker.opening_table()
    read = []
    for entry in banker.log():
        read.append((entry, reading.of(entry, table), reading))
        table = engine.fold(table, entry.events)
    return read


def _told_from_file(banker, seq, me, retell=None):
    for entry, read, reading in _read_back(banker, retell):
        if entry.seq == seq:
            return [line["text"] for line in entry_lines(entry, me, fmt, read, reading.sentence(entry))]
    raise AssertionError("no such entry")


def test_a_sentence_reworded_since_it_was_logged_is_still_told_to_ann_as_her_own(new_game):
    """Ann paid Bob $50 for Bob's lunch. Since then the rule's sentence was reworded ("handed"): the
    game file kept the sentence with its slots, so Ann's phone still reads "You paid Bob $50", and the
    "Bob" she typed in the memo stays her words on Bob's phone."""
    t = new_game("classic", "Ann", "Bob")
    lunch = t.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 50, "memo": "Bob's lunch"})
    asked = []

    def reworded(table, action):
        asked.append(action)
        return who(action["from"]) + " handed " + who(action["to"]) + " $50"

    seq = lunch.entry.seq
    assert _told_from_file(t.banker, seq, "Ann", reworded) == ["You paid Bob $50 (Bob's lunch)"]
    assert _told_from_file(t.banker, seq, "Bob", reworded) == ["Ann paid you $50 (Bob's lunch)"]
    assert asked == []  # what was logged is told as logged: the rules are not asked again
    kept = t.banker.log()[-1].summary
    assert isinstance(kept, Said) and kept.names == {"Ann", "Bob"}  # "Bob" in the memo is no slot


def test_a_game_logged_by_an_older_version_tells_its_own_sentence_in_the_second_person(new_game, monkeypatch, capsys):
    """An older version said "Ann gave Bob $50" where today's rule says "paid": the game it logged is
    told on Ann's phone as "You gave Bob $50", and `companion check` proves the file."""
    from companion.cli import main

    t = new_game("classic", "Ann", "Bob", "Cy")
    today = engine.decide_full

    def older_version(table, action, rules):
        decided = today(table, action, rules)
        if action.get("action") != "transfer":
            return decided
        older = who(action["from"]) + " gave " + who(action["to"]) + f" {fmt(action['amount'])}"
        return dataclasses.replace(decided, summary=older)

    monkeypatch.setattr(engine, "decide_full", older_version)
    gift = t.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 50})
    monkeypatch.undo()
    path = t.banker.store.path
    t.close()
    reopened = AtTheTable(Banker.open(path, backup_every=0))
    try:
        assert _told_from_file(reopened.banker, gift.entry.seq, "Ann") == ["You gave Bob $50"]
        assert _told_from_file(reopened.banker, gift.entry.seq, "Bob") == ["Ann gave you $50"]
        assert _told_from_file(reopened.banker, gift.entry.seq, "Cy") == []
        assert Chronicle(reopened.banker).story_of("Ann")[0]["text"] == "You gave Bob $50"
    finally:
        reopened.close()
    assert main(["check", str(path)]) == 0, capsys.readouterr().err


def test_an_entry_logged_before_sentences_kept_their_slots_is_decided_again_and_told_if_it_reads_the_same(tmp_path):
    """tests/fixtures/format2.game was logged before the file kept each sentence's slots (file format
    2): the bank paid Ann $500, Ann paid Bob $50 (Bob's lunch), Cy went to jail. Its entries are decided
    again on the table before them; where the rule reads as logged, Ann is told in the second person,
    and where it was reworded since, the logged text is shown as written."""
    path = tmp_path / "old.game"
    shutil.copy(FIXTURES / "format2.game", path)
    with Banker.open(path, backup_every=0) as banker:
        assert _told_from_file(banker, 3, "Ann") == ["You paid Bob $50 (Bob's lunch)"]
        assert _told_from_file(banker, 4, "Cy") == ["You went to jail"]

        def reworded(table, action):
            return who(action["player"]) + " was sent to jail"

        assert _told_from_file(banker, 4, "Cy", reworded) == ["Cy went to jail"]
        later = banker.do({"action": "jail", "player": "Ann"})  # logged now: its slots are kept
        assert _told_from_file(banker, later.entry.seq, "Ann", reworded) == ["You went to jail"]


def test_a_trade_names_every_deed_and_sum_on_both_phones(new_game):
    t = new_game("classic", "Cat", "Dan", "Ann")
    for deed in ("Park Place", "Boardwalk"):
        t.do("buy", player="Cat", deed=deed)
    t.do("buy", player="Dan", deed="Baltic Avenue")
    trade = t.do(
        "trade",
        a="Cat",
        b="Dan",
        give={"deeds": ["Park Place", "Boardwalk"]},
        get={"deeds": ["Baltic Avenue"], "cash": 150},
    )
    assert texts(t, trade, "Cat") == [
        ("Trade with Dan: you gave Park Place and Boardwalk; you got Baltic Avenue and $150", 150)
    ]
    assert texts(t, trade, "Dan") == [
        ("Trade with Cat: you gave Baltic Avenue and $150; you got Park Place and Boardwalk", -150)
    ]
    assert texts(t, trade, "Ann") == []
    undone = t.banker.undo()
    assert texts(t, undone, "Cat") == [
        ("Undone: Trade with Dan: you gave Park Place and Boardwalk; you got Baltic Avenue and $150", -150)
    ]
    redone = t.banker.redo()
    assert texts(t, redone, "Dan")[0][0].startswith("Redone: Trade with Cat")


def test_the_whole_story_and_the_chronicle_tell_the_same_lines(new_game):
    t = new_game("classic", "Ann", "Bob")
    t.do("buy", player="Ann", deed="Boardwalk")
    t.do("rent", payer="Bob", deed="Boardwalk")
    t.do("trade", a="Ann", b="Bob", give={"deeds": ["Boardwalk"]}, get={"cash": 400})
    chronicle = Chronicle(t.banker)
    assert [line["text"] for line in whole_story(t.banker, "Bob")] == [
        line["text"] for line in chronicle.story_of("Bob")
    ]
    assert whole_story(t.banker, "Bob", chronicle.reading) == whole_story(t.banker, "Bob")  # its sentences, reused


def test_thin_keeps_the_first_and_last_points():
    points = [[i, i * 10] for i in range(1, 1001)]
    kept = thin(points, 60)
    assert 30 < len(kept) <= 60 and kept[0] == [1, 10] and kept[-1] == [1000, 10000]
    assert thin(points[:5], 60) == points[:5]
    assert thin(points[:60], 60) == points[:60]


@settings(max_examples=200)
@given(st.integers(min_value=2, max_value=5000), st.integers(min_value=3, max_value=80))
def test_a_new_point_leaves_the_chart_before_it_where_it_was(length, most):
    """An evening's chart grows by a point after every entry: the points drawn before stay, evenly
    spaced from the first; only when the series has doubled does every other one go."""
    points = list(range(length))
    before, after = thin(points, most), thin([*points, length], most)
    assert len(after) <= most and after[0] == 0 and after[-1] == length
    gaps = {b - a for a, b in zip(after, after[1:-1])}
    assert len(gaps) <= 1  # evenly spaced up to the newest point
    if stride(length + 1, most) == stride(length, most):
        assert after[:-1] == before[:-1] or after[:-2] == before[:-1]  # one more kept at most
    else:
        assert stride(length + 1, most) == 2 * stride(length, most)
        assert after[:-1] == before[:-1][::2] or after[:-2] == before[:-1][::2]


def test_worth_follows_the_game_from_the_first_entry(table):
    table.do("buy", player="Ann", deed="Boardwalk")
    table.do("salary", player="Ann")
    table.do("rent", payer="Bob", deed="Boardwalk")
    c = Chronicle(table.banker)
    assert c.worth["Ann"] == [[1, 1500], [2, 1500], [3, 1700], [4, 1750]]
    assert c.worth["Bob"][-1] == [4, 1450]
    assert c.story_of("Bob")[0]["text"] == "You paid Ann $50 rent for Boardwalk"
    assert c.log_lines()[0]["text"] == "Bob paid Ann $50 rent for Boardwalk"


def test_the_bankers_log_lines_are_written_only_when_a_bankers_page_asks(table, monkeypatch):
    import companion.web.chronicle as chronicle

    c = Chronicle(table.banker)
    written = []
    monkeypatch.setattr(chronicle, "_log_line", lambda entry, sentence: written.append(entry.seq) or entry.summary)
    for _ in range(40):  # an evening with no banker's phone: no log line is written
        table.do("salary", player="Ann")
        c.see(table.banker.log()[-1])
    assert written == []
    lines = c.log_lines()
    assert len(lines) == 20 and lines[0]["seq"] == 41 and lines[0]["text"] == "Ann collected $200 salary"
    assert written == list(range(22, 42))
    c.log_lines()
    assert len(written) == 20  # each line once


def test_a_missed_entry_makes_the_chronicle_read_the_log_again(table):
    c = Chronicle(table.banker)
    table.do("salary", player="Cy")
    last = table.do("salary", player="Cy")
    c.see(last.entry)  # entry 2 was never seen: rebuild from the log
    assert [p[0] for p in c.worth["Cy"]] == [1, 2, 3]
    c.see(last.entry)  # seen twice: nothing changes
    assert len(c.worth["Cy"]) == 3


def test_a_name_that_runs_right_to_left_is_isolated_in_its_slot_and_plain_names_are_left_alone():
    from companion.web.story import FSI, PDI, isolated

    paid = who("Bob") + " paid " + who("Ann") + " $5"
    assert paid.marked(isolated) == "Bob paid Ann $5"
    turned = who("\u202eBob") + " paid " + who("Ann") + " $5 (" + typed("\u202etaxi") + ")"
    assert turned.marked(isolated) == f"{FSI}\u202eBob{PDI} paid Ann $5 ({FSI}\u202etaxi{PDI})"
    assert turned.told("Ann", isolated) == f"{FSI}\u202eBob{PDI} paid you $5 ({FSI}\u202etaxi{PDI})"
    assert isolated("\u05d3\u05df") == f"{FSI}\u05d3\u05df{PDI}" and isolated("Ann") == "Ann"


def test_the_chronicle_isolates_a_right_to_left_name_in_the_story_and_the_log_as_it_goes(new_game):
    """Dan, whose name is written in Hebrew, pays Ann $5 for a taxi after the phones started
    following the game: Ann's story and the banker's log keep his name as one unit."""
    from companion.web.story import FSI, PDI

    dan = "\u05d3\u05df"
    t = new_game("classic", "Ann", dan)
    chronicle = Chronicle(t.banker)
    t.banker.subscribe(lambda outcome: chronicle.see(outcome.entry))
    t.do("transfer", **{"from": dan, "to": "Ann", "amount": 5, "memo": "taxi"})
    assert chronicle.story_of("Ann")[0]["text"] == f"{FSI}{dan}{PDI} paid you $5 (taxi)"
    assert f"{FSI}{dan}{PDI}" in chronicle.log_lines()[0]["text"]
    assert chronicle.story_of(dan)[0]["text"] == "You paid Ann $5 (taxi)"
    t.do("transfer", **{"from": "Ann", "to": dan, "amount": 2, "memo": "\u05de\u05d5\u05e0\u05d9\u05ea"})
    assert chronicle.log_lines()[0]["text"] == f"Ann paid {FSI}{dan}{PDI} $2 ({FSI}\u05de\u05d5\u05e0\u05d9\u05ea{PDI})"
    assert Chronicle(t.banker).log_lines()[0]["text"] == chronicle.log_lines()[0]["text"]  # read back from the file


# -- every family: the rules name their players as slots, and the file tells the same story -------------
#: A player's name as a whole word (the test reads the words; the product never does).
WORD = {name: re.compile(rf"(?<!\w){name}(?!\w)") for name in ("Ann", "Bob", "Cy")}
FAMILIES = variants()


@pytest.mark.parametrize(("pack", "options"), FAMILIES, ids=[game_name(p, o) for p, o in FAMILIES])
def test_every_familys_sentences_name_their_players_as_slots_and_read_the_same_from_the_file(pack, options, tmp_path):
    """An evening of random actions in each family: every player a sentence names is a slot of it (so
    their phone says "you"), and the phones' story built as it went is the one read back from the
    file, each entry decided again on the table before it."""
    t = AtTheTable.new(tmp_path, pack, *players_for(pack), name="evening.game", **options)
    try:
        live = Chronicle(t.banker)
        t.banker.subscribe(lambda outcome: live.see(outcome.entry))
        long_evening(t, GENERATORS[pack], seed=7, steps=200, undo_every=30)
        for entry in t.banker.log():
            if entry.kind != "do":
                continue
            said = live.reading.said.get(entry.seq)  # None: a sentence of plain words
            text = str(entry.summary)
            pack = t.table["pack"]
            for place in [*pack["cards"], *pack.get("board", {}).get("names", {}).values()]:
                text = text.replace(place, "")  # a place may carry a name ("Bob's Supermarket")
            for name, word in WORD.items():
                if word.search(text):
                    assert said is not None and name in said.names, f"{name} is named in {text!r} but not as a slot"
        again = Chronicle(t.banker)
        for name in players_for(pack):
            assert again.story_of(name, 25) == live.story_of(name, 25)
    finally:
        t.close()


def test_the_actions_the_random_evenings_seldom_reach_name_their_players_as_slots_too(new_game):
    t = new_game("classic", "Ann", "Bob", "Cy", free_parking=True)
    sentences = [
        t.do("pay_to_all", player="Ann", amount=10, memo="a round of drinks").entry.summary,
        t.do("miss_turns", player="Bob", turns=2).entry.summary,
        t.do("jail", player="Cy").entry.summary,
        t.do("jail_fine", player="Cy").entry.summary,
        t.do("tax", player="Ann", tax="luxury").entry.summary,
        t.do("win_pot", player="Bob", pot="free parking").entry.summary,
        t.do("next_turn").entry.summary,
    ]
    for said in sentences:
        for name, word in WORD.items():
            if word.search(str(said)):
                assert isinstance(said, Said) and name in said.names, f"{name} in {str(said)!r} is not a slot"
    assert sentences[0].told("Bob") == "Ann paid $10 to each of you, Cy"
    assert sentences[1].told("Bob") == "You will miss 2 turns"
