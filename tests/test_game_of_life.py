"""The Game of Life, along the highway: every money rule of the rulebook as the banker meets it."""

import pytest

from companion.core.errors import BadAction, NotEnoughMoney
from companion.views import state_json


@pytest.fixture
def t(new_game):
    t = new_game("game-of-life", "Ann", "Bob", "Cy")
    t.do("career", player="Ann", route="college")
    t.do("career", player="Bob", route="business")
    t.do("career", player="Cy", route="college")
    return t


def give(t, player, amount):
    t.do("transfer", **{"from": "bank", "to": player, "amount": amount, "memo": "set-up"})


def take(t, player, amount):
    t.do("transfer", **{"from": player, "to": "bank", "amount": amount, "memo": "set-up"})


def view(t, player):
    return next(p for p in state_json(t.table, t.banker.rules, t.banker.version)["players"] if p["name"] == player)


def notes(t, player):
    return t.table["players"][player].get("notes", 0)


# -- to start, and pay days ------------------------------------------------------------------------
def test_each_player_starts_with_2000(new_game):
    t = new_game("game-of-life", "Ann", "Bob")
    assert t.cash("Ann") == t.cash("Bob") == 2000 and t.total() == 0


def test_the_business_road_pays_5000_a_pay_day(t):
    assert t.do("pay_day", player="Bob").summary == "Bob collected a $5,000 pay day (Business)"
    assert t.cash("Bob") == 7000


def test_a_college_graduate_on_no_profession_space_draws_the_bachelors_6000(t):
    t.do("pay_day", player="Cy")
    assert t.cash("Cy") == 8000


def test_a_doctor_draws_20000_for_the_whole_game(t):
    t.do("profession", player="Ann", profession="Doctor")
    t.do("pay_day", player="Ann")
    assert t.cash("Ann") == 22000
    assert (
        t.refused("profession", player="Ann", profession="Bachelor's Degree")
        == "Ann is Doctor for the whole game and keeps that salary"
    )


def test_the_teacher_draws_8000(t):
    t.do("profession", player="Cy", profession="Teacher")
    t.do("pay_day", player="Cy")
    assert t.cash("Cy") == 10000


def test_professions_are_for_the_college_road(t):
    assert (
        t.refused("profession", player="Bob", profession="Doctor")
        == "professions are for the college road; Bob went into business"
    )


def test_no_pay_day_before_a_road_is_chosen(new_game):
    t = new_game("game-of-life", "Ann", "Bob")
    assert (
        t.refused("pay_day", player="Ann")
        == "Ann has not chosen the business or the college road yet: record it with Choose a career"
    )


def test_the_road_is_chosen_once(t):
    assert "took the college road already" in t.refused("career", player="Ann", route="business")


# -- promissory notes ------------------------------------------------------------------------------
def test_ann_borrows_two_notes_pays_interest_on_two_pay_days_and_settles_at_the_day_of_reckoning(t):
    t.do("profession", player="Ann", profession="Doctor")
    t.do("borrow", player="Ann", notes=2)
    assert t.cash("Ann") == 42000 and notes(t, "Ann") == 2
    assert view(t, "Ann")["loans"][0]["text"] == "2 promissory notes: $40,000"
    assert (
        view(t, "Ann")["loans"][0]["detail"] == "$1,000 interest on interest pay days, $50,000 at the Day of Reckoning"
    )
    out = t.do("pay_day", player="Ann", interest=True).summary
    assert out == "Ann collected a $20,000 pay day (Doctor) and paid $1,000 interest on 2 notes"
    t.do("pay_day", player="Ann")  # a pay day without interest
    t.do("pay_day", player="Ann", interest=True)
    assert t.cash("Ann") == 42000 + 3 * 20000 - 2 * 1000
    out = t.do("reckoning", player="Ann").summary
    assert out.startswith("Day of Reckoning for Ann: paid $50,000 for 2 notes")
    assert t.cash("Ann") == 100000 - 50000 and notes(t, "Ann") == 0 and view(t, "Ann")["loans"] == []


