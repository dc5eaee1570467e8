"""Each open stream's page is made before the entry's COMMIT (while the fsync is still to come), and no
phone gets it before the entry is durable; a COMMIT that fails leaves no trace on any phone."""

from __future__ import annotations

import asyncio
import json

import pytest

from companion.core.errors import GameFileError
from companion.service import Banker
from companion.web.desk import PhoneDesk
from tests.disk import Disk
from tests.web.test_fan_out import feed_of, waiting

ASYNC = pytest.mark.asyncio


def cash_on(page: bytes) -> int:
    return json.loads(page[page.index(b"data: ") + 6 :])["me"]["cash"]


@pytest.fixture
def table(tmp_path):
    banker = Banker.create(tmp_path / "g.game", "classic", ["Ann", "Bob", "Cy"], backup_every=0)
    desk = PhoneDesk(banker)
    desk.open()
    ann = desk.authorise(desk.tokens.for_player("Ann"))
    yield banker, desk, ann
    desk.close_file()
    banker.close()


@ASYNC
async def test_ann_pays_bob_her_page_is_made_before_the_commit_and_sent_after_it(table):
    banker, desk, ann = table
    feed, screen = feed_of(lambda: desk.live_page(ann))
    stream = await waiting(desk.hub, feed)
    seen_at_commit = []
    banker.store.con = Disk(banker.store.con, lambda: seen_at_commit.append((list(screen.sent), dict(desk._messages))))

    banker.do({"action": "transfer", "from": "Ann", "to": "Bob", "amount": 50})
    desk.hub.flush()

    ((sent_then, pages_then),) = seen_at_commit
    assert sent_then == []  # nothing reached the phone before the entry was durable
    assert cash_on(pages_then[("player", "Ann")]) == 1450  # made before the fsync
    assert [cash_on(page) for page in screen.sent] == [1450]  # sent once it was committed
    assert not stream.done()  # handed out by the broadcast: the stream's task slept on
    desk.hub.close()
    await stream


@ASYNC
async def test_the_disk_fails_the_commit_and_no_phone_ever_sees_ann_paying(table):
    banker, desk, ann = table
    feed, screen = feed_of(lambda: desk.live_page(ann))
    stream = await waiting(desk.hub, feed)
    page_before = desk.page(ann)[0]
    story_before = desk.chronicle.story_json("Ann")
    made = []
    disk = Disk(banker.store.con, lambda: made.append(desk._messages.get(("player", "Ann"))))
    banker.store.con = disk
    disk.fail = True

    with pytest.raises(GameFileError):
        banker.do({"action": "transfer", "from": "Ann", "to": "Bob", "amount": 50})
    await asyncio.sleep(0)
    desk.hub.flush()

    assert cash_on(made[0]) == 1450  # her page had been made before the COMMIT failed

    assert banker.version == 1 and banker.table["accounts"]["Ann"] == 1500 and not banker.can_undo
    assert all(cash_on(page) == 1500 for page in screen.sent)  # at most the same page again
    assert desk.page(ann)[0] == page_before
    assert desk.chronicle.story_json("Ann") == story_before

    disk.fail = False  # the disk is back: Bob pays Cy, and the entry takes the number Ann's would have had
    outcome = banker.do({"action": "transfer", "from": "Bob", "to": "Cy", "amount": 20})
    desk.hub.flush()
    assert outcome.version == 2 and banker.log()[-1].summary == outcome.entry.summary
    assert json.loads(desk.page(ann)[0])["me"]["cash"] == 1500
    assert desk.chronicle.story_json("Ann") == story_before  # Bob paying Cy is not Ann's story
    assert json.loads(desk.chronicle.story_json("Bob"))[0]["text"] == "You paid Cy $20"
    desk.hub.close()
    await stream


@ASYNC
async def test_ann_undoes_her_payment_and_redo_brings_it_back_on_her_staged_page(table):
    banker, desk, ann = table
    feed, screen = feed_of(lambda: desk.live_page(ann), coalesce=0)
    stream = await waiting(desk.hub, feed)
    for action in (
        {"action": "transfer", "from": "Ann", "to": "Bob", "amount": 50},
        {"action": "undo"},
        {"action": "redo"},
    ):
        banker.do(action)
        desk.hub.flush()
    assert [cash_on(page) for page in screen.sent] == [1450, 1500, 1450]
    assert banker.can_undo and not banker.can_redo
    desk.hub.close()
    await stream


@ASYNC
async def test_in_a_burst_no_page_is_made_before_the_commit_for_a_phone_that_must_wait(table):
    banker, desk, ann = table
    feed, screen = feed_of(lambda: desk.live_page(ann), coalesce=30)  # one page per 30 s at most
    stream = await waiting(desk.hub, feed)
    made = []
    made_for_ann = lambda: cash_on(desk._messages[("player", "Ann")])  # noqa: E731
    banker.store.con = Disk(banker.store.con, lambda: made.append(made_for_ann()))

    banker.do({"action": "transfer", "from": "Ann", "to": "Bob", "amount": 50})
    desk.hub.flush()
    banker.do({"action": "transfer", "from": "Ann", "to": "Bob", "amount": 25})  # within Ann's 30 s
    desk.hub.flush()

    assert made == [1450, 1450]  # the second page would only wait: it is made when it can be sent
    assert [cash_on(page) for page in screen.sent] == [1450]
    await asyncio.sleep(0)
    assert stream.done()  # woken: the stream's own task sends the latest page once its interval is over
    desk.hub.close()
