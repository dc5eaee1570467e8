"""The banker turns the table's own options on and off while playing (players' actions from their
phones, say): each change is an entry in the log like any action, undone and redone like one, and the
rules' own options stay as the game was made."""

from __future__ import annotations

import pytest

from companion.core.common import TABLE_SWITCHES, switch_is_on
from companion.rules import pack_names


def test_the_banker_turns_phones_actions_off_mid_game_and_undo_turns_them_back_on(new_game):
    t = new_game("classic", "Ann", "Bob")
    t.do("buy", player="Ann", deed="Boardwalk")
    assert switch_is_on(t.table, "phone_actions")  # on by default for a new game

    out = t.do("set_option", option="phone_actions", on=False)
    assert out.summary == "The banker turned off players' actions from their phones"
    assert t.table["options"]["phone_actions"] is False
    entry = t.banker.log()[-1]
    assert entry.action == {"action": "set_option", "option": "phone_actions", "on": False}
    assert entry.events == [{"type": "Changed", "path": ["options", "phone_actions"], "old": True, "new": False}]

    assert t.banker.next_undo().summary == "The banker turned off players' actions from their phones"
    t.banker.undo()
    assert t.table["options"]["phone_actions"] is True
    t.banker.redo()
    assert t.table["options"]["phone_actions"] is False

    t.do("set_option", option="phone_actions", on=True)
    assert switch_is_on(t.table, "phone_actions")
    assert t.cash("Ann") == 1100  # no money moved


def test_turning_an_option_to_what_it_is_already_is_refused_with_the_reason(new_game):
    t = new_game("classic", "Ann", "Bob", phone_actions=False)
    assert t.refused("set_option", option="phone_actions", on=False) == (
        "players' actions from their phones are already off"
    )
    assert t.refused("set_option", option="trust_table", on=False).endswith("is already off")


def test_the_rules_own_options_cannot_change_while_playing(new_game):
    t = new_game("classic", "Ann", "Bob")
    reason = t.refused("set_option", option="free_parking", on=True)
    assert "free_parking" in reason and "phone_actions" in reason
    assert t.refused("set_option", option="nonsense", on=True)
    assert t.refused("set_option", option="phone_actions", on="maybe")


def test_the_touchscreen_and_the_phones_see_the_choices_with_their_words(new_game):
    t = new_game("classic", "Ann", "Bob")
    choices = t.banker.choices("set_option", "option", {})
    assert [c.value for c in choices] == list(TABLE_SWITCHES)
    assert choices[0].label == "Players' actions from their phones"
    spec = t.banker.spec("set_option")
    assert spec.group == "game"  # the game's housekeeping: never offered to a player's phone


@pytest.mark.parametrize("rules", pack_names())
def test_every_pack_s_game_can_turn_phones_actions_off_and_on(new_game, rules):
    players = ("Ann", "Bob", "Cy")
    t = new_game(rules, *players)
    t.do("set_option", option="phone_actions", on=False)
    t.do("set_option", option="phone_actions", on=True)
    t.banker.undo()
    assert not switch_is_on(t.table, "phone_actions")


def test_a_game_made_before_the_option_existed_has_it_on_and_can_turn_it_off(new_game):
    t = new_game("classic", "Ann", "Bob")
    table = {**t.table, "options": {k: v for k, v in t.table["options"].items() if k != "phone_actions"}}
    assert switch_is_on(table, "phone_actions")
    assert not switch_is_on(table, "trust_table")
