"""Another player's rent in two taps: on the Rent chooser, each deed someone owns offers the other
players who could land there as chips ("Cy $600"), beside the acting player's own tap.

Ann, Bob, Cy and Dee play classic; Bob owns Park Place and Boardwalk, Boardwalk with two houses; Ann
owns Baltic Avenue; Ann is to play. The banker taps with simulated touches through the window; each
check waits on the ledger or the screen.
"""

import pytest

from companion.service import Banker
from tests.gui.hands import start_app, stop_app

pytestmark = pytest.mark.gui

PLAYERS = [{"name": n, "colour": c} for n, c in [("Ann", "red"), ("Bob", "blue"), ("Cy", "green"), ("Dee", "yellow")]]
BOB_BUILDS = [
    {"action": "buy", "player": "Bob", "deed": "Park Place"},
    {"action": "buy", "player": "Bob", "deed": "Boardwalk"},
    {"action": "build", "player": "Bob", "deed": "Boardwalk"},
    {"action": "build", "player": "Bob", "deed": "Park Place"},
    {"action": "build", "player": "Bob", "deed": "Boardwalk"},
    {"action": "buy", "player": "Ann", "deed": "Baltic Avenue"},
]


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    hands = start_app(tmp_path_factory.mktemp("games"))
    yield hands
    stop_app(hands)


def evening(bank, name: str, *more: dict):
    """A new game with Bob's houses on the dark blues (and ``more``), on the table, Ann to play."""
    path = bank.folder / f"{name}.game"
    with Banker.create(path, "classic", PLAYERS, {}) as banker:
        for action in [*BOB_BUILDS, *more]:
            assert banker.do(action).summary
    assert bank.app.open_game(path) is None
    bank.until("the table", lambda: bank.screen == "table")
    return bank.app.desk


def cash(desk, player: str) -> int:
    return desk.table["accounts"][player]


def test_the_rent_chooser_offers_cy_and_dee_on_bobs_boardwalk_in_big_enough_chips(bank):
    bank.size(800, 480)
    evening(bank, "chips")
    bank.tap("rent")
    bank.until("the Rent chooser", lambda: bank.screen == "ask")
    boardwalk = bank.find("choice-Boardwalk")
    assert boardwalk.detail == "Ann pays Bob $600"
    cy, dee = bank.find("payer-Cy-on-Boardwalk"), bank.find("payer-Dee-on-Boardwalk")
    assert (cy.text, dee.text) == ("Cy $600", "Dee $600")
    assert not bank.has("payer-Bob-on-Boardwalk") and not bank.has("payer-Ann-on-Boardwalk")  # owner, acting
    u = bank.app.u
    for chip in (cy, dee):
        assert chip.width >= 48 * u and chip.height >= 48 * u, (chip.text, chip.size)
        assert chip.font_size >= 18 * u
    # Ann's own Baltic Avenue: her tap says why not, the others' chips take it
    baltic = bank.find("choice-Baltic Avenue")
    assert baltic.refused == "Ann owns Baltic Avenue: no rent is due"
    assert bank.find("payer-Bob-on-Baltic Avenue").text == "Bob $4"
    for size in ((800, 480), (1280, 800)):
        bank.size(*size)
        bank.shot("rent-chips")
    bank.size(800, 480)
    bank.app.screens["ask"].cancel()


def test_cy_lands_on_boardwalk_pays_bob_600_in_two_taps_and_the_next_rent_is_anns_again(bank):
    desk = evening(bank, "cy pays")
    bob, cy, ann = cash(desk, "Bob"), cash(desk, "Cy"), cash(desk, "Ann")
    start = bank.taps
    bank.tap("rent")
    bank.tap("payer-Cy-on-Boardwalk")
    bank.until("Cy's rent to Bob", lambda: cash(desk, "Bob") == bob + 600)
    assert bank.taps - start == 2
    assert (cash(desk, "Cy"), cash(desk, "Ann")) == (cy - 600, ann)
    assert desk.banker.log()[-1].summary == "Cy paid Bob $600 rent for Boardwalk"
    bank.until("the table", lambda: bank.screen == "table")
    bank.tap("rent")
    bank.until("the Rent chooser", lambda: bank.screen == "ask")
    assert bank.find("payer-Ann").selected and not bank.find("payer-Cy").selected  # who pays: Ann again
    bank.tap("choice-Boardwalk")
    bank.until("Ann's rent to Bob", lambda: cash(desk, "Bob") == bob + 1200)
    assert cash(desk, "Ann") == ann - 600


def test_dee_short_of_money_is_greyed_and_her_chip_says_why_changing_nothing(bank):
    desk = evening(bank, "dee short", {"action": "transfer", "from": "Dee", "to": "bank", "amount": 1400})
    version = desk.version
    bank.tap("rent")
    chip = bank.find("payer-Dee-on-Boardwalk")
    assert chip.refused and chip.opacity < 1
    bank.tap("payer-Dee-on-Boardwalk")
    bank.until("the reason on show", lambda: bank.bubble() is not None)
    assert bank.bubble() == chip.refused[:1].upper() + chip.refused[1:]
    assert desk.version == version and bank.screen == "ask"
    bank.app.screens["ask"].cancel()


def test_at_six_players_with_most_deeds_owned_every_chip_is_big_enough(bank):
    six = [*PLAYERS, {"name": "Eve", "colour": "purple"}, {"name": "Flo", "colour": "orange"}]
    path = bank.folder / "six.game"
    with Banker.create(path, "classic", six, {}) as banker:
        deeds = [d for d in banker.table["deeds"]][:18]
        for i, deed in enumerate(deeds):
            banker.do({"action": "buy", "player": six[i % 6]["name"], "deed": deed})
    assert bank.app.open_game(path) is None
    bank.until("the table", lambda: bank.screen == "table")
    for size in ((800, 480), (1280, 800)):
        bank.size(*size)
        bank.tap("rent")
        bank.until(
            "all 18 deeds on the Rent chooser",
            lambda: bank.screen == "ask" and len(bank.current.ids.choices.children) == 18,
        )
        bank.pump(2)
        chips = [w for w in bank.all() if "-on-" in (getattr(w, "name", "") or "")]
        assert len(chips) > 18 * 3  # four or five other players on each of the 18 deeds
        u = bank.app.u
        small = [(c.name, c.size) for c in chips if c.width < 48 * u or c.height < 48 * u]
        assert not small
        bank.shot("rent-chips-six")
        bank.app.screens["ask"].cancel()
    bank.size(800, 480)


def test_cy_lands_on_bobs_electric_company_his_chip_then_the_dice_three_taps(bank):
    desk = evening(bank, "utility", {"action": "buy", "player": "Bob", "deed": "Electric Company"})
    bob, cy = cash(desk, "Bob"), cash(desk, "Cy")
    start = bank.taps
    bank.tap("rent")
    assert bank.find("payer-Cy-on-Electric Company").text == "Cy"  # what he pays waits on the dice
    bank.tap("payer-Cy-on-Electric Company")
    bank.until("the dice asked", lambda: bank.current.field == "dice")
    assert bank.find("payer-Cy").selected and not bank.find("payer-Ann").selected  # who pays, in sight
    bank.tap("choice-7")
    bank.until("Cy's rent to Bob", lambda: cash(desk, "Bob") == bob + 28)
    assert cash(desk, "Cy") == cy - 28 and bank.taps - start == 3
