"""Monopoly City, round by round: districts, blocks, hazards, skyscrapers and the trading unit's spinner.

The pack's district cards are stand-ins; Central Quay's are chosen so the rulebook's rent example
shows its arithmetic: 6 blocks rent 5.25M, 4 blocks 3.5M, and a skyscraper doubles that to 7M.
"""

import json

import pytest

from companion.cli import main
from companion.core.errors import BadAction, NotEnoughMoney
from companion.core.model import current_player
from companion.views import state_json

M = 1_000_000
K = 1_000
START = 37_700_000


@pytest.fixture
def t(new_game):
    return new_game("monopoly-city", "Ann", "Bob", "Cy")


def turn_of(t, player):
    """Pass the turn round the table until it is ``player``'s."""
    while current_player(t.table) != player:
        t.do("next_turn")


def put_up(t, player, deed, building, blocks):
    """Set-up: build blocks over as many turns as the spinner (always stopping on 3) needs."""
    while blocks:
        turn_of(t, player)
        t.do("spin", player=player, result=3)
        n = min(3, blocks)
        t.do("build", player=player, deed=deed, building=building, count=n)
        blocks -= n
        t.do("next_turn")


def green_group(t, owner="Ann"):
    t.give(owner, "Central Quay", "Old Town", "Harbor Heights")


# -- money and the start -----------------------------------------------------------------------------


def test_everyone_is_dealt_37_7m_shown_the_way_the_box_prints_it(t):
    assert [t.cash(p) for p in ("Ann", "Bob", "Cy")] == [START] * 3
    assert t.cash("bank") == -3 * START
    assert t.banker.fmt(START) == "₩37.7M" and t.banker.fmt(500 * K) == "₩500K"


def test_sums_show_as_the_notes_read_and_odd_sums_in_whole_units(t):
    """Money on screen reads like the box's notes: millions as M with a short fraction, thousands as K,
    and a sum that is no round number of thousands in plain units, never rounded."""
    fmt = t.banker.fmt
    assert [fmt(1_500 * K), fmt(225 * M), fmt(1_250 * K), fmt(10 * K)] == ["₩1.5M", "₩225M", "₩1.25M", "₩10K"]
    assert fmt(1_234 * K) == "₩1.234M" and fmt(37_575 * K) == "₩37.575M"  # millions in one style, never 37,575K
    assert fmt(M + 1) == "₩1,000,001" and fmt(224_960_100) == "₩224,960,100"


def test_the_table_may_deal_another_sum_and_set_its_wages(new_game):
    t = new_game("monopoly-city", "Ann", "Bob", start_cash="15M", wages="3M")
    assert t.cash("Ann") == 15 * M
    t.do("salary", player="Ann")
    assert t.cash("Ann") == 18 * M


def test_amounts_typed_as_the_box_writes_them_are_understood(t):
    t.do("transfer", **{"from": "Ann", "to": "Bob", "amount": "2.5M"})
    t.do("transfer", **{"from": "Ann", "to": "Bob", "amount": "500K"})
    assert t.cash("Bob") == START + 3 * M


def test_ann_passes_go_and_collects_her_wages(t):
    out = t.do("salary", player="Ann")
    assert t.cash("Ann") == START + 2 * M
    assert out.summary == "Ann collected ₩2M wages"


# -- buying and auctions -----------------------------------------------------------------------------


def test_ann_buys_central_quay_at_its_price(t):
    out = t.do("buy", player="Ann", deed="central quay")
    assert t.owner("Central Quay") == "Ann" and t.cash("Ann") == START - 3 * M
    assert out.summary == "Ann bought Central Quay for ₩3M"


def test_auction_bids_start_at_10k(t):
    assert t.refused("auction", deed="Mill Lane", winner="Bob", bid="5K") == "bids start at ₩10K, not ₩5K"
    t.do("auction", deed="Mill Lane", winner="Bob", bid="10K")
    assert t.owner("Mill Lane") == "Bob" and t.cash("Bob") == START - 10 * K
    assert "already belongs to Bob" in t.refused("auction", deed="Mill Lane", winner="Cy", bid="1M")


# -- the build spinner -------------------------------------------------------------------------------


