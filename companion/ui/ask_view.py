"""The chooser screen's view-model: the answers to one field of an action, each already judged.

For a field of an action being put together (``ActionForm``), the possible answers: the players, the
bank and the pots, the deeds grouped by colour, counts, dice totals, the pack's choices. When the
answer is the last thing the action needs, each answer is tried on the current table (pure, nothing
committed) so the screen can grey out what the rules would refuse and say why when it is tapped.
Pure: no Kivy.
"""
from __future__ import annotations

import re
from typing import Any

from companion.views import deed_marks

from .colours import group_colour, player_colour, text_on
from .desk import Desk
from .flows import ActionForm, action_label, choices_for, field_kind, field_label, for_people
from .who_acts import who_row

__all__ = ["choices", "ask_view", "account_choices", "deed_groups", "probe_choices", "parse_options"]

_COUNTS = {"count": 4, "times": 2, "turns": 6, "blocks": 4}


def account_choices(state: dict, *, accounts: bool) -> list[dict[str, Any]]:
    """Players still in the game (and, for money fields, the bank and the pots) as tiles."""
    rows = []
    if accounts:
        rows.append({"value": "bank", "label": "Bank", "colour": (0.35, 0.4, 0.45, 1), "detail": ""})
    for p in state["players"]:
        if p["bankrupt"]:
            continue
        rows.append({"value": p["name"], "label": p["name"], "colour": player_colour(p["colour"]),
                     "detail": p["cash_text"]})
    if accounts:
        for pot in state["pots"]:
            rows.append({"value": f"pot:{pot['name']}", "label": pot["label"], "colour": (0.55, 0.45, 0.2, 1),
                         "detail": pot["amount_text"]})
    return rows


_BOARD_ORDER: dict[str, list[str]] = {}


def board_order(pack_name: str, names: list[str]) -> list[str]:
    """The deeds in the order the board shows them. A game file keeps its cards with sorted keys, so
    the order comes from the installed pack file of the same name; deeds it does not know (a pack
    loaded from elsewhere) follow in the game file's order."""
    if pack_name not in _BOARD_ORDER:
        try:
            from companion.rules import load_pack

            _BOARD_ORDER[pack_name] = list(load_pack(pack_name)["cards"])
        except Exception:  # a pack loaded from a file path, or removed since: keep the file's order
            _BOARD_ORDER[pack_name] = []
    known = {n: i for i, n in enumerate(_BOARD_ORDER[pack_name])}
    return sorted(names, key=lambda n: (known.get(n, len(known)), names.index(n)))


def deed_groups(state: dict, board: list[str] | None = None) -> list[dict[str, Any]]:
    """The deeds in board order, grouped by colour group as the board shows them."""
    groups: list[dict[str, Any]] = []
    index: dict[str, dict] = {}
    by_name = {d["name"]: d for d in state["deeds"]}
    order = board or board_order(state.get("rules", ""), list(by_name))
    for deed in (by_name[n] for n in order if n in by_name):
        group = deed.get("group") or "other"
        if group not in index:
            colour = group_colour(group, deed.get("colour"))
            index[group] = {"group": group, "label": group.title(), "colour": colour,
                            "colour_text": text_on(colour), "deeds": []}
            groups.append(index[group])
        index[group]["deeds"].append(deed)
    return groups


def _deed_detail(desk: Desk, deed: dict) -> str:
    owner = deed.get("owner")
    who = owner or (desk.fmt(deed["price"]) if isinstance(deed.get("price"), int) else "bank")
    return ", ".join([who, *deed_marks(deed)])


