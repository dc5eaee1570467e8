"""What happened, in two shapes that every rule is built from.

* ``Paid``: ``amount`` moved from one account to another (postings of -amount and +amount, so every
  event sums to zero and the sum of all accounts stays zero for ever).
* ``Changed``: one value at ``path`` in the table went from ``old`` to ``new`` (a deed's owner, a
  mortgage, a building count, whose turn it is, a loan...).

Both carry everything needed to reverse them, so undo is mechanical: :func:`reverse` swaps the two sides
and :func:`apply` checks that ``old`` really is what the table holds, so a reversal can never silently
apply to the wrong state.
"""

from __future__ import annotations

from typing import Any, Iterable

__all__ = ["paid", "changed", "apply", "apply_all", "reverse", "ReplayMismatch"]

Event = dict[str, Any]
Table = dict[str, Any]


class ReplayMismatch(AssertionError):
    "An event's recorded ``old`` value differs from the table it is applied to: the log is inconsistent."


def paid(payer: str, payee: str, amount: int, memo: str = "") -> Event:
    """``amount`` (a positive int) moved from account ``payer`` to account ``payee``."""
    return {"type": "Paid", "from": payer, "to": payee, "amount": amount, "memo": memo}


def changed(path: Iterable[str], old: Any, new: Any) -> Event:
    """The value at ``path`` went from ``old`` to ``new``; a missing key counts as ``None``."""
    return {"type": "Changed", "path": list(path), "old": old, "new": new}


def reverse(event: Event) -> Event:
    """The event that exactly undoes ``event``."""
    if event["type"] == "Paid":
        return paid(event["to"], event["from"], event["amount"], event.get("memo", ""))
    return changed(event["path"], event["new"], event["old"])


def apply(table: Table, event: Event) -> Table:
    """A new table with ``event`` applied; ``table`` itself is never modified (structural sharing)."""
    if event["type"] == "Paid":
        amount = event["amount"]
        accounts = dict(table["accounts"])
        accounts[event["from"]] = accounts.get(event["from"], 0) - amount
        accounts[event["to"]] = accounts.get(event["to"], 0) + amount
        return {**table, "accounts": accounts}
    if event["type"] == "Changed":
        return _set(table, event["path"], event["old"], event["new"])
    raise ReplayMismatch(f"unknown event type {event.get('type')!r}")


def apply_all(table: Table, events: Iterable[Event]) -> Table:
    for event in events:
        table = apply(table, event)
    return table


def _set(node: dict[str, Any], path: list[Any], old: Any, new: Any) -> dict[str, Any]:
    key = path[0]
    copy = dict(node)
    if len(path) == 1:
        current = node.get(key)
        if current != old:
            raise ReplayMismatch(f"{'/'.join(map(str, path))}: expected {old!r}, found {current!r}")
        if new is None:
            copy.pop(key, None)
        else:
            copy[key] = new
        return copy
    child = node.get(key)
    if child is None:
        child = {}
    copy[key] = _set(child, path[1:], old, new)
    return copy
