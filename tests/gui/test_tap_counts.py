"""The banker's common actions take the taps docs/touchscreen.md says.

Each row of the table "Taps of the common actions" is a moment at the table: the game as it stands
(Ann, Bob and Cy playing classic, Monopoly City or City Life's advanced rules, set up through the
ledger, no taps), then the banker plays what the row's sentence says on the touchscreen with the X
server's pointer (xdotool under Xvfb), at a person's pace. The taps are counted as they are made and
must be the row's count; the ledger is checked after, so a tap count is only true when the action
really happened. The counts are read from the doc's table itself: a screen that gains or loses a tap
fails here until the doc says so. Nothing waits on a sleep: each check waits on the ledger or the
screen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

from companion.rules import pack_names
from companion.service import Banker

pytestmark = pytest.mark.gui

DOC = Path(__file__).resolve().parents[2] / "docs" / "touchscreen.md"
TABLE_TITLE = "Taps of the common actions"
PLAYERS = ["Ann", "Bob", "Cy"]


# -- the doc's table ---------------------------------------------------------------------------------
def tap_table(text: str | None = None) -> list[dict[str, str]]:
    """The rows of the doc's tap-count table, each a dict of its column headings to its cells."""
    lines = (text if text is not None else DOC.read_text()).splitlines()
    start = next(i for i, line in enumerate(lines) if TABLE_TITLE in line)
    rows = []
    for line in lines[start + 1 :]:
        if not line.startswith("|"):
            if rows:
                break
            continue
        rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    heading, *body = rows
    return [dict(zip(heading, row)) for row in body if not set("".join(row)) <= set("-: ")]


def said(row: dict[str, str]) -> str:
    """The row's sentence, the way the banker says it (the first quoted words of its first cell)."""
    return re.search(r'"([^"]+)"', row["The banker says"]).group(1)


def our_taps(row: dict[str, str]) -> int:
    """Our count: the first number in the row's Taps cell."""
    return int(re.match(r"\s*(\d+)", row["Taps"]).group(1))


def doc_counts() -> dict[str, int]:
    return {said(row): our_taps(row) for row in tap_table()}


# -- the moments at the table ------------------------------------------------------------------------
@dataclass(frozen=True)
class Moment:
    """A row of the table played at the table: the pack, what already happened (through the ledger, no
    taps), then the banker's taps and the ledger's checks."""

    pack: str
    play: Callable  # play(hands, desk): the banker's taps, then the ledger's checks
    before: list[dict] = field(default_factory=list)
    options: dict = field(default_factory=dict)


def cash(desk, player: str) -> int:
    return desk.table["accounts"][player]


def deed(desk, name: str) -> dict:
    return desk.table["deeds"][name]


def buying(player: str, *deeds: str) -> list[dict]:
    return [{"action": "buy", "player": player, "deed": d} for d in deeds]


def ann_passes_go(hands, desk):
    ann = cash(desk, "Ann")
    hands.tap("salary")
    hands.until("Ann's salary on the ledger", lambda: cash(desk, "Ann") == ann + 200)


def ann_pays_the_bank_50(hands, desk):
    ann = cash(desk, "Ann")
    hands.tap("pay")
    hands.keys("50")
    hands.tap("confirm")
    hands.until("Ann's $50 to the bank", lambda: cash(desk, "Ann") == ann - 50)


def ann_buys_park_place(hands, desk):
    ann = cash(desk, "Ann")
    hands.tap("buy")
    hands.tap("choice-Park Place")
    hands.until("Ann owning Park Place", lambda: deed(desk, "Park Place").get("owner") == "Ann")
    assert cash(desk, "Ann") == ann - 350


def lands_on_boardwalk(payer: str, taps: list[str]):
    def play(hands, desk):
        before = {p: cash(desk, p) for p in PLAYERS}
        for name in taps:
            hands.tap(name)
        hands.until(f"{payer}'s rent to Bob", lambda: cash(desk, "Bob") == before["Bob"] + 50)
        assert cash(desk, payer) == before[payer] - 50  # Boardwalk alone: $50
        assert desk.state()["turn"]["player"] == "Ann"  # the player to play is still Ann

    return play


def ann_builds_on_boardwalk(hands, desk):
    ann = cash(desk, "Ann")
    hands.tap("build")
    hands.tap("choice-Boardwalk")
    hands.until("a house on Boardwalk", lambda: deed(desk, "Boardwalk").get("houses") == 1)
    assert cash(desk, "Ann") == ann - 200


