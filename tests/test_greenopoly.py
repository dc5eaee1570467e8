"""Greenopoly, round by round: characters' salaries, the centre pot, Night, park infrastructure and
the most improved parks winning.

The parks' stand-in cards are the classic streets scaled by 1,000: Corner Park and Comenius Garten
cost €100K (access 6K, then 30K, 90K, 270K, 400K by level; infrastructure €50K a piece),
Prinzessinnengarten €120K (access 8K ... 450K).
"""

import json

import pytest

from companion.cli import main
from companion.core.errors import BadAction
from companion.rules import load_pack
from companion.service import Banker
from companion.views import state_json
from tests.table import AtTheTable

K = 1_000
M = 1_000_000
START = 2 * M
BLUE = ("Corner Park", "Comenius Garten", "Prinzessinnengarten")


@pytest.fixture
def t(new_game):
    t = new_game("greenopoly", "Ann", "Bob", "Cy")
    t.do("choose_character", player="Ann", character="Gardener")  # 200K, Night and Detour
    t.do("choose_character", player="Bob", character="beekeeper")  # 200K, neither
    t.do("choose_character", player="Cy", character="Urban Planner")  # 300K, Night and Detour
    return t


def improve_all(t, player, parks, levels):
    for _ in range(levels):
        for park in parks:
            t.do("improve", player=player, deed=park)


# -- the start, characters and salaries ---------------------------------------------------------------


def test_everyone_starts_with_2m_and_the_centre_is_empty(new_game):
    t = new_game("greenopoly", "Ann", "Bob")
    assert [t.cash("Ann"), t.cash("Bob"), t.pot("centre")] == [START, START, 0]
    assert t.banker.fmt(START) == "€2M" and t.banker.fmt(500) == "€500"


def test_an_odd_sum_shows_in_whole_euros_not_as_a_fraction_of_a_thousand(new_game):
    """The notes read K and M; a sum such as 1,862.5K is shown in whole units, never rounded."""
    t = new_game("greenopoly", "Ann", "Bob")
    assert t.banker.fmt(1_862_500) == "€1,862,500" and t.banker.fmt(1_860_000) == "€1.86M"


def test_salary_comes_from_the_character_card(t):
    out = t.do("salary", player="Cy")
    assert t.cash("Cy") == START + 300 * K
    assert out.summary == "Cy collected €300K salary (Urban Planner)"


def test_passing_go_then_a_card_back_to_go_pays_the_salary_twice(t):
    t.do("salary", player="Ann", times=2)
    assert t.cash("Ann") == START + 400 * K


def test_no_salary_before_the_character_is_recorded(new_game):
    t = new_game("greenopoly", "Ann", "Bob")
    assert t.refused("salary", player="Ann") == (
        "Ann has no character card yet: record the card they drew with Choose a character"
    )


def test_each_character_card_is_in_one_hand(t, new_game):
    assert (
        t.refused("choose_character", player="Ann", character="Student")
        == "Ann already holds Gardener; undo to change it"
    )
    u = new_game("greenopoly", "Dee", "Eve")
    u.do("choose_character", player="Dee", character="Student")
    assert u.refused("choose_character", player="Eve", character="student") == "Dee already holds Student"
    assert "there is no character called 'Wizard'" in u.refused("choose_character", player="Eve", character="Wizard")


# -- the centre of the board -------------------------------------------------------------------------


def test_income_tax_flat_goes_to_the_centre_and_free_access_takes_it_all(t):
    t.do("tax", player="Ann", choice="flat")
    t.do("fine", player="Bob", amount="150K", memo="Chance: litter fine")
    assert t.pot("centre") == 1_150_000 and t.cash("bank") == -3 * START
    out = t.do("free_access", player="Cy")
    assert out.summary == "Cy took €1.15M from the centre of the board"
    assert t.cash("Cy") == START + 1_150_000 and t.pot("centre") == 0
    assert t.refused("free_access", player="Ann") == "the centre of the board is empty: nothing to take"


