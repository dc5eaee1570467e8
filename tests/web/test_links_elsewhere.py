"""Links issued or withdrawn by another program on the same phones file (a second server on the game).

While the server runs, the kernel tells it when the phones file is written, and it reads the tokens
again on the next request after that, and only then: between two writes a request asks the file
nothing. Without the kernel's word (a desk not served, a phones file in WAL mode) the file is asked at
most every ``JoinTokens.RECHECK`` seconds.
"""

from __future__ import annotations

import pytest

from companion.web.sidecar import open_sidecar, sidecar_path
from companion.web.tokens import WITHDRAWN, JoinTokens


@pytest.fixture
def elsewhere(table):
    """The tokens as another program sees them: its own connection to the same phones file."""
    tokens = JoinTokens(open_sidecar(table.banker.path))
    yield tokens
    tokens.con.close()


def looks_at_the_file(tokens: JoinTokens) -> list[str]:
    """Every statement the tokens' connection runs from now on that asks whether the file changed."""
    seen: list[str] = []
    tokens.con.set_trace_callback(lambda sql: seen.append(sql) if "data_version" in sql else None)
    return seen


@pytest.mark.asyncio
async def test_the_banker_withdraws_anns_link_from_another_program_and_her_next_request_is_refused(phones, elsewhere):
    ann = await phones.phone("Ann")
    assert (await ann.get("/api/v1/state")).status == 200
    assert phones.server.tokens.watched  # the kernel says when the phones file is written
    assert elsewhere.revoke("Ann")
    r = await ann.get("/api/v1/state")
    assert r.status == 401
    problem = await r.json()
    assert problem["detail"] == WITHDRAWN and problem["type"].endswith("/link-not-valid")
    assert "Max-Age=0" in r.headers["Set-Cookie"]  # the phone forgets the cookie


@pytest.mark.asyncio
async def test_a_link_made_by_another_program_opens_the_table_at_once(phones, elsewhere):
    link = elsewhere.for_player("Bob")
    bob = await phones.phone()
    r = await bob.get(f"/j/{link}", allow_redirects=False)
    assert r.status == 303, await r.text()
    assert (await bob.page())["me"]["name"] == "Bob"
    assert phones.server.join_url("Bob").endswith(link)  # the same link, not a second one


@pytest.mark.asyncio
async def test_between_two_writes_the_banker_s_actions_ask_the_phones_file_nothing(phones, elsewhere):
    banker = await phones.phone("banker")
    tokens = phones.server.tokens
    assert (await banker.get("/api/v1/state")).status == 200  # the writes so far are read
    looks = looks_at_the_file(tokens)
    try:
        for _ in range(5):
            r = await banker.post("/api/v1/actions", {"action": "transfer", "from": "Ann", "to": "Bob", "amount": 1})
            assert r.status == 201, await r.text()
        assert looks == []
        elsewhere.for_player("Cy")  # another program writes: the next request looks, once
        for _ in range(3):
            assert (await banker.get("/api/v1/state")).status == 200
        assert len(looks) == 1
    finally:
        tokens.con.set_trace_callback(None)


def test_without_the_kernels_word_the_file_is_asked_every_recheck(table, elsewhere, monkeypatch):
    here = JoinTokens(open_sidecar(table.banker.path))
    try:
        assert not here.watched
        ann = here.for_player("Ann")
        assert here.check(ann).player == "Ann"
        monkeypatch.setattr(JoinTokens, "RECHECK", 3600.0)
        elsewhere.revoke("Ann")
        assert here.check(ann) is not None  # within RECHECK the old answer stands (one look per RECHECK)
        monkeypatch.setattr(JoinTokens, "RECHECK", 0.0)
        assert here.check(ann) is None and here.withdrawn(ann)
    finally:
        here.con.close()


@pytest.mark.asyncio
async def test_a_phones_file_in_wal_mode_is_asked_every_recheck_instead(table):
    path = sidecar_path(table.banker.path)
    con = open_sidecar(table.banker.path)
    try:
        con.execute("PRAGMA journal_mode = WAL")  # its writes reach the -wal first, not the file the kernel watches
        tokens = JoinTokens(con)
        assert tokens.watch(path) is False and not tokens.watched
        tokens.unwatch()  # safe when it never watched
    finally:
        con.close()


@pytest.mark.asyncio
async def test_after_the_watch_ends_the_file_is_asked_again(table, elsewhere):
    tokens = JoinTokens(open_sidecar(table.banker.path))
    try:
        assert tokens.watch(sidecar_path(table.banker.path)) and tokens.watched
        tokens.unwatch()
        tokens.unwatch()  # safe twice
        assert not tokens.watched
        ann = elsewhere.for_player("Ann")
        assert tokens.check(ann) is not None  # the first question after the watch asks the file
    finally:
        tokens.con.close()
