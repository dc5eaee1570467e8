"""The action contract: declarations that every adapter reads, choices judged by the rules, previews that
are exactly what the ledger then commits."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.core import contract
from companion.core.errors import BankerError
from companion.reference import MARKER, families, page
from companion.rules import pack_names
from companion.service import Banker

from .test_docs import DOCS

PACKS = pack_names()
PLAYERS = {"city-life": ["Ann", "Bob", "Cy"], "game-of-life": ["Ann", "Bob", "Cy"]}


def new_game(tmp_path, rules: str, name: str = "contract.game") -> Banker:
    players = PLAYERS.get(rules, ["Ann", "Bob", "Cy"])
    return Banker.create(tmp_path / name, rules, players, backup_every=0)


# -- the declarations ----------------------------------------------------------------------------------
def test_every_action_of_every_family_is_declared_with_typed_fields():
    for _, specs in families().values():
        for spec in specs:
            assert spec.label and spec.group in {"money", "deeds", "loans", "turn", "game"}, spec.name
            for f in spec.fields:
                assert f.kind in contract.KINDS, (spec.name, f.name)
                assert f.says, (spec.name, f.name)
                if f.kind in ("count", "dice", "square"):
                    assert f.low is not None and f.high is not None, (spec.name, f.name)
                if f.kind == "text":
                    assert f.max_len, (spec.name, f.name)


def test_what_people_read_carries_no_markup_or_code_names():
    for family, (_, specs) in families().items():
        for spec in specs:
            for words in (spec.says, spec.label, *(f.says for f in spec.fields)):
                assert not re.search(r"`|\b\w+_\w+\b|\n", words), (family, spec.name, words)
                assert len(words) <= 200


def test_the_actions_page_is_written_from_the_declarations():
    current = (DOCS / "actions.md").read_text(encoding="utf-8")
    assert MARKER in current
    assert page(current) == current, "run `python -m companion.reference` to bring docs/actions.md up to date"


def test_every_action_has_a_json_schema_that_names_its_required_fields():
    for _, (_, specs) in families().items():
        for spec in specs:
            schema = contract.json_schema(spec)
            assert schema["required"] == ["action", *spec.required]
            assert set(schema["properties"]) == {*contract.META, *(f.name for f in spec.fields)}
            assert schema["additionalProperties"] is False


# -- a round at the table, through the contract ----------------------------------------------------------
def test_bob_lands_on_mediterranean_and_the_screen_shows_the_rent_before_he_pays(tmp_path):
    with new_game(tmp_path, "classic") as b:
        b.do({"action": "buy", "player": "Ann", "deed": "Mediterranean Avenue"})
        b.do({"action": "buy", "player": "Ann", "deed": "Electric Company"})
        assert b.next_field("rent", {"payer": "Bob"}).name == "deed"
        deeds = {c.value: c for c in b.choices("rent", "deed", {"payer": "Bob"})}
        assert set(deeds) == {"Mediterranean Avenue", "Electric Company"}
        med = deeds["Mediterranean Avenue"]
        assert med.possible and med.preview.summary == "Bob paid Ann $2 rent for Mediterranean Avenue"
        assert med.preview.moved("Bob") == -2 and med.preview.moved("Ann") == 2
        # A utility's rent needs the dice: the screen asks for them next, with the rent of each total.
        assert deeds["Electric Company"].preview is None
        assert b.next_field("rent", {"payer": "Bob", "deed": "Electric Company"}).kind == "dice"
        dice = b.choices("rent", "dice", {"payer": "Bob", "deed": "Electric Company"})
        assert [c.value for c in dice] == list(range(2, 13))
        assert dice[5].preview.summary == "Bob paid Ann $28 rent for Electric Company"
        before = dict(b.table["accounts"])
        assert b.do(dice[5].preview.action).summary == dice[5].preview.summary
        assert b.table["accounts"]["Bob"] == before["Bob"] - 28


def test_ann_cannot_build_on_half_a_group_and_the_screen_says_why(tmp_path):
    with new_game(tmp_path, "classic") as b:
        b.do({"action": "buy", "player": "Ann", "deed": "Mediterranean Avenue"})
        (med,) = b.choices("build", "deed", {"player": "Ann"})
        assert not med.possible and med.why_not == "Ann needs the whole brown group to build (missing Baltic Avenue)"
        b.do({"action": "buy", "player": "Ann", "deed": "Baltic Avenue"})
        choices = b.choices("build", "deed", {"player": "Ann"})
        assert [c.preview.summary for c in choices] == [
            "Ann built 1 house on Mediterranean Avenue for $50",
            "Ann built 1 house on Baltic Avenue for $50",
        ]


def test_a_preview_commits_nothing(tmp_path):
    with new_game(tmp_path, "classic") as b:
        table, version = b.table, b.version
        p = b.preview({"action": "salary", "player": "ann"})
        assert p.summary == "Ann collected $200 salary" and p.action == {"action": "salary", "player": "Ann"}
        assert b.table is table and b.version == version and len(b.log()) == version


def test_a_choice_refused_by_a_rule_carries_the_rules_own_reason(tmp_path):
    with new_game(tmp_path, "classic") as b:
        b.do({"action": "buy", "player": "Ann", "deed": "Boardwalk"})
        (boardwalk,) = b.choices("mortgage", "deed", {"player": "Ann"})
        assert boardwalk.possible and boardwalk.preview.summary == "Ann mortgaged Boardwalk for $200"
        b.do(boardwalk.preview.action)
        (boardwalk,) = b.choices("mortgage", "deed", {"player": "Ann"})
        assert not boardwalk.possible and boardwalk.why_not == "Boardwalk is already mortgaged"


def test_the_pot_of_a_house_rule_the_table_does_not_play_is_not_offered(tmp_path):
    with Banker.create(tmp_path / "nofp.game", "classic", ["Ann", "Bob"], {"free_parking": "false"}) as b:
        assert [c.value for c in b.choices("transfer", "to", {"from": "Ann"})] == ["bank", "Bob"]
        with pytest.raises(BankerError, match="does not play with the free parking pot"):
            b.do({"action": "transfer", "from": "Ann", "to": "pot:free parking", "amount": 5})


def test_a_city_life_square_is_chosen_by_name_and_asks_only_what_it_needs(tmp_path):
    with new_game(tmp_path, "city-life") as b:
        squares = b.choices("land", "square", {"player": "Ann"})
        assert len(squares) == 100 and all(c.label.startswith("square ") for c in squares)
        museum = next(c.value for c in squares if "Museum" in c.label)
        asked = b.next_field("land", {"player": "Ann", "square": museum})
        assert asked.name == "choice"
        assert [c.value for c in b.choices("land", "choice", {"player": "Ann", "square": museum})] == [
            "school",
            "collect",
            "roll",
        ]
        assert b.next_field("land", {"player": "Ann", "square": museum, "choice": "roll"}).name == "roll"
        assert b.next_field("land", {"player": "Ann", "square": museum, "choice": "collect"}) is None


def test_the_game_of_life_buy_offers_the_things_for_sale(tmp_path):
    with new_game(tmp_path, "game-of-life") as b:
        items = b.choices("buy", "item", {"player": "Ann"})
        assert items and all(b.table["pack"]["cards"][c.value]["kind"] in ("stock", "policy") for c in items)
        assert any(c.value == "Stock Certificate" for c in items)


# -- property: the screen's way through equals the ledger's ----------------------------------------------
def _value_for(f: contract.Field, table: dict, draw) -> object:
    """A value a banker might give a field that has no list of candidates."""
    if f.kind == "amount":
        return draw(st.sampled_from([1, 5, 50, 200, "1.5K", "$1,500", 10**6]))
    if f.kind == "text":
        return draw(st.sampled_from(["card", "birthday", "Straße fee"]))
    return None


def _build(b: Banker, name: str, draw) -> dict | None:
    """Walk an action's fields the way the touchscreen does, choosing among the listed candidates."""
    partial: dict = {}
    for _ in range(10):
        f = b.next_field(name, partial)
        if f is None:
            return {"action": name, **partial}
        choices = b.choices(name, f.name, partial)
        if choices:
            partial[f.name] = draw(st.sampled_from(choices)).value
            continue
        value = _value_for(f, b.table, draw)
        if value is None:
            return None  # a structured field (a trade's sides): its own screen builds it
        partial[f.name] = value
    return None