def ann_builds_in_mill_lane(hands, desk):
    ann, version = cash(desk, "Ann"), desk.version
    hands.tap("build")
    spinner = hands.app.screens["ask"].ids.spinner
    hands.until("the spinner to stop", lambda: not spinner.spinning)  # the doc's two taps: the spin is on the tile
    hands.tap("choice-Mill Lane")
    hands.until("Ann's spin and her build on the ledger", lambda: desk.version >= version + 2)
    spin = desk.table["turn"]["spin"]
    assert desk.banker.log()[-1].action["action"] == "build"
    if spin["result"] == "railroad":
        assert deed(desk, "Mill Lane").get("railroad") and cash(desk, "Ann") == ann
    else:
        assert deed(desk, "Mill Lane").get("residential") == spin["result"]
        block = desk.table["pack"]["cards"]["Mill Lane"]["residential_cost"]
        assert cash(desk, "Ann") == ann - spin["result"] * block


def ann_mortgages_baltic(hands, desk):
    ann = cash(desk, "Ann")
    hands.tap("menu-deeds")
    hands.tap("deed-Baltic Avenue")
    hands.tap("do-mortgage")
    hands.until("Baltic Avenue mortgaged", lambda: deed(desk, "Baltic Avenue").get("mortgaged"))
    assert cash(desk, "Ann") == ann + 30


def ann_lifts_the_mortgage(hands, desk):
    ann = cash(desk, "Ann")
    hands.tap("menu-deeds")
    hands.tap("deed-Baltic Avenue")
    hands.tap("do-unmortgage")
    hands.until("Baltic Avenue's mortgage lifted", lambda: not deed(desk, "Baltic Avenue").get("mortgaged"))
    assert cash(desk, "Ann") == ann - 33  # the $30 borrowed and 10% interest


def ann_trades_park_place_for_100(hands, desk):
    ann, bob = cash(desk, "Ann"), cash(desk, "Bob")
    hands.tap("more")
    hands.tap("action-trade")
    hands.tap("give-deed-Park Place")
    hands.tap("get-cash-100")
    hands.tap("confirm")
    hands.until("Park Place with Bob", lambda: deed(desk, "Park Place").get("owner") == "Bob")
    assert (cash(desk, "Ann"), cash(desk, "Bob")) == (ann + 100, bob - 100)


