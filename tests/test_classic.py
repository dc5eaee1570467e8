"""Classic Monopoly, round by round: every money rule of the rulebook as the banker meets it."""

import pytest

from companion.core.errors import BadAction, NotEnoughMoney, Refused
from companion.views import state_json


@pytest.fixture
def t(new_game):
    return new_game("classic", "Ann", "Bob", "Cy")


def test_everyone_starts_with_1500_and_the_bank_issued_it(t):
    assert [t.cash(p) for p in ("Ann", "Bob", "Cy")] == [1500, 1500, 1500]
    assert t.cash("bank") == -4500
    assert t.total() == 0


def test_ann_passes_go_and_collects_200(t):
    t.do("salary", player="ann")
    assert t.cash("Ann") == 1700


def test_ann_buys_boardwalk_at_the_printed_price(t):
    out = t.do("buy", player="Ann", deed="boardwalk")
    assert t.cash("Ann") == 1100 and t.owner("Boardwalk") == "Ann"
    assert out.summary == "Ann bought Boardwalk for $400"


def test_bob_cannot_buy_boardwalk_once_ann_owns_it(t):
    t.give("Ann", "Boardwalk")
    assert t.refused("buy", player="Bob", deed="Boardwalk") == "Boardwalk already belongs to Ann"


def test_a_declined_deed_goes_to_auction_and_any_bid_wins(t):
    t.do("auction", deed="Park Place", winner="Cy", bid=10)
    assert t.owner("Park Place") == "Cy" and t.cash("Cy") == 1490


def rich(t, player, amount=5000):
    t.do("transfer", **{"from": "bank", "to": player, "amount": amount, "memo": "set-up"})


def test_bob_lands_on_boardwalk_with_a_hotel_and_pays_ann_2000(t):
    rich(t, "Ann")
    t.give("Ann", "Boardwalk", "Park Place")
    for _ in range(4):
        t.do("build", player="Ann", deed="Park Place")
        t.do("build", player="Ann", deed="Boardwalk")
    t.do("build", player="Ann", deed="Boardwalk", building="hotel")
    t.do("salary", player="Bob")
    t.do("salary", player="Bob")
    t.do("salary", player="Bob")  # Bob has $2,100
    ann = t.cash("Ann")
    out = t.do("rent", payer="Bob", deed="Boardwalk")
    assert out.summary == "Bob paid Ann $2,000 rent for Boardwalk"
    assert t.cash("Ann") == ann + 2000


def test_rent_is_doubled_on_an_unimproved_complete_group(t):
    t.give("Ann", "Mediterranean Avenue")
    t.do("rent", payer="Bob", deed="Mediterranean Avenue")
    assert t.cash("Bob") == 1498
    t.give("Ann", "Baltic Avenue")
    t.do("rent", payer="Bob", deed="Mediterranean Avenue")
    assert t.cash("Bob") == 1494


def test_double_rent_stands_even_when_another_deed_of_the_group_is_mortgaged(t):
    t.give("Ann", "Mediterranean Avenue", "Baltic Avenue")
    t.do("mortgage", player="Ann", deed="Baltic Avenue")
    t.do("rent", payer="Bob", deed="Mediterranean Avenue")
    assert t.cash("Bob") == 1496


def test_no_rent_on_a_mortgaged_deed(t):
    t.give("Ann", "Boardwalk")
    t.do("mortgage", player="Ann", deed="Boardwalk")
    assert t.refused("rent", payer="Bob", deed="Boardwalk") == "Boardwalk is mortgaged: no rent is due"


def test_houses_raise_the_rent_by_the_card(t):
    t.give("Ann", "Oriental Avenue", "Vermont Avenue", "Connecticut Avenue")
    for deed in ("Oriental Avenue", "Vermont Avenue", "Connecticut Avenue"):
        t.do("build", player="Ann", deed=deed)
    t.do("build", player="Ann", deed="Connecticut Avenue")
    t.do("rent", payer="Bob", deed="Connecticut Avenue")
    assert t.cash("Bob") == 1500 - 100


