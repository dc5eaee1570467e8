"""What the rulebooks do "during your turn" waits for the player's own turn, in every game, checked in one
place with the rule's reason; what they allow at any time still happens on anyone's turn.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.core.model import current_player
from companion.rules import load_pack, pack_names, rules_for

DOCS = Path(__file__).resolve().parent.parent / "docs" / "rules"
M = 1_000_000


def turn_of(t, player: str) -> None:
    while current_player(t.table) != player:
        t.do("next_turn")


@pytest.fixture
def city(new_game):
    return new_game("monopoly-city", "Ann", "Bob", "Cy")


def test_ann_cannot_build_a_stadium_on_bobs_turn_but_can_on_her_own(city):
    city.give("Ann", "Canal Side", "Market Square")
    turn_of(city, "Bob")
    before = city.table
    reason = city.refused("build", player="Ann", deed="Market Square", building="stadium")
    assert reason.startswith("it is Bob's turn, not Ann's: ") and "during one's own turn" in reason
    assert city.table == before  # refused: the game exactly as it was
    turn_of(city, "Ann")
    city.do("build", player="Ann", deed="Market Square", building="stadium")
    assert city.deed("Market Square").get("stadium")


def test_ann_cannot_remove_a_hazard_on_bobs_turn_but_can_on_her_own(city):
    city.give("Ann", "Mill Lane")
    turn_of(city, "Bob")
    city.do("planning_permission", player="Bob", deed="Mill Lane", building="prison")
    cash = city.cash("Ann")
    assert city.refused("remove_hazard", player="Ann", deed="Mill Lane") == (
        "it is Bob's turn, not Ann's: a hazard is removed by its district's owner during the owner's own turn"
    )
    assert city.cash("Ann") == cash and city.deed("Mill Lane")["hazard"] == "prison"
    turn_of(city, "Ann")
    city.do("remove_hazard", player="Ann", deed="Mill Lane")
    assert city.cash("Ann") == cash - 2 * M


def test_a_skyscraper_waits_for_its_builders_turn_too(city):
    city.give("Ann", "Central Quay", "Old Town", "Harbor Heights")
    turn_of(city, "Cy")
    assert "it is Cy's turn, not Ann's" in city.refused("build", player="Ann", deed="Old Town", building="skyscraper")


def test_what_the_rulebook_allows_at_any_time_still_happens_on_anyones_turn(city, new_game):
    city.give("Ann", "Central Quay")
    turn_of(city, "Bob")
    city.do("mortgage", player="Ann", deed="Central Quay")  # raising money happens whenever rent is due
    classic = new_game("classic", "Ann", "Bob")
    classic.give("Ann", "Mediterranean Avenue", "Baltic Avenue", "Reading Railroad")
    turn_of(classic, "Bob")
    classic.do("build", player="Ann", deed="Baltic Avenue")  # houses at any time in the classic game
    classic.do("mortgage", player="Ann", deed="Reading Railroad")


def test_the_night_fine_is_paid_on_the_prisoners_own_turn(new_game):
    green = new_game("greenopoly", "Ann", "Bob")
    green.do("choose_character", player="Ann", character="Gardener")  # sent to Night like anyone
    turn_of(green, "Ann")
    green.do("night", player="Ann")
    turn_of(green, "Bob")
    assert green.refused("night_fine", player="Ann").startswith("it is Bob's turn, not Ann's: the Night fine")
    turn_of(green, "Ann")
    green.do("night_fine", player="Ann")
    assert not green.table["players"]["Ann"]["in_jail"]


def test_a_lucky_day_is_collected_in_its_players_turn(new_game):
    life = new_game("game-of-life", "Ann", "Bob")
    turn_of(life, "Bob")
    assert life.refused("lucky_day", player="Ann").startswith("it is Bob's turn, not Ann's: a Lucky Day")
    life.do("lucky_day", player="Bob")


def test_a_deed_card_greys_building_out_of_turn_with_the_rules_reason(city):
    city.give("Ann", "Canal Side", "Market Square")
    turn_of(city, "Bob")
    rows = city.banker.choices("build", "building", {"player": "Ann", "deed": "Market Square"})
    stadium = next(r for r in rows if r.value == "stadium")
    assert not stadium.possible and "it is Bob's turn, not Ann's" in stadium.why_not


def _bound() -> dict[str, dict[str, str]]:
    """Each pack: its actions bound to the player's own turn, with their reasons."""
    return {
        name: {s.name: s.own_turn for s in rules_for(load_pack(name)).registry if s.own_turn} for name in pack_names()
    }


def test_every_bound_action_names_its_player_and_says_why():
    for pack, bound in _bound().items():
        for action, reason in bound.items():
            spec = rules_for(load_pack(pack)).registry.spec(action)
            assert spec.field(spec.turn_field).kind == "player", (pack, action)
            assert 10 < len(reason) < 120 and not reason.endswith("."), (pack, action, reason)


def test_each_games_rules_page_says_which_actions_wait_for_the_turn_and_why():
    for pack, bound in _bound().items():
        page = (DOCS / f"{pack}.md").read_text(encoding="utf-8")
        section = re.search(r"^## On your own turn\n(.*?)(?=^## |\Z)", page, re.DOTALL | re.MULTILINE)
        assert section, f"docs/rules/{pack}.md has no 'On your own turn' section"
        listed = set(re.findall(r"^\| `(\w+)` \|", section.group(1), re.MULTILINE))
        assert listed == set(bound), (pack, listed, set(bound))
