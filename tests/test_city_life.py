"""City Life, round by round: every money rule of the basic and the advanced rules as the banker meets it."""

import pytest

from companion.core.errors import BadAction
from companion.views import state_json


@pytest.fixture
def t(new_game):
    return new_game("city-life", "Ann", "Bob", "Cy")


@pytest.fixture
def adv(new_game):
    return new_game("city-life", "Ann", "Bob", "Cy", advanced=True)


def turn_of(t, player):
    """End turns until it is ``player``'s."""
    for _ in range(12):
        if state_json(t.table, t.banker.rules, t.banker.version)["turn"]["player"] == player:
            return
        t.do("next_turn")
    raise AssertionError(f"{player}'s turn never came")


def land(t, player, square, **fields):
    turn_of(t, player)
    return t.do("land", player=player, square=square, **fields).summary


def own(t, player, *squares):
    """Set-up: the player lands on each property and buys it."""
    for square in squares:
        land(t, player, square)
        t.do("buy", player=player, deed=square)


def give(t, player, amount):
    t.do("transfer", **{"from": "bank", "to": player, "amount": amount, "memo": "set-up"})


def take(t, player, amount):
    t.do("transfer", **{"from": player, "to": "bank", "amount": amount, "memo": "set-up"})


def view(t, player):
    return next(p for p in state_json(t.table, t.banker.rules, t.banker.version)["players"] if p["name"] == player)


# -- getting started -------------------------------------------------------------------------------
def test_each_player_starts_with_7000_and_the_bank_puts_1000_in_the_lottery(t):
    assert [t.cash(p) for p in ("Ann", "Bob", "Cy")] == [7000, 7000, 7000]
    assert t.pot("lottery") == 1000
    assert t.cash("bank") == -22000 and t.total() == 0


def test_only_the_player_whose_turn_it_is_lands(t):
    assert (
        t.refused("land", player="Bob", square=3)
        == "it is Ann's turn, not Bob's: only the player whose turn it is moves and lands on a square"
    )


# -- basic squares ---------------------------------------------------------------------------------
def test_ann_lands_on_a_dollar_sign_and_receives_a_500_bank_share(t):
    """Under the basic rules a Dollar Sign square gives a $500 Bank share: an asset, not cash, which the
    player may sell to the Bank (tax free) or to another player when money is short."""
    out = land(t, "Ann", 3)
    assert out == "Ann landed on square 3 (Dollar Sign): Ann received a $500 Bank share from the Bank (Ann holds 1)"
    assert t.cash("Ann") == 7000 and view(t, "Ann")["shares"] == 1
    assert t.do("sell_shares", player="Ann").summary == "Ann sold 1 Bank share to the Bank for $500"
    assert t.cash("Ann") == 7500 and view(t, "Ann")["shares"] == 0
    assert t.cash("Ann") == 7500


def test_ann_buys_house_4_for_1000_on_landing_there(t):
    land(t, "Ann", 4)
    t.do("buy", player="Ann", deed=4)
    assert t.owner("House 4") == "Ann" and t.cash("Ann") == 6000


def test_a_property_is_bought_from_the_bank_only_on_landing_on_it(t):
    land(t, "Ann", 3)
    assert (
        t.refused("buy", player="Ann", deed=4)
        == "Ann can buy House 4 from the Bank only on landing on square 4 this turn"
    )


def test_bob_cannot_buy_from_the_bank_what_ann_owns(t):
    own(t, "Ann", 4)
    land(t, "Bob", 4, choice="miss_turns")
    assert (
        t.refused("buy", player="Bob", deed=4)
        == "House 4 belongs to Ann; only Ann can sell it now (sell, with to and price)"
    )


def test_bob_pays_ann_a_500_visitors_fee_at_her_house(t):
    own(t, "Ann", 8)
    out = land(t, "Bob", 8, choice="fee")
    assert out.endswith("Bob paid Ann a $500 Visitor's Fee")
    assert t.cash("Bob") == 6500 and t.cash("Ann") == 6500


def test_the_proprietor_chooses_and_the_choice_is_asked_for(t):
    own(t, "Ann", 8)
    turn_of(t, "Bob")
    assert "choice is 'fee' or 'miss_turns'" in t.refused("land", player="Bob", square=8)


def test_ann_makes_bob_miss_his_next_two_turns_instead(t):
    own(t, "Ann", 8)
    land(t, "Bob", 8, choice="miss_turns")
    assert view(t, "Bob")["turns_to_miss"] == 2
    t.do("next_turn")  # Bob's turn ends
    t.do("next_turn")  # Cy's turn ends; Ann plays
    t.do("next_turn")  # Ann's ends: Bob misses, Cy plays
    assert t.table["players"]["Bob"]["missed"] == 1
    assert state_json(t.table, t.banker.rules, t.banker.version)["turn"]["player"] == "Cy"


