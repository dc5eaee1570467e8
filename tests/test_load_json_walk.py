"""An action's body is read once: the walk over the decoded value (``check_json``) is left out only
where it cannot find anything, so every body is taken or refused exactly as the full walk would."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from companion.core.contract import BadAction, check_json, load_json

SCALARS = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**19), max_value=10**19)
    | st.text(alphabet=st.characters(codec="utf-8") | st.sampled_from(["\ud800", "\udfff", "\\"]), max_size=6)
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=3),
    max_leaves=12,
)


def nested(depth: int, inner: str = "1") -> str:
    return "[" * depth + inner + "]" * depth


def verdict(call, raw):
    try:
        return ("taken", call(raw))
    except BadAction as e:
        return ("refused", str(e))


@given(VALUES, st.booleans())
def test_every_body_taken_is_one_the_full_walk_takes(value, ascii_only):
    """The shortcut can only leave a walk out, never add a refusal: so it is exact when every value
    it takes is one the walk finds nothing in."""
    raw = json.dumps(value, ensure_ascii=ascii_only)
    taken = verdict(load_json, raw)
    if taken[0] == "taken":
        assert check_json(taken[1]) is None


def test_ann_pays_bob_in_a_plain_body_and_the_shortcut_takes_it():
    assert load_json(b'{"action":"transfer","from":"Ann","to":"Bob","amount":75}')["amount"] == 75


def test_a_lone_surrogate_written_as_an_escape_is_still_refused():
    raw = '{"action":"transfer","from":"Ann","to":"Bob","amount":75,"memo":"\\ud800"}'
    assert verdict(load_json, raw) == ("refused", "the action holds text that is not valid Unicode (a lone surrogate)")


def test_a_value_sixteen_brackets_deep_is_refused_as_before():
    assert verdict(load_json, nested(15))[0] == "taken"
    assert verdict(load_json, nested(16)) == ("refused", "the action is nested deeper than 16 levels")
    assert verdict(load_json, nested(16, "")) == ("taken", json.loads(nested(16, "")))


def test_a_number_of_nineteen_digits_is_refused_at_the_parse():
    assert verdict(load_json, '{"amount": 1000000000000000000}')[0] == "refused"