def test_ann_spins_3_and_builds_up_to_3_blocks_across_her_districts(t):
    t.give("Ann", "Mill Lane", "Canal Side")
    t.do("spin", player="Ann", result=3)
    t.do("build", player="Ann", deed="Mill Lane", building="residential", count=2)
    t.do("build", player="Ann", deed="Canal Side", building="industrial")
    assert t.deed("Mill Lane")["residential"] == 2 and t.deed("Canal Side")["industrial"] == 1
    assert t.cash("Ann") == START - 600 * K - 1 * M - 2 * 60 * K - 200 * K
    reason = t.refused("build", player="Ann", deed="Mill Lane", building="residential")
    assert reason == "the spinner allows Ann 3 blocks this turn and 3 are built: 0 left"


def test_no_blocks_without_a_spin_and_one_spin_a_turn(t):
    t.give("Ann", "Mill Lane")
    assert t.refused("build", player="Ann", deed="Mill Lane", building="residential") == (
        "Ann has not spun the build spinner this turn: spin first"
    )
    t.do("spin", player="Ann", result=1)
    assert t.refused("spin", player="Ann", result=3) == (
        "Ann already spun on turn 1 (1 block (1 left)): the spinner turns once a roll, and again only after a double"
    )
    assert t.refused("spin", player="Bob", result=2) == (
        "it is Ann's turn, not Bob's: the build spinner is pressed by the player whose turn it is, once a roll"
    )


def test_a_double_means_another_roll_and_another_spin_in_the_same_turn(t):
    """After a double the player rolls again in the same turn and may build on every roll, so the
    build spinner turns again for the new roll; a third double in a row ends in jail."""
    t.give("Ann", "Mill Lane")
    t.do("spin", player="Ann", result=1)
    t.do("build", player="Ann", deed="Mill Lane", building="residential")
    out = t.do("double", player="Ann")
    assert out.summary == "Ann rolled a double: another roll this turn, and the spinner may turn again"
    t.do("spin", player="Ann", result=2)
    t.do("build", player="Ann", deed="Mill Lane", building="residential", count=2)
    assert t.deed("Mill Lane")["residential"] == 3
    assert "again only after a double" in t.refused("spin", player="Ann", result=3)
    assert (
        t.refused("double", player="Bob")
        == "it is Ann's turn, not Bob's: only the player whose turn it is rolls the dice"
    )
    t.do("double", player="Ann")
    out = t.do("double", player="Ann")
    assert out.summary == "Ann rolled a third double in a row and goes to jail; the turn ends"
    assert t.table["players"]["Ann"]["in_jail"]
    t.do("next_turn")
    assert t.table["turn"].get("roll") is None


def test_a_new_turn_resets_the_allowance(t):
    t.give("Ann", "Mill Lane")
    t.do("spin", player="Ann", result=1)
    t.do("build", player="Ann", deed="Mill Lane", building="residential")
    for _ in range(3):
        t.do("next_turn")
    assert "has not spun" in t.refused("build", player="Ann", deed="Mill Lane", building="residential")
    t.do("spin", player="Ann", result="2")
    t.do("build", player="Ann", deed="Mill Lane", building="residential", count=2)
    assert t.deed("Mill Lane")["residential"] == 3
    assert t.table["turn"]["spin"] == {"player": "Ann", "turn": 4, "result": 2, "used": 2}


def test_the_railroad_face_gives_one_free_railroad_and_no_blocks(t):
    t.give("Ann", "Mill Lane")
    out = t.do("spin", player="Ann", result="railroad")
    assert "free railroad" in out.summary
    assert t.refused("build", player="Ann", deed="Mill Lane", building="residential") == (
        "the spinner gave Ann a railroad this turn, not blocks"
    )
    t.do("build", player="Ann", deed="Old Mint", building="railroad")  # any district, even the bank's
    assert t.deed("Old Mint")["railroad"] is True and t.cash("Ann") == START - 600 * K
    assert t.refused("build", player="Ann", deed="Mill Lane", building="railroad") == (
        "Ann has already built this turn's railroad"
    )


@pytest.mark.parametrize(
    "face, allowance",
    [("1", "1 block (1 left)"), ("3", "3 blocks (3 left)"), (4, "a railroad"), ("railroad", "a railroad")],
)
def test_the_trading_units_faces_are_accepted_as_it_sends_them(t, face, allowance):
    t.do("spin", player="Ann", result=face)
    ann = state_json(t.table, t.banker.rules, t.banker.version)["players"][0]
    assert ann["build_allowance"] == allowance


