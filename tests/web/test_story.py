"""The game log told to each player in words, and their worth over the game."""

from __future__ import annotations

from companion.core.money import Currency
from companion.store import Entry
from companion.web.chronicle import Chronicle, thin
from companion.web.story import entry_lines, paid_sentence, second_person

fmt = Currency().format


def paid(payer, payee, amount, memo=""):
    return {"type": "Paid", "from": payer, "to": payee, "amount": amount, "memo": memo}


def entry(seq, events, summary="", kind="do"):
    return Entry(seq, kind, None, {}, events, summary, None, "2026-01-01T00:00:00+00:00")


def test_bob_lands_on_boardwalk_with_a_hotel_and_pays_ann_2000():
    event = paid("Bob", "Ann", 2000, "rent for Boardwalk")
    assert paid_sentence(event, "Bob", fmt) == ("You paid Ann $2,000 rent for Boardwalk", -2000)
    assert paid_sentence(event, "Ann", fmt) == ("Bob paid you $2,000 rent for Boardwalk", 2000)
    assert paid_sentence(event, "Cy", fmt) is None


def test_what_a_player_did_reads_as_their_own_deed():
    assert paid_sentence(paid("Ann", "bank", 60, "bought Mediterranean Avenue"), "Ann", fmt) == (
        "You bought Mediterranean Avenue for $60",
        -60,
    )
    assert paid_sentence(paid("bank", "Ann", 30, "mortgaged Baltic Avenue"), "Ann", fmt) == (
        "You mortgaged Baltic Avenue for $30",
        30,
    )
    assert paid_sentence(paid("pot:free parking", "Ann", 350, "won the free parking pot"), "Ann", fmt) == (
        "You won $350 from the free parking pot",
        350,
    )


def test_the_bank_pays_salary_and_taxes_go_to_the_pot():
    assert paid_sentence(paid("bank", "Cy", 200, "salary"), "Cy", fmt) == ("The bank paid you $200 salary", 200)
    assert paid_sentence(paid("Cy", "pot:free parking", 200, "income tax"), "Cy", fmt) == (
        "You paid the free parking pot $200 income tax",
        -200,
    )


def test_trades_and_free_text_memos_read_naturally():
    assert paid_sentence(paid("Ann", "Bob", 100, "trade"), "Bob", fmt) == ("Ann paid you $100 in a trade", 100)
    assert paid_sentence(paid("Ann", "Cy", 40, "the pizza"), "Ann", fmt) == ("You paid Cy $40 (the pizza)", -40)
    assert paid_sentence(paid("Ann", "Cy", 40), "Ann", fmt) == ("You paid Cy $40", -40)


def test_an_undone_rent_tells_the_original_payment_and_gives_the_money_back():
    undo = entry(7, [paid("Ann", "Bob", 22, "rent for Mediterranean Avenue")], "Undone: Bob paid Ann $22", kind="undo")
    assert entry_lines(undo, "Bob", fmt) == [
        {"seq": 7, "text": "Undone: You paid Ann $22 rent for Mediterranean Avenue", "change": 22}
    ]


def test_an_entry_without_my_money_is_told_when_it_names_me():
    jail = entry(
        3, [{"type": "Changed", "path": ["players", "Cy", "in_jail"], "old": False, "new": True}], "Cy went to jail"
    )
    assert entry_lines(jail, "Cy", fmt) == [{"seq": 3, "text": "You went to jail", "change": 0}]  # on Cy's own phone
    assert entry_lines(jail, "Ann", fmt) == []
    assert entry_lines(entry(4, [], "Cyril went to jail"), "Cy", fmt) == []  # a whole word, not a prefix


def test_cat_is_told_of_her_own_turns_in_the_second_person():
    assert second_person("Cat went to jail", "Cat") == "You went to jail"
    assert second_person("Cat is in jail; Dan pays Cat's fine", "Cat") == "You are in jail; Dan pays your fine"
    assert second_person("Catherine went to jail", "Cat") == "Catherine went to jail"


def test_a_trade_names_every_deed_and_sum_on_both_phones():
    events = [
        paid("Dan", "Cat", 150, "trade"),
        {"type": "Changed", "path": ["deeds", "Park Place", "owner"], "old": "Cat", "new": "Dan"},
        {"type": "Changed", "path": ["deeds", "Boardwalk", "owner"], "old": "Cat", "new": "Dan"},
        {"type": "Changed", "path": ["deeds", "Baltic Avenue", "owner"], "old": "Dan", "new": "Cat"},
    ]
    trade = Entry(4, "do", None, {"action": "trade"}, events, "Trade: ...", None, "2026-01-01T00:00:00+00:00")
    assert entry_lines(trade, "Cat", fmt) == [
        {
            "seq": 4,
            "change": 150,
            "text": "Trade with Dan: you gave Park Place and Boardwalk; you got Baltic Avenue and $150",
        }
    ]
    assert entry_lines(trade, "Dan", fmt) == [
        {
            "seq": 4,
            "change": -150,
            "text": "Trade with Cat: you gave Baltic Avenue and $150; you got Park Place and Boardwalk",
        }
    ]
    assert entry_lines(trade, "Ann", fmt) == []


def test_thin_keeps_the_first_and_last_points():
    points = [[i, i * 10] for i in range(1, 1001)]
    kept = thin(points, 60)
    assert len(kept) == 60 and kept[0] == [1, 10] and kept[-1] == [1000, 10000]
    assert thin(points[:5], 60) == points[:5]


def test_worth_follows_the_game_from_the_first_entry(table):
    table.do("buy", player="Ann", deed="Boardwalk")
    table.do("salary", player="Ann")
    table.do("rent", payer="Bob", deed="Boardwalk")
    c = Chronicle(table.banker)
    assert c.worth["Ann"] == [[1, 1500], [2, 1500], [3, 1700], [4, 1750]]
    assert c.worth["Bob"][-1] == [4, 1450]
    assert c.story_of("Bob")[0]["text"] == "You paid Ann $50 rent for Boardwalk"
    assert c.log_lines()[0]["text"] == "Bob paid Ann $50 rent for Boardwalk"


def test_a_missed_entry_makes_the_chronicle_read_the_log_again(table):
    c = Chronicle(table.banker)
    table.do("salary", player="Cy")
    last = table.do("salary", player="Cy")
    c.see(last.entry)  # entry 2 was never seen: rebuild from the log
    assert [p[0] for p in c.worth["Cy"]] == [1, 2, 3]
    c.see(last.entry)  # seen twice: nothing changes
    assert len(c.worth["Cy"]) == 3


def test_a_name_that_runs_right_to_left_is_isolated_and_plain_names_are_left_alone():
    from companion.web.story import FSI, PDI, isolate

    assert isolate("Bob paid Ann $5", ["Ann", "Bob"]) == "Bob paid Ann $5"
    assert (
        isolate("\u202eBob paid Ann $5 (\u202etaxi)", ["\u202eBob", "Ann", "\u202etaxi"])
        == f"{FSI}\u202eBob{PDI} paid Ann $5 ({FSI}\u202etaxi{PDI})"
    )
    assert isolate("\u05d3\u05df paid Ann", ["\u05d3\u05df"]) == f"{FSI}\u05d3\u05df{PDI} paid Ann"


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