def test_a_visitor_short_of_the_fee_owes_it_and_sells_to_the_proprietor_first(t):
    own(t, "Ann", 8)
    own(t, "Bob", 13)
    take(t, "Bob", 5700)  # Bob: $300 and House 13
    out = land(t, "Bob", 8, choice="fee")
    assert out.endswith(
        "Bob has $300 but owes Ann $500 for the Visitor's Fee at House 8: sell property first "
        "(to Ann at the purchase price, to other players, or to the Bank for $1,000), then settle"
    )
    assert view(t, "Bob")["owes"][0]["text"] == "owes Ann $500 for the Visitor's Fee at House 8"
    assert t.refused("next_turn").startswith("Bob has $300 but owes Ann $500")
    t.do("sell", player="Bob", deed=13, to="Ann", price=1000)
    assert t.do("settle", player="Bob").summary == "Bob paid Ann the $500 Visitor's Fee at House 8"
    assert t.cash("Bob") == 800 and t.owner("House 13") == "Ann" and view(t, "Bob")["owes"] == []


def test_what_is_owed_is_settled_at_the_turns_end_once_sold(t):
    own(t, "Ann", 8)
    own(t, "Bob", 13)
    take(t, "Bob", 5700)
    land(t, "Bob", 8, choice="fee")
    t.do("sell", player="Bob", deed=13)
    assert "Bob paid Ann the $500 Visitor's Fee at House 8" in t.do("next_turn").summary
    assert t.cash("Bob") == 800


def test_a_visitor_without_assets_to_cover_the_fee_misses_two_turns_automatically(t):
    own(t, "Ann", 8)
    take(t, "Bob", 6800)
    out = land(t, "Bob", 8, choice="fee")
    assert out.endswith("Bob cannot cover the $500 Visitor's Fee, so misses the next 2 turns instead")
    assert t.cash("Bob") == 200 and view(t, "Bob")["turns_to_miss"] == 2


def test_cy_pays_bob_a_2500_visitors_fee_at_his_tower(t):
    give(t, "Bob", 1000)
    own(t, "Bob", 61)
    land(t, "Cy", 61, choice="fee")
    assert t.cash("Cy") == 4500 and t.cash("Bob") == 5500


def test_the_tower_proprietor_may_send_the_visitor_to_one_of_his_houses(t):
    own(t, "Bob", 4, 61)
    out = land(t, "Cy", 61, choice="send", house=4)
    assert out.endswith("Bob sent Cy to House 4")
    assert t.table["players"]["Cy"]["at"] == 4 and t.cash("Cy") == 7000
    turn_of(t, "Cy")
    assert t.refused("land", player="Cy", square=61, choice="send", house=13) == "House 13 is not a House of Bob's"


def test_a_tower_visitor_with_nothing_to_sell_pays_what_he_has_and_goes_to_jail(t):
    own(t, "Bob", 61)
    take(t, "Cy", 6300)  # Cy: $700, nothing to sell; owes $2,500
    out = land(t, "Cy", 61, choice="fee")
    assert out.endswith(
        "Cy paid Bob all $700 of the $2,500 Visitor's Fee at Tower 61, has nothing to sell and "
        "misses 4 turns in Jail for the $1,800 still owed"
    )
    assert t.cash("Cy") == 0 and t.table["players"]["Cy"]["in_jail"] and view(t, "Cy")["jail_turns"] == 4


def test_ernies_garage_bill_goes_to_the_lottery(t):
    land(t, "Ann", 19)
    assert t.cash("Ann") == 6600 and t.pot("lottery") == 1400


def test_bobs_supermarket_bill_goes_to_the_lottery(t):
    land(t, "Ann", 27)
    assert t.cash("Ann") == 6800 and t.pot("lottery") == 1200


def test_a_player_with_no_money_and_nothing_to_sell_misses_a_turn_at_the_garage(t):
    take(t, "Ann", 6900)
    out = land(t, "Ann", 19)
    assert out.endswith(
        "Ann has $100 and nothing to sell, so misses a turn instead of paying the $400 motor vehicle repair bill"
    )
    assert view(t, "Ann")["turns_to_miss"] == 1 and t.cash("Ann") == 100


def test_a_bill_the_player_cannot_pay_is_owed_until_property_is_sold(t):
    own(t, "Ann", 4)
    take(t, "Ann", 5900)
    assert land(t, "Ann", 27).endswith(
        "Ann has $100 but owes the Lottery $200 for the grocery bill: sell property first "
        "(to other players, or to the Bank for $1,000), then settle"
    )
    t.do("sell", player="Ann", deed=4)
    t.do("settle", player="Ann")
    assert t.cash("Ann") == 900 and t.pot("lottery") == 1200