def test_a_district_holds_at_most_8_blocks(t):
    t.give("Ann", "Mill Lane")
    put_up(t, "Ann", "Mill Lane", "residential", 6)
    turn_of(t, "Ann")
    t.do("spin", player="Ann", result=3)
    assert t.refused("build", player="Ann", deed="Mill Lane", building="industrial", count=3) == (
        "Mill Lane has 6 blocks: a district holds at most 8"
    )
    t.do("build", player="Ann", deed="Mill Lane", building="industrial", count=2)
    assert t.deed("Mill Lane")["residential"] + t.deed("Mill Lane")["industrial"] == 8


def test_blocks_go_only_on_your_own_unmortgaged_districts(t):
    t.give("Bob", "Mill Lane")
    t.give("Ann", "Brick Row")
    t.do("mortgage", player="Ann", deed="Brick Row")
    t.do("spin", player="Ann", result=3)
    assert (
        t.refused("build", player="Ann", deed="Mill Lane", building="residential")
        == "Mill Lane belongs to Bob, not Ann"
    )
    assert t.refused("build", player="Ann", deed="Brick Row", building="residential") == (
        "Brick Row is mortgaged: buy it back before building there"
    )


# -- rent: the rulebook's example --------------------------------------------------------------------


def test_the_rulebook_rent_example_power_station_and_skyscraper(t):
    """Ann owns Central Quay, Old Town and Harbor Heights. Central Quay has 2 residential and 4
    industrial blocks; a power station makes the residential ones worthless; a skyscraper on Harbor
    Heights doubles the rent for the 4 industrial blocks: 2 x 3.5M = 7M."""
    green_group(t)
    put_up(t, "Ann", "Central Quay", "residential", 2)
    put_up(t, "Ann", "Central Quay", "industrial", 4)
    t.do("rent", payer="Cy", deed="Central Quay")
    assert t.cash("Cy") == START - 5_250_000  # all 6 blocks count while no hazard stands
    turn_of(t, "Bob")
    t.do("planning_permission", player="Bob", deed="Central Quay", building="power station")
    turn_of(t, "Ann")
    t.do("build", player="Ann", deed="Harbor Heights", building="skyscraper")
    bob, ann = t.cash("Bob"), t.cash("Ann")
    out = t.do("rent", payer="Bob", deed="Central Quay")
    assert out.summary == "Bob paid Ann ₩7M rent for Central Quay"
    assert (t.cash("Bob"), t.cash("Ann")) == (bob - 7 * M, ann + 7 * M)


def test_land_rent_when_no_blocks_count(t):
    t.give("Ann", "Central Quay")
    t.do("rent", payer="Bob", deed="Central Quay")
    assert t.cash("Bob") == START - 300 * K
    put_up(t, "Ann", "Central Quay", "residential", 2)
    turn_of(t, "Cy")
    t.do("planning_permission", player="Cy", deed="Central Quay", building="rubbish dump")
    t.do("rent", payer="Bob", deed="Central Quay")
    assert t.cash("Bob") == START - 2 * 300 * K


def test_the_tower_doubles_every_district_of_its_owner_but_never_twice_with_a_skyscraper(t):
    ann_money = 60 * M
    t.do("transfer", **{"from": "bank", "to": "Ann", "amount": ann_money})
    green_group(t)
    t.give("Ann", "Mill Lane", "Canal Side")
    assert t.refused("build", player="Ann", deed="Old Town", building="tower") == (
        "the Monopoly Tower needs two whole colour groups; Ann has 1"
    )
    t.give("Ann", "Brick Row")
    assert t.refused("build", player="Ann", deed="Canal Side", building="tower") == (
        "the Monopoly Tower goes on a district of a whole group Ann owns (brown, green), and Canal Side is light blue"
    )
    t.do("build", player="Ann", deed="Old Town", building="tower")
    t.do("rent", payer="Bob", deed="Mill Lane")
    assert t.cash("Bob") == START - 2 * 60 * K
    t.do("build", player="Ann", deed="Harbor Heights", building="skyscraper")
    t.do("rent", payer="Cy", deed="Central Quay")
    assert t.cash("Cy") == START - 2 * 300 * K
    assert t.refused("build", player="Ann", deed="Canal Side", building="tower") == (
        "the Monopoly Tower is already built (on Old Town)"
    )