def nobody_wants_marvin_gardens(hands, desk):
    hands.tap("auction")
    hands.tap("choice-Marvin Gardens")
    auction = hands.app.screens["auction"]
    hands.until("the auction of Marvin Gardens", lambda: hands.screen == "auction" and auction.lot == "Marvin Gardens")
    hands.tap("start-timer")
    hands.tap("bidder-Bob")
    if auction.keys_shown:
        hands.tap("bid-keys")  # the pack's steps instead of the keypad: a tap more
    steps = sorted(
        (w for w in hands.all() if (getattr(w, "name", "") or "").startswith("raise-")), key=lambda w: w.value
    )
    hands.tap(widget=steps[len(steps) // 2])  # a step of the pack's, from the middle
    hands.tap("record-bid")
    unit = hands.app.unit_link.unit
    hands.until("Bob's bid on the unit", lambda: unit.highest_bid is not None and unit.highest_bid.bidder == "Bob")
    bob, bid = cash(desk, "Bob"), unit.highest_bid.amount
    hands.tap("sold")
    hands.until("Marvin Gardens sold to Bob", lambda: deed(desk, "Marvin Gardens").get("owner") == "Bob")
    assert cash(desk, "Bob") == bob - bid


def ann_takes_a_loan(hands, desk):
    ann, version = cash(desk, "Ann"), desk.version
    hands.tap("more")
    hands.tap("action-borrow")
    hands.until("Ann's loan on the ledger", lambda: desk.version == version + 1 or hands.bubble())
    assert desk.version == version + 1, hands.bubble()
    assert desk.banker.log()[-1].action["action"] == "borrow" and cash(desk, "Ann") > ann


def no_wait(hands, desk):
    ann = cash(desk, "Ann")
    hands.tap("undo")
    hands.until("Ann's salary taken back", lambda: cash(desk, "Ann") == ann - 200)


#: Every row of the doc's table, by the banker's sentence.
MOMENTS = {
    "Ann passes GO": Moment("classic", ann_passes_go),
    "Ann pays the bank 50": Moment("classic", ann_pays_the_bank_50),
    "Ann buys Park Place": Moment("classic", ann_buys_park_place),
    "Ann lands on Boardwalk": Moment(
        "classic", lands_on_boardwalk("Ann", ["rent", "choice-Boardwalk"]), before=buying("Bob", "Boardwalk")
    ),
    "Cy lands on Boardwalk": Moment(
        "classic", lands_on_boardwalk("Cy", ["rent", "payer-Cy-on-Boardwalk"]), before=buying("Bob", "Boardwalk")
    ),
    "Ann builds on Boardwalk": Moment(
        "classic", ann_builds_on_boardwalk, before=buying("Ann", "Park Place", "Boardwalk")
    ),
    "Ann builds in Mill Lane": Moment("monopoly-city", ann_builds_in_mill_lane, before=buying("Ann", "Mill Lane")),
    "Ann mortgages Baltic": Moment("classic", ann_mortgages_baltic, before=buying("Ann", "Baltic Avenue")),
    "Ann lifts the mortgage": Moment(
        "classic",
        ann_lifts_the_mortgage,
        before=[*buying("Ann", "Baltic Avenue"), {"action": "mortgage", "player": "Ann", "deed": "Baltic Avenue"}],
    ),
    "Ann trades Park Place for 100": Moment(
        "classic", ann_trades_park_place_for_100, before=buying("Ann", "Park Place")
    ),
    "Nobody wants Marvin Gardens": Moment("classic", nobody_wants_marvin_gardens),
    "Ann takes a loan": Moment("city-life", ann_takes_a_loan, options={"advanced": True}),
    "No, wait": Moment("classic", no_wait, before=[{"action": "salary", "player": "Ann"}]),
}


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    """The touchscreen app, tapped by the real pointer; each moment opens its own game."""
    from tests.gui.hands import start_app, stop_app

    hands = start_app(tmp_path_factory.mktemp("games"), real_pointer=True)
    yield hands
    stop_app(hands)


def open_moment(hands, moment: Moment, name: str):
    """A new game of the moment's pack, with what already happened, on the table (no taps)."""
    path = hands.folder / (re.sub(r"\W+", "-", name).strip("-").lower() + ".game")
    with Banker.create(path, moment.pack, PLAYERS, moment.options) as banker:
        for action in moment.before:
            banker.do(action)
    assert hands.app.open_game(path) is None
    hands.until("the table", lambda: hands.screen == "table")
    return hands.app.desk


def rows_with_packs():
    for row in tap_table():
        sentence = said(row)
        moment = MOMENTS.get(sentence)
        marks = [
            pytest.mark.skipif(
                moment is not None and moment.pack not in pack_names(), reason="the pack is not installed"
            )
        ]
        yield pytest.param(sentence, our_taps(row), id=sentence, marks=marks)


def test_every_row_of_the_doc_is_played_here():
    assert set(doc_counts()) == set(MOMENTS)


@pytest.mark.parametrize(("sentence", "taps"), list(rows_with_packs()))
def test_the_banker_plays_it_in_the_taps_the_doc_says(bank, sentence, taps):
    moment = MOMENTS[sentence]
    desk = open_moment(bank, moment, sentence)
    start = bank.taps
    moment.play(bank, desk)
    assert bank.taps - start == taps, f"{sentence!r}: {bank.taps - start} taps, the doc says {taps}"
    assert desk.banker.verify() == []


def test_a_quick_amount_saves_the_two_figures(bank):
    """ "Ann pays the bank 50" with the pack's +$50 instead of 5 and 0: the doc's shorter count."""
    row = next(r for r in tap_table() if said(r) == "Ann pays the bank 50")
    quick = int(re.search(r"\+\$50\*\*: (\d+)", row["Taps"] + row["How"]).group(1))
    desk = open_moment(bank, MOMENTS["Ann pays the bank 50"], "quick 50")
    ann, start = cash(desk, "Ann"), bank.taps
    bank.tap("pay")
    bank.tap("quick-50")
    bank.tap("confirm")
    bank.until("Ann's $50 to the bank", lambda: cash(desk, "Ann") == ann - 50)
    assert bank.taps - start == quick