def test_city_hall_charges_property_tax_on_each_house_and_tower(t):
    give(t, "Ann", 5000)
    own(t, "Ann", 4, 8, 61)
    land(t, "Ann", 34)
    assert t.cash("Ann") == 12000 - 7000 - 700 and t.pot("lottery") == 1700


def test_property_tax_is_counted_on_landing_and_what_is_left_after_selling_is_a_turn_per_500(t):
    give(t, "Ann", 3000)
    own(t, "Ann", 61, 65)
    land(t, "Ann", 34)
    assert view(t, "Ann")["owes"][0]["amount"] == 1000
    t.do("sell", player="Ann", deed=61, to="Bob", price=0)
    t.do("sell", player="Ann", deed=65, to="Cy", price=300)
    out = t.do("settle", player="Ann").summary
    assert out == (
        "Ann paid the Lottery all $300 of the $1,000 Property Tax, has nothing to sell and misses "
        "2 turns for the $700 still owed"
    )
    assert view(t, "Ann")["turns_to_miss"] == 2 and t.pot("lottery") == 1300


def test_turns_missed_for_a_debt_do_not_count_toward_a_loan(new_game):
    t = new_game("city-life", "Ann", "Bob", advanced=True)
    t.do("borrow", player="Ann")  # Ann's turn: the loan's clock starts with her next one
    t.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 8000, "memo": "set-up"})
    t.do("next_turn")
    land(t, "Ann", 27)  # $200 grocery bill, no cash, nothing to sell: a missed turn
    t.do("next_turn")  # the loan's first counted turn
    t.do("next_turn")  # Bob's; Ann misses hers, which does not count
    assert t.table["players"]["Ann"]["missed"] == 1
    assert view(t, "Ann")["loans"][0]["due_in_turns"] == 6


def test_hospital_gives_an_unsold_house_of_the_players_choice(t):
    out = land(t, "Ann", 35, house=22)
    assert out.endswith("Ann won House 22, tax free") and t.owner("House 22") == "Ann" and t.cash("Ann") == 7000


def test_hospital_pays_1000_when_no_house_is_left(t):
    give(t, "Ann", 10000)
    own(t, "Ann", 4, 8, 13, 22, 26, 29)
    cash = t.cash("Ann")
    land(t, "Ann", 35)
    assert t.cash("Ann") == cash + 1000


def test_the_hospital_asks_which_house(t):
    turn_of(t, "Ann")
    assert "house is one of squares 4, 8, 13, 22, 26, 29" in t.refused("land", player="Ann", square=35)


def test_fire_department_sends_the_player_to_the_nearest_unsold_tower_to_buy_it(t):
    give(t, "Bob", 1000)
    own(t, "Bob", 61)
    out = land(t, "Ann", 45)
    assert out.endswith("Ann advances to Tower 65, which is for sale for $5,000")
    t.do("buy", player="Ann", deed=65)
    assert t.owner("Tower 65") == "Ann"


def test_fire_department_pays_1000_when_every_tower_is_sold(t):
    for p in ("Ann", "Bob", "Cy"):
        give(t, p, 20000)
    towers = [61, 65, 72, 76, 79, 81, 89, 91, 93]
    for i, square in enumerate(towers):
        own(t, ("Ann", "Bob", "Cy")[i % 3], square)
    cash = t.cash("Ann")
    land(t, "Ann", 45)
    assert t.cash("Ann") == cash + 1000


def test_amusement_park_a_six_wins_the_lottery_and_the_bank_refills_it(t):
    land(t, "Ann", 19)  # $400 into the lottery
    t.do("next_turn")
    out = land(t, "Bob", 42, roll=6)
    assert out.endswith("Bob rolled a six: Bob won the City Life Lottery: $1,400")
    assert t.cash("Bob") == 8400 and t.pot("lottery") == 1000


def test_amusement_park_without_a_six_wins_nothing(t):
    assert land(t, "Ann", 21, roll=2).endswith("on to the Lottery; Ann rolled 2, not a six: no win")
    assert t.cash("Ann") == 7000


def test_the_park_takes_the_player_on_to_the_amusement_park(t):
    out = land(t, "Ann", 21, roll=6)
    assert out.startswith("Ann landed on square 21 (Park) and went on to square 42 (Amusement Park)")
    assert t.cash("Ann") == 8000


def test_landing_on_the_lottery_wins_it(t):
    land(t, "Ann", 58)
    assert t.cash("Ann") == 8000 and t.pot("lottery") == 1000 and t.cash("bank") == -23000


def test_the_mall_pays_1000(t):
    land(t, "Ann", 66)
    assert t.cash("Ann") == 8000


def test_the_restaurant_leads_by_the_theatre_to_the_mall(t):
    assert land(t, "Ann", 30).endswith(
        "went on by 51 to square 66 (City Life Mall): Ann won $1,000 in the advertising contest"
    )


