"""The structured form's view-model: a structured field (side bets, answers by player, two numbers to
speculate on) asked with tiles read from its schema, and the log's sentence on the confirming tap.

The players an entry may name are the field's declared candidates (``only``: the spinner's
opponents, the players who may answer a Quiz Card) or else every player still in the game; money
steps are the pack's quick amounts. The sentence is the Banker's preview of the whole action once
nothing else is left to ask, else what is still to choose. An optional field answered with nothing
reads as its schema's ``x-none`` ("No side bets", "Keep the money") with that choice's preview.
A schema no tile can answer is written out as JSON behind an explicit "Type it", read as the
phones' API reads it. A field that corrects something on the table (a character card) declares what
it holds now (the contract's ``current``): the form starts from those printed values, marks each one
changed, and the action takes only what differs; nothing changed is nothing to confirm. Pure: no Kivy.
"""

from __future__ import annotations

from typing import Any

from companion.core.contract import load_json
from companion.core.errors import BankerError

from .shown import promise
from . import schema_form
from .ask_view import so_far
from .desk import Desk
from .flows import ActionForm, button_label, for_people
from .keypad import quick_amounts
from .who_acts import who_row

__all__ = ["form_view", "candidates", "setting_for", "schema_of", "nothing", "printed", "first_value"]

#: What the confirming tap says when every value still reads as printed.
UNCHANGED = "nothing to change: every value reads as printed"


def nothing(value: Any) -> bool:
    """Whether nothing is chosen in the value yet (an optional field's "none" answer)."""
    return value in (None, [], {}, "")


def candidates(desk: Desk, form: ActionForm, field) -> list[str]:
    """The players the field's entries may name, in seat order."""
    table = desk.table
    active = [p["name"] for p in desk.state()["players"] if not p["bankrupt"]]
    if field.only is None:
        return active
    try:
        allowed = set(field.only(table, dict(form.values)))
    except (KeyError, TypeError, ValueError):
        return active
    return [p for p in active if p in allowed]


def setting_for(desk: Desk, form: ActionForm, field) -> schema_form.Setting:
    return schema_form.Setting(
        players=tuple(candidates(desk, form, field)),
        amounts=tuple(quick_amounts(desk.pack)),
        fmt=desk.fmt,
        limits=dict(desk.pack.get("amounts") or {}),
    )


def schema_of(desk: Desk, form: ActionForm, field) -> dict:
    """The field's schema with the pack's limits read in (what the tiles offer and each tap obeys)."""
    return schema_form.bounded(field.schema or {}, setting_for(desk, form, field))


def printed(desk: Desk, form: ActionForm, field) -> Any:
    """What the field's subject holds now on the table (a character card's values), as the action
    declares it; None when it declares nothing."""
    return desk.current(form.action, field.name, form.values)


def first_value(desk: Desk, form: ActionForm, field) -> Any:
    """The value a new question starts from: what is printed, else nothing chosen (or written)."""
    schema = schema_of(desk, form, field)
    if not schema_form.renders(schema):
        return ""
    was = printed(desk, form, field)
    return was if was is not None else schema_form.empty(schema)


def _upper(text: str) -> str:
    return text[:1].upper() + text[1:]


def form_view(desk: Desk, form: ActionForm, field: str, value: Any) -> dict[str, Any]:
    """Everything the form screen shows for the value chosen so far."""
    spec = desk.specs[form.action]
    f = spec.field(field)
    schema = schema_of(desk, form, f)
    view = {
        "title": f"{button_label(form.button or form.action, desk.specs)}: {f.says.lower()}",
        "so_far": so_far(desk, form),
        "who": who_row(desk.state(), form, field),
        "help": for_people(spec.says),
        "note": f.note_on(desk.table, form.values),  # who judges a Quiz Card round, from the rule
        "typed": not schema_form.renders(schema),
        "rows": [],
        "sentence": "",
        "ready": False,
        "refused": None,
        "value": None,  # what the confirming tap fills the field with
    }
    if view["typed"]:  # the escape: the value written out as JSON, read as the phones' API reads it
        text = value if isinstance(value, str) else ""
        if not text.strip():
            view.update(sentence="Nothing written yet", refused="Nothing written yet")
            return view
        try:
            value = load_json(text)
        except BankerError as e:
            view.update(sentence=_upper(str(e)), refused=str(e))
            return view
    was = None if view["typed"] else printed(desk, form, f)
    if not view["typed"]:
        view["rows"] = schema_form.rows(schema, value, setting_for(desk, form, f), was)
    lacking = None if view["typed"] else schema_form.missing(schema, value)
    if was is not None:  # only what differs from the card is sent
        value = schema_form.changes(was, value)
        lacking = lacking or (UNCHANGED if nothing(value) else None)
    empty = nothing(value)
    lacking = lacking or ("Nothing chosen yet" if empty and f.required else None)
    filled = form.fill(field, schema_form.empty(schema) if empty else value)
    last = lacking is None and desk.next_field(form.action, filled.values) is None
    preview, refused = desk.preview(filled.as_action()) if last else (None, None)
    if lacking:
        sentence = _upper(lacking)
    elif not last:
        sentence = "Next"
    else:
        sentence = _upper(preview.summary if preview is not None else refused or "")
    if empty and not f.required and lacking is None and (not last or preview is not None):
        none = schema.get("x-none") or "None"
        sentence = f"{none}: {sentence}" if last else f"{none}. Next"
    view.update(
        sentence=sentence,
        ready=lacking is None and (not last or preview is not None),
        refused=lacking or refused,
        promise=promise(preview) if last else None,
        value=schema_form.empty(schema) if empty else value,
    )
    return view
