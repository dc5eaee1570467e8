"""The amount screen's view-model: the big figure, the keypad, quick amounts, payer and payee tiles,
and the sentence on the confirm button ("Ann pays the bank $200").

Pure: no Kivy. The screen keeps an :class:`ActionForm` and a :class:`Keypad` and asks for this view
after every tap.
"""

from __future__ import annotations

from typing import Any

from .ask_view import account_choices
from .desk import Desk
from .flows import ActionForm, button_label, role_field
from .keypad import Keypad, keys_for, quick_amounts
from .shown import promise
from .who_acts import who_row

__all__ = ["amount_field", "account_fields", "amount_view", "sentence"]


def amount_field(desk: Desk, form: ActionForm) -> str | None:
    """The field the keypad fills: the first money field the action declares that is still to fill."""
    spec = desk.specs[form.action]
    typed = [f for f in spec.fields if f.kind == "amount" and (f.required or f.asked(desk.table, form.values))]
    return next((f.name for f in typed if form.values.get(f.name) in (None, "")), typed[0].name if typed else None)


def account_fields(desk: Desk, form: ActionForm) -> list[str]:
    """The payer and payee fields shown as tiles beside the keypad (a transfer's from and to)."""
    return [f.name for f in desk.specs[form.action].fields if f.kind == "account" and f.required]


def sentence(desk: Desk, form: ActionForm, amount: int | None, preview=None) -> str:
    """The confirm button's words: the log's sentence with the amounts when the action is complete
    (the Banker's preview), else what is still to choose."""
    if preview is not None:
        return preview.summary[:1].upper() + preview.summary[1:]
    money = desk.fmt(amount) if amount else "..."
    v = form.values
    spec = desk.specs[form.action]
    pays, gets = role_field(spec, "payer"), role_field(spec, "payee")
    if pays and gets and spec.field(pays).kind == spec.field(gets).kind == "account":  # a transfer's shape
        if not v.get(pays):
            return "Choose who pays"
        if not v.get(gets):
            return "Choose who receives"
        payer, payee = desk.account_name(v[pays]), desk.account_name(v[gets])
        return f"{payer[:1].upper() + payer[1:]} pays {payee} {money}"
    who = next((v[f.name] for f in spec.fields if f.kind == "player" and v.get(f.name)), None)
    label = button_label(form.button or form.action, desk.specs)
    return f"{label}: {who + ' ' if who else ''}{money}"


def amount_view(desk: Desk, form: ActionForm, keypad: Keypad) -> dict[str, Any]:
    """Everything the amount screen shows for this form and what is typed so far."""
    state = desk.state()
    spec = desk.specs[form.action]
    field = amount_field(desk, form)
    value = keypad.value()
    sides = []
    for name in account_fields(desk, form):
        rows = account_choices(state, accounts=True)
        for row in rows:
            row["selected"] = str(form.values.get(name, "")).casefold() == row["value"].casefold()
        sides.append(
            {"field": name, "label": {"from": "From", "to": "To"}.get(name, spec.field(name).says), "choices": rows}
        )
    who = who_row(state, form)
    if who is not None and who["field"] not in {side["field"] for side in sides}:
        sides.insert(0, who)
    filled = form.fill(field, value) if field and value else form
    ready = bool(value) and desk.next_field(form.action, filled.values) is None
    preview, refused = desk.preview(filled.as_action()) if ready else (None, None)
    says = spec.field(field).says if field else "Amount"
    return {
        "title": f"{button_label(form.button or form.action, desk.specs)}: {says.lower()}",
        "field": field,
        "figure": keypad.display(),
        "problem": keypad.problem() or "",
        "keys": keys_for(keypad.currency),
        "quick": [{"amount": q, "label": "+" + desk.fmt(q)} for q in quick_amounts(desk.pack)],
        "sides": sides,
        "sentence": sentence(desk, form, value, preview),
        "ready": ready,
        "refused": refused,  # shown only if the banker taps confirm anyway
        "promise": promise(preview),  # the confirm shows this preview's sentence
    }
