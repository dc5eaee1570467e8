"""A player's payment request is read by the transfer's own contract: the names and the amount the
same transfer would get at the table, and the same reasons when it cannot be."""

from __future__ import annotations

import pytest

ASYNC = pytest.mark.asyncio


@ASYNC
async def test_bob_asks_to_pay_ann_in_his_own_words_and_the_request_names_her_as_the_table_does(phones):
    bob = await phones.phone("Bob")
    r = await bob.ask(" ann ", "$1,200", "the railroad")
    assert r.status == 201
    request = (await r.json())["request"]
    assert (request["player"], request["to"], request["amount"]) == ("Bob", "Ann", 1200)
    assert request["amount_text"] == "$1,200"


@ASYNC
async def test_a_request_is_refused_with_the_reason_the_transfer_would_get(phones):
    bob = await phones.phone("Bob")
    phones.table.banker.do({"action": "bankrupt", "player": "Cy", "creditor": "bank"})
    r = await bob.ask("Cy", 5)
    assert r.status == 409 and (await r.json())["detail"] == "Cy is bankrupt and out of the game"
    r = await bob.ask("Ann", "-$5")
    assert r.status == 400 and (await r.json())["detail"] == "amount must be more than zero, not -$5"
    r = await bob.ask("Zed", 5)
    assert r.status == 409 and (await r.json())["detail"] == "there is no player called 'Zed' in this game"
    assert phones.table.banker.version == 2  # the bankruptcy only: nothing asked was applied