def test_no_rent_on_a_mortgaged_district_and_no_rent_from_yourself(t):
    t.give("Ann", "Mill Lane")
    assert t.refused("rent", payer="Ann", deed="Mill Lane") == "Ann owns Mill Lane: no rent is due"
    t.do("mortgage", player="Ann", deed="Mill Lane")
    assert t.refused("rent", payer="Bob", deed="Mill Lane") == "Mill Lane is mortgaged: no rent is due"


def test_a_player_short_of_rent_is_told_what_mortgaging_could_raise(t):
    green_group(t)
    t.give("Bob", "Mill Lane")
    t.do("transfer", **{"from": "Bob", "to": "bank", "amount": START - 600 * K - 100 * K})
    t.do("build", player="Ann", deed="Harbor Heights", building="skyscraper")
    with pytest.raises(NotEnoughMoney) as caught:
        t.do("rent", payer="Bob", deed="Central Quay")
    assert str(caught.value) == (
        "Bob has ₩100K but needs ₩600K for rent for Central Quay; mortgaging districts could raise ₩60K more"
    )


# -- the Rent Dodge card -----------------------------------------------------------------------------


def test_rent_dodge_cancels_one_rent_and_goes_back_beside_free_parking(t):
    t.give("Ann", "Central Quay")
    assert "does not hold the Rent Dodge card (it is beside Free Parking)" in t.refused(
        "rent", payer="Bob", deed="Central Quay", dodge=True
    )
    t.do("free_parking", player="Bob")
    out = t.do("rent", payer="Bob", deed="Central Quay", dodge=True)
    assert out.summary == "Bob played the Rent Dodge card on Central Quay and paid Ann nothing instead of ₩300K"
    assert t.cash("Bob") == START and not t.table["players"]["Bob"].get("rent_dodge")


def test_rent_dodge_makes_the_whole_turn_rent_free(t):
    """The card gives one rent-free turn: after a double, a second rent in the same turn is not paid
    either; the next turn pays again."""
    t.give("Ann", "Central Quay", "Old Town")
    turn_of(t, "Bob")
    t.do("free_parking", player="Bob")
    t.do("rent", payer="Bob", deed="Central Quay", dodge=True)
    t.do("double", player="Bob")
    out = t.do("rent", payer="Bob", deed="Old Town")
    assert out.summary.startswith("Bob's Rent Dodge covers this turn: Bob owes Ann nothing for Old Town")
    assert t.cash("Bob") == START
    t.do("next_turn")
    turn_of(t, "Bob")
    t.do("rent", payer="Bob", deed="Old Town")
    assert t.cash("Bob") < START


def test_an_unused_rent_dodge_card_passes_to_the_next_player_on_free_parking(t):
    t.do("free_parking", player="Bob")
    out = t.do("free_parking", player="Cy")
    assert out.summary == "Cy took the Rent Dodge card from Bob, who had not used it"
    assert t.refused("free_parking", player="Cy") == "Cy already holds the Rent Dodge card"


# -- taxes, jail -------------------------------------------------------------------------------------


def test_industry_tax_is_due_only_from_owners_of_industrial_blocks(t):
    t.give("Ann", "Mill Lane")
    assert t.refused("tax", player="Ann") == "Ann owns no industrial blocks, so no industry tax is due"
    put_up(t, "Ann", "Mill Lane", "industrial", 1)
    before = t.cash("Ann")
    t.do("tax", player="Ann")
    t.do("tax", player="Ann", amount="1.5M")  # a space printed with another sum
    assert t.cash("Ann") == before - 2_500_000


def test_the_industry_tax_is_a_game_option_like_the_wages(new_game):
    """The board's industry tax space prints the sum; the table sets it once for the whole game."""
    t = new_game("monopoly-city", "Ann", "Bob", industry_tax="1.5M")
    t.give("Ann", "Mill Lane")
    put_up(t, "Ann", "Mill Lane", "industrial", 1)
    before = t.cash("Ann")
    assert t.do("tax", player="Ann").summary == "Ann paid ₩1.5M industry tax"
    assert t.cash("Ann") == before - 1_500_000


def test_the_starting_money_is_marked_a_stand_in(t):
    """The rulebook shows each player's notes only as pictures: the sum dealt is our count, marked so."""
    assert "start_cash" in t.table["pack"]["stand_in"]


def test_jail_costs_a_500k_fine(t):
    assert t.refused("jail_fine", player="Ann") == "Ann is not in jail"
    t.do("jail", player="Ann")
    t.do("jail_fine", player="Ann")
    assert t.cash("Ann") == START - 500 * K and not t.table["players"]["Ann"]["in_jail"]