def test_income_tax_at_ten_percent_counts_printed_prices_mortgaged_or_not_and_infrastructure(t):
    t.give("Ann", *BLUE)
    t.do("improve", player="Ann", deed="Corner Park")
    t.give("Ann", "Willow Meadow")
    t.do("mortgage", player="Ann", deed="Willow Meadow")
    cash = START - 320 * K - 60 * K - 50 * K + 30 * K
    worth = cash + 320 * K + 60 * K + 50 * K
    out = t.do("tax", player="Ann", choice="percent")
    assert t.cash("Ann") == cash - worth // 10 and t.pot("centre") == worth // 10
    assert out.summary == "Ann paid €203K income tax into the centre of the board (10% of €2.03M)"


def test_income_tax_choice_must_be_made_before_counting(t):
    with pytest.raises(BadAction):
        t.do("tax", player="Ann")


# -- Night -------------------------------------------------------------------------------------------


def test_night_costs_500_to_leave_early_for_characters_it_affects(t):
    t.do("night", player="Ann")
    assert t.table["players"]["Ann"]["in_jail"]
    t.do("night_fine", player="Ann")
    assert t.cash("Ann") == START - 500 and t.cash("bank") == -3 * START + 500
    assert t.refused("night_fine", player="Ann") == "Ann is not in Night"


def test_characters_spared_by_night_play_on(t):
    assert (
        t.refused("night", player="Bob") == "Bob's character (Beekeeper) is not affected by Night: no penalty, play on"
    )


def test_doubles_or_a_torch_card_get_you_out_of_night_for_free(t):
    t.do("night", player="Cy")
    t.do("leave_night", player="Cy")
    assert t.cash("Cy") == START and not t.table["players"]["Cy"]["in_jail"]


def test_a_table_reading_the_fine_as_500k_sets_the_option(new_game):
    t = new_game("greenopoly", "Ann", "Bob", night_fine="500K")
    t.do("choose_character", player="Ann", character="Cyclist")
    t.do("night", player="Ann")
    t.do("night_fine", player="Ann")
    assert t.cash("Ann") == START - 500 * K


# -- park access -------------------------------------------------------------------------------------


def test_access_is_doubled_on_an_unimproved_complete_group_even_with_one_park_mortgaged(t):
    t.give("Ann", *BLUE)
    t.do("mortgage", player="Ann", deed="Prinzessinnengarten")
    t.do("rent", payer="Bob", deed="Corner Park")
    assert t.cash("Bob") == START - 12 * K
    assert (
        t.refused("rent", payer="Bob", deed="Prinzessinnengarten") == "Prinzessinnengarten is mortgaged: no rent is due"
    )


def test_bob_lands_on_corner_park_with_a_playground_and_pays_ann_90k(t):
    t.give("Ann", *BLUE)
    improve_all(t, "Ann", BLUE, 2)
    out = t.do("rent", payer="Bob", deed="Corner Park")
    assert out.summary == "Bob paid Ann €90K rent for Corner Park"


# -- infrastructure ----------------------------------------------------------------------------------


def test_improving_needs_the_whole_group_unmortgaged(t):
    t.give("Ann", "Corner Park", "Comenius Garten")
    assert t.refused("improve", player="Ann", deed="Corner Park") == (
        "Ann needs the whole light blue group to improve parks (missing Prinzessinnengarten)"
    )
    t.give("Ann", "Prinzessinnengarten")
    t.do("mortgage", player="Ann", deed="Comenius Garten")
    assert t.refused("improve", player="Ann", deed="Corner Park") == (
        "lift the mortgage on Comenius Garten before improving the light blue group"
    )


def test_parks_are_improved_evenly_a_fountain_then_a_playground(t):
    t.give("Ann", *BLUE)
    t.do("improve", player="Ann", deed="Corner Park")
    assert t.refused("improve", player="Ann", deed="Corner Park") == (
        "improve evenly: Comenius Garten, Prinzessinnengarten must reach level 1 before Corner Park goes higher"
    )
    t.do("improve", player="Ann", deed="Comenius Garten")
    t.do("improve", player="Ann", deed="Prinzessinnengarten")
    assert t.table["stock"]["fountains"] == 10
    out = t.do("improve", player="Ann", deed="Corner Park")
    assert out.summary == "Ann improved Corner Park to level 2 (a playground) for €50K"
    assert (t.table["stock"]["fountains"], t.table["stock"]["playgrounds"]) == (
        11,
        14,
    )  # the playground replaces the fountain
    assert t.cash("Ann") == START - 320 * K - 4 * 50 * K


