"""Two players whose names read the same on every screen and phone cannot sit at one table.

Ann sits down; a second player tries a name that differs from hers only by a character nobody sees, or
by letters from another alphabet that look the same. Each is refused with a reason that says which
character or which name, and nothing is made. Names that merely resemble each other ("Ann" and "Anne",
"Zoë" and "Zoe") still sit side by side.
"""

from __future__ import annotations

import pytest

from companion.core.errors import BadAction, BankerError
from companion.core.lookalike import invisible, skeleton
from companion.core.model import new_table, player_names_checked
from companion.service import Banker
from companion.ui.games import NewGame

INVISIBLE = [
    ("A\u200bnn", "U+200B"),  # zero width space
    ("Ann\u200f", "U+200F"),  # right-to-left mark
    ("A\u00adnn", "U+00AD"),  # soft hyphen
    ("A\u200dnn", "U+200D"),  # zero width joiner
    ("A\u200cnn", "U+200C"),  # zero width non-joiner
    ("Ann\ufeff", "U+FEFF"),  # byte order mark
    ("\u2063Ann", "U+2063"),  # invisible separator
    ("A\u2062nn", "U+2062"),  # invisible times
    ("Ann\u200e", "U+200E"),  # left-to-right mark
    ("An\u034fn", "U+034F"),  # combining grapheme joiner
    ("Ann\ufe0f", "U+FE0F"),  # variation selector
    ("Ann\U000e0101", "U+E0101"),  # variation selector supplement
    ("\u3164Ann", "U+3164"),  # Hangul filler
    ("Ann\U000e0041", "U+E0041"),  # a tag character
]


@pytest.mark.parametrize("name, code", INVISIBLE)
def test_a_name_holding_a_character_nobody_sees_is_refused_with_which(name, code):
    with pytest.raises(BadAction) as refused:
        new_table({}, [{"name": "Ann"}, {"name": name}], {})
    assert code in str(refused.value) and "nobody can see" in str(refused.value)


def test_bob_with_a_word_joiner_is_refused_even_without_a_plain_bob():
    with pytest.raises(BadAction, match="U\\+2060"):
        player_names_checked(["Bob\u2060", "Cy"])


@pytest.mark.parametrize(
    "twin",
    [
        "\u0410nn",  # Cyrillic capital A
        "\u0430nn",  # Cyrillic small a (and "ann" folds to "Ann"'s key)
        "A\u0578\u0578",  # Armenian letters that look like n
        "\u0391nn",  # Greek capital alpha
        "\uff21nn",  # full-width A
    ],
)
def test_a_name_in_look_alike_letters_is_refused_as_a_twin(twin):
    with pytest.raises(BadAction) as refused:
        new_table({}, [{"name": "Ann"}, {"name": twin}], {})
    reason = str(refused.value)
    assert "looks just like 'Ann'" in reason or reason.startswith("two players are called"), reason
    assert len(reason) <= 200


def test_look_alike_letters_within_the_latin_alphabet_are_twins_too():
    with pytest.raises(BadAction, match="looks just like 'AI'"):
        player_names_checked(["AI", "Al"])  # a capital i and a small L
    with pytest.raises(BadAction, match="looks just like 'Sam'"):
        player_names_checked(["Sam", "Sarn"])


@pytest.mark.parametrize("name", ["B\u0430nk", "\u0412ank", "p\u043et:lottery", "Everyon\u0435"])
def test_the_bank_and_the_pots_cannot_be_spelt_in_look_alike_letters_either(name):
    with pytest.raises(BadAction, match="cannot be a player's name"):
        player_names_checked([name, "Bob"])


@pytest.mark.parametrize(
    "pair",
    [
        ("Ann", "Anne"),
        ("Zoë", "Zoe"),
        ("Bob", "Rob"),
        ("Åsa", "Asa"),
        ("Ольга", "Olga"),
        ("李", "Lee"),
        ("Ann-Marie", "Annmarie"),
    ],
)
def test_names_that_read_differently_still_sit_together(pair):
    assert player_names_checked(pair) == list(pair)


def test_names_with_emoji_and_other_scripts_sit_when_nothing_in_them_is_invisible():
    assert player_names_checked(["Ann 🎩", "Бобр", "José"]) == ["Ann 🎩", "Бобр", "José"]


def test_the_skeleton_is_unicodes():
    assert skeleton("\u0410nn") == skeleton("Ann") == "Ann"
    assert skeleton("A\u200bnn") == "Ann"  # default-ignorable characters vanish from a skeleton
    assert skeleton("m") == "rn"
    assert invisible("\u00ad") and invisible("\ufe0e") and invisible("a") is None


def test_a_game_with_twins_is_never_made(tmp_path):
    with pytest.raises(BankerError, match="looks just like"):
        Banker.create(tmp_path / "twins.game", "classic", [{"name": "Ann"}, {"name": "\u0410nn"}])
    assert not (tmp_path / "twins.game").exists()


def test_the_new_game_form_says_so_before_a_file_is_made():
    form = NewGame.start().rename(0, "Ann").rename(1, "\u0410nn")
    assert "looks just like 'Ann'" in form.check()
    assert "U+200B" in NewGame.start().rename(0, "Ann").rename(1, "B\u200bob").check()