# -- stadiums, skyscrapers ---------------------------------------------------------------------------


def test_a_stadium_needs_two_districts_of_a_colour_and_adds_1m_to_wages(t):
    t.give("Ann", "Canal Side")
    assert t.refused("build", player="Ann", deed="Canal Side", building="stadium") == (
        "a stadium needs two light blue districts; Ann owns 1"
    )
    t.give("Ann", "Market Square")
    t.do("build", player="Ann", deed="Market Square", building="stadium")
    assert t.refused("build", player="Ann", deed="Canal Side", building="stadium") == (
        "the light blue group already has its stadium (on Market Square)"
    )
    before = t.cash("Ann")
    t.do("salary", player="Ann")
    assert t.cash("Ann") == before + 3 * M


def test_there_are_only_two_stadiums(t):
    t.do("transfer", **{"from": "bank", "to": "Ann", "amount": 20 * M})
    t.give("Ann", "Mill Lane", "Brick Row", "Canal Side", "Market Square", "Riverside", "Chapel Hill")
    t.do("build", player="Ann", deed="Mill Lane", building="stadium")
    t.do("build", player="Ann", deed="Canal Side", building="stadium")
    assert t.refused("build", player="Ann", deed="Riverside", building="stadium") == (
        "both stadiums are built: there are only two in the game"
    )
    assert t.table["stock"]["stadiums"] == 0


def test_a_skyscraper_needs_the_whole_group_and_costs_what_its_card_says(t):
    t.give("Ann", "Central Quay", "Old Town")
    assert t.refused("build", player="Ann", deed="Old Town", building="skyscraper") == (
        "a skyscraper needs the whole green group (missing Harbor Heights)"
    )
    t.give("Ann", "Harbor Heights")
    before = t.cash("Ann")
    t.do("build", player="Ann", deed="Old Town", building="skyscraper")
    assert t.cash("Ann") == before - 3 * M
    assert "already has its skyscraper (on Old Town)" in t.refused(
        "build", player="Ann", deed="Central Quay", building="skyscraper"
    )


# -- planning permission -----------------------------------------------------------------------------


def test_bonus_buildings_and_hazards_keep_each_other_out(t):
    t.give("Ann", "Mill Lane")
    t.give("Bob", "Brick Row")
    t.do("planning_permission", player="Ann", deed="Mill Lane", building="school")
    assert t.refused("planning_permission", player="Ann", deed="Brick Row", building="park") == (
        "a bonus building goes on Ann's own district or an unowned one, and Brick Row belongs to Bob"
    )
    t.do("planning_permission", player="Ann", deed="Brick Row", building="sewage plant")
    turn_of(t, "Bob")
    assert t.refused("planning_permission", player="Bob", deed="Mill Lane", building="prison") == (
        "Mill Lane has a school: bonus buildings keep hazards out"
    )
    assert t.refused("planning_permission", player="Bob", deed="Brick Row", building="prison") == (
        "a hazard goes on another player's district or an unowned one, not on Bob's own Brick Row"
    )
    assert t.refused("planning_permission", player="Bob", deed="Brick Row", building="water tower") == (
        "Brick Row has a sewage plant: hazards keep bonus buildings out"
    )
    turn_of(t, "Cy")
    t.do("planning_permission", player="Cy", deed="Old Mint", building="wind farm")  # unowned: either kind
    assert t.total() == 0 and all(
        t.cash(p) == START - 600 * K * (p == "Ann") - 700 * K * (p == "Bob") for p in ("Ann", "Bob", "Cy")
    )


def test_removing_a_prison_costs_2m(t):
    t.give("Ann", "Mill Lane")
    turn_of(t, "Bob")
    t.do("planning_permission", player="Bob", deed="Mill Lane", building="prison")
    assert t.refused("remove_hazard", player="Bob", deed="Mill Lane") == "Mill Lane belongs to Ann, not Bob"
    turn_of(t, "Ann")
    out = t.do("remove_hazard", player="Ann", deed="Mill Lane")
    assert out.summary == "Ann paid ₩2M to remove the prison (4 blocks) from Mill Lane"
    assert t.cash("Ann") == START - 600 * K - 2 * M and "hazard" not in t.deed("Mill Lane")
    assert t.refused("remove_hazard", player="Ann", deed="Mill Lane") == "there is no hazard on Mill Lane"


