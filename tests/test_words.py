"""Words a person reads, without a window: every pack's options (their names and help), every action's
label and sentence, every field's question, every deed card's line and action, and every answer,
refusal and preview reached by walking each family's contract on a fresh table and on one in play.

None may carry a code name ("buy_shares", "(borrow)"), a snake_case identifier, "true"/"false"
wording, or a number over 9,999 written without its groups ("37700000"). The screens' own words are
read by tests/gui/test_words.py; this walks what the rules can say."""

from __future__ import annotations

import re

import pytest

from companion.core.errors import BankerError
from companion.core.money import Currency
from companion.rules import pack_names
from companion.service import Banker
from companion.ui.deeds_view import deed_card
from companion.ui.desk import Desk
from companion.ui.games import pack_choices

#: What a developer's words look like, with why they are not for people.
NOT_FOR_PEOPLE = [
    (re.compile(r"`"), "a backtick"),
    (re.compile(r"\b[a-z]+_[a-z_]+\b"), "a snake_case name"),
    (re.compile(r"\b(true|false|True|False|None|null)\b"), "true/false wording"),
    (re.compile(r"(?<![\d,.])\d{5,}(?![\d,])"), "an ungrouped number over 9,999"),
]


def problems(where: str, text: object, actions: set[str] = frozenset()) -> list[str]:
    if not isinstance(text, str) or not text:
        return []
    found = [f"{where}: {why} in {text!r}" for pattern, why in NOT_FOR_PEOPLE if pattern.search(text)]
    found += [f"{where}: the action's code name in {text!r}" for name in actions if f"({name})" in text]
    return found


def test_every_packs_options_speak_to_people():
    found = []
    for pack in pack_choices():
        for opt in pack["options"]:
            where = f"{pack['name']} option {opt['key']}"
            found += problems(where, opt["label"]) + problems(where, opt["help"])
            found += problems(where, opt["default_text"])
    assert not found, "\n".join(found)


def test_monopoly_citys_start_cash_is_written_the_packs_way_on_the_setup_form():
    city = next(p for p in pack_choices() if p["name"] == "monopoly-city")
    start = next(o for o in city["options"] if o["key"] == "start_cash")
    assert start["default_text"] == "₩37.7M" and start["label"] == "Start cash"
    classic = next(p for p in pack_choices() if p["name"] == "classic")
    seed = next(o for o in classic["options"] if o["key"] == "free_parking_seed")
    assert seed["default_text"] == "$0"


def _amounts(pack: dict) -> list:
    """Amounts a walk tries: legal and illegal, typed as people type them."""
    fmt = Currency.from_pack(pack).format
    start = int(pack.get("start_cash", 1500))
    return [1, start // 10, start, start * 1000, fmt(start * 3), -5, "abc"]


def _walk(banker: Banker, name: str, actions: set[str], last: bool = False) -> list[str]:
    """Fill the action field by field with the contract's own candidates (the first possible one, or
    the last with ``last``; else the first), reading every label, reason and preview on the way;
    amounts are tried legal and illegal."""
    found: list[str] = []
    spec = banker.spec(name)
    partial: dict = {}
    for _ in range(len(spec.fields) + 1):
        f = banker.next_field(name, partial)
        if f is None:
            break
        where = f"{banker.table['pack']['name']} {name}.{f.name}"
        if f.kind == "amount":
            for value in _amounts(banker.table["pack"]):
                if banker.next_field(name, {**partial, f.name: value}) is not None:
                    continue  # a screen asks every field before it shows a preview
                try:
                    found += problems(
                        where, banker.preview({"action": name, **partial, f.name: value}).summary, actions
                    )
                except BankerError as e:
                    found += problems(where, str(e), actions)
            partial[f.name] = 1
            continue
        if f.kind in ("structured", "text"):
            break
        rows = banker.choices(name, f.name, partial)
        if f.in_or_out is not None:
            for item in banker.in_or_out(name, f.name, partial):
                for way in (item.inside, item.outside):
                    found += problems(where, way.label, actions) + problems(where, way.why_not, actions)
        for choice in rows:
            found += problems(where, choice.label, actions) + problems(where, choice.why_not, actions)
            found += problems(where, choice.detail, actions)
            if choice.preview is not None:
                found += problems(where, choice.preview.summary, actions)
        if not rows:
            break
        pick = next((c for c in (reversed(rows) if last else rows) if c.possible), rows[0])
        partial[f.name] = [pick.value] if f.kind == "deeds" else pick.value
    else:
        return found
    if banker.next_field(name, partial) is None:
        try:
            found += problems(f"{name} preview", banker.preview({"action": name, **partial}).summary, actions)
        except BankerError as e:
            found += problems(f"{name} refusal", str(e), actions)
    return found


def _in_play(banker: Banker) -> None:
    """A table a few turns in: every player with something of their own, salary collected, turns passed."""
    players = list(banker.table["order"])
    deeds = [n for n, d in banker.table["deeds"].items() if not d.get("owner")]
    for i, deed in enumerate(deeds[:6]):
        for action in ({"action": "buy", "player": players[i % len(players)], "deed": deed},):
            try:
                banker.do(action)
            except BankerError:
                pass
    for action in ("salary", "next_turn", "salary", "next_turn"):
        try:
            spec = banker.spec(action)
        except BankerError:
            continue
        fields = {
            f.name: banker.table["order"][banker.table["turn"]["index"]] for f in spec.fields if f.kind == "player"
        }
        try:
            banker.do({"action": action, **fields})
        except BankerError:
            pass


@pytest.mark.parametrize("pack", pack_names())
@pytest.mark.parametrize("moment", ["fresh", "in play"])
def test_every_word_the_rules_can_say_is_for_people(tmp_path, pack, moment):
    banker = Banker.create(tmp_path / "words.game", pack, ["Ann", "Bob", "Cy"], {}, backup_every=0)
    try:
        if moment == "in play":
            _in_play(banker)
        specs = banker.actions()
        actions = {s.name for s in specs}
        found = []
        for spec in specs:
            found += problems(f"{pack} {spec.name} label", spec.label, actions)
            found += problems(f"{pack} {spec.name} sentence", spec.says, actions)
            for f in spec.fields:
                found += problems(f"{pack} {spec.name}.{f.name}", f.says, actions)
            found += _walk(banker, spec.name, actions) + _walk(banker, spec.name, actions, last=True)
        desk = Desk(banker)
        for deed in banker.table["deeds"]:
            card = deed_card(desk, deed)
            for key in ("owner_text", "marks_text", "rent_text", "group"):
                found += problems(f"{pack} card {deed} {key}", card[key], actions)
            for line in card["lines"]:
                found += problems(f"{pack} card {deed}", ": ".join(line), actions)
            for action in card["actions"]:
                for key in ("text", "refused", "preview"):
                    found += problems(f"{pack} card {deed} {action['action']}", action[key], actions)
        assert not found, "\n".join(sorted(set(found)))
    finally:
        banker.close()
