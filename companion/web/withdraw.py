"""A player withdraws their own waiting request or play from their phone (``POST .../{id}/cancel``).

One way for both: only a player's phone may, with an empty body; an id the list does not know is a 404,
another player's a 403 with the reason the list of waiting things gives (``PermissionError``).
"""

from __future__ import annotations

from typing import Callable, TypeVar

from aiohttp import web

from .intake import read_json
from .security import caller, refuse

__all__ = ["withdraw_own"]

Waiting = TypeVar("Waiting")


async def withdraw_own(
    request: web.Request,
    withdraw: Callable[[str, str], Waiting],
    unknown: str,
    *,
    unknown_kind: str | None = None,
    others_kind: str | None = None,
) -> Waiting:
    """The request's ``{id}`` withdrawn by the calling player through ``withdraw(id, player)`` (the
    list's own ``cancel``). ``unknown``: the 404's words when the list has no such id waiting;
    ``unknown_kind`` and ``others_kind``: the declared problem kinds of the 404 and the 403."""
    holder = caller(request, "player")
    await read_json(request, allowed=set(), empty_ok=True)
    try:
        return withdraw(request.match_info["id"], holder.player)
    except LookupError:
        raise refuse(404, unknown, kind=unknown_kind) from None
    except PermissionError as e:
        raise refuse(403, str(e), kind=others_kind) from None
