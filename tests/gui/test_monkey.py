"""The monkey over every family: a seeded random walk with the real pointer (tests/gui/monkey.py),
an evening under way in each game, the invariants checked after every tap. Each seed here is fixed:
a seed that once found a fault stays in FOUND with the fault it found, and passes since its fix.

Each family is walked in several short walks (:data:`WALKS` seeds of :data:`TAPS` taps), each a test
of its own, so pytest-xdist spreads them over its processes; every walk starts at once on the app its
process has running (one per process), in a game of its own with an evening under way.

``make monkey SEED=... TAPS=...`` runs one long walk over every family with any seed (MONKEY_SEED,
MONKEY_TAPS); MONKEY_WALKS sets how many walks the suite takes a family.
"""

from __future__ import annotations

import os

import pytest

from tests.gui.walk import evening_under_way
from tests.random_actions import variants

pytestmark = [pytest.mark.gui, pytest.mark.spread]  # each walk is a game of its own on the process's app

GAMES = [(pack, options) for pack, options in variants()]
#: Taps in a walk, and walks a family: a few hundred taps a family in all.
TAPS = int(os.environ.get("MONKEY_TAPS", "80"))
WALKS = int(os.environ.get("MONKEY_WALKS", "3"))
SEED = os.environ.get("MONKEY_SEED")

#: Seeds that found a fault, with the fault (each fixed since): (game, seed, what it found). A seed the
#: suite walks anyway is not walked twice.
FOUND: list[tuple[str, int, str]] = [
    (
        "greenopoly",
        1005,
        (
            "Undo tapped 56 ms after another game opened on the table took back that game's "
            "last payment: opening a game did not count as a change of what is in sight"
        ),
    ),
    (
        "game-of-life",
        77,
        (
            "Redo, then Undo 135 ms later where Redo had been: the Undo bar grew into Redo's half "
            "under the finger and took back what was just redone; a widget grown counts as new"
        ),
    ),
    (
        "city-life",
        1001,
        (
            "Undo on the scores screen (More, Scores) read a bare 'Undo' while the game went on, and three "
            "taps on it took back 'Bob sold 1 Bank share to the Bank for $500' and two more entries "
            "unnamed: every Undo and Redo now names its entry and promises it"
        ),
    ),
    (
        "greenopoly",
        2005,
        (
            "the on-screen trading unit's UNDO (Unit, after DEAL) read a bare 'UNDO' and took back "
            "'Trade: Cy gave Maple Square; Bob paid €11K interest on mortgaged Maple Square' in one tap "
            "(1005 and monopoly-city 3006 found it too): on the touchscreen it now asks first, naming the entry"
        ),
    ),
]


@pytest.fixture(scope="module")
def monkey_app(tmp_path_factory):
    from tests.gui.hands import start_app, stop_app

    hands = start_app(tmp_path_factory.mktemp("games"), real_pointer=True)
    hands.blind = True
    yield hands
    stop_app(hands)


def walk(hands, folder, pack: str, options: dict, seed: int, taps: int) -> None:
    from companion.ui.widgets import SEEN_SECONDS, Aimed
    from tests.gui import monkey
    from tests.gui.witness import Referee, Witness

    Aimed.seen_seconds = SEEN_SECONDS
    witness = Witness(hands.app)  # from before the game opens: what it has seen of the table counts
    try:
        assert hands.app.open_game(evening_under_way(folder, pack, options, seed=seed)) is None
        hands.pump(3)
        hands.app.tidy()  # the banker's pause once the game is open (the app's own, after a moment at the table)
        referee = Referee(hands.app.desk, witness)
        trail = monkey.run(hands, seed, taps, referee, witness)
    finally:
        witness.close()
    if os.environ.get("MONKEY_SAY"):
        print(pack, seed, sorted({t.split(": ")[1].split("/")[0] for t in trail}), referee.committed)
    assert not referee.problems, "\n".join(referee.problems + ["the last taps:"] + trail[-8:])
    assert hands.app.desk.banker.verify() == []


def _id(pack: str, options: dict) -> str:
    return pack + ("-" + "-".join(sorted(options)) if options else "")


def _seed(family: int, walk: int) -> int:
    """The fixed seed of a family's walk: 1000 + the family's place for the first (the seed each
    family has been walked with since the monkey came), 2000 + it for the second, and so on."""
    return 1000 * (walk + 1) + family


SEEDS = [
    pytest.param(pack, options, seed, id=f"{_id(pack, options)}-{seed}")
    for i, (pack, options) in enumerate(GAMES)
    for seed in ([int(SEED)] if SEED else [_seed(i, w) for w in range(WALKS)])
]
SEEDS += [
    pytest.param(game, next(o for p, o in GAMES if _id(p, o) == game), seed, id=f"{game}-{seed}-found")
    for game, seed, _what in FOUND
    if not any(s.id == f"{game}-{seed}" for s in SEEDS)
]


@pytest.mark.parametrize("pack, options, seed", SEEDS)
def test_the_monkey_finds_nothing(monkey_app, tmp_path, pack, options, seed):
    walk(monkey_app, tmp_path, pack, options, seed, TAPS)