def test_railroad_rent_follows_how_many_the_owner_holds(t):
    t.give("Ann", "Reading Railroad")
    t.do("rent", payer="Bob", deed="Reading Railroad")
    t.give("Ann", "Short Line", "B. & O. Railroad")
    t.do("rent", payer="Bob", deed="Short Line")
    assert t.cash("Bob") == 1500 - 25 - 100
    t.do("rent", payer="Cy", deed="Short Line", multiplier=2)
    assert t.cash("Cy") == 1500 - 200


def test_utility_rent_is_four_or_ten_times_the_dice(t):
    t.give("Ann", "Electric Company")
    t.do("rent", payer="Bob", deed="Electric Company", dice=7)
    assert t.cash("Bob") == 1500 - 28
    t.give("Ann", "Water Works")
    t.do("rent", payer="Bob", deed="Water Works", dice=7)
    assert t.cash("Bob") == 1500 - 28 - 70
    assert "dice" in t.refused("rent", payer="Cy", deed="Water Works")
    assert "dice" in t.refused("rent", payer="Cy", deed="Water Works", dice=13)


def test_mortgage_pays_the_printed_value_and_lifting_costs_ten_percent_more(t):
    t.give("Ann", "Illinois Avenue")
    t.do("mortgage", player="Ann", deed="Illinois Avenue")
    assert t.cash("Ann") == 1500 - 240 + 120
    t.do("unmortgage", player="Ann", deed="Illinois Avenue")
    assert t.cash("Ann") == 1500 - 240 + 120 - 132
    assert not t.deed("Illinois Avenue")["mortgaged"]


def test_mortgage_interest_is_rounded_up_to_the_dollar(t):
    t.give("Ann", "Oriental Avenue")
    t.do("mortgage", player="Ann", deed="Oriental Avenue")  # value $50, interest $5
    t.give("Ann", "Mediterranean Avenue")
    t.do("mortgage", player="Ann", deed="Mediterranean Avenue")  # value $30, interest $3
    t.do("correct_card", deed="Mediterranean Avenue", values={"mortgage": 35})
    before = t.cash("Ann")
    t.do("unmortgage", player="Ann", deed="Mediterranean Avenue")
    assert before - t.cash("Ann") == 35 + 4


def test_a_built_deed_cannot_be_mortgaged(t):
    t.give("Ann", "Park Place", "Boardwalk")
    t.do("build", player="Ann", deed="Boardwalk")
    reason = t.refused("mortgage", player="Ann", deed="Park Place")
    assert reason == "sell the buildings on the dark blue group before mortgaging Park Place"


def test_building_needs_the_whole_group(t):
    t.give("Ann", "Boardwalk")
    reason = t.refused("build", player="Ann", deed="Boardwalk")
    assert reason == "Ann needs the whole dark blue group to build (missing Park Place)"


def test_building_must_be_even(t):
    t.give("Ann", "Park Place", "Boardwalk")
    t.do("build", player="Ann", deed="Boardwalk")
    reason = t.refused("build", player="Ann", deed="Boardwalk")
    assert reason == "build evenly: Park Place needs a house before Boardwalk gets another"


def test_no_building_while_a_deed_of_the_group_is_mortgaged(t):
    t.give("Ann", "Park Place", "Boardwalk")
    t.do("mortgage", player="Ann", deed="Park Place")
    assert "lift the mortgage on Park Place" in t.refused("build", player="Ann", deed="Boardwalk")


def test_the_bank_runs_out_of_houses(t):
    rich(t, "Ann", 20000)
    rich(t, "Bob", 5000)
    groups = [
        ("Park Place", "Boardwalk"),
        ("Pacific Avenue", "North Carolina Avenue", "Pennsylvania Avenue"),
        ("Atlantic Avenue", "Ventnor Avenue", "Marvin Gardens"),
    ]
    for group in groups:
        t.give("Ann", *group)
    for _ in range(4):
        for group in groups:
            for deed in group:
                t.do("build", player="Ann", deed=deed)
    assert t.table["stock"]["houses"] == 0
    t.give("Bob", "Kentucky Avenue", "Indiana Avenue", "Illinois Avenue")
    reason = t.refused("build", player="Bob", deed="Illinois Avenue")
    assert reason == "the bank has no houses left: wait until someone sells some, or auction them among buyers"
    t.do("sell_building", player="Ann", deed="Boardwalk")
    t.do("build", player="Bob", deed="Illinois Avenue")


