"""Each family says how its deeds read on screens and phones; the views only carry what the family says."""

from __future__ import annotations

from companion.views import deed_marks, state_json

from .table import AtTheTable


def marks_of(t: AtTheTable, deed: str) -> list[str]:
    state = state_json(t.table, t.banker.rules, t.banker.version)
    return deed_marks(next(d for d in state["deeds"] if d["name"] == deed))


def test_ann_s_boardwalk_with_a_hotel_reads_hotel(tmp_path):
    t = AtTheTable.new(tmp_path, "classic", "Ann", "Bob")
    t.give("Ann", "Park Place", "Boardwalk")
    t.do("transfer", **{"from": "bank", "to": "Ann", "amount": 5000})
    for _ in range(5):
        for deed in ("Park Place", "Boardwalk"):
            t.do("build", player="Ann", deed=deed)
    assert marks_of(t, "Boardwalk") == ["hotel"] and marks_of(t, "Park Place") == ["hotel"]


def test_a_mortgaged_monopoly_city_district_reads_mortgaged(tmp_path):
    t = AtTheTable.new(tmp_path, "monopoly-city", "Ann", "Bob")
    t.give("Ann", "Mill Lane")
    t.do("mortgage", player="Ann", deed="Mill Lane")
    assert marks_of(t, "Mill Lane") == ["mortgaged"]


def test_a_greenopoly_park_reads_its_level_and_piece(tmp_path):
    t = AtTheTable.new(tmp_path, "greenopoly", "Ann", "Bob")
    group = [
        d
        for d, c in t.table["pack"]["cards"].items()
        if c.get("group") == t.table["pack"]["cards"]["Corner Park"]["group"]
    ]
    t.give("Ann", *group)
    for deed in group:
        t.do("improve", player="Ann", deed=deed)
    assert marks_of(t, "Corner Park")[0].startswith("level 1 (")


def test_a_glance_at_a_finished_game_names_the_winner_and_writes_nothing(tmp_path):
    from companion.service import glance

    t = AtTheTable.new(tmp_path, "classic", "Ann", "Bob")
    t.do("end_game", reason="time is up")
    path = t.banker.path
    t.banker.close()
    before = path.read_bytes()
    seen = glance(path)
    assert (seen.title, seen.players, seen.over, seen.winner, seen.problem) == (
        "Monopoly (classic US board)",
        ("Ann", "Bob"),
        True,
        "Ann",
        None,
    )
    assert seen.entries == 2 and path.read_bytes() == before


def test_a_glance_at_a_file_that_is_no_game_says_so_in_one_line(tmp_path):
    from companion.service import glance

    junk = tmp_path / "shopping.game"
    junk.write_text("eggs, milk")
    seen = glance(junk)
    assert seen.problem and "\n" not in seen.problem and seen.players == ()