def test_museum_collect_1500(t):
    land(t, "Ann", 68, choice="collect")
    assert t.cash("Ann") == 8500


def test_museum_roll_pays_500_times_the_die_and_nothing_on_a_six(t):
    land(t, "Ann", 68, choice="roll", roll=4)
    assert t.cash("Ann") == 9000
    t.do("next_turn")
    land(t, "Bob", 68, choice="roll", roll=6)
    assert t.cash("Bob") == 7000


def test_museum_school_choice_sends_the_player_to_school_82(t):
    assert land(t, "Ann", 68, choice="school").endswith("Ann goes on to School (82): land there for its quiz")
    assert t.table["players"]["Ann"]["at"] == 82


def test_school_basic_a_right_answer_pays_300_and_leads_on_by_the_library(t):
    out = land(t, "Ann", 15, correct=True)
    assert out.endswith("quiz: Ann $300; Ann goes on by square 36 (Library) to square 57 (School): land there next")
    assert t.cash("Ann") == 7300 and t.table["players"]["Ann"]["at"] == 57


def test_a_right_answer_at_school_15_plays_school_57_in_the_same_landing(t):
    """A School answered right sends the player on to a square with its own instructions; given what
    happened on each square of the way (``then``), one landing plays the whole chain and says every step."""
    out = land(t, "Ann", 15, correct=True, then=[{"correct": True}, {"choice": "collect"}])
    assert out == (
        "Ann landed on square 15 (School): quiz: Ann $300; Ann goes on by square 36 (Library) to "
        "square 57 (School); then at square 57 (School): quiz: Ann $300; Ann goes on to square 68 "
        "(Museum); then at square 68 (Museum): Ann collected $1,500"
    )
    assert t.cash("Ann") == 7000 + 600 + 1500 and t.table["players"]["Ann"]["at"] == 68


def test_a_chain_stops_where_the_next_answer_is_not_given_yet(t):
    out = land(t, "Ann", 15, correct=True)
    assert out.endswith("Ann goes on by square 36 (Library) to square 57 (School): land there next")
    assert t.table["players"]["Ann"]["at"] == 57
    t.do("next_turn")
    assert t.refused("land", player="Bob", square=15, correct=False, then=[{"correct": True}]) == (
        "then lists 1 square more than the landing leads to"
    )
    assert t.refused("land", player="Bob", square=15, correct=True, then=[{"choice": "collect"}]) == (
        "then: square 57 (School) takes no choice"
    )


def test_school_basic_a_wrong_answer_pays_nothing(t):
    assert land(t, "Ann", 57, correct=False).endswith("no correct answer; Ann stays")
    assert t.cash("Ann") == 7000


def test_faith_hope_and_charity_lead_to_school_82_which_leads_to_a_tower(t):
    out = land(t, "Ann", 2, correct=True)
    assert out.startswith("Ann landed on square 2 (Faith) and went on by 37, 55 to square 82 (School)")
    assert out.endswith("Ann advances to Tower 89, which is for sale for $5,000")
    t.do("buy", player="Ann", deed=89)
    assert t.owner("Tower 89") == "Ann"


def test_school_82_sends_to_the_nearest_unsold_tower_even_one_behind(t):
    """The right answer at School 82 advances to the nearest unsold Tower; with none left ahead, the
    nearest is Tower 81, one square back, not the lowest-numbered one."""
    give(t, "Bob", 20000)
    own(t, "Bob", 89, 91, 93)
    t.do("next_turn")
    out = land(t, "Ann", 82, correct=True)
    assert out.endswith("Ann advances to Tower 81, which is for sale for $5,000")


def test_a_roll_of_three_quiz_pays_300_a_right_answer_to_the_roller_only_in_basic(t):
    t.do("quiz", answers={"Ann": 2})
    assert t.cash("Ann") == 7600
    assert t.refused("quiz", answers={"Bob": 1}) == "only Ann answers the Quiz Card under the basic rules"


def test_jail_keeps_the_player_three_turns_unless_a_six(t):
    land(t, "Ann", 44)
    t.do("next_turn")  # Ann's landing turn ends
    turn_of(t, "Ann")  # the rotation stops on Ann: she rolls for a six
    assert t.refused("land", player="Ann", square=47) == "Ann is in Jail: roll for a six (leave_jail) or end the turn"
    t.do("next_turn")  # no six: a jail turn spent
    assert t.table["players"]["Ann"]["missed"] == 1 and view(t, "Ann")["jail_turns"] == 2
    turn_of(t, "Ann")
    t.do("leave_jail", player="Ann")
    land(t, "Ann", 47)
    assert not t.table["players"]["Ann"]["in_jail"]


def test_a_construction_zone_costs_a_turn(t):
    land(t, "Ann", 24)
    assert view(t, "Ann")["turns_to_miss"] == 1