def test_notes_are_repaid_with_20000_each_before_the_day_of_reckoning(t):
    t.do("borrow", player="Ann", notes=1)
    t.do("repay", player="Ann", notes=1)
    assert t.cash("Ann") == 2000 and notes(t, "Ann") == 0


def test_a_player_short_for_an_obligation_borrows_the_notes_needed(t):
    out = t.do("pay_space", player="Cy", amount=25000, memo="skunk farm").summary
    assert out == "Cy paid $25,000 (skunk farm); Cy borrowed 2 promissory notes ($40,000) to pay"
    assert t.cash("Cy") == 17000 and notes(t, "Cy") == 2


def test_without_auto_notes_the_banker_records_the_borrowing_first(new_game):
    t = new_game("game-of-life", "Ann", "Bob", auto_notes=False)
    assert (
        t.refused("pay_space", player="Ann", amount=5000)
        == "Ann has $2,000 but owes $5,000 for white space: borrow 1 promissory note first"
    )


def test_interest_is_500_a_note_and_borrowed_for_when_short(t):
    t.do("borrow", player="Bob", notes=3)
    take(t, "Bob", 62000)
    t.do("pay_day", player="Bob", interest=True)
    assert t.cash("Bob") == 5000 - 1500 and notes(t, "Bob") == 3


# -- sums from every opponent ----------------------------------------------------------------------
@pytest.mark.parametrize("spin,each", [(1, 1000), (3, 1000), (4, 500), (6, 500), (7, 0), (9, 0), (10, 0)])
def test_wedding_presents_from_each_opponent_by_the_spin(t, spin, each):
    t.do("wedding", player="Ann", spin=spin)
    assert t.cash("Ann") == 2000 + 2 * each and t.cash("Bob") == 2000 - each


def test_there_is_a_law_against_bigamy(t):
    t.do("wedding", player="Ann", spin=8)
    assert t.refused("wedding", player="Ann", spin=2) == "Ann is married already: there is a law against bigamy"


def test_a_baby_brings_500_from_each_opponent_and_twins_1000(t):
    t.do("baby", player="Ann")
    assert t.cash("Ann") == 3000
    t.do("baby", player="Ann", twins=True)
    assert t.cash("Ann") == 5000 and t.cash("Cy") == 500 and view(t, "Ann")["children"] == 3


def test_an_opponent_short_of_a_present_borrows_a_note(t):
    take(t, "Cy", 1800)
    out = t.do("baby", player="Ann").summary
    assert out.endswith("Cy borrowed 1 promissory note ($20,000) to pay")
    assert t.cash("Cy") == 19700


def test_the_first_across_the_toll_bridge_collects_20000_from_each_later_crosser(t):
    t.do("cross_bridge", player="Ann")
    give(t, "Bob", 30000)
    assert t.do("cross_bridge", player="Bob").summary == "Bob crossed the Toll Bridge and paid Ann $20,000"
    t.do("cross_bridge", player="Cy")
    assert t.cash("Ann") == 42000 and notes(t, "Cy") == 1


def test_the_toll_privilege_passes_to_the_second_across_when_the_first_goes_back_over_by_revenge(t):
    t.do("cross_bridge", player="Ann")
    t.do("cross_bridge", player="Bob")
    out = t.do("revenge", player="Cy", victim="Ann", choice="back", over_bridge=True).summary
    assert out == "Cy took Revenge: Ann goes back 10 spaces and back over the Toll Bridge; the toll now goes to Bob"
    t.do("cross_bridge", player="Ann")
    assert view(t, "Bob")["toll_keeper"] and t.cash("Bob") == 22000 - 20000 + 20000


def test_the_toll_privilege_passes_on_when_the_first_goes_to_the_poor_farm(t):
    t.do("cross_bridge", player="Ann")
    t.do("cross_bridge", player="Bob")
    t.do("reckoning", player="Ann")
    t.do("tycoon", player="Ann", number=3, spin=4)
    bob = t.cash("Bob")
    t.do("cross_bridge", player="Cy")
    assert t.cash("Bob") == bob + 20000