def test_a_building_shortage_settled_by_auction_costs_the_winning_bid(t):
    t.give("Ann", "Park Place", "Boardwalk")
    t.do("build", player="Ann", deed="Boardwalk", price=450)
    assert t.cash("Ann") == 1500 - 750 - 450


def test_a_hotel_needs_four_houses_on_every_street_and_returns_them(t):
    rich(t, "Ann")
    t.give("Ann", "Park Place", "Boardwalk")
    for _ in range(3):
        t.do("build", player="Ann", deed="Park Place")
        t.do("build", player="Ann", deed="Boardwalk")
    t.do("build", player="Ann", deed="Park Place")
    assert "4 houses on every street" in t.refused("build", player="Ann", deed="Park Place", building="hotel")
    t.do("build", player="Ann", deed="Boardwalk")
    assert t.table["stock"]["houses"] == 24
    t.do("build", player="Ann", deed="Boardwalk", building="hotel")
    assert t.table["stock"] == {"houses": 28, "hotels": 11}


def test_selling_buildings_pays_half_and_must_be_even(t):
    t.give("Ann", "Park Place", "Boardwalk")
    t.do("build", player="Ann", deed="Park Place")
    t.do("build", player="Ann", deed="Boardwalk")
    t.do("build", player="Ann", deed="Boardwalk")
    assert "sell evenly" in t.refused("sell_building", player="Ann", deed="Park Place")
    before = t.cash("Ann")
    t.do("sell_building", player="Ann", deed="Boardwalk")
    assert t.cash("Ann") == before + 100
    assert t.table["stock"]["houses"] == 30


def test_selling_a_hotel_gives_back_four_houses_and_half_its_price(t):
    rich(t, "Ann")
    t.give("Ann", "Park Place", "Boardwalk")
    for _ in range(4):
        t.do("build", player="Ann", deed="Park Place")
        t.do("build", player="Ann", deed="Boardwalk")
    t.do("build", player="Ann", deed="Boardwalk", building="hotel")
    before = t.cash("Ann")
    t.do("sell_building", player="Ann", deed="Boardwalk", building="hotel")
    assert t.cash("Ann") == before + 100
    assert t.deed("Boardwalk")["houses"] == 4 and not t.deed("Boardwalk").get("hotel")


def test_income_tax_flat_or_ten_percent_of_worth_chosen_first(t):
    t.give("Ann", "Boardwalk")  # cash 1100 + printed 400 = 1500
    t.do("tax", player="Ann", tax="income", choice="percent")
    assert t.cash("Ann") == 1100 - 150
    t.do("tax", player="Bob", tax="income", choice="flat")
    assert t.cash("Bob") == 1300
    assert "choice" in t.refused("tax", player="Cy", tax="income")
    t.do("tax", player="Cy", tax="luxury")
    assert t.cash("Cy") == 1400


def test_mortgaged_deeds_count_at_printed_price_for_income_tax(t):
    t.give("Ann", "Boardwalk")
    t.do("mortgage", player="Ann", deed="Boardwalk")  # cash 1300 + 400 printed
    t.do("tax", player="Ann", tax="income", choice="percent")
    assert t.cash("Ann") == 1300 - 170


def test_no_fine_for_a_player_who_is_not_in_jail(t):
    assert t.refused("jail_fine", player="Bob") == "Bob is not in jail"


def test_jail_fine_is_50(t):
    t.do("jail", player="Bob")
    assert t.table["players"]["Bob"]["in_jail"]
    t.do("jail_fine", player="Bob")
    assert t.cash("Bob") == 1450 and not t.table["players"]["Bob"]["in_jail"]


