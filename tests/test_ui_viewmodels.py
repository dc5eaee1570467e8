"""The touchscreen's view-models, without a window: what each screen would show, and what each tap
would do, at a classic table (Ann, Bob and Cy) and at the other packs' tables."""

import json
import os
import subprocess
import sys

import pytest

from companion.core.money import Currency
from companion.rules import pack_names
from companion.service import Banker
from companion.ui import flows
from companion.ui.amount_view import amount_view
from companion.ui.ask_view import ask_view
from companion.ui.colours import group_colour, next_free_colour, player_colour, text_on, theme
from companion.ui.deeds_view import deed_card, deeds_view, rent_now
from companion.ui.desk import Desk
from companion.ui.games import NewGame, game_file_name, pack_choices, saved_games, when_text
from companion.ui.history_view import history_view
from companion.ui.keypad import Keypad, keys_for, quick_amounts, wide_keys
from companion.ui.loans_view import loan_rows, loans_view
from companion.ui.over_view import WorthHistory, over_view, sample, worth_series
from companion.settings import UiSettings
from companion.ui.settings_view import card_fields, changed_values
from companion.ui.table_view import table_view
from companion.ui.trade_view import Deal, trade_view
from companion.ui.who_acts import player_to_play, who_row


@pytest.fixture
def desk(tmp_path):
    people = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}, {"name": "Cy", "colour": "green"}]
    d = Desk(Banker.create(tmp_path / "evening.game", "classic", people, {}, backup_every=0))
    yield d
    d.close()


def do(desk, action, **fields):
    result = desk.do({"action": action, **fields})
    assert result.ok, result.text
    return result


# -- the start screen -------------------------------------------------------------------------------
def test_a_new_game_starts_with_two_players_in_different_colours():
    form = NewGame.start()
    assert form.pack == "classic" and len(form.players) == 2
    assert form.players[0]["colour"] != form.players[1]["colour"]
    assert form.names() == ["Player 1", "Player 2"] and form.check() is None


def test_six_players_at_most_and_two_at_least():
    form = NewGame.start()
    for _ in range(10):
        form = form.add_player()
    assert len(form.players) == 6 and len({p["colour"] for p in form.players}) == 6
    for _ in range(10):
        form = form.remove_player(0)
    assert len(form.players) == 2


def test_two_players_called_ann_cannot_start():
    form = NewGame.start().rename(0, "Ann").rename(1, " ann ")
    assert form.check() == "two players are called 'ann'"


def test_nobody_can_be_called_the_bank():
    assert "names the bank" in NewGame.start().rename(0, "Bank").check()


def test_tapping_a_colour_gives_the_next_one_nobody_has():
    form = NewGame.start()  # red, blue
    assert form.next_colour(0).players[0]["colour"] == "green"
    assert next_free_colour(["red", "blue"]) == "green"


def test_a_bad_option_value_is_refused_before_any_file_is_made():
    form = NewGame.start().set_option("free_parking", "perhaps")
    assert form.check() == "option free_parking is true or false, not 'perhaps'"


def test_every_pack_is_offered_with_its_options(tmp_path):
    choices = pack_choices()
    assert [c["name"] for c in choices] == pack_names()
    classic = next(c for c in choices if c["name"] == "classic")
    assert {o["key"]: o["kind"] for o in classic["options"]} == {
        "free_parking": "bool",
        "free_parking_seed": "amount",
        "phone_requests": "bool",
        "phone_actions": "bool",
        "trust_table": "bool",
    }  # the pack's own, then every game's
    assert [o["key"] for o in classic["options"]][:2] == ["free_parking", "free_parking_seed"]
    assert all(o["help"] for o in classic["options"])


def test_saved_games_are_listed_newest_first_with_their_players(tmp_path):
    for name, players in (("old", ["Ann", "Bob"]), ("new", ["Cy", "Dee", "Eve"])):
        Banker.create(tmp_path / f"{name}.game", "classic", players, {}, backup_every=0).close()
    os.utime(tmp_path / "old.game", (1, 1))
    (tmp_path / "junk.game").write_text("not a game")
    os.utime(tmp_path / "junk.game", (2, 2))
    rows = saved_games(tmp_path)
    assert [r["file"] for r in rows] == ["new.game", "junk.game", "old.game"]
    assert rows[0]["players_text"] == "Cy, Dee, Eve" and rows[0]["title"].startswith("Monopoly")
    assert rows[0]["entries"] == 1 and rows[0]["when"].startswith("today")
    assert rows[1]["problem"] and "not" in rows[1]["problem"]


def test_a_new_game_file_never_takes_an_existing_name(tmp_path):
    first = game_file_name(tmp_path, "monopoly-city")
    first.write_text("")
    assert first.name.startswith("monopoly-city-") and game_file_name(tmp_path, "monopoly-city") != first


def test_when_a_game_was_played_reads_like_a_person_says_it():
    import datetime as dt

    now = dt.datetime(2025, 3, 12, 21, 0, tzinfo=dt.timezone.utc)
    assert when_text("2025-03-12T20:15:00+00:00", now).startswith("today")
    assert when_text("2025-03-11T20:15:00+00:00", now).startswith("yesterday")
    assert when_text("2024-12-01T20:15:00+00:00", now).endswith("2024")


# -- the table ---------------------------------------------------------------------------------------
def test_the_table_shows_each_balance_and_whose_turn(desk):
    view = table_view(desk.state(), desk.specs, undo_text=desk.undo_text(), redo_text=desk.redo_text())
    assert [(t["name"], t["cash_text"]) for t in view["players"]] == [
        ("Ann", "$1,500"),
        ("Bob", "$1,500"),
        ("Cy", "$1,500"),
    ]
    assert view["turn_text"] == "Turn 1: Ann to play" and view["acting"] == "Ann"
    assert view["players"][0]["is_turn"] and view["players"][0]["colour"] == player_colour("red")
    assert not view["can_undo"] and view["undo_text"] == "Nothing to undo"


def test_the_big_buttons_are_the_families_common_actions_in_order(desk):
    common, more = flows.buttons_for(desk.specs)
    assert [b["name"] for b in common] == [
        "salary",
        "pay",
        "collect",
        "transfer",
        "rent",
        "buy",
        "auction",
        "build",
        "next_turn",
    ]
    assert {"mortgage", "trade", "bankrupt", "jail"} <= {m["name"] for m in more}
    assert next(m for m in more if m["name"] == "bankrupt")["destructive"]


@pytest.mark.parametrize("pack", pack_names())
def test_every_pack_gets_buttons_without_ui_code(tmp_path, pack):
    with Banker.create(tmp_path / "g.game", pack, ["Ann", "Bob"], {}, backup_every=0) as b:
        common, more = flows.buttons_for(b.rules.registry.specs)
        names = {x["name"] for x in common + more}
        # every action has a button, or its one-tap place on Settings (the table's options)
        assert names | {"pay", "collect"} >= set(b.rules.registry.specs) - {"undo", "redo", *flows.ON_SETTINGS}
        assert "next_turn" in names or not any(s == "next_turn" for s in b.rules.registry.specs)


def test_warnings_say_jail_missed_turns_and_mortgages(desk):
    do(desk, "jail", player="Bob")
    do(desk, "miss_turns", player="Cy", turns=2)
    do(desk, "buy", player="Ann", deed="Baltic Avenue")
    do(desk, "mortgage", player="Ann", deed="Baltic Avenue")
    tiles = {t["name"]: t for t in table_view(desk.state(), desk.specs)["players"]}
    assert tiles["Bob"]["warnings"] == ["in jail"]
    assert tiles["Cy"]["warnings"] == ["misses 2 turns"]
    assert tiles["Ann"]["warnings"] == ["1 mortgaged"] and tiles["Ann"]["deeds_text"] == "1 deed"


def test_after_ann_pays_the_undo_button_says_exactly_what_it_takes_back(desk):
    do(desk, "transfer", **{"from": "Ann", "to": "Bob", "amount": 200})
    view = table_view(desk.state(), desk.specs, undo_text=desk.undo_text())
    assert view["undo_text"] == "Undo: Ann paid Bob $200"


# -- flows -------------------------------------------------------------------------------------------
def test_salary_for_the_player_to_play_is_one_tap(desk):
    form = flows.start_flow("salary", desk.specs, player="Ann")
    assert desk.next_field(form.action, form.values) is None
    assert form.as_action()["player"] == "Ann" and form.as_action()["id"].startswith("ui-")


