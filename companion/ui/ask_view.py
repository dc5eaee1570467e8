"""The chooser screen's view-model: the answers to one field of an action, each already judged.

The field is the one the Banker names next for the action being put together, and its answers are
exactly the Banker's choices for it on the table as it stands (``banker.choices``): players, the bank
and the pots, deeds in board order grouped by colour, counts, dice totals, squares by name, the pack's
options. Each carries what it means now (the rent it would charge, what a build costs, the preview of
the whole action when this answer completes it) or, greyed, the rule's own reason it is not possible.
Nothing here reads a refusal to learn anything. Pure: no Kivy.
"""
from __future__ import annotations

from typing import Any

from companion.views import deed_marks

from .colours import group_colour, player_colour, text_on
from .desk import Desk
from .flows import BLOCKS, ActionForm, button_label, for_people
from .who_acts import who_row

__all__ = ["choices", "ask_view", "so_far", "account_choices", "deed_groups", "shown_rows"]

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


_NEUTRAL = (0.35, 0.4, 0.45, 1)
_POT = (0.55, 0.45, 0.2, 1)


def _look(desk: Desk, kind: str, value: Any, state: dict) -> dict[str, Any]:
    """How an answer looks: its colour, its group (deeds) and a detail about it on this table."""
    if kind in ("player", "account"):
        player = next((p for p in state["players"] if p["name"] == value), None)
        if player is not None:
            return {"colour": player_colour(player["colour"]), "detail": player["cash_text"]}
        pot = next((p for p in state["pots"] if f"pot:{p['name']}" == value or p["name"] == value), None)
        if pot is not None:
            return {"colour": _POT, "detail": pot["amount_text"]}
        return {"colour": _NEUTRAL, "detail": ""}
    if kind == "pot":
        pot = next((p for p in state["pots"] if p["name"] == value), None)
        return {"colour": _POT, "detail": pot["amount_text"] if pot else ""}
    if kind == "deed":
        deed = next((d for d in state["deeds"] if d["name"] == value), None)
        if deed is None:
            return {"colour": _NEUTRAL, "detail": "", "group": "other"}
        return {"colour": group_colour(deed.get("group") or "other", deed.get("colour")),
                "group": deed.get("group") or "other", "detail": _deed_detail(desk, deed)}
    return {"colour": _NEUTRAL, "detail": ""}


def choices(desk: Desk, form: ActionForm, field: str) -> list[dict[str, Any]]:
    """Every answer to ``field``, from the Banker: value, label, colour, detail (what it means now),
    ``refused`` (the rule's reason, or None) and ``preview`` (the log's sentence when this answer
    completes the action)."""
    state = desk.state()
    kind = desk.specs[form.action].field(field).kind
    rows = []
    for choice in desk.choices(form.action, field, form.values):
        row = {"value": choice.value, "label": choice.label, **_look(desk, kind, choice.value, state)}
        if choice.detail and choice.preview is not None:
            row["detail"] = choice.detail
        row["colour_text"] = text_on(row["colour"])
        row["refused"] = None if choice.possible else (choice.why_not or "not possible now")
        row["preview"] = choice.preview.summary if choice.preview is not None else ""
        rows.append(row)
    if kind == "deed":
        order = {name: i for i, name in enumerate(board_order(state.get("rules", ""), [r["value"] for r in rows]))}
        rows.sort(key=lambda r: order.get(r["value"], len(order)))
    return rows


_SHORT = {"residential": "Residential", "industrial": "Industrial", "railroad": "Railroad", "stadium": "Stadium",
          "skyscraper": "Skyscraper", "tower": "Tower"}


def shown_rows(spec, form: ActionForm, state: dict | None = None) -> list[dict[str, Any]]:
    """The rows of fields the flow filled for the banker (the kind of building, how many blocks), each
    answer a small tile, the filled one selected: one tap changes it, the district stays the last tap."""
    rows = []
    declared = {f.name: f for f in spec.fields}
    for name in form.shown:
        f = declared.get(name)
        if f is None:
            continue
        if name == "count" and form.values.get("building") not in BLOCKS:
            continue
        if f.kind == "count":
            high = min(f.high or 1, form.allowance) if form.allowance else (f.high or 1)
            options = [(n, str(n)) for n in range(f.low or 1, high + 1)]
        elif f.kind == "choice":
            options = [(v, _SHORT.get(v, label)) for v, label in f.options if v != "railroad"
                       or form.values.get(name) == "railroad"]
        else:
            continue
        if len(options) < 2:
            continue
        current = form.values.get(name)
        rows.append({"field": name, "label": "Blocks" if name == "count" else "Build",
                     "choices": [{"value": v, "label": label, "selected": v == current} for v, label in options]})
    return rows


def so_far(desk: Desk, form: ActionForm) -> str:
    """What is decided so far ("The number spun: 7"), beyond who acts and the rows shown to change."""
    done = []
    for f in desk.specs[form.action].fields:
        value = form.values.get(f.name)
        if value in (None, "") or f.name == form.actor or f.kind in ("structured", "deeds") or f.name in form.shown:
            continue
        done.append(f"{f.says}: {desk.account_name(value) if f.kind == 'account' else value}")
    return " · ".join(done)


def ask_view(desk: Desk, form: ActionForm, field: str) -> dict[str, Any]:
    """What the chooser shows: the question, what is decided so far, and the answers."""
    spec = desk.specs[form.action]
    asked = spec.field(field)
    rows = choices(desk, form, field) if asked.kind not in ("text", "structured", "amount") else []
    state = desk.state()
    return {
        "title": f"{button_label(form.button or form.action, desk.specs)}: {asked.says.lower()}?",
        "field": field,
        "kind": asked.kind,
        "so_far": so_far(desk, form),
        "who": who_row(state, form, field),
        "shown": shown_rows(spec, form),
        "choices": rows,
        "optional": not asked.required,
        "grouped": asked.kind == "deed",
        "text_entry": asked.kind == "text" and not rows,  # a structured field has its own form
        "help": for_people(spec.says),
    }
