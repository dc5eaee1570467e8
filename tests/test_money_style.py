"""Money in one style per game wherever it shows: `rules`, `deeds`, `show`, the phone and the touchscreen."""

from __future__ import annotations

from companion.core.money import Currency
from tests import command


def companion(*args: str, cwd) -> str:
    code, out, err = command.companion(*args, cwd=cwd)
    assert code == 0, err
    return out


def test_monopoly_city_money_reads_like_its_notes_in_rules_deeds_and_show(tmp_path):
    rules = companion("rules", cwd=tmp_path)
    city = next(line for line in rules.splitlines() if line.startswith("monopoly-city"))
    assert "start_cash=\u20a937.7M" in city and "37700000" not in city
    companion("new", "city.game", "--rules", "monopoly-city", "--player", "Ann", "--player", "Bob", cwd=tmp_path)
    deeds = companion("deeds", "city.game", cwd=tmp_path)
    assert "price=\u20a9600K" in deeds and "rent=[\u20a9150K, \u20a9300K," in deeds and "600000" not in deeds
    # what deeds prints, --set reads back
    companion("deeds", "city.game", "--set", "Mill Lane", "price=\u20a9650K", cwd=tmp_path)
    assert "price=\u20a9650K" in companion("deeds", "city.game", cwd=tmp_path)
    companion("do", "city.game", '{"action": "transfer", "from": "Ann", "to": "bank", "amount": "125K"}', cwd=tmp_path)
    show = companion("show", "city.game", cwd=tmp_path)
    assert "\u20a937.575M" in show and "37,575K" not in show


def test_classic_money_stays_as_it_was(tmp_path):
    companion("new", "classic.game", "--rules", "classic", "--player", "Ann", "--player", "Bob", cwd=tmp_path)
    assert "price=60 " in companion("deeds", "classic.game", cwd=tmp_path)


def test_one_style_for_millions_in_monopoly_city():
    city = Currency("\u20a9", "short", 3)
    assert [city.format(n) for n in (37_575_000, 36_980_000, 1_250_000, 500_000)] == [
        "\u20a937.575M",
        "\u20a936.98M",
        "\u20a91.25M",
        "\u20a9500K",
    ]


def test_the_game_choosers_tabs_read_the_packs_own_titles():
    from companion.ui.games import pack_label  # the setup screen's tabs, without Kivy

    assert pack_label("game-of-life", "The Game of Life") == "The Game of Life"
    assert pack_label("classic", "Monopoly (classic US board)") == "Classic"  # too long for a tab
    assert pack_label("game-of-life") == "Game of Life"