@pytest.mark.parametrize("rules", PACKS)
@settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(data=st.data())
def test_every_action_built_from_choices_is_decided_as_previewed(tmp_path_factory, rules, data):
    folder = tmp_path_factory.mktemp(rules)
    with new_game(folder, rules) as b:
        names = [s.name for s in b.actions() if s.name not in ("end_game",)]
        for _ in range(12):
            name = data.draw(st.sampled_from(names))
            action = _build(b, name, data.draw)
            if action is None:
                continue
            table, version = b.table, b.version
            try:
                expected = b.preview(action)
            except BankerError as refusal:
                with pytest.raises(BankerError) as caught:
                    b.do(action)
                assert str(caught.value) == str(refusal)
                assert b.table == table and b.version == version
                continue
            outcome = b.do(action)
            assert outcome.events == list(expected.events)
            assert outcome.summary == expected.summary
            assert b.table == expected.table
            assert sum(b.table["accounts"].values()) == 0


@pytest.mark.parametrize("rules", PACKS)
@settings(
    max_examples=8, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow]
)
@given(data=st.data())
def test_a_value_outside_the_choices_is_refused_and_changes_nothing(tmp_path_factory, rules, data):
    folder = tmp_path_factory.mktemp(rules)
    with new_game(folder, rules) as b:
        specs = [
            s
            for s in b.actions()
            if any(
                f.kind in ("player", "deed", "pot", "choice", "count", "dice", "square") and f.required
                for f in s.fields
            )
        ]
        spec = data.draw(st.sampled_from(specs))
        partial: dict = {}
        for f in spec.fields:
            if not f.required:
                continue
            if f.kind in ("player", "account", "deed", "pot", "choice", "count", "dice", "square"):
                listed = {c.value for c in b.choices(spec.name, f.name, partial)}
                outside = data.draw(st.sampled_from(["Nobody", "", 0, -1, 10**6, True, "pot:nowhere", "Bank of Mars"]))
                if outside in listed:
                    partial[f.name] = outside
                    continue
                action = {"action": spec.name, **partial, f.name: outside}
                for later in spec.fields[spec.fields.index(f) + 1 :]:
                    if later.required:
                        cands = b.choices(spec.name, later.name, action)
                        action[later.name] = cands[0].value if cands else _value_for(later, b.table, data.draw) or 1
                table, version = b.table, b.version
                with pytest.raises(BankerError) as caught:
                    b.do(action)
                assert "\n" not in str(caught.value) and len(str(caught.value)) <= 200
                assert b.table == table and b.version == version
                return
            value = _value_for(f, b.table, data.draw)
            if value is None:
                return
            partial[f.name] = value


