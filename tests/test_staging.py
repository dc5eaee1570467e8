"""Work for an entry before its COMMIT (``Banker.stage``): the stagers see the table after the entry
while it is still to be made durable, and a COMMIT that fails takes the Banker back to the table,
the version and the undo history it had, whatever the entry was (an action, an undo, a redo)."""

from __future__ import annotations

import pytest

from companion.core.errors import GameFileError
from companion.service import Banker
from tests.disk import Disk

ANN_PAYS_BOB = {"action": "transfer", "from": "Ann", "to": "Bob", "amount": 50}


@pytest.fixture
def banker(tmp_path):
    with Banker.create(tmp_path / "g.game", "classic", ["Ann", "Bob"], backup_every=0) as opened:
        yield opened


def test_the_stager_sees_ann_pay_bob_before_the_commit_and_the_subscriber_after_it(banker):
    seen = []
    banker.stage(
        lambda entry: seen.append(("staged", entry.seq, banker.version, banker.table["accounts"]["Ann"])),
        lambda entry: seen.append(("abandoned", entry.seq)),
    )
    banker.subscribe(lambda outcome: seen.append(("committed", outcome.version, banker.table["accounts"]["Ann"])))
    banker.do(ANN_PAYS_BOB)
    assert seen == [("staged", 2, 2, 1450), ("committed", 2, 1450)]


@pytest.mark.parametrize("steps", [[], [ANN_PAYS_BOB], [ANN_PAYS_BOB, {"action": "undo"}]])
def test_a_failed_commit_leaves_the_banker_as_it_was(banker, steps):
    for step in steps:
        banker.do(step)
    told = []
    banker.stage(lambda entry: told.append("staged"), lambda entry: told.append("abandoned"))
    banker.subscribe(lambda outcome: told.append("committed"))
    before = (banker.version, banker.table, banker.can_undo, banker.can_redo, banker.next_undo(), banker.next_redo())
    banker.store.con = disk = Disk(banker.store.con, fail=True)
    # the next action of each state: a payment, an undo of it, a redo of that undo
    attempt = [ANN_PAYS_BOB, {"action": "undo"}, {"action": "redo"}][len(steps)]

    with pytest.raises(GameFileError):
        banker.do(attempt)

    assert told == ["staged", "abandoned"]
    assert (
        banker.version,
        banker.table,
        banker.can_undo,
        banker.can_redo,
        banker.next_undo(),
        banker.next_redo(),
    ) == before
    disk.fail = False
    assert banker.do(attempt).version == banker.version == before[0] + 1  # the disk is back: it goes through
    assert told[-2:] == ["staged", "committed"]
    assert banker.verify() == []
