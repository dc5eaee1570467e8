"""A phone retries a request the banker has since undone: the answer says so."""

from __future__ import annotations

import pytest


@pytest.mark.asyncio
async def test_a_retried_buy_after_the_banker_undid_it_answers_undone(phones):
    """Ann's buy of Boardwalk goes through, the banker undoes it at the table, and the phone, never
    having seen the first answer, sends the same request again: one action, and it is undone."""
    banker = await phones.phone("banker")
    action = {"action": "buy", "player": "Ann", "deed": "Boardwalk", "id": "tap-1"}
    assert (await (await banker.post("/api/v1/actions", action)).json())["undone"] is False
    phones.table.do("undo")
    again = await banker.post("/api/v1/actions", action)
    answer = await again.json()
    assert again.status == 200 and answer["repeated"] is True and answer["undone"] is True
    assert answer["summary"] == "Ann bought Boardwalk for $400 (since undone)"
    assert phones.table.cash("Ann") == 1500 and phones.table.owner("Boardwalk") is None