def test_level_four_is_the_top(t):
    t.do("transfer", **{"from": "bank", "to": "Ann", "amount": "1M"})
    t.give("Ann", *BLUE)
    improve_all(t, "Ann", BLUE, 4)
    assert t.refused("improve", player="Ann", deed="Corner Park") == (
        "Corner Park is at level four (a collective space): it cannot be improved further"
    )
    assert t.table["stock"] == {"fountains": 13, "playgrounds": 15, "sports grounds": 20, "collective spaces": 12}


def test_with_stacked_infrastructure_every_piece_stays_standing(new_game):
    t = new_game("greenopoly", "Ann", "Bob", stacked_infrastructure=True)
    t.give("Ann", "Willow Meadow", "Bramble Patch")
    improve_all(t, "Ann", ("Willow Meadow", "Bramble Patch"), 2)
    assert (t.table["stock"]["fountains"], t.table["stock"]["playgrounds"]) == (11, 13)


def test_selling_down_stacked_infrastructure_returns_only_the_top_piece(new_game):
    t = new_game("greenopoly", "Ann", "Bob", stacked_infrastructure=True)
    t.give("Ann", "Willow Meadow", "Bramble Patch")
    improve_all(t, "Ann", ("Willow Meadow", "Bramble Patch"), 2)
    t.do("sell_infrastructure", player="Ann", deed="Bramble Patch")
    assert (t.table["stock"]["fountains"], t.table["stock"]["playgrounds"]) == (11, 14)


def test_when_the_bank_runs_out_of_fountains_nobody_improves(tmp_path):
    pack = load_pack("greenopoly")
    pack["stock"]["fountains"] = 2
    t = AtTheTable(Banker.create(tmp_path / "short.game", pack, ["Ann", "Bob"], backup_every=0))
    try:
        t.do("choose_character", player="Ann", character="Student")
        t.give("Ann", *BLUE)
        t.do("improve", player="Ann", deed="Corner Park")
        t.do("improve", player="Ann", deed="Comenius Garten")
        assert t.refused("improve", player="Ann", deed="Prinzessinnengarten") == (
            "the bank has no fountains left: wait until one is sold back, "
            "or auction the last ones among the players who want them"
        )
        t.do("sell_infrastructure", player="Ann", deed="Corner Park")
        t.do("improve", player="Ann", deed="Prinzessinnengarten", price="80K")  # the last one, won at auction
        assert t.cash("Ann") == START - 320 * K - 2 * 50 * K + 25 * K - 80 * K
    finally:
        t.close()


def test_infrastructure_sells_back_at_half_price_evenly(t):
    t.give("Ann", *BLUE)
    improve_all(t, "Ann", BLUE, 2)
    t.do("improve", player="Ann", deed="Corner Park")
    assert t.refused("sell_infrastructure", player="Ann", deed="Comenius Garten") == (
        "sell evenly: sell from Corner Park before Comenius Garten"
    )
    before = t.cash("Ann")
    out = t.do("sell_infrastructure", player="Ann", deed="Corner Park", count=2)
    assert out.summary == "Ann sold 2 levels of infrastructure on Corner Park for €50K"
    assert t.cash("Ann") == before + 50 * K and t.deed("Corner Park")["level"] == 1


def short_pack_game(tmp_path, **stock):
    pack = load_pack("greenopoly")
    pack["stock"].update(stock)
    t = AtTheTable(Banker.create(tmp_path / "short.game", pack, ["Ann", "Bob"], backup_every=0))
    t.do("choose_character", player="Ann", character="Student")
    t.do("choose_character", player="Bob", character="Beekeeper")
    t.do("transfer", **{"from": "bank", "to": "Ann", "amount": "5M"})
    return t


