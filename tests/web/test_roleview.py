"""What each role sees: a player's page in full, others as the rules make public, loans in plain words."""

from __future__ import annotations

from companion.core.money import Currency
from companion.views import state_json
from companion.web.roleview import banker_view, deed_line, loan_line, player_view

USD = Currency()


def page_of(table, me, **kw):
    state = state_json(table.banker.table, table.banker.rules, table.banker.version)
    return player_view(state, me, worth=[[1, 1500]], story=[], requests=[], can_request=True, **kw)


def test_a_deed_shows_its_group_mortgage_and_buildings(tmp_path):
    from companion.service import Banker

    with Banker.create(tmp_path / "marks.game", "classic", ["Ann", "Bob"], backup_every=0) as b:
        for deed in ("Park Place", "Boardwalk", "Baltic Avenue"):
            b.do({"action": "buy", "player": "Ann", "deed": deed})
        b.do({"action": "transfer", "from": "bank", "to": "Ann", "amount": 5000})
        b.do({"action": "mortgage", "player": "Ann", "deed": "Baltic Avenue"})
        for _ in range(3):
            for deed in ("Park Place", "Boardwalk"):
                b.do({"action": "build", "player": "Ann", "deed": deed})
        deeds = {d["name"]: d for d in state_json(b.table, b.rules, b.version)["deeds"]}
    assert deed_line(deeds["Park Place"])["marks"] == ["3 houses"]
    assert deed_line(deeds["Park Place"])["group"] == "dark blue"
    assert deed_line(deeds["Baltic Avenue"])["marks"] == ["mortgaged"]


def test_loans_read_the_same_whichever_game_wrote_them():
    city = loan_line(
        {
            "kind": "loan",
            "label": "Bank loan",
            "amount": 1200,
            "due_in_turns": 2,
            "text": "Bank loan of $1,200 due in 2 turns",
            "says_when": True,
        },
        USD,
        turn=9,
    )
    assert (city["text"], city["turns_left"], city["due_text"]) == ("Bank loan of $1,200 due in 2 turns", 2, "")
    note = loan_line({"kind": "note", "amount": 20000, "due_turn": 12}, USD, turn=10)
    assert (note["text"], note["due_text"], note["turns_left"]) == ("Note of $20,000", "due turn 12 (2 to go)", 2)
    late = loan_line({"label": "mortgage on Elm St", "amount": 500, "due_in_turns": 0, "overdue": True}, USD, turn=3)
    assert late["overdue"] and late["due_text"] == "overdue"
    assert loan_line("an IOU to the bank", USD, turn=1)["text"] == "an IOU to the bank"


def test_a_loan_is_told_when_it_falls_due_unless_its_family_says_its_text_does():
    """The family declares whether its text says when (``says_when``); the words are never searched: a
    debt "to the Due Diligence fund" is still told when it falls due."""
    owed = loan_line({"label": "owed to the Due Diligence fund", "amount": 300, "due_in_turns": 0}, USD, turn=4)
    assert owed["due_text"] == "due now"
    said = loan_line({"text": "mortgage $500, 3 turns to go", "due_in_turns": 3, "says_when": True}, USD, turn=4)
    assert said["due_text"] == ""


def test_city_life_s_bank_loan_on_ann_s_phone_says_when_once(tmp_path):
    from companion.service import Banker

    with Banker.create(tmp_path / "city.game", "city-life", ["Ann", "Bob"], {"advanced": True}, backup_every=0) as b:
        b.do({"action": "borrow", "player": "Ann"})
        state = state_json(b.table, b.rules, b.version)
        page = player_view(state, "Ann", worth=[], story=[], requests=[], can_request=False)
        loans = page["me"]["loans"]
        assert [(loan["text"].endswith("due in 7 turns"), loan["due_text"]) for loan in loans] == [(True, "")]


def test_others_show_only_what_the_rules_make_public(table):
    table.do("buy", player="Bob", deed="Boardwalk")
    page = page_of(table, "Ann")
    bob = next(p for p in page["players"] if p["name"] == "Bob")
    assert bob["cash_text"] == "$1,100" and bob["deed_count"] == 1 and "worth_text" not in bob
    secret = page_of(table, "Ann", public=())
    bob = next(p for p in secret["players"] if p["name"] == "Bob")
    assert "cash" not in bob and "deed_count" not in bob
    ann = next(p for p in secret["players"] if p["name"] == "Ann")
    assert ann["cash"] == 1500  # one's own money is always there
    assert page["payees"] == ["bank", "Bob", "Cy"]


def test_the_banker_sees_every_player_in_full(table):
    table.do("buy", player="Cy", deed="Reading Railroad")
    state = state_json(table.banker.table, table.banker.rules, table.banker.version)
    view = banker_view(state, log=[], pending=[], answered=[])
    cy = next(p for p in view["players"] if p["name"] == "Cy")
    assert [d["name"] for d in cy["deeds"]] == ["Reading Railroad"] and cy["worth_text"] == "$1,500"


def test_a_players_page_reads_the_same_with_its_chart_spliced_in(phones):
    import json

    for i in range(70):  # more entries than the chart keeps points
        phones.table.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 1 + i % 3})
    desk = phones.server.desk
    ann = desk.authorise(phones.server.tokens.for_player("Ann"))
    data = desk.page_data(ann)
    spliced = json.loads(desk.page(ann)[0])
    assert spliced == json.loads(json.dumps(data))
    # 71 points: more than 60, so every other one is kept, and the last
    assert [seq for seq, _ in spliced["me"]["worth_series"]] == [*range(1, 71, 2), 71]