# -- revenge ---------------------------------------------------------------------------------------
def test_revenge_takes_100000_from_a_chosen_player(t):
    give(t, "Bob", 150000)
    assert (
        t.do("revenge", player="Ann", victim="Bob", choice="collect").summary == "Ann took Revenge: Bob paid $100,000"
    )
    assert t.cash("Ann") == 102000


def test_a_revenge_victim_who_cannot_pay_goes_back_ten_spaces_and_borrows_nothing(t):
    out = t.do("revenge", player="Ann", victim="Bob", choice="collect").summary
    assert out == "Ann took Revenge on Bob, who has $2,000 and may not borrow for it, so goes back 10 spaces"
    assert t.cash("Bob") == 2000 and notes(t, "Bob") == 0


def test_no_revenge_on_a_player_in_millionaire_acres(t):
    t.do("reckoning", player="Bob")
    t.do("millionaire_acres", player="Bob", spin=5)
    assert (
        t.refused("revenge", player="Ann", victim="Bob", choice="collect")
        == "Bob is in Millionaire Acres, out of Revenge's reach"
    )


# -- the wheel -------------------------------------------------------------------------------------
def test_a_lucky_day_pays_10000(t):
    t.do("lucky_day", player="Ann")
    assert t.cash("Ann") == 12000


def test_speculating_the_lucky_day_wins_150000_on_either_number(t):
    out = t.do("lucky_day", player="Ann", speculate=[3, 8], spin=8).summary
    assert out == "Ann speculated the Lucky Day's $10,000 on 3 and 8 and spun 8: won $150,000"
    assert t.cash("Ann") == 152000


def test_speculating_and_missing_loses_the_two_bills(t):
    t.do("lucky_day", player="Ann", speculate=[3, 8], spin=5)
    assert t.cash("Ann") == 2000


def test_playing_the_market_needs_the_stock_certificate(t):
    assert "only stockholders play the market" in t.refused("play_market", player="Ann", spin=8)


@pytest.mark.parametrize("spin,change", [(1, -25000), (3, -25000), (4, 0), (6, 0), (7, 50000), (10, 50000)])
def test_playing_the_market_by_the_spin(t, spin, change):
    give(t, "Ann", 100000)
    t.do("buy", player="Ann", item="Stock Certificate")
    cash = t.cash("Ann")
    t.do("play_market", player="Ann", spin=spin)
    assert t.cash("Ann") == cash + change


def test_side_bets_pay_ten_times_the_stake_on_the_number_spun_and_the_rest_goes_to_the_bank(t):
    give(t, "Bob", 20000)
    give(t, "Cy", 20000)
    out = t.do(
        "spin",
        player="Ann",
        number=7,
        bets=[
            {"player": "Bob", "number": 7, "amount": 5000},
            {"player": "Bob", "number": 2, "amount": 5000},
            {"player": "Cy", "number": 3, "amount": 20000},
        ],
    ).summary
    assert out == "Ann spun 7; bets: Bob won $50,000, Cy lost $20,000"
    assert t.cash("Bob") == 22000 - 10000 + 50000 and t.cash("Cy") == 2000


def test_bets_are_at_most_20000_and_two_numbers_and_never_on_notes(t):
    give(t, "Bob", 50000)
    assert (
        t.refused("spin", player="Ann", number=1, bets=[{"player": "Bob", "number": 1, "amount": 25000}])
        == "Bob bets $25,000; at most $20,000 a spin"
    )
    assert (
        t.refused(
            "spin", player="Ann", number=1, bets=[{"player": "Bob", "number": n, "amount": 1000} for n in (1, 2, 3)]
        )
        == "Bob covers 3 numbers; at most 2 a spin"
    )
    assert (
        t.refused("spin", player="Ann", number=1, bets=[{"player": "Cy", "number": 1, "amount": 5000}])
        == "Cy has $2,000 but bets $5,000: no promissory notes for side bets"
    )
    assert (
        t.refused("spin", player="Ann", number=1, bets=[{"player": "Ann", "number": 1, "amount": 500}])
        == "Ann is spinning and cannot bet on this spin"
    )