def test_free_parking_pot_is_off_by_default(t):
    t.do("tax", player="Bob", tax="luxury")
    assert t.pot("free parking") == 0 and t.cash("bank") == -4500 + 100


def test_free_parking_house_rule_collects_taxes_and_fines(new_game):
    t = new_game("classic", "Ann", "Bob", free_parking=True, free_parking_seed=500)
    assert t.pot("free parking") == 500
    t.do("tax", player="Bob", tax="luxury")
    t.do("jail", player="Ann")
    t.do("jail_fine", player="Ann")
    assert t.pot("free parking") == 650
    t.do("win_pot", player="Ann", pot="free parking")
    assert t.cash("Ann") == 1500 - 50 + 650
    assert t.pot("free parking") == 500  # the bank seeds it again


def test_trade_cash_for_deeds(t):
    t.give("Ann", "Boardwalk")
    t.do("trade", a="Ann", b="Bob", give={"deeds": ["Boardwalk"]}, get={"cash": 500})
    assert t.owner("Boardwalk") == "Bob" and t.cash("Ann") == 1600 and t.cash("Bob") == 1000


def test_a_mortgaged_deed_changing_hands_costs_its_new_owner_ten_percent(t):
    t.give("Ann", "Boardwalk")
    t.do("mortgage", player="Ann", deed="Boardwalk")
    out = t.do("trade", a="Ann", b="Bob", give={"deeds": ["Boardwalk"]}, get={"cash": 100})
    assert t.cash("Bob") == 1500 - 100 - 20
    # the sentence says all Bob paid, the bank's 10% too
    assert out.summary == "Trade: Ann gave Boardwalk; Bob gave $100; Bob paid $20 interest on mortgaged Boardwalk"
    t.do("unmortgage", player="Bob", deed="Boardwalk")  # and the full 10% again when lifted later
    assert t.cash("Bob") == 1500 - 100 - 20 - 220


def test_a_mortgaged_deed_may_be_lifted_at_once_in_the_trade(t):
    t.give("Ann", "Boardwalk")
    t.do("mortgage", player="Ann", deed="Boardwalk")
    out = t.do("trade", a="Ann", b="Bob", give={"deeds": ["Boardwalk"]}, lift=["Boardwalk"])
    assert t.cash("Bob") == 1500 - 220 and not t.deed("Boardwalk")["mortgaged"]
    assert out.summary == "Trade: Ann gave Boardwalk; Bob lifted the mortgage on Boardwalk for $220"


def test_no_trade_while_the_group_has_buildings(t):
    t.give("Ann", "Park Place", "Boardwalk")
    t.do("build", player="Ann", deed="Park Place")
    assert "sell the buildings" in t.refused("trade", a="Ann", b="Bob", give={"deeds": ["Boardwalk"]}, get={"cash": 1})


def test_paying_more_than_you_have_says_what_you_could_raise(t):
    t.give("Bob", "Park Place", "Boardwalk")
    t.do("build", player="Bob", deed="Park Place")
    t.do("build", player="Bob", deed="Boardwalk")
    reason = t.refused("transfer", **{"from": "Bob", "to": "Ann", "amount": 2000})
    assert reason == "Bob has $350 but needs $2,000; selling buildings and mortgaging could raise $575 more"


def test_bankrupt_to_a_player_hands_over_cash_and_deeds_with_buildings_sold_first(t):
    t.give("Bob", "Park Place", "Boardwalk", "Reading Railroad")
    t.do("build", player="Bob", deed="Park Place")
    t.do("mortgage", player="Bob", deed="Reading Railroad")
    ann_before = t.cash("Ann")
    t.do("bankrupt", player="Bob", creditor="Ann")
    # Bob: 1500 - 950 + 100 mortgage - 200 house = 450, + 100 house sold at half = 550 to Ann
    assert t.cash("Bob") == 0
    assert t.cash("Ann") == ann_before + 550 - 10  # 10% interest on the mortgaged railroad at once
    assert {t.owner(d) for d in ("Park Place", "Boardwalk", "Reading Railroad")} == {"Ann"}
    assert t.deed("Reading Railroad")["mortgaged"]
    assert t.table["stock"]["houses"] == 32
    assert t.table["players"]["Bob"]["bankrupt"]