def test_a_park_can_always_be_sold_down_even_when_the_piece_below_is_out(tmp_path):
    """Infrastructure may be sold back at any time. With one piece standing per level, a park whose
    lower piece the bank has run out of comes down to the highest level the bank still has a piece
    for (or to bare land), at half the price paid for each level it loses; evenness then lets the
    rest of the group follow."""
    t = short_pack_game(tmp_path, playgrounds=3)
    try:
        t.give("Ann", *BLUE)
        t.do("improve_group", player="Ann", deed="Corner Park", level=3)  # the playgrounds come back
        t.do("transfer", **{"from": "bank", "to": "Bob", "amount": "1M"})
        t.give("Bob", "Willow Meadow", "Bramble Patch")
        t.do("improve_group", player="Bob", deed="Willow Meadow", level=2)  # two playgrounds stand there
        t.do("sell_infrastructure", player="Ann", deed="Corner Park")  # takes the bank's last playground
        assert t.table["stock"]["playgrounds"] == 0 and t.deed("Corner Park")["level"] == 2
        cash = t.cash("Ann")
        out = t.do("sell_infrastructure", player="Ann", deed="Comenius Garten")
        assert t.deed("Comenius Garten")["level"] == 1 and t.cash("Ann") == cash + 50 * K
        assert out.summary == (
            "Ann sold 2 levels of infrastructure on Comenius Garten for €50K (the bank had no "
            "piece for level 2, so Comenius Garten came down to level 1)"
        )
        t.do("sell_infrastructure", player="Ann", deed="Prinzessinnengarten")
        t.do("sell_infrastructure", player="Ann", deed="Corner Park")  # the highest again: evenness holds
        assert [t.deed(p)["level"] for p in BLUE] == [1, 1, 1]
    finally:
        t.close()


def test_a_piece_won_at_auction_sells_back_for_half_the_bid(tmp_path):
    """A sell-back brings half the price paid: a fountain auctioned for 80K in a shortage sells for 40K."""
    t = short_pack_game(tmp_path, fountains=1)
    try:
        t.give("Ann", "Willow Meadow", "Bramble Patch")
        t.do("improve", player="Ann", deed="Willow Meadow", price="80K")
        cash = t.cash("Ann")
        out = t.do("sell_infrastructure", player="Ann", deed="Willow Meadow")
        assert t.cash("Ann") - cash == 40 * K and out.summary.endswith("for €40K")
    finally:
        t.close()


def test_a_whole_group_is_improved_to_a_level_in_one_go_and_sold_down_likewise(t):
    """Improving and selling go evenly park by park; the whole group to a level is one tap, all or nothing."""
    t.do("transfer", **{"from": "bank", "to": "Ann", "amount": "2M"})
    t.give("Ann", *BLUE)
    out = t.do("improve_group", player="Ann", deed="Corner Park", level=4)
    assert [t.deed(p)["level"] for p in BLUE] == [4, 4, 4]
    assert out.summary.startswith("Ann improved the light blue group to level 4 (a collective space on each park) for ")
    cash = t.cash("Ann")
    out = t.do("sell_group", player="Ann", deed="Corner Park", level=1)
    assert [t.deed(p)["level"] for p in BLUE] == [1, 1, 1]
    assert t.cash("Ann") - cash == 3 * 3 * 25 * K  # half of 50K for each of 3 levels on 3 parks
    assert "level 1" in out.summary
    t.do("transfer", **{"from": "Ann", "to": "bank", "amount": t.cash("Ann") - 10 * K})
    assert "needs" in t.refused("improve_group", player="Ann", deed="Corner Park", level=2)
    assert [t.deed(p)["level"] for p in BLUE] == [1, 1, 1]


def test_an_improved_group_cannot_be_mortgaged_or_traded(t):
    t.give("Ann", *BLUE)
    t.do("improve", player="Ann", deed="Comenius Garten")
    assert "before mortgaging Corner Park" in t.refused("mortgage", player="Ann", deed="Corner Park")
    assert "before Corner Park can change hands" in t.refused(
        "trade", a="Ann", b="Bob", give={"deeds": ["Corner Park"]}
    )


# -- mortgages and deals -----------------------------------------------------------------------------