# -- the command line reads the same declarations --------------------------------------------------------
def test_the_command_line_lists_what_bob_may_pay_rent_on_and_previews_it(tmp_path):
    from tests.command import companion

    game = str(tmp_path / "cli.game")
    assert companion("new", game, "--rules", "classic", "--player", "Ann", "--player", "Bob")[0] == 0
    assert companion("do", game, '{"action": "buy", "player": "Ann", "deed": "Boardwalk"}')[0] == 0
    rc, out, _ = companion("actions", game, "rent", "payer=Bob")
    assert rc == 0 and "Boardwalk" in out and "Bob paid Ann $50 rent for Boardwalk" in out
    rc, out, _ = companion("preview", game, '{"action": "rent", "payer": "bob", "deed": "boardwalk"}', "--json")
    assert rc == 0 and json.loads(out)["summary"] == "Bob paid Ann $50 rent for Boardwalk"
    rc, out, _ = companion("show", game, "--json")
    assert json.loads(out)["players"][1]["cash"] == 1500  # the preview moved nothing
    rc, out, _ = companion("actions", game, "rent", "--json")
    assert rc == 0 and json.loads(out)["required"] == ["action", "payer", "deed"]


def test_bibleopolys_jail_buttons_say_bondage_and_greenopolys_say_night(tmp_path):
    with Banker.create(tmp_path / "b.game", "bibleopoly", ["Ann", "Bob"]) as b:
        assert b.spec("jail").label == "Go to Bondage" and "Bondage" in b.spec("leave_jail").says
    with Banker.create(tmp_path / "g.game", "greenopoly", ["Ann", "Bob"]) as g:
        assert [s.label for s in g.actions() if s.name in ("night", "night_fine")] == [
            "Go to Night",
            "Pay to leave Night",
        ]