def test_bankrupt_to_the_bank_returns_deeds_unmortgaged_for_auction(t):
    t.give("Bob", "Park Place", "Boardwalk")
    t.do("mortgage", player="Bob", deed="Park Place")
    t.do("bankrupt", player="Bob", creditor="bank")
    assert t.owner("Park Place") is None and not t.deed("Park Place")["mortgaged"]
    assert t.cash("Bob") == 0
    t.do("auction", deed="Park Place", winner="Cy", bid=120)
    assert t.owner("Park Place") == "Cy"


def test_the_last_player_standing_wins(t):
    t.do("bankrupt", player="Bob", creditor="Ann")
    assert t.table["over"] is None
    t.do("bankrupt", player="Cy", creditor="bank")
    assert t.table["over"]["winner"] == "Ann"
    assert "game is over" in t.refused("salary", player="Ann")


def test_a_timed_game_ends_with_the_richest_by_net_worth(t):
    t.give("Bob", "Boardwalk")  # 1100 cash + 400 = 1500
    t.give("Cy", "Park Place")
    t.do("mortgage", player="Cy", deed="Park Place")  # cash 1325, and the deed counts at its mortgage value 175
    t.do("salary", player="Ann")
    t.do("end_game")
    over = t.table["over"]
    assert over["winner"] == "Ann"
    assert [(r["player"], r["worth"]) for r in over["ranking"]] == [("Ann", 1700), ("Cy", 1500), ("Bob", 1500)]


def test_the_turn_passes_round_the_table_and_skips_bankrupt_players(t):
    t.do("next_turn")
    assert t.table["turn"]["index"] == 1
    t.do("bankrupt", player="Cy", creditor="bank")
    t.do("next_turn")
    assert t.table["order"][t.table["turn"]["index"]] == "Ann"
    assert t.table["players"]["Bob"]["turns"] == 1


def test_cards_collect_from_everyone_and_pay_repairs(t):
    t.do("collect_from_all", player="Ann", amount=50)
    assert t.cash("Ann") == 1600 and t.cash("Bob") == 1450
    t.give("Ann", "Park Place", "Boardwalk")
    t.do("build", player="Ann", deed="Park Place")
    t.do("build", player="Ann", deed="Boardwalk")
    before = t.cash("Ann")
    t.do("repairs", player="Ann", per_house=25, per_hotel=100)
    assert t.cash("Ann") == before - 50


@pytest.mark.parametrize("amount", [-5, 0, 1.5, "abc", 10**16, True, None, "1e3"])
def test_bad_amounts_are_refused(t, amount):
    reason = t.refused("transfer", **{"from": "Ann", "to": "Bob", "amount": amount})
    assert reason


def test_unknown_names_are_refused(t):
    assert t.refused("buy", player="Zed", deed="Boardwalk") == "there is no player called 'Zed' in this game"
    assert t.refused("buy", player="Ann", deed="Broadway") == "there is no deed called 'Broadway' in this game"
    assert (
        t.refused("rent", payer="Ann", deed="Boardwalk")
        == "nobody owns Boardwalk: no rent is due (it can be bought or auctioned)"
    )


def test_malformed_actions_are_bad_input_not_refusals(t):
    with pytest.raises(BadAction):
        t.do("fly", player="Ann")
    with pytest.raises(BadAction):
        t.do("buy", player="Ann")
    with pytest.raises(BadAction):
        t.do("buy", player="Ann", deed="Boardwalk", price=1)
    with pytest.raises(NotEnoughMoney):
        t.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 5000})
    with pytest.raises(Refused):
        t.do("transfer", **{"from": "Ann", "to": "ann", "amount": 5})


# -- round 2: bankruptcy, deals, pots and whole groups ---------------------------------------------


def state(t):
    """What the touchscreen and the phones are shown."""
    return state_json(t.table, t.banker.rules, t.banker.version)