# -- mortgages ---------------------------------------------------------------------------------------


def test_mortgage_pays_the_rent_value_and_buying_back_costs_what_was_received(t):
    green_group(t)
    put_up(t, "Ann", "Central Quay", "industrial", 4)
    turn_of(t, "Ann")
    before = t.cash("Ann")
    out = t.do("mortgage", player="Ann", deed="Central Quay")
    assert out.summary == "Ann mortgaged Central Quay for ₩3.5M, its rent value"
    assert t.deed("Central Quay")["mortgage"] == 3_500_000 and t.deed("Central Quay")["industrial"] == 4
    t.do("build", player="Ann", deed="Harbor Heights", building="skyscraper")  # the rent value doubles...
    t.do("unmortgage", player="Ann", deed="Central Quay")  # ...but buying back costs what was received
    assert t.cash("Ann") == before + 3_500_000 - 3_200_000 - 3_500_000


def test_deals_move_districts_with_their_buildings_and_mortgages(t):
    t.give("Ann", "Mill Lane")
    put_up(t, "Ann", "Mill Lane", "residential", 2)
    t.do("mortgage", player="Ann", deed="Mill Lane")
    out = t.do("trade", a="Ann", b="Bob", give={"deeds": ["Mill Lane"]}, get={"cash": "1M"})
    assert out.summary == "Deal: Ann gave Mill Lane; Bob gave ₩1M"
    assert t.owner("Mill Lane") == "Bob" and t.deed("Mill Lane")["residential"] == 2
    bob = t.cash("Bob")
    t.do("unmortgage", player="Bob", deed="Mill Lane")
    assert t.cash("Bob") == bob - 300 * K  # the rent value of 2 blocks when Ann mortgaged it


# -- bankruptcy and the end ---------------------------------------------------------------------------


def test_bankrupt_to_a_player_hands_over_cash_and_districts(t):
    t.give("Cy", "Mill Lane", "Brick Row")
    t.do("mortgage", player="Cy", deed="Brick Row")
    t.do("free_parking", player="Cy")
    cy = t.cash("Cy")
    out = t.do("bankrupt", player="Cy", creditor="Bob")
    assert t.cash("Bob") == START + cy and t.owner("Mill Lane") == "Bob" and t.deed("Brick Row")["mortgaged"]
    assert t.table["players"]["Cy"]["bankrupt"] and not t.table["players"]["Cy"].get("rent_dodge")
    assert out.summary.startswith("Cy went bankrupt to Bob")


def test_bankrupt_to_the_bank_returns_districts_for_auction_with_the_mortgage_cancelled(t):
    t.give("Cy", "Mill Lane")
    put_up(t, "Cy", "Mill Lane", "residential", 1)
    t.do("mortgage", player="Cy", deed="Mill Lane")
    t.do("bankrupt", player="Cy", creditor="bank")
    state = t.deed("Mill Lane")
    assert state.get("owner") is None and not state.get("mortgaged") and "mortgage" not in state
    assert state["residential"] == 1
    t.do("auction", deed="Mill Lane", winner="Ann", bid="400K")
    assert t.owner("Mill Lane") == "Ann"


def test_the_richest_by_cash_plus_rent_values_wins_the_timed_game(t):
    green_group(t, "Bob")
    t.give("Ann", "Mill Lane")
    turn_of(t, "Bob")
    t.do("build", player="Bob", deed="Old Town", building="skyscraper")
    t.do("mortgage", player="Bob", deed="Harbor Heights")
    out = t.do("end_game", reason="the hour is up")
    ranking = t.table["over"]["ranking"]
    bob = START - 9_200_000 - 3 * M + 2 * 320 * K  # cash, with what mortgaging Harbor Heights raised
    assert [r["player"] for r in ranking] == ["Cy", "Ann", "Bob"]
    assert ranking[1] == {"player": "Ann", "worth": START - 600 * K + 60 * K, "cash": START - 600 * K}
    assert ranking[2] == {"player": "Bob", "worth": bob + 2 * 300 * K + 2 * 300 * K, "cash": bob}
    assert out.summary == "Game over: Cy wins with ₩37.7M"


