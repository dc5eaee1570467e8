"""The loans screen's view-model: who owes what to the bank, and when it falls due.

Read from the players' ``loans`` in :func:`companion.views.state_json` (each family describes its own
debts: loans and mortgages due in counted turns, promissory notes...). The family's own debt actions
(borrow, repay, settle) become buttons. Pure: no Kivy.
"""

from __future__ import annotations

from typing import Any

from .shown import promise
from .colours import player_colour
from .flows import button_label

__all__ = ["loan_rows", "mortgage_rows", "loans_view", "DEBT_ACTIONS"]

#: Actions that take out or pay back a debt, when the family has them.
DEBT_ACTIONS = ("borrow", "repay", "settle", "unmortgage")


def _due_text(loan: dict) -> str:
    if loan.get("overdue"):
        return "overdue"
    due = loan.get("due_in_turns", loan.get("due_in"))
    if due is None:
        return ""
    if due <= 0:
        return "due now"
    return f"due in {due} turn{'s' if due != 1 else ''}"


def loan_rows(state: dict) -> list[dict[str, Any]]:
    """One row per debt of every player still in the game, the most urgent first."""
    rows = []
    for p in state["players"]:
        for loan in p.get("loans") or []:
            if not isinstance(loan, dict):
                loan = {"text": str(loan)}
            due = loan.get("due_in_turns", loan.get("due_in"))
            rows.append(
                {
                    "player": p["name"],
                    "colour": player_colour(p.get("colour")),
                    "text": loan.get("text") or loan.get("label") or loan.get("kind", "debt"),
                    "amount_text": loan.get("amount_text", ""),
                    "due_text": _due_text(loan),
                    "detail": loan.get("detail", ""),
                    "urgent": bool(loan.get("overdue")) or (isinstance(due, int) and due <= 1),
                    "order": (0 if loan.get("overdue") else 1, due if isinstance(due, int) else 10**6),
                }
            )
    rows.sort(key=lambda r: r["order"])
    return rows


def mortgage_rows(desk) -> list[dict[str, Any]]:
    """Each mortgaged deed with what lifting it costs its owner now (asked of the rules, not computed
    here), and the reason when the owner cannot lift it yet."""
    state = desk.state()
    colours = {p["name"]: p.get("colour") for p in state["players"]}
    rows = []
    for d in state["deeds"]:
        owner = d.get("owner")
        if not d.get("mortgaged") or not owner:
            continue
        action = {"action": "unmortgage", "player": owner, "deed": d["name"]}
        found, why = desk.preview(action) if "unmortgage" in desk.specs else (None, None)
        cost = -found.moved(owner) if found is not None else 0
        rows.append(
            {
                "player": owner,
                "colour": player_colour(colours.get(owner)),
                "deed": d["name"],
                "text": f"{d['name']} is mortgaged",
                "lift_text": f"Lift: {owner} pays {desk.fmt(cost)}" if cost else "Lift",
                "promise": promise(found) if cost else None,
                "refused": why,
                "can_lift": "unmortgage" in desk.specs,
            }
        )
    return rows


def loans_view(desk) -> dict[str, Any]:
    """Debts to the bank (the family's loans and notes), then mortgages with their lifting price."""
    state = desk.state()
    rows = loan_rows(state)
    mortgages = mortgage_rows(desk)
    return {
        "rows": rows,
        "mortgages": mortgages,
        "empty_text": "" if rows or mortgages else "Nobody owes the bank anything.",
        "actions": [
            {"name": n, "label": button_label(n, desk.specs)}
            for n in DEBT_ACTIONS
            if n in desk.specs and n != "unmortgage"
        ],
    }
