"""The docs stay true: every action of every family is documented, every pack has its rules page."""

from pathlib import Path

from companion.rules import FAMILIES, load_pack, pack_names, rules_for

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_every_action_is_in_the_actions_page():
    text = (DOCS / "actions.md").read_text()
    missing = set()
    for name in pack_names():
        for action in rules_for(load_pack(name)).registry.specs:
            if f"`{action}`" not in text:
                missing.add(action)
    assert not missing, f"document these actions in docs/actions.md: {sorted(missing)}"


def test_every_pack_has_a_rules_page():
    for name in pack_names():
        assert (DOCS / "rules" / f"{name}.md").exists(), f"docs/rules/{name}.md is missing"


def test_every_family_is_used_by_a_pack():
    used = {load_pack(n)["family"] for n in pack_names()}
    assert set(FAMILIES) <= used


def test_every_tap_count_has_hasbros_beside_it_with_how_it_was_counted():
    """Each row of docs/touchscreen.md's tap-count table gives both Hasbro units' count (a number,
    "none" or "not counted"), each pointing to a note below the table that says how it was counted."""
    import re

    from tests.gui.test_tap_counts import tap_table

    text = (DOCS / "touchscreen.md").read_text()
    rows = tap_table(text)
    assert rows
    for row in rows:
        for unit in ("Ultimate Banking", "Monopoly City's unit"):
            cell = row[unit]
            assert re.fullmatch(r"(\d+|none|not counted) \(([a-z])\)", cell), (
                f"{row['The banker says']}: {unit} says {cell!r}"
            )
            note = re.fullmatch(r".* \(([a-z])\)", cell).group(1)
            assert f"* ({note}) " in text, f"no note ({note}) says how {unit}'s count was made"