def test_a_creditor_may_lift_a_bankrupts_mortgage_at_once_for_110_percent_in_all(t):
    """A creditor receiving a mortgaged deed may pay off the mortgage with the 10% at once, instead of
    paying the 10% now and the mortgage plus 10% again when lifting it later."""
    t.give("Bob", "Oriental Avenue")  # mortgage value $50
    t.do("mortgage", player="Bob", deed="Oriental Avenue")
    t.do("transfer", **{"from": "Bob", "to": "bank", "amount": t.cash("Bob")})
    ann = t.cash("Ann")
    out = t.do("bankrupt", player="Bob", creditor="Ann", lift=["Oriental Avenue"])
    assert t.cash("Ann") == ann - 55 and not t.deed("Oriental Avenue")["mortgaged"]
    assert "Ann lifted the mortgage on Oriental Avenue for $55" in out.summary
    assert "is not mortgaged" in t.refused("unmortgage", player="Ann", deed="Oriental Avenue")


def test_each_mortgaged_deed_a_creditor_receives_is_offered_lifted_now_or_kept_with_its_cost(t):
    """Bob goes bankrupt to Ann with Boardwalk and Oriental Avenue mortgaged: the contract offers each
    both ways, worded with what Ann pays the bank, each way decided by the rule itself."""

    t.give("Bob", "Boardwalk", "Oriental Avenue")
    for deed in ("Boardwalk", "Oriental Avenue"):
        t.do("mortgage", player="Bob", deed=deed)
    partial = {"player": "Bob", "creditor": "Ann", "lift": ["Boardwalk"]}
    rows = {r.value: r for r in t.banker.in_or_out("bankrupt", "lift", partial)}
    assert set(rows) == {"Boardwalk", "Oriental Avenue"}
    board, oriental = rows["Boardwalk"], rows["Oriental Avenue"]
    assert board.listed and not oriental.listed
    assert (board.inside.label, board.outside.label) == (
        "Lift now: Ann pays $220",
        "Keep it mortgaged: Ann pays the 10% now, $20",
    )
    assert oriental.inside.label == "Lift now: Ann pays $55"
    # each way is the whole bankruptcy decided with the rest of the list as chosen
    assert board.outside.preview.action["lift"] == [] and oriental.inside.preview.action["lift"] == [
        "Boardwalk",
        "Oriental Avenue",
    ]
    assert board.inside.preview.moved("Ann") == oriental.outside.preview.moved("Ann")


def test_a_creditor_short_of_the_lifting_price_is_offered_only_to_keep_the_mortgage(t):
    t.give("Bob", "Boardwalk")
    t.do("mortgage", player="Bob", deed="Boardwalk")
    t.do("transfer", **{"from": "Bob", "to": "bank", "amount": t.cash("Bob")})
    t.do("transfer", **{"from": "Cy", "to": "bank", "amount": 1400})  # Cy holds $100

    [row] = t.banker.in_or_out("bankrupt", "lift", {"player": "Bob", "creditor": "Cy"})
    assert not row.inside.possible and "not the $220 it takes to lift Boardwalk" in row.inside.why_not
    assert row.outside.possible and row.outside.preview.moved("Cy") == -20


def test_a_bankruptcy_is_recorded_even_when_the_creditor_cannot_pay_the_interest(t):
    """Everything passes to the creditor whatever they hold; the 10% they cannot pay on a mortgaged
    deed becomes a debt the banker asks for before their turn ends."""
    t.give("Bob", "Boardwalk")  # mortgage value $200, interest $20
    t.do("mortgage", player="Bob", deed="Boardwalk")
    t.do("transfer", **{"from": "Bob", "to": "bank", "amount": t.cash("Bob")})
    t.do("transfer", **{"from": "Cy", "to": "bank", "amount": 1490})  # Cy holds $10
    out = t.do("bankrupt", player="Bob", creditor="Cy")
    assert t.owner("Boardwalk") == "Cy" and t.cash("Cy") == 0
    assert "Cy owes the bank $10 of the $20 interest on Boardwalk" in out.summary
    assert state(t)["players"][2]["owes"][0]["text"] == "owes the bank $10 for interest on mortgaged Boardwalk"
    while t.table["order"][t.table["turn"]["index"]] != "Cy":
        t.do("next_turn")
    assert "Cy still owes the bank $10" in t.refused("next_turn")
    assert "Cy has $0 but owes $10" in t.refused("settle", player="Cy")
    t.do("salary", player="Cy")
    t.do("settle", player="Cy")
    assert t.cash("Cy") == 190 and not t.table["players"]["Cy"].get("owes")
    t.do("next_turn")