def test_a_traffic_fine_goes_to_the_lottery(t):
    land(t, "Ann", 10)
    t.do("violation", player="Ann", fine=300, demerits=3)
    assert t.cash("Ann") == 6700 and t.pot("lottery") == 1300 and view(t, "Ann")["demerits"] == 3


def test_a_traffic_fine_beyond_everything_costs_a_turn_per_500_up_to_five(t):
    take(t, "Ann", 7000)
    out = t.do("violation", player="Ann", fine=4000).summary
    assert out == (
        "Traffic Violation: Ann paid the Lottery all $0 of the $4,000 traffic fine, has nothing to sell and "
        "misses 5 turns for the $4,000 still owed"
    )
    assert view(t, "Ann")["turns_to_miss"] == 5


def test_fifteen_demerit_points_send_the_player_back_to_square_10(t):
    t.do("violation", player="Ann", demerits=10)
    out = t.do("violation", player="Ann", demerits=5).summary
    assert "Ann reached 15 demerit points: the cards go back and Ann returns to square 10" in out
    assert view(t, "Ann")["demerits"] == 0 and view(t, "Ann")["square"] == 10 and t.cash("Ann") == 7000


def test_a_traffic_card_award_comes_from_the_bank(t):
    t.do("violation", player="Ann", award=200)
    assert t.cash("Ann") == 7200


def test_selling_to_the_bank_at_the_purchase_price(t):
    own(t, "Ann", 61)
    t.do("sell", player="Ann", deed=61)
    assert t.cash("Ann") == 7000 and t.owner("Tower 61") is None


def test_selling_to_another_player_at_an_agreed_price(t):
    own(t, "Ann", 4)
    assert t.do("sell", player="Ann", deed=4, to="Cy", price=1800).summary == "Ann sold House 4 to Cy for $1,800"
    assert t.owner("House 4") == "Cy" and t.cash("Ann") == 7800 and t.cash("Cy") == 5200


def test_a_sale_to_a_player_needs_the_agreed_price(t):
    own(t, "Ann", 4)
    with pytest.raises(BadAction, match="needs the price"):
        t.do("sell", player="Ann", deed=4, to="Cy")


def test_a_tower_is_exchanged_for_an_unsold_house_on_the_owners_turn(t):
    own(t, "Ann", 61)
    turn_of(t, "Bob")
    assert (
        t.refused("exchange", player="Ann", tower=61, house=4)
        == "it is Bob's turn, not Ann's: a Tower is exchanged for an unsold House only on its proprietor's own turn"
    )
    turn_of(t, "Ann")
    t.do("exchange", player="Ann", tower=61, house=4)
    assert t.owner("House 4") == "Ann" and t.owner("Tower 61") is None and t.cash("Ann") == 2000


def test_reaching_square_100_wins_the_game(t):
    land(t, "Ann", 100)
    assert t.table["over"]["winner"] == "Ann"
    assert "the game is over" in t.refused("next_turn")


def test_shares_loans_and_mortgages_belong_to_the_advanced_rules(t):
    assert (
        t.refused("borrow", player="Ann") == "Bank loans belong to the advanced rules; this game plays the basic rules"
    )
    own(t, "Ann", 4)
    assert "advanced rules" in t.refused("mortgage", player="Ann", deed=4)
    land(t, "Ann", 3)
    assert "advanced rules" in t.refused("buy_shares", player="Ann")


def test_the_basic_rules_offer_no_bank_loan_mortgage_or_bank_shares_on_any_screen(t, adv):
    offered = {spec.name for spec in t.banker.actions()}
    assert not offered & {"borrow", "mortgage", "buy_shares"}
    assert {"sell_shares", "repay", "buy", "sell"} <= offered
    assert {"borrow", "mortgage", "buy_shares"} <= {spec.name for spec in adv.banker.actions()}


# -- advanced rules --------------------------------------------------------------------------------
def test_advanced_dollar_sign_pays_300_and_100_a_share_to_every_shareholder(adv):
    land(adv, "Ann", 3)
    adv.do("buy_shares", player="Ann", count=2)
    assert adv.cash("Ann") == 7300 - 1000
    adv.do("next_turn")
    out = land(adv, "Bob", 6)
    assert out.endswith("Bob collected $300; Ann $200 dividend; Bob may buy Bank shares")
    assert adv.cash("Ann") == 6500 and adv.cash("Bob") == 7300


def test_newly_bought_shares_earn_nothing_at_the_landing_they_were_bought_on(adv):
    out = land(adv, "Ann", 3)
    assert "dividend" not in out
    adv.do("buy_shares", player="Ann", count=5)
    assert adv.cash("Ann") == 4800


def test_shares_are_bought_from_the_bank_only_on_a_dollar_sign(adv):
    land(adv, "Ann", 4)
    assert "only on landing on a Dollar Sign square" in adv.refused("buy_shares", player="Ann")