def test_pay_bank_asks_only_how_much(desk):
    form = flows.start_flow("pay", desk.specs, player="Bob")
    assert form.values == {"from": "Bob", "to": "bank"} and desk.next_field(form.action, form.values).name == "amount"
    collect = flows.start_flow("collect", desk.specs, player="Bob")
    assert collect.values == {"from": "bank", "to": "Bob"}


def test_a_familys_own_pay_action_takes_the_pay_button(desk):
    from companion.core import contract as c
    from companion.core.engine import Registry

    family = Registry(desk.rules.registry)

    @family.action("pay", c.player(), c.amount(), c.text("unless_insured", "Spared with this insurance"))
    def pay(tx, a):
        """A white space costs the player (its own rules: insurance, cards)."""

    family = {spec.name: spec for spec in family}

    form = flows.start_flow("pay", family, player="Ann")
    assert form.action == "pay" and form.values == {"player": "Ann"}
    common, _ = flows.buttons_for(family)
    assert next(x for x in common if x["name"] == "pay")["summary"].startswith("A white space costs")
    assert flows.start_flow("collect", family, player="Ann").action == "transfer"


def test_a_utility_rent_asks_for_the_dice_it_needs(desk):
    do(desk, "buy", player="Ann", deed="Electric Company")
    form = flows.start_flow("rent", desk.specs, player="Bob").fill("deed", "Electric Company")
    assert desk.next_field(form.action, form.values).kind == "dice"
    view = ask_view(desk, form, "dice")
    assert [c["value"] for c in view["choices"]] == list(range(2, 13))
    assert all(c["refused"] is None for c in view["choices"])
    seven = next(c for c in view["choices"] if c["value"] == 7)
    assert seven["preview"] == "Bob paid Ann $28 rent for Electric Company" and seven["detail"] == "Bob pays Ann $28"


def test_each_field_is_asked_on_the_screen_made_for_its_kind(desk):
    def asked_on(button, **filled):
        form = flows.start_flow(button, desk.specs, player="Ann")
        for name, value in filled.items():
            form = form.fill(name, value)
        return flows.asking_screen(form, desk.specs[form.action], desk.next_field(form.action, form.values))

    assert asked_on("salary") is None  # nothing to ask: one tap does it
    assert asked_on("pay") == "amount"  # Ann pays the bank: how much
    assert asked_on("transfer") == "amount"  # who pays whom, with the money still to come: the keypad
    assert asked_on("buy") == "ask"  # which deed: the chooser
    assert asked_on("auction") == "ask"  # the lot first, on the chooser
    assert asked_on("auction", deed="Boardwalk") == "auction"  # then the one auction screen
    assert asked_on("trade") == "trade"
    assert asked_on("correct_card") == "ask"  # which deed's card first
    assert asked_on("correct_card", deed="Boardwalk") == "card"


# -- the chooser -------------------------------------------------------------------------------------
def test_buying_lists_the_banks_deeds_with_their_prices(desk):
    do(desk, "buy", player="Ann", deed="Boardwalk")
    form = flows.start_flow("buy", desk.specs, player="Bob")
    view = ask_view(desk, form, "deed")
    assert "Boardwalk" not in [c["value"] for c in view["choices"]]  # only the bank's deeds are for sale
    park = next(c for c in view["choices"] if c["value"] == "Park Place")
    assert (
        park["refused"] is None
        and park["detail"] == "Bob pays $350"
        and park["preview"] == "Bob bought Park Place for $350"
    )
    assert view["title"] == "Buy: which deed?"
    assert [c["value"] for c in view["who"]["choices"] if c["selected"]] == ["Bob"]


# -- who acts ------------------------------------------------------------------------------------------
def test_a_flow_acts_for_the_player_to_play_until_the_banker_picks_another_inside_it(desk):
    """Ann is to play; the banker opens Rent, sees Ann selected in the strip, picks Bob for this one
    rent. The next flow opens for Ann again: nothing stuck to Bob."""
    assert player_to_play(desk.state()) == "Ann"
    rent = flows.start_flow("rent", desk.specs, player=player_to_play(desk.state()))
    strip = ask_view(desk, rent, "deed")["who"]
    assert strip["label"] == "Who pays" and [c["value"] for c in strip["choices"] if c["selected"]] == ["Ann"]
    by_bob = rent.fill(rent.actor, "Bob")
    assert [c["value"] for c in who_row(desk.state(), by_bob, "deed")["choices"] if c["selected"]] == ["Bob"]
    assert by_bob.values["payer"] == "Bob" and who_row(desk.state(), by_bob, "deed")["changed"]
    salary = flows.start_flow("salary", desk.specs, player=player_to_play(desk.state()))
    assert salary.values == {"player": "Ann"}


def test_looking_at_a_players_deeds_never_changes_who_pays(desk):
    """Bob is to play after Ann's turn; the banker looks at Cy's deeds; Bob still pays the next rent."""
    do(desk, "buy", player="Cy", deed="Boardwalk")
    do(desk, "next_turn")
    view = deeds_view(desk, "Boardwalk", whose="Cy")
    assert view["title"] == "Deeds of Cy"
    assert [d["name"] for g in view["groups"] for d in g["deeds"]] == ["Boardwalk"]
    form = flows.start_flow("rent", desk.specs, player=player_to_play(desk.state()))
    assert form.values["payer"] == "Bob"


def test_the_table_outlines_the_player_to_play_only(desk):
    view = table_view(desk.state(), desk.specs)
    assert [t["name"] for t in view["players"] if t["selected"]] == ["Ann"]


def test_the_rent_list_shows_what_each_deed_charges_this_payer(desk):
    do(desk, "buy", player="Ann", deed="Baltic Avenue")
    do(desk, "buy", player="Ann", deed="Boardwalk")
    do(desk, "mortgage", player="Ann", deed="Boardwalk")
    form = flows.start_flow("rent", desk.specs, player="Bob")
    rows = {c["value"]: c for c in ask_view(desk, form, "deed")["choices"]}
    assert (
        rows["Baltic Avenue"]["detail"] == "Bob pays Ann $4"
        and rows["Baltic Avenue"]["preview"] == "Bob paid Ann $4 rent for Baltic Avenue"
    )
    assert rows["Boardwalk"]["refused"] and "mortgaged" in rows["Boardwalk"]["refused"]


@pytest.mark.skipif("monopoly-city" not in pack_names(), reason="Monopoly City is not installed")
def test_monopoly_city_buildings_come_from_its_declared_choices(tmp_path):
    with Banker.create(tmp_path / "city.game", "monopoly-city", ["Ann", "Bob"], {}, backup_every=0) as b:
        d = Desk(b)
        building = next(f for f in d.specs["build"].fields if f.kind == "choice")
        values = [
            c.value for c in d.choices("build", building.name, {"player": "Ann", "deed": next(iter(b.table["deeds"]))})
        ]
        assert "residential" in values and "stadium" in values


# -- the amount keypad -------------------------------------------------------------------------------
def test_the_keypad_types_200_and_shows_dollars():
    pad = Keypad(Currency())
    for key in "0200":
        pad = pad.press(key)
    assert pad.text == "200" and pad.value() == 200 and pad.display() == "$200"
    assert pad.press("<").value() == 20 and pad.press("C").value() is None


def test_quick_amounts_add_up_like_banknotes():
    pad = Keypad(Currency()).add(200).add(50)
    assert pad.value() == 250


def test_monopoly_city_amounts_are_typed_with_k_and_m():
    cur = Currency("₩", "short")
    pad = Keypad(cur)
    for key in "2.5":
        pad = pad.press(key)
    assert pad.value() is None and pad.problem() == "finish with K or M"
    pad = pad.press("M")
    assert pad.value() == 2_500_000 and pad.display() == "₩2.5M"
    assert pad.press("5").text == "2.5M"  # nothing after the suffix
    assert "K" in keys_for(cur) and "K" not in keys_for(Currency())


def test_a_pack_without_quick_amounts_gets_round_ones():
    assert quick_amounts({"start_cash": 1500}) == [1, 5, 10, 20, 50, 100, 200, 500]
    assert quick_amounts({"quick_amounts": [10, 20]}) == [10, 20]


def test_the_confirm_button_says_who_pays_whom_how_much(desk):
    form = flows.start_flow("transfer", desk.specs, player="Ann").fill("to", "Bob")
    view = amount_view(desk, form, Keypad(Currency()).add(200))
    assert view["sentence"] == "Ann paid Bob $200" and view["ready"] and view["refused"] is None
    assert [c["value"] for c in view["sides"][1]["choices"] if c["selected"]] == ["Bob"]
    broke = amount_view(desk, form, Keypad(Currency()).add(5000))
    assert broke["refused"].startswith("Ann has $1,500 but needs $5,000")