def test_an_unaffordable_interest_in_a_trade_is_refused_with_the_true_balance(t):
    """The new owner of a mortgaged deed pays the 10% at once; a deal they cannot afford says what they
    really hold and what the deal takes."""
    t.give("Ann", "Boardwalk")
    t.do("mortgage", player="Ann", deed="Boardwalk")
    t.do("transfer", **{"from": "Cy", "to": "bank", "amount": 1490})  # Cy holds $10
    reason = t.refused("trade", a="Ann", b="Cy", give={"deeds": ["Boardwalk"]})
    assert reason == "Cy has $10 but the trade takes $20 ($20 to the bank for mortgages)"


def test_without_the_free_parking_house_rule_there_is_no_pot(t):
    """Free Parking is a plain resting square unless the table plays the house rule: no pot to show,
    pay into or win."""
    assert state(t)["pots"] == []
    assert "does not play with the free parking pot" in t.refused(
        "transfer", **{"from": "Ann", "to": "pot:free parking", "amount": 50}
    )
    assert "does not play with the free parking pot" in t.refused("win_pot", player="Ann", pot="free parking")
    t.do("tax", player="Ann", tax="luxury")
    assert t.cash("bank") == -4500 + 100


def test_collecting_from_every_player_takes_what_each_can_pay_and_names_who_is_short(t):
    """A card makes every other player pay; one who cannot pay it all pays what they hold."""
    t.do("transfer", **{"from": "Cy", "to": "bank", "amount": 1480})  # Cy holds $20
    out = t.do("collect_from_all", player="Ann", amount=50)
    assert out.summary == "Ann collected $50 from Bob; Cy paid $20 and is $30 short"
    assert t.cash("Ann") == 1570 and t.cash("Cy") == 0


def test_paying_every_player_pays_each_the_same_sum_or_nothing_at_all(t):
    """Ann draws "elected chairman of the board": $50 to each of Bob and Cy. With $60 left she cannot
    pay both, and nobody is paid part of it."""
    out = t.do("pay_to_all", player="Ann", amount=50)
    assert out.summary == "Ann paid $50 to each of Bob, Cy"
    assert (t.cash("Ann"), t.cash("Bob"), t.cash("Cy")) == (1400, 1550, 1550)
    t.do("transfer", **{"from": "Ann", "to": "bank", "amount": 1340})  # Ann holds $60
    assert "$50 to each of 2 players" in t.refused("pay_to_all", player="Ann", amount=50)


def hotels_on_dark_blue(t):
    rich(t, "Ann")
    t.give("Ann", "Park Place", "Boardwalk")
    t.do("improve_group", player="Ann", deed="Boardwalk", level=5)


def test_a_whole_group_is_built_up_to_a_level_in_one_go(t):
    """Building goes evenly across the group, house by house and then hotels; improving the whole
    group to a level is one tap, all of it or none of it."""
    rich(t, "Ann")
    t.give("Ann", "Park Place", "Boardwalk")
    out = t.do("improve_group", player="Ann", deed="Boardwalk", level=3)
    assert out.summary == "Ann built the dark blue group up to 3 houses a street for $1,200"
    assert [t.deed(d).get("houses") for d in ("Park Place", "Boardwalk")] == [3, 3]
    assert t.table["stock"]["houses"] == 26
    t.do("improve_group", player="Ann", deed="Park Place", level=5)
    assert all(t.deed(d).get("hotel") for d in ("Park Place", "Boardwalk"))
    assert t.table["stock"] == {"houses": 32, "hotels": 10}