def test_the_lucky_number_costs_an_opponent_who_spins_it_10000(t):
    t.do("reckoning", player="Bob")
    out = t.do("millionaire_acres", player="Bob", spin=4).summary
    assert out == "Bob is the first at Millionaire Acres: $100,000 and the Lucky Number 4"
    give(t, "Ann", 20000)
    assert t.do("spin", player="Ann", number=4).summary == "Ann spun 4; Ann spun Bob's Lucky Number 4 and paid $10,000"
    t.do("wedding", player="Cy", spin=4)  # a wedding spin counts too: presents, then the fee
    assert t.cash("Bob") == 102000 + 10000 - 500 + 10000


# -- share the wealth ------------------------------------------------------------------------------
def test_a_collect_card_takes_half_of_a_collection_of_10000_or_more(t):
    out = t.do("collect_space", player="Ann", amount=50000, memo="uranium", collect_card="Bob").summary
    assert out == "Ann collected $50,000 (uranium); Bob's Collect card: Ann gave Bob half, $25,000"
    assert t.cash("Ann") == 27000 and t.cash("Bob") == 27000


def test_a_collect_card_needs_10000_or_more(t):
    assert (
        t.refused("collect_space", player="Ann", amount=5000, collect_card="Bob")
        == "a Collect card needs $10,000 or more"
    )


def test_an_exemption_card_voids_a_collect_card(t):
    t.do("collect_space", player="Ann", amount=50000, collect_card="Bob", exempt=True)
    assert t.cash("Ann") == 52000 and t.cash("Bob") == 2000


def test_a_pay_card_makes_an_opponent_pay_half_of_a_payment_of_5000_or_more(t):
    give(t, "Ann", 20000)
    t.do("pay_space", player="Ann", amount=10000, pay_card="Cy")
    assert t.cash("Ann") == 17000 and notes(t, "Cy") == 1 and t.cash("Cy") == 17000


def test_insurance_spares_the_insured(t):
    t.do("buy", player="Bob", item="Auto Insurance")
    out = t.do("pay_space", player="Bob", amount=5000, memo="car accident", unless_insured="Auto Insurance").summary
    assert out == "Bob has Auto Insurance: nothing to pay (car accident)"
    t.do("pay_space", player="Ann", amount=1000, memo="car accident", unless_insured="Auto Insurance")
    assert t.cash("Ann") == 1000 and t.cash("Bob") == 1500


def test_one_of_each_policy_and_one_stock_certificate(t):
    t.do("buy", player="Bob", item="Auto Insurance")
    assert t.refused("buy", player="Bob", item="auto insurance") == "Bob already has Auto Insurance: one of each"


# -- the end of the road ---------------------------------------------------------------------------
def test_the_day_of_reckoning_pays_20000_a_child(t):
    t.do("baby", player="Cy", twins=True)
    t.do("reckoning", player="Cy")
    assert t.cash("Cy") == 4000 + 40000


def test_notes_left_for_want_of_cash_count_against_the_player_at_the_final_count(t):
    t.do("borrow", player="Cy", notes=2)
    take(t, "Cy", 15000)  # Cy: $27,000 and 2 notes
    out = t.do("reckoning", player="Cy").summary
    assert out.startswith(
        "Day of Reckoning for Cy: paid $25,000 for 1 note; 1 note left unpaid for want of cash "
        "(each counts $25,000 against Cy at the final count)"
    )
    assert notes(t, "Cy") == 1 and t.cash("Cy") == 2000 and view(t, "Cy")["net_worth"] == 2000 - 25000