def test_mortgage_and_lifting_at_ten_percent(t):
    t.give("Ann", "Corner Park")
    t.do("mortgage", player="Ann", deed="Corner Park")
    t.do("unmortgage", player="Ann", deed="Corner Park")
    assert t.cash("Ann") == START - 100 * K + 50 * K - 55 * K


def test_a_mortgaged_park_changing_hands_costs_its_new_owner_ten_percent(t):
    t.give("Ann", "Corner Park")
    t.do("mortgage", player="Ann", deed="Corner Park")
    t.do("trade", a="Ann", b="Bob", give={"deeds": ["Corner Park"]}, get={"cash": "70K"})
    assert t.cash("Bob") == START - 70 * K - 5 * K and t.owner("Corner Park") == "Bob"


def test_a_creditor_lifts_a_bankrupts_mortgaged_park_at_once(t):
    """As in classic Monopoly, the creditor may lift a mortgage on a park received in a bankruptcy at
    once, for the mortgage and its 10% together (50K + 5K here), instead of paying the 10% twice."""
    t.give("Ann", "Corner Park")
    t.do("mortgage", player="Ann", deed="Corner Park")
    bob = t.cash("Bob")
    out = t.do("bankrupt", player="Ann", creditor="Bob", lift=["Corner Park"])
    assert not t.deed("Corner Park")["mortgaged"] and t.owner("Corner Park") == "Bob"
    assert t.cash("Bob") == bob + START - 100 * K + 50 * K - 55 * K
    assert "Bob lifted the mortgage on Corner Park for €55K" in out.summary


# -- the end -----------------------------------------------------------------------------------------


def test_a_bankruptcy_ends_the_game_and_the_most_improved_parks_win(t):
    t.give("Bob", *BLUE)
    improve_all(t, "Bob", BLUE, 1)
    t.give("Cy", "Willow Meadow", "Bramble Patch")
    t.do("improve", player="Cy", deed="Willow Meadow")
    t.do("transfer", **{"from": "bank", "to": "Cy", "amount": "5M", "memo": "a lucky streak"})
    out = t.do("bankrupt", player="Ann", creditor="bank")
    over = t.table["over"]
    assert over["winner"] == "Bob" and over["reason"] == "Ann went bankrupt"
    assert [(r["player"], r["improved_parks"]) for r in over["ranking"]] == [("Bob", 3), ("Cy", 1), ("Ann", 0)]
    assert over["ranking"][1]["worth"] > over["ranking"][0]["worth"]  # richer, but the objective decides
    assert out.summary.endswith("Game over: Bob wins with 3 improved parks")
    assert "the game is over" in t.refused("salary", player="Bob")


def test_bankrupt_to_a_player_sells_the_infrastructure_first(t):
    t.give("Ann", *BLUE)
    improve_all(t, "Ann", BLUE, 1)
    ann = t.cash("Ann")
    t.do("bankrupt", player="Ann", creditor="Cy")
    assert t.cash("Cy") == START + ann + 3 * 25 * K
    assert all(t.owner(p) == "Cy" and not t.deed(p).get("level") for p in BLUE)
    assert t.table["stock"]["fountains"] == 13


def test_a_timed_end_ranks_by_improved_parks_with_worth_beside(t):
    t.give("Ann", "Willow Meadow", "Bramble Patch")
    improve_all(t, "Ann", ("Willow Meadow", "Bramble Patch"), 1)
    out = t.do("end_game")
    rows = t.table["over"]["ranking"]
    assert rows[0]["player"] == "Ann" and rows[0]["improved_parks"] == 2 and rows[0]["levels"] == 2
    assert rows[0]["worth"] == START - 120 * K - 100 * K + 120 * K + 100 * K
    assert out.summary == "Game over: Ann wins with 2 improved parks (worth €2M)"


def test_phones_see_character_night_and_improved_parks(t):
    t.do("night", player="Ann")
    ann = state_json(t.table, t.banker.rules, t.banker.version)["players"][0]
    assert {
        k: ann[k] for k in ("character", "salary", "night_applies", "detour_applies", "in_night", "improved_parks")
    } == {
        "character": "Gardener",
        "salary": 200 * K,
        "night_applies": True,
        "detour_applies": True,
        "in_night": True,
        "improved_parks": 0,
    }