def choices(desk: Desk, form: ActionForm, field: str) -> list[dict[str, Any]]:
    """Every answer to ``field``: value, label, colour, detail, and ``refused`` (the reason, or None)."""
    state = desk.state()
    kind = field_kind(field)
    if kind in ("player", "account"):
        rows = account_choices(state, accounts=kind == "account")
        # the other side of a payment cannot be the same account
        other = {"from": "to", "to": "from", "a": "b", "b": "a"}.get(field)
        if other and form.values.get(other):
            rows = [r for r in rows if r["value"].casefold() != str(form.values[other]).casefold()]
    elif kind == "deed":
        rows = []
        for group in deed_groups(state):
            for deed in group["deeds"]:
                rows.append({"value": deed["name"], "label": deed["name"], "colour": group["colour"],
                             "group": group["group"], "detail": _deed_detail(desk, deed)})
    elif kind == "pot":
        rows = [{"value": p["name"], "label": p["label"], "colour": (0.55, 0.45, 0.2, 1), "detail": p["amount_text"]}
                for p in state["pots"]]
    elif kind == "count":
        rows = [{"value": n, "label": str(n), "detail": ""} for n in range(1, _COUNTS.get(field, 6) + 1)]
    elif kind == "dice":
        rows = [{"value": n, "label": str(n), "detail": ""} for n in range(2, 13)]
    elif kind in ("choice", "text"):
        found = probe_choices(desk, form, field) or choices_for(field, desk.pack)
        rows = [{"value": v, "label": label, "detail": ""} for v, label in found]
    else:
        rows = []
    trial, guessed = _placeholders(state, form, field)
    for row in rows:
        row.setdefault("colour", (0.35, 0.4, 0.45, 1))
        row["colour_text"] = text_on(row["colour"])
        row["refused"] = None
        result = desk.check(trial.fill(field, row["value"]).as_action())
        if result.ok or result.malformed:
            continue
        # With stand-ins for fields still to come, only a refusal about this answer itself counts
        if not guessed or str(row["value"]).casefold() in result.text.casefold():
            row["refused"] = result.text
    return rows


def _placeholders(state: dict, form: ActionForm, field: str) -> tuple[ActionForm, bool]:
    """The form with stand-ins for the fields still to ask after ``field`` (the player to play, the
    bank, the smallest amount), so each answer can be tried now; True if any stand-in was used."""
    trial, guessed = form, False
    stand_ins = {"player": state["turn"]["player"], "account": "bank", "amount": 1, "count": 1, "dice": 7}
    for other in form.pending():
        if other == field:
            continue
        kind = field_kind(other)
        if kind in stand_ins and stand_ins[kind] is not None:
            trial, guessed = trial.fill(other, stand_ins[kind]), True
    return trial, guessed


_PROBE = "\u2047"  # a value no rule accepts, so the refusal lists the values it does


def _option(text: str) -> tuple[Any, str]:
    """One listed value: quotes dropped, whole numbers as ints, a note in brackets kept for the label."""
    text = text.strip().strip(".")
    m = re.match(r'^(.*?)\s*\((.+)\)$', text)
    value, note = (m.group(1), m.group(2)) if m else (text, "")
    value = value.strip().strip('"\'')
    parsed: Any = int(value) if re.fullmatch(r"-?\d+", value) else value
    label = str(parsed).replace("_", " ").capitalize() + (f": {note}" if note else "")
    return parsed, label


def parse_options(field: str, reason: str) -> list[tuple[Any, str]]:
    """The values a refusal lists for ``field``: 'building is one of residential, industrial, not ...',
    'result is 1, 2, 3 or "railroad", not ...', 'building is "house" or "hotel"'."""
    m = re.search(rf"\b{re.escape(field)} (?:is|must be) one of (.+?)(?:, not .*)?$", reason)
    if m:
        return [_option(p) for p in m.group(1).split(",") if p.strip()]
    m = re.search(rf"\b{re.escape(field)} (?:is|must be) (.+?) or (.+?)(?:, not .*)?$", reason)
    if m:
        first = [p for p in m.group(1).split(",") if p.strip()]
        return [_option(p) for p in first] + [_option(m.group(2))]
    return []


def probe_choices(desk: Desk, form: ActionForm, field: str) -> list[tuple[Any, str]]:
    """Ask the rules which values ``field`` takes, by offering one no rule accepts (nothing is
    committed). Families keep their choices in their own code; their refusals list them."""
    result = desk.check(form.fill(field, _PROBE).as_action())
    if result.ok or not result.malformed:
        return []
    return parse_options(field, result.text)


def ask_view(desk: Desk, form: ActionForm, field: str) -> dict[str, Any]:
    """What the chooser shows: the question, what is decided so far, and the answers."""
    done = [f"{field_label(k)}: {desk.account_name(v) if field_kind(k) == 'account' else v}"
            for k, v in form.values.items()
            if v not in (None, "") and field_kind(k) not in ("side", "card") and k != form.actor]
    kind = field_kind(field)
    rows = choices(desk, form, field)
    state = desk.state()
    return {
        "title": f"{action_label(form.button or form.action)}: {field_label(field).lower()}?",
        "field": field,
        "kind": kind,
        "so_far": " · ".join(done),
        "who": who_row(state, form, field),
        "choices": rows,
        "optional": field not in form.required,
        "grouped": kind == "deed",
        "text_entry": kind in ("text", "card") and not rows,
        "help": for_people(desk.specs[form.action].summary) if form.action in desk.specs else "",
    }