def test_the_tycoon_who_spins_his_number_wins_at_once(t):
    t.do("reckoning", player="Cy")
    out = t.do("tycoon", player="Cy", number=9, spin=9).summary
    assert out.endswith("is a Millionaire Tycoon: Cy wins")
    assert t.table["over"]["winner"] == "Cy"


def test_the_tycoon_who_misses_loses_his_money_to_the_bank_and_sits_at_the_poor_farm(t):
    t.do("reckoning", player="Cy")
    t.do("tycoon", player="Cy", number=9, spin=2)
    assert t.cash("Cy") == 0 and view(t, "Cy")["stage"] == "poor_farm"
    assert t.refused("pay_day", player="Cy") == "Cy is at the Poor Farm and sits out the rest of the game"


def test_only_the_first_at_millionaire_acres_gets_100000_and_a_lucky_number(t):
    t.do("reckoning", player="Ann")
    t.do("millionaire_acres", player="Ann", spin=2)
    t.do("reckoning", player="Bob")
    with pytest.raises(BadAction):
        t.do("millionaire_acres", player="Bob", spin=3)
    t.do("millionaire_acres", player="Bob")
    assert t.cash("Ann") == 102000 and t.cash("Bob") == 2000


def test_the_final_count_when_the_last_player_retires(t):
    give(t, "Ann", 100000)
    t.do("buy", player="Ann", item="Stock Certificate")
    t.do("buy", player="Ann", item="Life Insurance")
    t.do("reckoning", player="Ann")
    t.do("millionaire_acres", player="Ann", spin=1)  # $42,000 + $100,000 bonus
    t.do("reckoning", player="Cy")
    t.do("tycoon", player="Cy", number=1, spin=2)
    give(t, "Bob", 150000)
    t.do("reckoning", player="Bob")
    out = t.do("millionaire_acres", player="Bob").summary
    assert out.endswith("Everyone has retired: Ann wins the final count with $195,000")
    over = t.table["over"]
    assert over["winner"] == "Ann" and [r["player"] for r in over["ranking"]] == ["Ann", "Bob", "Cy"]
    assert over["ranking"][0]["worth"] == 142000 + 50000 + 3000


def test_retired_players_take_no_turns(t):
    t.do("reckoning", player="Bob")
    t.do("millionaire_acres", player="Bob", spin=7)
    assert t.do("next_turn").summary == "Ann's turn ended; Cy to play"


def test_refusals_change_nothing_and_say_why(t):
    assert t.refused("repay", player="Ann", notes=1) == "Ann holds 0 promissory notes, not 1"
    assert t.refused("revenge", player="Ann", victim="Ann", choice="back") == "Revenge is taken on another player"
    assert (
        t.refused("tycoon", player="Ann", number=2, spin=2)
        == "Ann may try to become a Tycoon only at the Day of Reckoning"
    )
    assert (
        t.refused("spin", player="Ann", number=5)
        == "nothing rides on Ann's spin of 5: no bets and nobody's Lucky Number"
    )
    with pytest.raises(NotEnoughMoney):
        t.do("buy", player="Ann", item="Stock Certificate")


def test_stand_in_values_can_be_corrected_from_the_board(t):
    t.do("correct_card", deed="Lawyer", values={"salary": 16000})
    t.do("profession", player="Ann", profession="Lawyer")
    t.do("pay_day", player="Ann")
    assert t.cash("Ann") == 18000
    with pytest.raises(BadAction):
        t.do("correct_card", deed="Doctor", values={"salary": -5})


def test_a_long_random_evening_keeps_the_ledger_sound(new_game):
    """The random banker of the property test: money is conserved, nobody but the bank goes below zero,
    undo and redo come back to the same table, and a full replay equals it."""
    from tests.random_actions import long_evening
    from tests.random_actions.life_family import random_action

    t = new_game("game-of-life", "Ann", "Bob", "Cy")
    accepted = long_evening(t, random_action, seed=20261125)
    assert accepted / 240 > 0.6, f"only {accepted} of 240 random actions were accepted"