# -- corrections -------------------------------------------------------------------------------------


def test_the_banker_corrects_a_character_card_and_salaries_paid_stay_paid(t):
    t.do("salary", player="Ann")
    t.do("correct_character", character="gardener", values={"salary": "250K", "stand_in": False})
    t.do("salary", player="Ann")
    assert t.cash("Ann") == START + 200 * K + 250 * K
    assert t.refused("correct_character", character="Gardener", values={"salary": 0}) == (
        "character Gardener: salary must be a whole number above 0, not 0"
    )
    assert t.refused("correct_character", character="Gardener", values={"night": "perhaps"}) == (
        "night is true or false, not 'perhaps'"
    )
    assert t.refused("correct_character", character="Gardener", values={"colour": "red"}) == (
        "Gardener has no field 'colour'; its fields are detour, night, salary, stand_in, title"
    )
    t.banker.undo()
    assert t.table["pack"]["characters"]["Gardener"]["salary"] == 250 * K
    t.banker.undo()
    assert t.table["pack"]["characters"]["Gardener"]["salary"] == 200 * K


@pytest.mark.parametrize(
    "values, reason",
    [
        (
            {"rent": [1, 2, 3, 4, 5, 6]},
            "Corner Park: a park has 5 access charges (unimproved, then levels 1 to 4), not [1, 2, 3, 4, 5, 6]",
        ),
        ({"infrastructure_cost": 0}, "Corner Park: infrastructure_cost must be a whole number above 0, not 0"),
        ({"mortgage": "fifty"}, "'fifty' is not an amount of money"),
        (
            {"colour": "green"},
            "Corner Park has no field 'colour'; its fields are group, infrastructure_cost, mortgage, price, "
            "rent, stand_in",
        ),
    ],
)
def test_bad_park_values_are_refused(t, values, reason):
    assert t.refused("correct_card", deed="Corner Park", values=values) == reason


def test_money_text_reads_the_same_in_every_card_correction(t):
    """The banker types a card's money as the notes read it, in a list too, wherever the card is corrected."""
    out = t.do("correct_card", deed="Corner Park", values={"price": "110K", "rent": "[7K, 35K, 95K, 280K, 410K]"})
    assert out.summary == "The banker corrected Corner Park: price = €110K, rent = [€7K, €35K, €95K, €280K, €410K]"
    assert t.table["pack"]["cards"]["Corner Park"]["rent"][4] == 410 * K


def test_a_parks_group_is_fixed_once_play_has_begun(t):
    """Changing a group would silently change which groups are complete: refused once a park is owned."""
    t.do("correct_card", deed="Corner Park", values={"group": "dark blue"})
    t.banker.undo()
    t.give("Ann", "Willow Meadow")
    assert "cannot change once play has begun" in t.refused(
        "correct_card", deed="Corner Park", values={"group": "brown"}
    )


def test_companion_deeds_lists_and_corrects_park_cards(tmp_path, capsys):
    game = str(tmp_path / "green.game")
    assert main(["new", game, "--rules", "greenopoly", "--player", "Ann", "--player", "Bob"]) == 0
    capsys.readouterr()
    assert main(["deeds", game]) == 0
    assert "Prinzessinnengarten" in capsys.readouterr().out
    assert main(["deeds", game, "--set", "Corner Park", "price=110K", "rent=[7K,35K,95K,280K,410K]"]) == 0
    capsys.readouterr()
    assert main(["deeds", game, "--set", "Corner Park", "rent=[1,2,3]"]) == 2
    assert "5 access charges" in capsys.readouterr().err
    assert main(["do", game, '{"action": "buy", "player": "Ann", "deed": "Corner Park"}']) == 0
    capsys.readouterr()
    assert main(["deeds", game, "--json"]) == 0
    park = next(c for c in json.loads(capsys.readouterr().out) if c["name"] == "Corner Park")
    assert (park["price"], park["rent"][0], park["owner"]) == (110 * K, 7 * K, "Ann")