def test_five_shares_at_most_from_the_bank_in_a_game_even_after_selling_back(adv):
    land(adv, "Ann", 3)
    adv.do("buy_shares", player="Ann", count=4)
    adv.do("sell_shares", player="Ann", count=4)
    adv.do("next_turn")
    adv.do("next_turn")
    adv.do("next_turn")
    land(adv, "Ann", 9)
    assert (
        adv.refused("buy_shares", player="Ann", count=2)
        == "Ann has bought 4 of the 5 shares a player may buy from the Bank in a game"
    )
    adv.do("buy_shares", player="Ann", count=1)


def test_selling_shares_to_the_bank_costs_100_capital_gains_a_share(adv):
    land(adv, "Ann", 3)
    adv.do("buy_shares", player="Ann", count=3)
    out = adv.do("sell_shares", player="Ann", count=2).summary
    assert out == "Ann sold 2 Bank shares to the Bank for $1,000 and paid $200 Capital Gains Tax"
    assert adv.cash("Ann") == 7300 - 1500 + 1000 - 200 and adv.pot("lottery") == 1200


def test_a_player_who_sold_shares_to_another_player_buys_only_from_players(adv):
    land(adv, "Ann", 3)
    adv.do("buy_shares", player="Ann", count=2)
    adv.do("sell_shares", player="Ann", count=1, to="Bob", price=700)
    assert adv.cash("Bob") == 6300 and adv.table["players"]["Bob"]["shares"] == 1
    for _ in range(3):
        adv.do("next_turn")
    land(adv, "Ann", 6)
    assert "can buy shares only from players now" in adv.refused("buy_shares", player="Ann")


def test_advanced_purchase_adds_the_land_transfer_tax(adv):
    land(adv, "Ann", 61)
    adv.do("buy", player="Ann", deed=61)
    assert adv.cash("Ann") == 1000 and adv.pot("lottery") == 2000


def test_advanced_sale_to_the_bank_costs_the_capital_gains_tax(adv):
    own(adv, "Ann", 4)
    adv.do("sell", player="Ann", deed=4)
    assert adv.cash("Ann") == 7000 - 1200 + 1000 - 200 and adv.pot("lottery") == 1400


def test_advanced_trade_seller_pays_capital_gains_and_buyer_land_transfer(adv):
    own(adv, "Ann", 4)
    out = adv.do("sell", player="Ann", deed=4, to="Bob", price=1500).summary
    assert out == (
        "Ann sold House 4 to Bob for $1,500; Ann paid $200 Capital Gains Tax; Bob paid $200 Land Transfer Tax"
    )
    assert adv.cash("Ann") == 5800 + 1300 and adv.cash("Bob") == 5300


def test_advanced_visitors_fee_carries_capital_gains_for_the_proprietor(adv):
    own(adv, "Ann", 4)
    land(adv, "Bob", 4, choice="fee")
    assert adv.cash("Ann") == 5800 + 400 and adv.pot("lottery") == 1300


def test_advanced_exchange_costs_200_capital_gains_and_200_land_transfer(adv):
    own(adv, "Ann", 61)
    turn_of(adv, "Ann")
    adv.do("exchange", player="Ann", tower=61, house=4)
    assert adv.cash("Ann") == 1000 - 400


def test_advanced_museum_and_fire_department_pay_capital_gains(adv):
    land(adv, "Ann", 68, choice="collect")
    assert adv.cash("Ann") == 7000 + 1500 - 300
    adv.do("next_turn")
    land(adv, "Bob", 68, choice="roll", roll=3)
    assert adv.cash("Bob") == 7000 + 1500 - 300


def test_advanced_quiz_round_pays_every_player_but_the_judge(adv):
    turn_of(adv, "Bob")  # Bob rolled a three: Ann, before him, is the Judge
    adv.do("quiz", answers={"Bob": 1, "Cy": 2})
    assert adv.cash("Bob") == 7300 and adv.cash("Cy") == 7600
    assert adv.refused("quiz", answers={"Ann": 1}) == "Ann is the Judge of this Quiz Card round and cannot answer"


def test_advanced_school_all_answers_right_leads_on_to_the_museum(adv):
    out = land(adv, "Ann", 57, answers={"Ann": 3})
    assert out.endswith("quiz: Ann $900; Ann goes on to square 68 (Museum): land there next")


def test_advanced_school_a_missed_question_answered_by_another_player(adv):
    out = land(adv, "Ann", 57, answers={"Ann": 1, "Bob": 2})
    assert out.endswith("quiz: Ann $300, Bob $600; Ann stays")


def test_advanced_fifteen_demerits_raise_the_insurance_by_1000(adv):
    adv.do("violation", player="Ann", demerits=15)
    assert adv.cash("Ann") == 6000 and adv.pot("lottery") == 2000


