"""The law of the banker's screen, held over every action of every family: no tap moves money unless
the screen already showed who pays whom how much (on the button itself, or on a confirming step that
carries the log's sentence).

For each installed game (City Life with its basic and its advanced rules), an evening is under way
(a hundred actions a banker might take, seeded) when the touchscreen opens it; then every action the
game offers (``Banker.actions()``) is played from the touchscreen, in the family's order, the way a banker who
takes the first answer the rules allow would play it (tests/gui/walk.py). After every tap, each new
log entry is compared with what was on the screen under the finger when the committing tap went down
(tests/gui/witness.py). Simulated touches, so the tap guard is not in the way here: it has its own
tests with the real pointer (test_taps_land.py) and the monkey checks both together.
"""

from __future__ import annotations

import pytest

from tests.gui.walk import LAST, evening_under_way
from tests.random_actions import variants

#: Each test walks every action of a family: about a minute and a half on a quiet machine, ten minutes and
#: more beside other work (the suite's 600 s would end a walk that is only slow). Three processes may
#: share the families.
pytestmark = [pytest.mark.gui, pytest.mark.groups(3), pytest.mark.timeout(1800)]

GAMES = [
    pytest.param(pack, options, id=pack + ("-" + "-".join(sorted(options)) if options else ""))
    for pack, options in variants()
]


@pytest.mark.parametrize("pack, options", GAMES)
def test_every_action_shows_its_money_before_the_tap_that_moves_it(bank, tmp_path, pack, options):
    from tests.gui.walk import play, to_table
    from tests.gui.witness import Referee, Witness

    assert bank.app.open_game(evening_under_way(tmp_path, pack, options)) is None
    bank.pump(3)
    bank.app.tidy()  # the banker's pause once the game is open (the app's own, after a moment at the table)
    desk = bank.app.desk
    witness = Witness(bank.app, watch=False)  # the touch-downs only: the tap guard is not judged here
    from kivy.clock import Clock

    fps, Clock._max_fps = Clock._max_fps, 0  # no frame waits for the display's pace here: taps come at once
    referee = Referee(desk, witness, guard=False)
    bank.after_tap = referee
    outcomes: dict[str, set[str]] = {}
    try:
        names = [n for n in desk.specs if n not in LAST] + [n for n in LAST if n in desk.specs]
        for name in names:
            if desk.table.get("over"):
                break
            outcomes.setdefault(name, set()).add(play(bank, name))
        to_table(bank)
    finally:
        bank.after_tap = None
        Clock._max_fps = fps
        witness.close()
    print(pack, options, {n: sorted(o) for n, o in outcomes.items()}, referee.committed)
    assert not referee.problems, "\n".join(referee.problems)
    assert all(outcomes[n] != {"absent"} for n in outcomes), (
        f"no button offers {[n for n in outcomes if outcomes[n] == {'absent'}]}"
    )
    money = [n for n in referee.committed if n not in ("undo", "redo")]
    assert len(set(money)) >= min(4, len(names)), f"too few actions done to say anything: {outcomes}"
