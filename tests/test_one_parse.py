"""One reading of every action: the contract finds the names and reads the amounts once, the rules
use what it found, and the choices a screen lists are decided once per version of the table."""

from __future__ import annotations

import pytest

from companion.core import contract, engine, model
from companion.core.errors import BadAction, Refused
from companion.service import Banker


def classic(tmp_path, players=("Ann", "Bob", "Cy", "Di")) -> Banker:
    return Banker.create(tmp_path / "one.game", "classic", list(players), backup_every=0)


@pytest.fixture
def look_ups(monkeypatch):
    """How many times a name is looked up in the table (every player, deed, pot and account name)."""
    counted = [0]
    match = model._match

    def counting(*args, **kwargs):
        counted[0] += 1
        return match(*args, **kwargs)

    monkeypatch.setattr(model, "_match", counting)
    return counted


@pytest.fixture
def decisions(monkeypatch):
    """How many rule decisions were made (each ends with the conservation check)."""
    counted = [0]
    check = engine.check_conservation

    def counting(table, *events):
        counted[0] += 1
        return check(table, *events)

    monkeypatch.setattr(engine, "check_conservation", counting)
    return counted


def test_ann_pays_bob_and_each_name_is_looked_up_once(tmp_path, look_ups):
    b = classic(tmp_path)
    look_ups[0] = 0
    b.do({"action": "transfer", "from": "ann", "to": " BOB ", "amount": "$1,200"})
    assert look_ups[0] == 2  # "ann" and " BOB ": the rule reads what the contract found
    assert b.table["accounts"]["Ann"] == 300 and b.table["accounts"]["Bob"] == 2700


def test_bob_lands_on_boardwalk_and_the_rule_gets_the_names_the_contract_found(tmp_path, look_ups):
    b = classic(tmp_path)
    b.do({"action": "buy", "player": "Ann", "deed": "Boardwalk"})
    look_ups[0] = 0
    outcome = b.do({"action": "rent", "payer": "bob", "deed": "boardwalk"})
    assert outcome.summary == "Bob paid Ann $50 rent for Boardwalk"
    assert look_ups[0] == 2


def test_a_bankrupt_player_is_refused_by_the_contract_before_the_rule_runs(tmp_path):
    b = classic(tmp_path)
    b.do({"action": "bankrupt", "player": "Di", "creditor": "bank"})
    spec = b.rules.registry.spec("fine")
    typed = contract.parse(spec, b.table, {"action": "fine", "player": "di", "amount": "50"})
    assert typed == {"action": "fine", "player": "Di", "amount": 50}  # found, even out of the game
    with pytest.raises(Refused, match="^Di is bankrupt and out of the game$"):
        contract.check_in_game(spec, b.table, typed)
    with pytest.raises(Refused, match="^Di is bankrupt and out of the game$"):
        b.do({"action": "fine", "player": "Di", "amount": 50})
    with pytest.raises(Refused, match="^Di is bankrupt and out of the game$"):
        b.read({"action": "transfer", "from": "Ann", "to": "di", "amount": 5})


def test_the_banker_reads_an_action_without_deciding_it(tmp_path):
    b = classic(tmp_path)
    assert b.read({"action": "transfer", "from": "ann", "to": "bank", "amount": "1.5K"}) == {
        "action": "transfer",
        "from": "Ann",
        "to": "bank",
        "amount": 1500,
    }
    with pytest.raises(BadAction, match="amount must be more than zero"):
        b.read({"action": "transfer", "from": "Ann", "to": "Bob", "amount": 0})
    assert b.version == 1


def test_opening_the_rent_chooser_twice_decides_each_deed_once(tmp_path, decisions):
    b = classic(tmp_path)
    for deed in ("Boardwalk", "Park Place", "Baltic Avenue"):
        b.do({"action": "buy", "player": "Ann", "deed": deed})
    decisions[0] = 0
    first = b.choices("rent", "deed", {"payer": "Bob"})
    again = b.choices("rent", "deed", {"payer": "Bob"})
    assert [c.value for c in first] == ["Baltic Avenue", "Park Place", "Boardwalk"]
    assert [c.detail for c in first] == [
        "Bob pays Ann $4",
        "Bob pays Ann $70",
        "Bob pays Ann $100",
    ]  # the blue group doubles
    assert [c.detail for c in again] == [c.detail for c in first]
    assert decisions[0] == 3  # one decision a deed, none for the list asked again
    b.do({"action": "transfer", "from": "Ann", "to": "Bob", "amount": 1})
    b.choices("rent", "deed", {"payer": "Bob"})
    assert decisions[0] == 3 + 3 + 1  # a new table version is decided afresh (the transfer was one more)


def test_a_choice_decided_without_reading_again_is_the_preview_of_the_real_action(tmp_path):
    b = classic(tmp_path)
    b.do({"action": "buy", "player": "Ann", "deed": "Boardwalk"})
    (choice,) = b.choices("rent", "deed", {"payer": "bob"})
    preview = engine.decide_full(b.table, {"action": "rent", "payer": "Bob", "deed": "Boardwalk"}, b.rules)
    assert choice.preview is not None
    assert choice.preview.events == preview.events and choice.preview.summary == preview.summary
    assert choice.preview.action == preview.action


def test_the_tap_that_confirms_a_preview_is_not_decided_again(tmp_path, decisions):
    b = classic(tmp_path)
    b.do({"action": "buy", "player": "Ann", "deed": "Boardwalk"})
    decisions[0] = 0
    shown = b.preview({"action": "rent", "payer": "bob", "deed": "boardwalk"})
    outcome = b.do(shown.action)  # the confirming tap sends what the preview read
    assert decisions[0] == 1
    assert outcome.summary == shown.summary == "Bob paid Ann $50 rent for Boardwalk"
    assert b.table["accounts"]["Bob"] == 1450
    b.preview({"action": "rent", "payer": "Bob", "deed": "Boardwalk"})
    b.do({"action": "transfer", "from": "Cy", "to": "Di", "amount": 1})  # the table moves on
    b.do({"action": "rent", "payer": "Bob", "deed": "Boardwalk"})
    assert decisions[0] == 4  # decided again on the new table, not taken from the old preview
    assert b.table["accounts"]["Bob"] == 1400