def test_improving_a_group_beyond_the_banks_houses_changes_nothing(t):
    """With too few houses in the bank, nothing is built: the whole group or none of it."""
    rich(t, "Ann", 20000)
    t.give("Ann", "Park Place", "Boardwalk")
    t.do("transfer", **{"from": "bank", "to": "Bob", "amount": 20000})
    t.give("Bob", "Mediterranean Avenue", "Baltic Avenue", "Oriental Avenue", "Vermont Avenue", "Connecticut Avenue")
    t.give("Bob", "St. Charles Place", "States Avenue", "Virginia Avenue")
    for deed in ("Baltic Avenue", "Connecticut Avenue", "Virginia Avenue"):
        t.do("improve_group", player="Bob", deed=deed, level=4)  # 32 houses on 8 streets
    assert "runs out of houses" in t.refused("improve_group", player="Ann", deed="Boardwalk", level=1)


def test_a_hotel_in_a_house_shortage_is_sold_down_with_its_group(t):
    """A hotel sold back is normally broken into 4 houses; when the bank lacks them the whole group
    comes down to a level the bank's houses allow, down to bare land, at half the price paid."""
    hotels_on_dark_blue(t)
    t.do("transfer", **{"from": "bank", "to": "Bob", "amount": 20000})
    t.give("Bob", "Mediterranean Avenue", "Baltic Avenue", "Oriental Avenue", "Vermont Avenue", "Connecticut Avenue")
    t.give("Bob", "St. Charles Place", "States Avenue", "Virginia Avenue")
    for deed in ("Baltic Avenue", "Connecticut Avenue", "Virginia Avenue"):
        t.do("improve_group", player="Bob", deed=deed, level=4)
    reason = t.refused("sell_building", player="Ann", deed="Boardwalk", building="hotel")
    assert reason.startswith("the bank has no houses, so the hotel on Boardwalk cannot be broken back into 4 houses")
    assert "other hotels" not in reason
    ann = t.cash("Ann")
    out = t.do("sell_group", player="Ann", deed="Boardwalk", level=0)
    assert out.summary == "Ann sold the dark blue group down to no buildings for $1,000"
    assert t.cash("Ann") == ann + 1000 and t.table["stock"] == {"houses": 0, "hotels": 12}


def test_a_group_sold_down_to_two_houses_keeps_it_even(t):
    hotels_on_dark_blue(t)
    t.do("sell_group", player="Ann", deed="Park Place", level=2)
    assert [t.deed(d).get("houses") for d in ("Park Place", "Boardwalk")] == [2, 2]
    assert t.table["stock"] == {"houses": 28, "hotels": 12}


def test_bibleopoly_names_its_taxes_and_salary_by_the_board(new_game):
    """The variant's tax squares go by their own names, and passing its start corner is Repentance."""
    t = new_game("bibleopoly", "Ann", "Bob")
    assert t.do("salary", player="Ann").summary == "Ann collected $200 salary for passing Repentance"
    out = t.do("tax", player="Bob", tax="Hospital Bills", choice="flat")
    assert out.summary == "Bob paid $200 Hospital Bills"
    assert t.do("tax", player="Bob", tax="christianity").summary == "Bob paid $100 Christianity"


def test_a_card_is_corrected_with_money_typed_as_everywhere_else(t):
    """Correcting a deed reads money the pack's way, lists too, and names a field the card lacks."""
    out = t.do("correct_card", deed="Boardwalk", values={"price": "$410", "rent": "50, 200, 600, 1400, 1700, 2000"})
    assert (
        out.summary == "The banker corrected Boardwalk: price = $410, rent = [$50, $200, $600, $1,400, $1,700, $2,000]"
    )
    reason = t.refused("correct_card", deed="Boardwalk", values={"colour": "blue"})
    assert reason.startswith("Boardwalk has no field 'colour'; its fields are group, house_cost, kind, mortgage")
    t.give("Ann", "Park Place")
    assert "cannot change once play has begun" in t.refused("correct_card", deed="Boardwalk", values={"group": "green"})