# -- loans and mortgages ---------------------------------------------------------------------------
def test_a_bank_loan_of_1000_is_due_with_its_200_cost_in_seven_turns(adv):
    out = adv.do("borrow", player="Ann").summary
    assert out == "Ann borrowed $1,000 from the Bank: $1,200 due in 7 turns"
    assert view(adv, "Ann")["loans"][0]["text"] == "loan $1,200 due in 7 turns"


def test_nobody_owes_the_bank_more_than_one_loan(adv):
    adv.do("borrow", player="Ann")
    assert "nobody may owe the Bank more than $1,000 in loans" in adv.refused("borrow", player="Ann")


def test_ann_loan_falls_due_after_seven_counted_turns_with_a_jail_stay_in_between(adv):
    adv.do("borrow", player="Ann")  # during Ann's first turn, which does not count
    adv.do("next_turn")
    for played in (1, 2):
        turn_of(adv, "Ann")
        adv.do("next_turn")
        assert view(adv, "Ann")["loans"][0]["due_in_turns"] == 7 - played
    land(adv, "Ann", 44)  # third turn: Jail for 3 turns
    adv.do("next_turn")
    assert view(adv, "Ann")["loans"][0]["text"] == "loan $1,200 due in 4 turns"
    for _ in range(3):  # three jail turns: recorded, not counted
        turn_of(adv, "Ann")
        adv.do("next_turn")
    assert adv.table["players"]["Ann"]["missed"] == 3
    assert view(adv, "Ann")["loans"][0]["text"] == "loan $1,200 due in 4 turns"
    for left in (3, 2, 1):
        turn_of(adv, "Ann")
        adv.do("next_turn")
        assert view(adv, "Ann")["loans"][0]["due_in_turns"] == left
    turn_of(adv, "Ann")
    cash = adv.cash("Ann")
    out = adv.do("next_turn").summary  # the seventh counted turn ends
    assert "Ann repaid the Bank loan ($1,200), due after 7 turns" in out
    assert adv.cash("Ann") == cash - 1200 and view(adv, "Ann")["loans"] == []


def test_missed_turns_other_than_jail_and_debts_count_toward_the_seven(adv):
    adv.do("borrow", player="Ann")
    land(adv, "Ann", 24)  # construction zone: the next turn is lost
    adv.do("next_turn")
    turn_of(adv, "Bob")
    turn_of(adv, "Cy")
    adv.do("next_turn")  # Ann misses her turn: it counts
    assert view(adv, "Ann")["loans"][0]["due_in_turns"] == 6


def test_with_missed_turns_count_off_only_played_turns_count(new_game):
    t = new_game("city-life", "Ann", "Bob", "Cy", advanced=True, missed_turns_count=False)
    t.do("borrow", player="Ann")
    land(t, "Ann", 24)
    t.do("next_turn")
    turn_of(t, "Cy")
    t.do("next_turn")
    assert view(t, "Ann")["loans"][0]["due_in_turns"] == 7


def play_turns(t, player, n):
    for _ in range(n):
        turn_of(t, player)
        t.do("next_turn")


def test_a_loan_due_while_short_is_overdue_until_the_player_sells_and_repays(adv):
    own(adv, "Ann", 4)
    adv.do("borrow", player="Ann")
    adv.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 6500, "memo": "set-up"})  # Ann: $300 + House 4
    play_turns(adv, "Ann", 7)
    turn_of(adv, "Ann")
    out = adv.do("next_turn").summary
    assert (
        "Ann's Bank loan of $1,200 is due and Ann has $300: sell property first "
        "(to other players, or to the Bank for $800), then repay"
    ) in out
    assert view(adv, "Ann")["loans"][0]["text"] == "loan $1,200 overdue"
    assert "sell property first" in adv.refused("repay", player="Ann")
    adv.do("sell", player="Ann", deed=4, to="Bob", price=1500)
    adv.do("repay", player="Ann")
    assert adv.cash("Ann") == 300 + 1500 - 200 - 1200 and view(adv, "Ann")["loans"] == []


def test_an_overdue_loan_stops_play_until_the_debtor_sells_and_repays(adv):
    """A loan due and unpaid must be repaid by selling assets: no turn ends while the debtor is short
    and still has something to sell."""
    own(adv, "Ann", 4)
    adv.do("borrow", player="Ann")
    adv.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 6500, "memo": "set-up"})  # Ann: $300 + House 4
    play_turns(adv, "Ann", 8)  # the loan falls due at the end of Ann's seventh counted turn
    reason = adv.refused("next_turn")
    assert reason == (
        "Ann's Bank loan of $1,200 is overdue and Ann has $300: sell property first (to other "
        "players, or to the Bank for $800), then repay, before the turn ends"
    )
    adv.do("sell", player="Ann", deed=4)
    adv.do("repay", player="Ann")
    adv.do("next_turn")


