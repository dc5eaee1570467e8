"""The JSON writers made once write what ``json.JSONEncoder(...).encode`` writes, character for character:
the chain's hashes and the phones' pages depend on it."""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from companion.jsoncode import chunks, writer

VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@given(VALUES)
def test_a_writer_made_once_writes_what_the_standard_encoder_writes(value):
    for ascii_only in (True, False):
        for sort_keys in (True, False):
            standard = json.JSONEncoder(separators=(",", ":"), ensure_ascii=ascii_only, sort_keys=sort_keys)
            assert writer(ensure_ascii=ascii_only, sort_keys=sort_keys)(value) == standard.encode(value)
            assert "".join(chunks(ensure_ascii=ascii_only, sort_keys=sort_keys)(value, 0)) == standard.encode(value)


def test_an_entry_hashes_as_before():
    """Bob pays Ann $75 rent: the entry's canonical text is the sorted, compact JSON it always was."""
    fields = {"seq": 3, "kind": "do", "action": {"to": "Ann", "from": "Bob", "amount": 75}, "summary": "Bob paid Ann"}
    assert writer(ensure_ascii=False, sort_keys=True)(fields) == (
        '{"action":{"amount":75,"from":"Bob","to":"Ann"},"kind":"do","seq":3,"summary":"Bob paid Ann"}'
    )