def test_phones_see_the_rent_dodge_card_stadiums_and_the_build_allowance(t):
    t.give("Ann", "Mill Lane", "Brick Row")
    t.do("build", player="Ann", deed="Mill Lane", building="stadium")
    t.do("free_parking", player="Ann")
    t.do("spin", player="Ann", result=2)
    state = state_json(t.table, t.banker.rules, t.banker.version)
    ann = state["players"][0]
    assert (ann["rent_dodge"], ann["stadiums"], ann["build_allowance"], ann["district_value"]) == (
        True,
        1,
        "2 blocks (2 left)",
        130 * K,
    )


def test_malformed_city_actions_are_bad_input(t):
    t.give("Ann", "Mill Lane")
    for fields in (
        {"player": "Ann", "result": 4.5},
        {"player": "Ann", "result": True},
        {"player": "Ann", "result": "5"},
    ):
        with pytest.raises(BadAction):
            t.do("spin", **fields)
    with pytest.raises(BadAction):
        t.do("build", player="Ann", deed="Mill Lane", building="hotel")
    with pytest.raises(BadAction):
        t.do("planning_permission", player="Ann", deed="Mill Lane", building="casino")
    with pytest.raises(BadAction):
        t.do("repairs", player="Ann", per_house=1, per_hotel=1)


# -- card corrections --------------------------------------------------------------------------------


def test_the_banker_corrects_a_district_card_and_undoes_it_without_moving_money(t):
    t.give("Ann", "Mill Lane")
    accounts = dict(t.table["accounts"])
    t.do("correct_card", deed="Mill Lane", values={"land_rent": 80_000, "stand_in": False})
    assert t.table["accounts"] == accounts
    t.do("rent", payer="Bob", deed="Mill Lane")
    assert t.cash("Bob") == START - 80 * K
    t.banker.undo()
    t.banker.undo()
    assert t.table["pack"]["cards"]["Mill Lane"]["land_rent"] == 60 * K


@pytest.mark.parametrize(
    "values, reason",
    [
        ({"rent": [1, 2, 3]}, "Mill Lane: a district has 8 rents (for 1 to 8 blocks), not [1, 2, 3]"),
        (
            {"rent": [1, 2, 3, 4, 5, 6, 7, 0]},
            "Mill Lane: rents are whole numbers above 0, not [1, 2, 3, 4, 5, 6, 7, 0]",
        ),
        ({"price": -5}, "Mill Lane: price must be a whole number above 0, not -5"),
        ({"industrial_cost": 1.5}, "Mill Lane: industrial_cost must be a whole number above 0, not 1.5"),
        (
            {"hotel_cost": 5},
            "Mill Lane has no field 'hotel_cost'; its fields are group, industrial_cost, land_rent, "
            "price, rent, residential_cost, skyscraper_cost, stand_in",
        ),
    ],
)
def test_bad_card_values_are_refused(t, values, reason):
    assert t.refused("correct_card", deed="Mill Lane", values=values) == reason


def test_companion_deeds_lists_and_corrects_city_cards(tmp_path, capsys):
    game = str(tmp_path / "city.game")
    assert main(["new", game, "--rules", "monopoly-city", "--player", "Ann", "--player", "Bob"]) == 0
    assert main(["do", game, '{"action": "buy", "player": "Ann", "deed": "Central Quay"}']) == 0
    capsys.readouterr()
    assert main(["deeds", game]) == 0
    listing = capsys.readouterr().out
    assert (
        "Central Quay" in listing and "land_rent=\u20a9300K" in listing and "owner=Ann" in listing
    )  # the notes' style
    assert main(["deeds", game, "--set", "Central Quay", "land_rent=250K", "stand_in=false"]) == 0
    assert "corrected Central Quay" in capsys.readouterr().out
    assert main(["deeds", game, "--set", "Central Quay", "rent=[1,2]"]) == 2
    assert "8 rents" in capsys.readouterr().err
    assert main(["deeds", game, "--json"]) == 0
    cards = {c["name"]: c for c in json.loads(capsys.readouterr().out)}
    assert cards["Central Quay"]["land_rent"] == 250_000 and cards["Central Quay"]["stand_in"] is False
    assert main(["show", game, "--json"]) == 0
    ann = json.loads(capsys.readouterr().out)["players"][0]
    assert ann["cash"] == START - 3 * M  # correcting a card moved no money
    assert main(["undo", game]) == 0
    assert capsys.readouterr().out.startswith("Undone: The banker corrected Central Quay")
    assert main(["deeds", game, "--json"]) == 0
    assert {c["name"]: c for c in json.loads(capsys.readouterr().out)}["Central Quay"]["land_rent"] == 300_000