def test_a_loan_unpaid_after_selling_everything_means_square_3_and_a_turn_per_500(adv):
    adv.do("borrow", player="Ann")
    adv.do("transfer", **{"from": "Ann", "to": "Bob", "amount": 7700, "memo": "set-up"})  # Ann: $300, nothing to sell
    play_turns(adv, "Ann", 7)
    turn_of(adv, "Ann")
    out = adv.do("next_turn").summary
    assert (
        "Ann could not repay the Bank loan: paid $300, has nothing to sell, goes back to square 3 and misses "
        "2 turns for the $900 still owed; no more Bank loans"
    ) in out
    assert view(adv, "Ann")["square"] == 3 and view(adv, "Ann")["turns_to_miss"] == 2
    assert not view(adv, "Ann")["may_borrow"]
    assert "may no longer borrow" in adv.refused("borrow", player="Ann")


def test_a_mortgage_pays_400_on_a_house_and_is_repaid_with_500(adv):
    own(adv, "Ann", 4)
    out = adv.do("mortgage", player="Ann", deed=4).summary
    assert out == "Ann mortgaged House 4 for $400: $500 due in 7 turns"
    adv.do("repay", player="Ann", debt=4)
    assert adv.cash("Ann") == 5800 - 100 and not adv.deed("House 4").get("mortgaged")


def test_a_tower_mortgage_pays_2000_and_costs_500(adv):
    own(adv, "Ann", 61)
    adv.do("mortgage", player="Ann", deed=61)
    assert view(adv, "Ann")["loans"][0]["amount"] == 2500 and adv.cash("Ann") == 3000


def test_selling_a_mortgaged_property_repays_the_mortgage_out_of_the_sale(adv):
    own(adv, "Ann", 4)
    adv.do("mortgage", player="Ann", deed=4)
    out = adv.do("sell", player="Ann", deed=4).summary
    assert out.endswith("; Ann repaid the mortgage on House 4 ($500)")
    assert adv.cash("Ann") == 5800 + 400 + 1000 - 200 - 500 and view(adv, "Ann")["loans"] == []


def test_a_mortgage_due_is_collected_when_the_cash_is_there(adv):
    own(adv, "Ann", 4)
    adv.do("mortgage", player="Ann", deed=4)
    play_turns(adv, "Ann", 7)
    turn_of(adv, "Ann")
    assert "Ann repaid the mortgage on House 4 ($500)" in adv.do("next_turn").summary


def test_a_refusal_changes_nothing_and_says_why_in_one_line(adv):
    assert adv.refused("repay", player="Ann") == "Ann owes the Bank nothing"
    assert adv.refused("land", player="Ann", square=101)
    assert adv.refused("sell", player="Ann", deed=4) == "House 4 belongs to the Bank, not Ann"
    assert adv.refused("sell", player="Ann", deed=5) == "square 5 is not a City Life House or Tower"


def test_a_corrected_card_changes_the_next_visitors_fee(t):
    own(t, "Ann", 4)
    t.do("correct_card", deed="House 4", values={"visitor_fee": 600})
    land(t, "Bob", 4, choice="fee")
    assert t.cash("Bob") == 6400
    with pytest.raises(BadAction):
        t.do("correct_card", deed="House 4", values={"price": 0})


def test_the_player_record_shows_the_square_shares_and_loans(adv):
    land(adv, "Ann", 3)
    adv.do("buy_shares", player="Ann", count=2)
    adv.do("borrow", player="Ann")
    row = view(adv, "Ann")
    assert row["square"] == 3 and row["shares"] == 2
    assert row["loans"] == [
        {
            "kind": "loan",
            "label": "Bank loan",
            "amount": 1200,
            "amount_text": "$1,200",
            "due_in_turns": 7,
            "overdue": False,
            "text": "loan $1,200 due in 7 turns",
            "says_when": True,  # the text says when it falls due: a phone adds nothing
        }
    ]
    assert row["net_worth"] == adv.cash("Ann") + 1000 - 1200


def test_every_move_conserves_money(adv):
    give(adv, "Ann", 1000)
    own(adv, "Ann", 4, 61)
    land(adv, "Bob", 4, choice="fee")
    land(adv, "Cy", 58)
    assert adv.total() == 0


@pytest.mark.parametrize("advanced", [False, True])
def test_a_long_random_evening_keeps_the_ledger_sound(new_game, advanced):
    """The random banker of the property test, under both rule sets: money is conserved, nobody but the
    bank goes below zero, undo and redo come back to the same table, and a full replay equals it."""
    from tests.random_actions import long_evening
    from tests.random_actions.city_life_family import random_action

    t = new_game("city-life", "Ann", "Bob", "Cy", advanced=advanced)
    accepted = long_evening(t, random_action, seed=20261125 + advanced)
    assert accepted / 240 > 0.6, f"only {accepted} of 240 random actions were accepted"
