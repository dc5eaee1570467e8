"""Dan goes bankrupt to Ann holding two mortgaged deeds, tapped with the real pointer.

For each mortgaged deed the screen offers both ways, each with what it costs Ann: lift Boardwalk now
($200 and the 10%, $220) or keep it mortgaged (the 10% now, $20); Baltic Avenue the same ($33 or $3).
Ann lifts Boardwalk and keeps Baltic Avenue. The confirming step lists every sum each side pays, and
the ledger moves exactly those sums.
"""

from __future__ import annotations

import pytest

from companion.service import Banker
from tests.gui.hands import start_app, stop_app

pytestmark = pytest.mark.gui


@pytest.fixture(scope="module")
def bank(tmp_path_factory):
    folder = tmp_path_factory.mktemp("games")
    banker = Banker.create(folder / "friday.game", "classic", ["Dan", "Ann", "Cy"], {})
    for deed in ("Boardwalk", "Baltic Avenue"):
        banker.do({"action": "buy", "player": "Dan", "deed": deed})
        banker.do({"action": "mortgage", "player": "Dan", "deed": deed})
    banker.close()
    hands = start_app(folder, real_pointer=True)
    yield hands
    stop_app(hands)


def test_ann_lifts_one_mortgage_keeps_the_other_and_sees_every_sum_first(bank):
    desk = bank.app.desk
    dan, ann = desk.table["accounts"]["Dan"], desk.table["accounts"]["Ann"]
    version = desk.version
    bank.tap("more")
    bank.tap("action-bankrupt")
    bank.tap("choice-Ann")
    assert bank.current.both_ways
    lift, keep = bank.find("in-Boardwalk"), bank.find("out-Boardwalk")
    assert lift.text == "Boardwalk\nLift now: Ann pays $220"
    assert keep.text == "Boardwalk\nKeep it mortgaged: Ann pays the 10% now, $20"
    assert bank.find("in-Baltic Avenue").text == "Baltic Avenue\nLift now: Ann pays $33"
    assert keep.selected and not lift.selected  # kept unless Ann lifts it
    bank.tap("in-Boardwalk")
    assert bank.find("in-Boardwalk").selected and not bank.find("out-Boardwalk").selected
    assert bank.find("out-Baltic Avenue").selected
    bank.shot("bankrupt-lift-or-keep")
    bank.tap("done")
    bank.shot("bankrupt-every-sum")
    box = bank.find("confirm-yes").parent.parent.parent
    question = box.question
    assert f"Dan pays Ann ${dan:,}." in question
    assert (
        "Ann pays the bank $223: $3 interest on mortgaged Baltic Avenue, $220 lifting the mortgage on Boardwalk."
    ) in question
    assert desk.version == version  # nothing moved before the confirming tap
    bank.tap("confirm-yes")
    bank.until("the bankruptcy in the ledger", lambda: desk.version == version + 1)
    assert desk.table["accounts"]["Ann"] == ann + dan - 223
    assert desk.table["deeds"]["Boardwalk"]["owner"] == "Ann" and not desk.table["deeds"]["Boardwalk"].get("mortgaged")
    assert desk.table["deeds"]["Baltic Avenue"]["mortgaged"]
    assert desk.banker.log()[-1].summary == (
        f"Dan went bankrupt to Ann, handing over ${dan:,}; Ann paid $3 interest on mortgaged Baltic Avenue; "
        "Ann lifted the mortgage on Boardwalk for $220"
    )