# -- deeds -------------------------------------------------------------------------------------------
def test_the_deeds_come_in_the_boards_colour_groups(desk):
    groups = deeds_view(desk)["groups"]
    assert [g["group"] for g in groups][:3] == ["brown", "railroad", "light blue"]
    assert groups[0]["colour"] == group_colour("brown")
    assert [d["name"] for d in groups[0]["deeds"]] == ["Mediterranean Avenue", "Baltic Avenue"]


def test_boardwalk_with_a_hotel_charges_2000_and_cannot_be_mortgaged(desk):
    do(desk, "transfer", **{"from": "bank", "to": "Ann", "amount": 5000})
    do(desk, "buy", player="Ann", deed="Boardwalk")
    do(desk, "buy", player="Ann", deed="Park Place")
    for _ in range(4):
        do(desk, "build", player="Ann", deed="Park Place")
        do(desk, "build", player="Ann", deed="Boardwalk")
    do(desk, "build", player="Ann", deed="Boardwalk", building="hotel")
    assert rent_now(desk, "Boardwalk").startswith("Bob has $1,500 but needs $2,000 for rent for Boardwalk")
    do(desk, "transfer", **{"from": "bank", "to": "Bob", "amount": 1000})
    assert rent_now(desk, "Boardwalk") == "Rent now: $2,000 from Bob"
    card = deed_card(desk, "Boardwalk")
    acts = {a["text"]: a for a in card["actions"]}
    # the button says who pays whom how much before its one tap (the law of the banker's screen)
    assert acts["Rent: Bob pays Ann $2,000"]["preview"] == "Bob paid Ann $2,000 rent for Boardwalk"
    assert acts["Mortgage"]["refused"] == "sell the buildings on the dark blue group before mortgaging Boardwalk"
    assert acts["Buy"]["refused"] == "Boardwalk already belongs to Ann"
    assert acts["Build: Hotel"]["refused"]
    assert card["owner_text"] == "Owner: Ann" and card["marks_text"] == "hotel"
    assert ("Rent", "$50 / $200 / $600 / $1,400 / $1,700 / $2,000") in card["lines"]


def test_a_bank_deed_offers_buying_and_auction(desk):
    do(desk, "next_turn")
    card = deed_card(desk, "Park Place")
    live = [a["text"] for a in card["actions"] if a["refused"] is None]
    assert "Buy: Bob pays $350" in live and "Auction" in live  # the player to play buys it, at its price
    assert card["owner_text"] == "Owned by the bank" and rent_now(desk, "Park Place") == ""


# -- trade -------------------------------------------------------------------------------------------
def test_ann_trades_park_place_for_bobs_railroad_and_100(desk):
    do(desk, "buy", player="Ann", deed="Park Place")
    do(desk, "buy", player="Bob", deed="Reading Railroad")
    deal = Deal(a="Ann", b="Bob").toggle("Park Place", "give").toggle("Reading Railroad", "get").add_cash("get", 100)
    view = trade_view(desk, deal)
    assert view["sentence"] == "Ann gives Park Place; Bob gives $100, Reading Railroad"
    assert view["ready"] and view["refused"] is None
    assert deal.action() == {
        "action": "trade",
        "a": "Ann",
        "b": "Bob",
        "give": {"deeds": ["Park Place"]},
        "get": {"cash": 100, "deeds": ["Reading Railroad"]},
    }


# -- history, loans, game over ----------------------------------------------------------------------
def test_history_is_newest_first_and_marks_what_was_undone(desk):
    do(desk, "salary", player="Ann")
    do(desk, "salary", player="Bob")
    desk.undo()
    entries = desk.banker.log()
    view = history_view(entries, undo_text=desk.undo_text(), redo_text=desk.redo_text())
    assert [r["text"] for r in view["rows"][:3]] == [
        "Undone: Bob collected $200 salary",
        "Bob collected $200 salary",
        "Ann collected $200 salary",
    ]
    assert view["rows"][1]["undone"] and not view["rows"][2]["undone"]
    assert view["redo_text"] == "Redo: Bob collected $200 salary"


def test_a_mortgage_shows_what_lifting_it_costs(desk):
    do(desk, "buy", player="Bob", deed="Reading Railroad")
    do(desk, "mortgage", player="Bob", deed="Reading Railroad")
    view = loans_view(desk)
    assert [(m["player"], m["text"], m["lift_text"]) for m in view["mortgages"]] == [
        ("Bob", "Reading Railroad is mortgaged", "Lift: Bob pays $110")
    ]
    assert view["empty_text"] == ""


def test_loans_due_soonest_come_first():
    state = {
        "players": [
            {"name": "Ann", "colour": "red", "loans": [{"text": "loan", "due_in_turns": 5, "amount_text": "$1,000"}]},
            {
                "name": "Bob",
                "colour": "blue",
                "loans": [{"text": "mortgage", "due_in_turns": 1}, {"text": "old", "overdue": True}],
            },
        ]
    }
    rows = loan_rows(state)
    assert [r["text"] for r in rows] == ["old", "mortgage", "loan"]
    assert [r["due_text"] for r in rows] == ["overdue", "due in 1 turn", "due in 5 turns"]
    assert rows[0]["urgent"] and rows[1]["urgent"] and not rows[2]["urgent"]


def test_game_over_ranks_by_worth_and_charts_every_entry(desk):
    do(desk, "buy", player="Bob", deed="Boardwalk")
    do(desk, "salary", player="Cy")
    do(desk, "end_game", reason="time is up")
    series = worth_series(desk.banker)
    assert len(series["Ann"]) == desk.version
    from companion.core.engine import ranking

    view = over_view(desk.state(), ranking(desk.table, desk.rules), desk.fmt, series)
    assert view["title"] == "Cy wins" and view["reason"] == "time is up"
    assert [r["player"] for r in view["rows"]] == ["Cy", "Ann", "Bob"]
    assert view["top_text"] == "$1,700"


def test_worth_is_kept_up_to_date_by_folding_only_new_entries(desk):
    history = WorthHistory()
    assert len(history.update(desk.banker)["Ann"]) == 1
    do(desk, "salary", player="Ann")
    assert history.update(desk.banker)["Ann"] == [1500, 1700]


def test_the_chart_leaves_out_what_was_undone_and_puts_back_what_was_redone(desk):
    """Ann buys Boardwalk by mistake (undone), then collects salary; Bob's salary is undone and redone:
    the chart shows the game as played, never Boardwalk's $400 dip."""
    history = WorthHistory()
    do(desk, "transfer", **{"from": "Ann", "to": "bank", "amount": 400})
    assert desk.undo().ok
    do(desk, "salary", player="Ann")
    do(desk, "salary", player="Bob")
    assert desk.undo().ok and desk.redo().ok
    series = history.update(desk.banker)
    assert series["Ann"] == [1500, 1700, 1700]
    assert series["Bob"] == [1500, 1500, 1700]
    assert WorthHistory().update(desk.banker) == series  # the same whether folded at once or bit by bit


def test_a_finished_game_opens_with_its_buttons_greyed_saying_why(desk):
    do(desk, "end_game")
    view = table_view(desk.state(), desk.specs, undo_text=desk.undo_text())
    assert view["over"] and view["buttons"]
    assert all(b["refused"].startswith("the game is over: Undo goes back into it") for b in view["buttons"])
    assert view["can_undo"]  # Undo stays: it goes back into the game
    assert desk.undo().ok
    view = table_view(desk.state(), desk.specs)
    assert not any(b.get("refused") for b in view["buttons"])


def test_a_player_without_deeds_is_shown_no_other_deed(desk):
    from companion.ui.deeds_view import deed_to_show

    do(desk, "buy", player="Ann", deed="Boardwalk")
    assert deed_to_show(desk.table, "Cy", "Mediterranean Avenue") == ""  # Cy owns none: no bank deed's card
    assert deed_to_show(desk.table, "Ann", "Mediterranean Avenue") == "Boardwalk"
    assert deed_to_show(desk.table, None, "Park Place") == "Park Place"


def test_a_long_series_is_sampled_keeping_both_ends():
    assert sample(list(range(1000)), 5) == [0, 250, 500, 749, 999]


