"""The amount screen's view-model: the big figure, the keypad, quick amounts, payer and payee tiles,
and the sentence on the confirm button ("Ann pays the bank $200").

Pure: no Kivy. The screen keeps an :class:`ActionForm` and a :class:`Keypad` and asks for this view
after every tap.
"""
from __future__ import annotations

from typing import Any

from .ask_view import account_choices
from .desk import Desk
from .flows import ActionForm, action_label, field_kind, field_label
from .keypad import Keypad, keys_for, quick_amounts
from .who_acts import who_row

__all__ = ["amount_field", "account_fields", "amount_view", "sentence"]


def amount_field(form: ActionForm) -> str | None:
    """The field the keypad fills: the first money field the action asks for."""
    for name in list(form.required) + list(form.asked):
        if field_kind(name) == "amount":
            return name
    return None


def account_fields(form: ActionForm) -> list[str]:
    """The payer and payee fields shown as tiles beside the keypad (a transfer's from and to)."""
    return [f for f in form.required if field_kind(f) == "account"]


def sentence(desk: Desk, form: ActionForm, amount: int | None) -> str:
    """The confirm button's words: what will happen when it is tapped."""
    money = desk.fmt(amount) if amount else "..."
    v = form.values
    if form.action == "transfer":
        if not v.get("from"):
            return "Choose who pays"
        if not v.get("to"):
            return "Choose who receives"
        payer, payee = desk.account_name(v["from"]), desk.account_name(v["to"])
        return f"{payer[:1].upper() + payer[1:]} pays {payee} {money}"
    who = next((v[f] for f in form.required if field_kind(f) == "player" and v.get(f)), None)
    label = action_label(form.button or form.action)
    return f"{label}: {who + ' ' if who else ''}{money}"


def amount_view(desk: Desk, form: ActionForm, keypad: Keypad) -> dict[str, Any]:
    """Everything the amount screen shows for this form and what is typed so far."""
    state = desk.state()
    field = amount_field(form)
    value = keypad.value()
    sides = []
    for name in account_fields(form):
        rows = account_choices(state, accounts=True)
        for row in rows:
            row["selected"] = str(form.values.get(name, "")).casefold() == row["value"].casefold()
        sides.append({"field": name, "label": {"from": "From", "to": "To"}.get(name, field_label(name)), "choices": rows})
    who = who_row(state, form)
    if who is not None and who["field"] not in {side["field"] for side in sides}:
        sides.insert(0, who)
    filled = form.fill(field, value) if field and value else form
    ready = bool(value) and filled.ready
    refused = None
    if ready:
        check = desk.check(filled.as_action())
        refused = None if check.ok else check.text
    return {
        "title": f"{action_label(form.button or form.action)}: {field_label(field).lower() if field else 'amount'}",
        "field": field,
        "figure": keypad.display(),
        "problem": keypad.problem() or "",
        "keys": keys_for(keypad.currency),
        "quick": [{"amount": q, "label": "+" + desk.fmt(q)} for q in quick_amounts(desk.pack)],
        "sides": sides,
        "sentence": sentence(desk, form, value),
        "ready": ready,
        "refused": refused,  # shown only if the banker taps confirm anyway
    }