# -- settings ----------------------------------------------------------------------------------------
def test_settings_are_saved_and_a_bad_one_is_refused(tmp_path):
    s = UiSettings.load(tmp_path)
    assert (s.theme, s.host, s.port) == ("dark", "0.0.0.0", 8080)
    s = s.change("theme", "light").change("port", 8181)
    s.save()
    assert UiSettings.load(tmp_path).theme == "light" and UiSettings.load(tmp_path).port == 8181
    with pytest.raises(ValueError, match="not an IP address"):
        s.change("host", "pi.local")
    (tmp_path / "touchscreen.json").write_text(json.dumps({"theme": "purple", "port": 9000}))
    assert (UiSettings.load(tmp_path).theme, UiSettings.load(tmp_path).port) == ("dark", 9000)


def test_a_card_is_corrected_field_by_field(desk):
    card = desk.pack["cards"]["Boardwalk"]
    fields = {f["key"]: f for f in card_fields(card)}
    assert fields["rent"]["text"] == "50, 200, 600, 1400, 1700, 2000"
    values = changed_values(card, {"price": ("int", "410"), "rent": ("list", "50, 200, 600, 1400, 1700, 2000")})
    assert values == {"price": 410}
    with pytest.raises(ValueError, match="not a whole number"):
        changed_values(card, {"price": ("int", "lots")})


def test_themes_and_readable_text_colours():
    assert theme("light")["bg"] != theme("dark")["bg"] and theme("neon") == theme("dark")
    assert text_on(group_colour("yellow"))[0] < 0.5 and text_on(group_colour("dark blue"))[0] == 1


# -- purity ------------------------------------------------------------------------------------------
def test_view_models_load_no_kivy():
    modules = [
        "games",
        "flows",
        "desk",
        "table_view",
        "ask_view",
        "amount_view",
        "keypad",
        "deeds_view",
        "history_view",
        "loans_view",
        "over_view",
        "trade_view",
        "settings_view",
        "colours",
        "unit_link",
        "phones",
        "auction_view",
    ]
    code = (
        "import sys\n"
        + "".join(f"import companion.ui.{m}\n" for m in modules)
        + "print([m for m in sys.modules if m.split('.')[0] == 'kivy'])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


# -- the trading unit and the phones, without a window ----------------------------------------------
class FakeClock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_the_auction_light_goes_off_and_the_highest_bidder_pays_the_bank(desk):
    from companion.ui.unit_link import UnitLink

    clock = FakeClock()
    link = UnitLink(desk.pack, act=desk.do, clock=clock)
    link.unit.press_auction(0.0, lot="Park Place")
    link.unit.bid(3.0, "Bob", 120)
    link.unit.bid(9.0, "Cy", 150)
    assert desk.table["deeds"]["Park Place"].get("owner") is None
    link.unit.advance(50.0)
    assert desk.table["deeds"]["Park Place"]["owner"] == "Cy"
    assert desk.table["accounts"]["Cy"] == 1350 and link.last_result.ok
    link.close()


def test_in_monopoly_city_the_spinner_stopping_gives_ann_her_blocks_for_the_turn(tmp_path):
    import random

    from companion.core.model import current_player
    from companion.ui.unit_link import UnitLink

    city = Desk(Banker.create(tmp_path / "city.game", "monopoly-city", ["Ann", "Bob"], {}, backup_every=0))
    clock = FakeClock()
    link = UnitLink(
        city.pack, act=city.do, clock=clock, rng=random.Random(3), whose_turn=lambda: current_player(city.table)
    )
    link.unit.press_build(0.0)
    link.unit.advance(30.0)
    spin = city.table["turn"]["spin"]
    assert spin["player"] == "Ann" and spin["turn"] == 1 and link.last_result.ok
    face = link.unit.spins[-1].face  # "1", "2", "3" or "railroad"
    assert spin["result"] == (face if face == "railroad" else int(face))
    link.close()
    city.close()


def test_ann_rolls_a_double_in_monopoly_city_and_the_spinner_turns_again(tmp_path):
    import random

    from companion.core.model import current_player
    from companion.ui.unit_link import UnitLink

    city = Desk(Banker.create(tmp_path / "double.game", "monopoly-city", ["Ann", "Bob"], {}, backup_every=0))
    link = UnitLink(
        city.pack, act=city.do, clock=FakeClock(), rng=random.Random(5), whose_turn=lambda: current_player(city.table)
    )
    link.unit.press_build(0.0)
    link.unit.advance(30.0)
    assert link.last_result.ok and len(city.banker.log()) == 2
    link.unit.press_build(31.0)  # the same roll: the spinner turns once
    link.unit.advance(35.0)
    assert len(link.unit.spins) == 1
    city.do({"action": "double", "player": "Ann"})
    link.follow_turn(city.table["turn"]["number"], city.table["turn"].get("roll", 1))
    link.unit.press_build(40.0)
    link.unit.advance(70.0)
    assert link.last_result.ok and len(link.unit.spins) == 2
    assert [e.action["action"] for e in city.banker.log()[-2:]] == ["double", "spin"]
    link.close()
    city.close()


def test_the_units_next_turn_and_undo_buttons_work_the_ledger(desk):
    from companion.ui.unit_link import UnitLink

    link = UnitLink(desk.pack, act=desk.do)
    link.unit.press_next_turn(1.0)
    assert desk.state()["turn"]["player"] == "Bob"
    link.unit.press_undo(2.0)
    link.unit.release_undo(2.1)
    assert desk.state()["turn"]["player"] == "Ann"
    link.follow_turn(desk.table["turn"]["number"])
    assert link.unit.turn == 1
    link.close()


def test_the_gpio_next_turn_button_reaches_the_ledger_through_the_loop(desk):
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    from companion.ui.unit_link import UnitLink

    handed_over = []
    link = UnitLink(desk.pack, act=desk.do)
    from companion.appliance import board_opener

    text = link.open_board(
        board_opener(),
        call_soon_threadsafe=lambda fn, *args: handed_over.append((fn, args)),
        pin_factory=MockFactory(pin_class=MockPWMPin),
    )
    assert text == "Buttons, light and buzzer connected"
    try:
        button = link.board.devices.buttons["next_turn"]
        button.pin.drive_low()
        for _ in range(100):
            if handed_over:
                break
            import time

            time.sleep(0.01)
        assert handed_over, "the press never reached the loop"
        fn, args = handed_over.pop(0)
        fn(*args)  # the app's loop runs it
        assert desk.state()["turn"]["player"] == "Bob"
        link.muted = True
        link.board.devices.show(1.0, 1760.0)  # a muted buzzer stays quiet; the light still shows
        assert link.board.devices.buzzer.value == 0
    finally:
        link.close()


def test_a_phone_request_is_approved_and_another_declined_with_a_reason(desk):
    import asyncio

    from companion.ui.phones import Phones, request_rows

    from companion.appliance import phone_server

    phones = Phones(
        UiSettings(host="127.0.0.1", port=0), server_factory=phone_server(), advertise=False, lan_address="127.0.0.1"
    )
    if not phones.installed:
        pytest.skip("the phones' server is not installed")

    async def round_at_the_table():
        assert await phones.start(desk.banker) is None
        try:
            requests = phones.server.requests
            pizza = requests.ask("Bob", "Ann", 50, "pizza")
            yacht = requests.ask("Cy", "bank", 1000, "a yacht")
            do(desk, "transfer", **{"from": "Cy", "to": "bank", "amount": 800})  # meanwhile, at the table
            rows = request_rows(phones.pending(), desk)
            assert [r["text"] for r in rows] == [
                "Bob asks to pay Ann $50 (pizza)",
                "Cy asks to pay the bank $1,000 (a yacht)",
            ]
            assert rows[0]["refused"] is None and rows[1]["refused"].startswith("Cy has $700 but needs $1,000")
            assert phones.approve(pizza.id).ok and desk.table["accounts"]["Ann"] == 1550
            assert not phones.approve(yacht.id).ok
            assert phones.decline(yacht.id, "Wrong amount").ok
            assert phones.pending() == []
            assert phones.join_url("Ann").startswith("http://127.0.0.1:")
        finally:
            await phones.stop()

    asyncio.run(round_at_the_table())
    assert not phones.running


def test_the_auction_keypad_is_two_rows_with_k_and_m_for_monopoly_city():
    short = Currency.from_pack({"currency": {"symbol": "\u20a9", "style": "short"}})
    assert wide_keys(keys_for(short)) == ["1", "2", "3", "4", "5", "6", "7", "8", "9", "0", ".", "<", "K", "M", "00"]
    pad = Keypad(short)
    for key in "1.5M":
        pad = pad.press(key)
    assert pad.value() == 1_500_000


def test_a_familys_description_reaches_the_screen_without_code_names():
    assert (
        flows.for_people("The player goes to Jail for 3 turns (or ``turns``); jail turns do not count.")
        == "The player goes to Jail for 3 turns; jail turns do not count."
    )
    assert (
        flows.for_people("or send them back. ``over_bridge``: back across the Toll Bridge.")
        == "or send them back. over bridge: back across the Toll Bridge."
    )


def test_more_is_a_short_grouped_menu_with_bankrupt_last(desk):
    _, more = flows.buttons_for(desk.specs)
    menu = flows.more_menu(more)
    assert [g["title"] for g in menu] == ["Turn", "Money", "Deeds", "Game"]
    assert menu[-1]["actions"][-1]["name"] == "bankrupt" and menu[-1]["actions"][-1]["destructive"]
    assert sum(len(g["actions"]) for g in menu) == len(more)
    assert {"mortgage", "unmortgage", "trade"} <= {a["name"] for a in menu[2]["actions"]}


def test_the_touchscreen_does_not_import_the_phones_adapter():
    """One composition root (companion.appliance) wires them; the touchscreen's modules never import
    companion.web themselves."""
    code = (
        "import sys, pkgutil, importlib, companion.ui, companion.ui.screens\n"
        "for m in pkgutil.iter_modules(companion.ui.__path__):\n"
        "    if m.name not in ('bank_app', 'trading_unit', 'chart', 'widgets', 'screens'):\n"
        "        importlib.import_module('companion.ui.' + m.name)\n"
        "print(sorted(n for n in sys.modules if n.startswith('companion.web')))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ, "KIVY_NO_ARGS": "1"}
    )
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "[]"


def test_a_tile_counts_the_deeds_built_on_in_a_line_that_always_fits(desk):
    do(desk, "buy", player="Ann", deed="Mediterranean Avenue")
    do(desk, "buy", player="Ann", deed="Baltic Avenue")
    do(desk, "build", player="Ann", deed="Baltic Avenue")
    ann = table_view(desk.state(), desk.specs)["players"][0]
    assert ann["deeds_text"] == "2 deeds\n1 built on"


def test_a_finished_game_says_who_won_and_a_deleted_one_is_kept_aside(tmp_path):
    from companion.ui.games import delete_game, describe_game, game_line

    with Banker.create(tmp_path / "friday.game", "classic", ["Ann", "Bob"], {}, backup_every=0) as b:
        b.do({"action": "end_game"})
    game = describe_game(tmp_path / "friday.game")
    assert game["over"] and game_line(game).startswith("Finished: Ann won")
    kept = delete_game(tmp_path / "friday.game")
    assert not (tmp_path / "friday.game").exists() and kept == tmp_path / "deleted" / "friday.game"
    assert saved_games(tmp_path) == [] and describe_game(kept)["winner"] == "Ann"


def test_deleting_a_game_deletes_its_phones_codes_too(tmp_path):
    from companion.ui.games import delete_game
    from companion.web.sidecar import open_sidecar, sidecar_path

    Banker.create(tmp_path / "sunday.game", "classic", ["Ann", "Bob"], {}, backup_every=0).close()
    open_sidecar(tmp_path / "sunday.game").close()
    assert sidecar_path(tmp_path / "sunday.game").exists()
    delete_game(tmp_path / "sunday.game")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deleted"]
    assert sorted(p.name for p in (tmp_path / "deleted").iterdir()) == ["sunday.game"]


def test_a_new_game_can_start_with_the_same_players_as_last_time(tmp_path):
    from companion.ui.games import last_players

    Banker.create(
        tmp_path / "friday.game",
        "classic",
        [{"name": "Ann", "colour": "blue"}, {"name": "Bob", "colour": "red"}],
        {},
        backup_every=0,
    ).close()
    people = last_players(tmp_path)
    assert people == [{"name": "Ann", "colour": "blue"}, {"name": "Bob", "colour": "red"}]
    form = NewGame.start("monopoly-city", players=3).with_players(people)
    assert form.people() == people and form.pack == "monopoly-city"


def test_a_trade_shows_who_gives_what_and_all_each_pays_with_the_10_percent(desk):
    """Bob's Reading Railroad is mortgaged: Ann gives $300 for it and pays the bank 10% of its
    mortgage on top, so Ann pays $310 in all."""
    do(desk, "buy", player="Bob", deed="Reading Railroad")
    do(desk, "mortgage", player="Bob", deed="Reading Railroad")
    deal = Deal(a="Ann", b="Bob").toggle("Reading Railroad", "get").add_cash("give", 300)
    view = trade_view(desk, deal)
    assert view["give_title"] == "Ann gives $300" and view["get_title"] == "Bob gives $0"
    assert view["give_total"] == "Ann pays $310 in all" and view["get_total"] == "Bob pays $0 in all"
    assert view["confirm_text"] == view["preview"][:1].upper() + view["preview"][1:]


# -- Monopoly City: build from the spin -------------------------------------------------------------
def _from_spin(desk: Desk, form: flows.ActionForm) -> flows.ActionForm:
    """The Build form filled from what the family says Ann's spin gives (``Desk.build_spin``)."""
    spec = desk.specs[form.action]
    return flows.with_spin(form, desk.build_spin(form.values.get(form.actor), flows.spin_building(form, spec)), spec)


@pytest.mark.skipif("monopoly-city" not in pack_names(), reason="Monopoly City is not installed")
def test_ann_spun_3_so_build_asks_only_the_district_and_shows_what_3_blocks_cost(tmp_path):
    with Banker.create(tmp_path / "city.game", "monopoly-city", ["Ann", "Bob"], {}, backup_every=0) as b:
        d = Desk(b)
        do(d, "buy", player="Ann", deed="Mill Lane")
        assert flows.spins_first(d.specs)
        form = _from_spin(d, flows.start_flow("build", d.specs, player="Ann"))
        assert form.values["building"] == "residential" and "count" not in form.values
        do(d, "spin", player="Ann", result=3)
        form = _from_spin(d, form)
        assert form.values["count"] == 3 and d.next_field("build", form.values).name == "deed"
        view = ask_view(d, form, "deed")
        mill = next(r for r in view["choices"] if r["value"] == "Mill Lane")
        cost = d.table["pack"]["cards"]["Mill Lane"]["residential_cost"] * 3
        assert mill["refused"] is None and Currency.from_pack(d.pack).format(cost) in mill["detail"]
        assert "Ann built 3 residential blocks on Mill Lane" in mill["preview"]
        rows = {r["field"]: r for r in view["shown"]}
        assert [c["value"] for c in rows["count"]["choices"]] == [1, 2, 3]
        assert next(c for c in rows["building"]["choices"] if c["selected"])["value"] == "residential"
        assert "What to build" not in view["so_far"]  # shown as a row to change, not as decided text


@pytest.mark.skipif("monopoly-city" not in pack_names(), reason="Monopoly City is not installed")
def test_industrial_or_a_stadium_is_one_tap_on_the_row_and_a_stadium_takes_no_count(tmp_path):
    with Banker.create(tmp_path / "city.game", "monopoly-city", ["Ann", "Bob"], {}, backup_every=0) as b:
        d = Desk(b)
        do(d, "spin", player="Ann", result=2)
        form = _from_spin(d, flows.start_flow("build", d.specs, player="Ann"))
        assert flows.pick(form, "building", "industrial").values["count"] == 2
        stadium = flows.pick(form, "building", "stadium")
        assert "count" not in stadium.values
        assert flows.pick(stadium, "building", "residential").values["count"] == 2  # blocks come back with the spin
        assert flows.pick(form, "count", 1).values["count"] == 1


@pytest.mark.skipif("monopoly-city" not in pack_names(), reason="Monopoly City is not installed")
def test_a_spun_railroad_fills_the_railroad_and_a_used_spin_says_nothing_is_left(tmp_path):
    with Banker.create(tmp_path / "city.game", "monopoly-city", ["Ann", "Bob"], {}, backup_every=0) as b:
        d = Desk(b)
        do(d, "buy", player="Ann", deed="Mill Lane")
        do(d, "spin", player="Ann", result="railroad")
        form = _from_spin(d, flows.start_flow("build", d.specs, player="Ann"))
        assert form.values["building"] == "railroad" and "count" not in form.values
        do(d, "build", **form.values, deed="Mill Lane")
        again = _from_spin(d, form)
        rows = {r["value"]: r for r in ask_view(d, again, "deed")["choices"]}
        assert "already built" in rows["Mill Lane"]["refused"]
        assert again.allowance == 0 and d.build_spin("Ann")["text"] == "a railroad (built)"


# -- structured fields: tiles read from the schema, never typing -------------------------------------
from companion.ui import schema_form  # noqa: E402
from companion.ui.structured_view import form_view  # noqa: E402

LIFE_PEOPLE = [{"name": "Ann", "colour": "red"}, {"name": "Bob", "colour": "blue"}, {"name": "Cy", "colour": "green"}]


@pytest.fixture
def life(tmp_path):
    d = Desk(Banker.create(tmp_path / "life.game", "game-of-life", LIFE_PEOPLE, {}, backup_every=0))
    yield d
    d.close()


def test_every_structured_field_a_table_plays_is_answered_with_tiles():
    from companion.rules import load_pack, rules_for

    typed = set()
    for name in pack_names():
        for spec in rules_for(load_pack(name)).registry:
            for f in spec.fields:
                if f.kind == "structured" and not schema_form.renders(f.schema):
                    typed.add(f"{spec.name}.{f.name}")
    # a deed card's printed values are corrected on the card editor, a trade on its two columns
    assert typed == {"correct_card.values", "trade.give", "trade.get"}, typed


def test_side_bets_are_rows_of_players_numbers_and_stakes():
    from companion.rules.life_wheel import BETS

    setting = schema_form.Setting(
        players=("Bob", "Cy"), amounts=(500, 1000, 5000, 10000, 20000, 50000), fmt=lambda n: f"${n:,}"
    )
    value = schema_form.change(BETS.schema, [], (), "add")
    rows = schema_form.rows(BETS.schema, value, setting)
    assert [(r["kind"], r["label"]) for r in rows] == [
        ("item", "Bet 1"),
        ("pick", "Who bets"),
        ("pick", "Number"),
        ("amount", "Stake"),
        ("add", "Add"),
    ]
    assert [c["label"] for c in rows[-1]["choices"]] == ["Bob's bet", "Cy's bet"]
    assert schema_form.change(BETS.schema, [], (), "add", ("player", "Cy")) == [{"player": "Cy"}]
    assert schema_form.rows(BETS.schema, [], schema_form.Setting()) == []  # nobody may bet: nothing to add
    assert [c["label"] for c in rows[1]["choices"]] == ["Bob", "Cy"]
    assert [c["value"] for c in rows[2]["choices"]] == list(range(1, 11))
    assert [c["label"] for c in rows[3]["chips"]] == ["+$500", "+$1,000", "+$5,000", "+$10,000", "+$20,000"]
    assert schema_form.missing(BETS.schema, value) == "Bet 1: choose who bets"
    value = schema_form.change(BETS.schema, value, (0, "player"), "pick", "Bob")
    value = schema_form.change(BETS.schema, value, (0, "number"), "pick", 7)
    value = schema_form.change(BETS.schema, value, (0, "amount"), "add_amount", 10000)
    value = schema_form.change(BETS.schema, value, (0, "amount"), "add_amount", 10000)
    assert value == [{"player": "Bob", "number": 7, "amount": 20000}]
    assert schema_form.missing(BETS.schema, value) is None
    assert schema_form.change(BETS.schema, value, (0,), "remove") == []
    # the chosen tile again takes the answer back
    assert schema_form.change(BETS.schema, value, (0, "number"), "pick", 7) == [{"player": "Bob", "amount": 20000}]


def test_two_numbers_to_speculate_on_the_first_gives_way_to_a_third():
    from companion.rules.life_wheel import SPECULATE

    value = []
    for n in (3, 8, 5):
        value = schema_form.change(SPECULATE.schema, value, (), "toggle", n)
    assert value == [8, 5]
    assert schema_form.change(SPECULATE.schema, value, (), "toggle", 8) == [5]
    assert schema_form.missing(SPECULATE.schema, [5]) == "choose 1 more number"
    (row,) = schema_form.rows(SPECULATE.schema, [8, 5], schema_form.Setting())
    assert row["kind"] == "many" and [c["value"] for c in row["choices"] if c["selected"]] == [5, 8]


def test_answers_by_player_count_up_and_down_and_zero_leaves_the_player_out():
    from companion.rules.city_life_cards import ANSWERS

    setting = schema_form.Setting(players=("Ann", "Bob"))
    value = schema_form.change(ANSWERS.schema, {}, ("Ann",), "more")
    value = schema_form.change(ANSWERS.schema, value, ("Ann",), "more")
    value = schema_form.change(ANSWERS.schema, value, ("Bob",), "more")
    assert value == {"Ann": 2, "Bob": 1}
    assert schema_form.change(ANSWERS.schema, value, ("Bob",), "less") == {"Ann": 2}
    rows = schema_form.rows(ANSWERS.schema, value, setting)
    assert [(r["label"], r["text"], r["less"]) for r in rows] == [("Ann", "2", True), ("Bob", "1", True)]


def test_the_spin_form_names_only_the_spinners_opponents_and_reads_the_log_sentence(life):
    do(life, "transfer", **{"from": "bank", "to": "Bob", "amount": 20000})
    form = flows.start_flow("spin", life.specs, player="Ann").fill("number", 7)
    assert life.next_field("spin", form.values).name == "bets"
    view = form_view(life, form, "bets", [{"player": "Bob", "number": 7, "amount": 20000}])
    assert [c["label"] for c in view["rows"][1]["choices"]] == ["Bob", "Cy"]
    assert view["sentence"] == "Ann spun 7; bets: Bob won $200,000" and view["ready"]
    nothing = form_view(life, form, "bets", [])
    assert nothing["sentence"].startswith("Nothing rides on Ann's spin of 7") and not nothing["ready"]


def test_a_lucky_day_kept_reads_as_such_and_speculating_asks_the_spin_next(life):
    form = flows.start_flow("lucky_day", life.specs, player="Ann")
    kept = form_view(life, form, "speculate", [])
    assert kept["sentence"] == "Keep the money: Ann collected $10,000 on a Lucky Day and kept it" and kept["ready"]
    half = form_view(life, form, "speculate", [4])
    assert half["sentence"] == "Choose 1 more number" and not half["ready"]
    both = form_view(life, form, "speculate", [4, 9])
    assert both["sentence"] == "Next" and both["ready"]
    assert life.next_field("lucky_day", form.fill("speculate", [4, 9]).values).name == "spin"
    assert flows.ActionForm("lucky_day", {"player": "Ann", "speculate": []}).as_action() == {
        "action": "lucky_day",
        "player": "Ann",
    }


def test_the_quiz_form_leaves_out_the_judge(tmp_path):
    d = Desk(Banker.create(tmp_path / "city.game", "city-life", LIFE_PEOPLE, {"advanced": True}, backup_every=0))
    try:
        form = flows.start_flow("quiz", d.specs, player="Ann")
        view = form_view(d, form, "answers", {})
        assert [r["label"] for r in view["rows"]] == ["Ann", "Bob"]  # Cy, before Ann, is the Judge
        assert (
            view["note"] == "Cy is the Judge (the player before Ann): Cy asks, checks the answers and does not answer"
        )
        assert view["sentence"] == "Nothing chosen yet" and not view["ready"]
    finally:
        d.close()
    basic = Desk(Banker.create(tmp_path / "basic.game", "city-life", LIFE_PEOPLE, {}, backup_every=0))
    try:
        view = form_view(basic, flows.start_flow("quiz", basic.specs, player="Ann"), "answers", {"Ann": 1})
        assert [r["label"] for r in view["rows"]] == ["Ann"]  # basic rules: only the player who rolled
        assert view["note"] == "Another player reads the card and checks the answers; only Ann, who rolled, answers"
        assert view["sentence"] == "Quiz Card round for Ann's roll of 3: Ann $300"
    finally:
        basic.close()


def test_a_character_card_is_corrected_with_money_steps_yes_no_and_its_name_in_words():
    from companion.rules.green_characters import CHARACTER_VALUES

    setting = schema_form.Setting(amounts=(500, 10000, 50000, 100000, 200000, 500000), fmt=lambda n: f"€{n:,}")
    rows = schema_form.rows(CHARACTER_VALUES, {}, setting)
    assert [(r["kind"], r["label"]) for r in rows] == [
        ("amount", "Salary"),
        ("pick", "Night"),
        ("pick", "Detour"),
        ("pick", "Stand-in"),
        ("text", "Name"),
    ]
    assert all(r["clearable"] for r in rows if r["kind"] == "pick")  # a value not chosen stays as printed
    value = schema_form.change(CHARACTER_VALUES, {}, ("title",), "type", "  The   Gardener ")
    assert value == {"title": "The Gardener"}
    assert schema_form.change(CHARACTER_VALUES, value, ("title",), "type", "") == {}
    value = schema_form.change(CHARACTER_VALUES, value, ("night",), "pick", False)
    assert schema_form.change(CHARACTER_VALUES, value, ("night",), "pick", False) == {"title": "The Gardener"}


def test_a_schema_no_tile_can_answer_is_typed_only_behind_type_it(desk):
    form = flows.ActionForm("correct_card", {"deed": "Boardwalk"})
    view = form_view(desk, form, "values", "")
    assert view["typed"] and view["rows"] == [] and not view["ready"]
    assert view["sentence"] == "Nothing written yet"
    broken = form_view(desk, form, "values", "{")
    assert not broken["ready"] and broken["sentence"].startswith("Not valid JSON")
    written = form_view(desk, form, "values", '{"price": 450}')
    assert written["ready"] and written["value"] == {"price": 450}
    assert written["sentence"] == "The banker corrected Boardwalk: price = $450"


def test_names_from_a_finite_set_are_never_typed_a_list_of_words_has_no_tiles():
    names = {"type": "array", "maxItems": 5, "items": {"type": "string", "maxLength": 120}}
    assert not schema_form.renders(names)  # deeds are tapped on their own screens, not typed into a form
    assert schema_form.renders({"type": "object", "properties": {"title": {"type": "string", "maxLength": 60}}})


def test_the_pack_bounds_a_quiz_to_its_three_questions_and_a_side_bet_to_20000(life):
    from companion.rules.city_life_cards import ANSWERS
    from companion.rules.life_wheel import BETS

    setting = schema_form.Setting(players=("Ann",), limits={"quiz_questions": 3})
    (row,) = schema_form.rows(schema_form.bounded(ANSWERS.schema, setting), {"Ann": 2}, setting)
    assert row["kind"] == "pick" and [c["value"] for c in row["choices"]] == [0, 1, 2, 3]
    assert [c["value"] for c in row["choices"] if c["selected"]] == [2]
    form = flows.start_flow("spin", life.specs, player="Ann").fill("number", 7)
    from companion.ui.structured_view import schema_of

    bets = schema_of(life, form, BETS)
    value = [{"player": "Bob", "number": 7}]
    for _ in range(3):
        value = schema_form.change(bets, value, (0, "amount"), "add_amount", 10000)
    assert value[0]["amount"] == 20000  # at most the pack's limit a spin
    stake = schema_form.rows(bets, value, schema_form.Setting(players=("Bob",), amounts=(500, 50000)))[3]
    assert [c["amount"] for c in stake["chips"]] == [500]


def test_a_city_life_house_card_offers_a_mortgage_only_under_the_advanced_rules(tmp_path):
    for advanced, mortgage_shown in ((False, False), (True, True)):
        city = Desk(
            Banker.create(
                tmp_path / f"city-{advanced}.game", "city-life", ["Ann", "Bob"], {"advanced": advanced}, backup_every=0
            )
        )
        do(city, "land", player="Ann", square=4)
        do(city, "buy", player="Ann", deed="House 4")
        labels = [a["label"] for a in deed_card(city, "House 4")["actions"]]
        assert ("Mortgage" in labels) is mortgage_shown, labels
        city.close()


def test_a_city_life_house_card_writes_its_taxes_as_money_beside_the_visitor_fee(tmp_path):
    """The family says which of a card's values are money: House 4 reads "Property tax $100" as it reads
    "Visitor fee $500", and its square stays a number."""
    city = Desk(Banker.create(tmp_path / "city.game", "city-life", ["Ann", "Bob"], {"advanced": True}, backup_every=0))
    lines = dict(deed_card(city, "House 4")["lines"])
    assert lines["Square"] == "4"
    assert lines["Visitor fee"] == "$500" and lines["Property tax"] == "$100"
    assert lines["Land transfer tax"] == "$200" and lines["Capital gains tax"] == "$200"
    assert lines["Visitor capital gains"] == "$100" and lines["Mortgage cost"].startswith("$")
    city.close()


def test_every_family_says_which_of_its_card_values_are_money(tmp_path):
    """Every whole number printed on a card of every pack is either money, as its family declares, or one
    of the few counts a card carries (a City Life House's square)."""
    from companion.rules import load_pack, rules_for

    counts = {"square"}
    for name in pack_names():
        pack = load_pack(name)
        money = set(rules_for(pack).extras.get("card_money", ()))
        for deed, card in pack["cards"].items():
            for key, value in card.items():
                figures = value if isinstance(value, list) else [value]
                if figures and all(isinstance(v, int) and not isinstance(v, bool) for v in figures):
                    assert (key in money) != (key in counts), (name, deed, key)


def test_the_gardeners_card_opens_with_its_printed_values_and_only_a_changed_salary_is_sent(tmp_path):
    from companion.ui.structured_view import first_value

    d = Desk(Banker.create(tmp_path / "green.game", "greenopoly", LIFE_PEOPLE, {}, backup_every=0))
    try:
        form = flows.start_flow("correct_character", d.specs, player="Ann").fill("character", "Gardener")
        field = d.specs["correct_character"].field("values")
        card = first_value(d, form, field)
        assert card == {"salary": 200_000, "night": True, "detour": True, "stand_in": True, "title": "Gardener"}
        as_printed = form_view(d, form, "values", card)
        rows = {r["label"]: r for r in as_printed["rows"]}
        assert rows["Salary"]["text"] == "€200K" and rows["Name"]["text"] == "Gardener"
        assert [c["label"] for c in rows["Night"]["choices"] if c["selected"]] == ["Yes"]
        assert [c["label"] for c in rows["Detour"]["choices"] if c["selected"]] == ["Yes"]
        assert not any(r["changed"] for r in as_printed["rows"])
        assert as_printed["sentence"] == "Nothing to change: every value reads as printed" and not as_printed["ready"]
        # the banker adds €50K to the salary: only the salary is marked, and only it is sent
        raised = schema_form.change(field.schema, card, ("salary",), "add_amount", 50_000)
        view = form_view(d, form, "values", raised)
        assert [r["label"] for r in view["rows"] if r["changed"]] == ["Salary"]
        assert {r["label"]: r["printed"] for r in view["rows"]}["Salary"] == "€200K"
        assert view["value"] == {"salary": 250_000}
        assert view["sentence"] == "The banker corrected Gardener: salary = €250K" and view["ready"]
        # Night's printed Yes stays chosen when tapped again; No changes it, Yes again puts it back
        assert schema_form.change(field.schema, card, ("night",), "set", True) == card
        no_night = schema_form.change(field.schema, raised, ("night",), "set", False)
        assert form_view(d, form, "values", no_night)["value"] == {"salary": 250_000, "night": False}
        back = schema_form.change(field.schema, no_night, ("night",), "set", True)
        assert form_view(d, form, "values", back)["value"] == {"salary": 250_000}
        # the name's box emptied keeps the printed name
        unnamed = schema_form.change(field.schema, card, ("title",), "type", "")
        assert form_view(d, form, "values", unnamed)["sentence"] == "Nothing to change: every value reads as printed"
    finally:
        d.close()


def test_a_greenopoly_park_is_corrected_in_the_notes_own_k_and_m(tmp_path):
    from companion.core.money import Currency

    d = Desk(Banker.create(tmp_path / "green.game", "greenopoly", LIFE_PEOPLE, {}, backup_every=0))
    try:
        money = Currency.from_pack(d.pack)
        card = d.specs["correct_card"].field("values").current_value(d.table, {"deed": "Corner Park"})
        fields = {f["key"]: f for f in card_fields(card, money)}
        assert fields["price"]["text"] == "100K" and fields["mortgage"]["text"] == "50K"
        assert fields["rent"]["text"] == "6K, 30K, 90K, 270K, 400K"
        assert changed_values(card, {"price": ("int", "€120K"), "rent": ("list", fields["rent"]["text"])}, money) == {
            "price": 120_000
        }
        assert changed_values(card, {"rent": ("list", "8K, 30K, 90K, 270K, 1.2M")}, money) == {
            "rent": [8_000, 30_000, 90_000, 270_000, 1_200_000]
        }
        assert card_fields({"price": 1_234_000}, money)[0]["text"] == "1234000"  # no comma inside a field
        with pytest.raises(ValueError, match="not an amount of money"):
            changed_values(card, {"price": ("int", "lots")}, money)
    finally:
        d.close()


# -- another player in one tap ----------------------------------------------------------------------
from companion.ui.ask_view import offers_others, on_show, others_on_deeds  # noqa: E402


@pytest.fixture
def four(tmp_path):
    people = [
        {"name": n, "colour": c} for n, c in [("Ann", "red"), ("Bob", "blue"), ("Cy", "green"), ("Dee", "yellow")]
    ]
    d = Desk(Banker.create(tmp_path / "four.game", "classic", people, {}, backup_every=0))
    yield d
    d.close()


def test_bobs_boardwalk_with_2_houses_says_ann_pays_600_and_offers_cy_and_dee_600(four):
    """Bob owns Boardwalk with 2 houses; Ann to play; the Rent chooser's Boardwalk tile says Ann pays
    $600 and offers Cy $600 and Dee $600. Bob owns it: no chip for him."""
    for deed in ("Park Place", "Boardwalk"):
        do(four, "buy", player="Bob", deed=deed)
    for deed in ("Boardwalk", "Park Place", "Boardwalk"):
        do(four, "build", player="Bob", deed=deed)
    form = flows.start_flow("rent", four.specs, player=player_to_play(four.state()))
    boardwalk = next(r for r in ask_view(four, form, "deed")["choices"] if r["value"] == "Boardwalk")
    assert boardwalk["detail"] == "Ann pays Bob $600" and boardwalk["refused"] is None
    assert [(c["player"], c["amount"], c["refused"]) for c in boardwalk["others"]] == [
        ("Cy", "$600", None),
        ("Dee", "$600", None),
    ]
    assert boardwalk["others"][0]["preview"] == "Cy paid Bob $600 rent for Boardwalk"
    assert form.values["payer"] == "Ann"  # looking at the chips changes nobody's turn to pay


def test_anns_own_baltic_is_greyed_for_her_and_offered_to_the_others(four):
    do(four, "buy", player="Ann", deed="Baltic Avenue")
    do(four, "buy", player="Bob", deed="Boardwalk")
    form = flows.start_flow("rent", four.specs, player="Ann")
    rows = {r["value"]: r for r in ask_view(four, form, "deed")["choices"]}
    assert rows["Baltic Avenue"]["refused"] == "Ann owns Baltic Avenue: no rent is due"
    assert [(c["player"], c["amount"]) for c in rows["Baltic Avenue"]["others"]] == [
        ("Bob", "$4"),
        ("Cy", "$4"),
        ("Dee", "$4"),
    ]
    shown, hidden = on_show(list(rows.values()), show_all=False)
    assert [r["value"] for r in shown] == ["Baltic Avenue", "Boardwalk"] and hidden == 0


def test_show_more_keeps_the_tiles_on_show_in_their_places(desk):
    """Bob owns Boardwalk, Ann Baltic Avenue: Rent for Cy shows Boardwalk and Baltic first; the deeds
    nobody owns (refused) come after them when asked for, never between."""
    do(desk, "buy", player="Ann", deed="Baltic Avenue")
    do(desk, "buy", player="Bob", deed="Boardwalk")
    rows = [
        {"value": "Mediterranean Avenue", "refused": "nobody owns it", "others": []},
        {"value": "Baltic Avenue", "refused": None, "others": []},
        {"value": "Park Place", "refused": "nobody owns it", "others": []},
        {"value": "Boardwalk", "refused": None, "others": []},
    ]
    shown, hidden = on_show(rows, show_all=False)
    assert [r["value"] for r in shown] == ["Baltic Avenue", "Boardwalk"] and hidden == 2
    every, hidden = on_show(rows, show_all=True)
    assert [r["value"] for r in every] == ["Baltic Avenue", "Boardwalk", "Mediterranean Avenue", "Park Place"]
    assert hidden == 0


def test_dee_short_of_600_has_her_chip_greyed_with_the_rules_reason(four):
    do(four, "buy", player="Bob", deed="Boardwalk")
    do(four, "transfer", **{"from": "Dee", "to": "bank", "amount": 1480})
    form = flows.start_flow("rent", four.specs, player="Ann")
    boardwalk = next(r for r in ask_view(four, form, "deed")["choices"] if r["value"] == "Boardwalk")
    dee = next(c for c in boardwalk["others"] if c["player"] == "Dee")
    found, why = four.preview({"action": "rent", "payer": "Dee", "deed": "Boardwalk"})
    assert found is None and dee["refused"] == why and dee["amount"] == ""


def test_only_rent_offers_other_players_buying_mortgages_and_building_keep_the_strip(four):
    """Chips come from the declarations: an acting player before a deed whose listed deeds differ per
    player. Buying lists the same deeds for everyone; mortgaging and building only the owner's."""
    do(four, "buy", player="Ann", deed="Park Place")
    do(four, "buy", player="Ann", deed="Boardwalk")
    do(four, "buy", player="Bob", deed="Baltic Avenue")
    for action in ("buy", "mortgage", "build"):
        form = flows.start_flow(action, four.specs, player="Ann")
        assert offers_others(four.specs[action], form, "deed")
        assert others_on_deeds(four, form, "deed") == {}, action
        assert all(r.get("others", []) == [] for r in ask_view(four, form, "deed")["choices"])
    salary = flows.start_flow("salary", four.specs, player="Ann")
    assert not any(offers_others(four.specs["salary"], salary, f.name) for f in four.specs["salary"].fields)


def test_a_bank_deeds_card_greys_building_on_its_group_with_the_rules_reason(desk):
    """Building on the whole group still asks how many houses; no answer is possible on a deed the
    bank owns, so the button is greyed with the reason instead of asking a question."""
    acts = {a["label"]: a for a in deed_card(desk, "Mediterranean Avenue")["actions"]}
    assert acts["Build on the whole group"]["refused"] == "Mediterranean Avenue belongs to the bank, not Ann"
    assert acts["Buy"]["refused"] is None and acts["Auction"]["refused"] is None


def test_a_city_life_house_card_offers_a_tower_exchange_for_that_house(tmp_path):
    city = Desk(Banker.create(tmp_path / "city.game", "city-life", ["Ann", "Bob"], {}, backup_every=0))
    exchange = next(a for a in deed_card(city, "House 4")["actions"] if a["action"] == "exchange")
    assert exchange["values"].get("house") == "House 4" and "tower" not in exchange["values"]
    city.close()


def test_a_chosen_bidder_starts_from_the_highest_bid_plus_the_smallest_step(desk):
    from companion.ui.auction_view import auction_view, opening_bid

    assert opening_bid(desk, None) == (0, "")
    assert opening_bid(desk, 220) == (221, "the highest $220 + $1")
    view = auction_view(desk, "Boardwalk", "Ann", 221, None, "the highest $220 + $1")
    assert view["price_text"] == "Ann starts at the highest $220 + $1"
    assert view["amount_text"] == "$221" and view["bid_text"] == "Record: Ann bids $221"


def test_bob_bankrupt_to_ann_asks_each_mortgage_both_ways_and_the_confirm_lists_every_sum(desk):
    from companion.ui.ask_view import ask_view

    for deed in ("Boardwalk", "Baltic Avenue"):
        do(desk, "buy", player="Bob", deed=deed)
        do(desk, "mortgage", player="Bob", deed=deed)
    form = flows.ActionForm("bankrupt", {"player": "Bob", "creditor": "Ann"}, actor="player")
    view = ask_view(desk, form, "lift")
    assert view["kind"] == "both_ways" and view["title"] == "Bankrupt: lift each mortgage now, or keep it?"
    rows = {r["value"]: r for r in view["choices"]}
    assert rows[("Boardwalk", True)]["label"] == "Boardwalk\nLift now: Ann pays $220"
    assert rows[("Boardwalk", False)]["label"] == "Boardwalk\nKeep it mortgaged: Ann pays the 10% now, $20"
    assert rows[("Boardwalk", False)]["selected"] and not rows[("Boardwalk", True)]["selected"]
    form = form.fill("lift", ["Boardwalk"])
    found, _ = desk.preview(form.as_action())
    sums = flows.every_sum(found.postings, desk.account_name, desk.fmt)
    bob = desk.table["accounts"]["Bob"]
    assert sums == [
        f"Bob pays Ann ${bob:,}",
        "Ann pays the bank $223: $3 interest on mortgaged Baltic Avenue, $220 lifting the mortgage on Boardwalk",
    ]
    question = flows.destructive_question(form, desk.account_name, sums, found.summary)
    assert question.startswith(
        f"Bob went bankrupt to Ann, handing over ${bob:,}; Ann paid $3 interest on "
        "mortgaged Baltic Avenue; Ann lifted the mortgage on Boardwalk for $220.\n"
    )
    assert all(line in question for line in sums) and "Bob leaves the game. Are you sure?" in question
