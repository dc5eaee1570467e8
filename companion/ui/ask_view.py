"""The chooser screen's view-model: the answers to one field of an action, each already judged.

The field is the one the Banker names next for the action being put together, and its answers are
exactly the Banker's choices for it on the table as it stands (``banker.choices``): players, the bank
and the pots, deeds in board order grouped by colour, counts, dice totals, squares by name, the pack's
options. Each carries what it means now (the rent it would charge, what a build costs, the preview of
the whole action when this answer completes it) or, greyed, the rule's own reason it is not possible.
Nothing here reads a refusal to learn anything. Pure: no Kivy.

Another player in one tap: where the acting player (the player to play, filled in by the flow) is
followed by a deed whose answers differ per player, as a rent's payer is, each deed someone owns also
offers the other players who could act on it now, as chips ("Cy $600"), each judged by the Banker with
that player acting. A chip is the whole action for that player, for this action only.
"""

from __future__ import annotations

from typing import Any

from companion import service
from companion.views import deed_marks

from companion.core.contract import money_words

from .colours import group_colour, player_colour, text_on
from .desk import Desk
from .flows import ActionForm, button_label, for_people
from .shown import promise
from .who_acts import who_row

__all__ = [
    "choices",
    "ask_view",
    "so_far",
    "account_choices",
    "deed_groups",
    "shown_rows",
    "offers_others",
    "others_on_deeds",
    "live",
    "on_show",
]


def account_choices(state: dict, *, accounts: bool) -> list[dict[str, Any]]:
    """Players still in the game (and, for money fields, the bank and the pots) as tiles."""
    rows = []
    if accounts:
        rows.append({"value": "bank", "label": "Bank", "colour": (0.35, 0.4, 0.45, 1), "detail": ""})
    for p in state["players"]:
        if p["bankrupt"]:
            continue
        rows.append(
            {"value": p["name"], "label": p["name"], "colour": player_colour(p["colour"]), "detail": p["cash_text"]}
        )
    if accounts:
        for pot in state["pots"]:
            rows.append(
                {
                    "value": f"pot:{pot['name']}",
                    "label": pot["label"],
                    "colour": (0.55, 0.45, 0.2, 1),
                    "detail": pot["amount_text"],
                }
            )
    return rows


def board_order(pack_name: str, names: list[str]) -> list[str]:
    """The deeds in the order the board shows them. A game file keeps its cards with sorted keys, so
    the order comes from the installed pack of the same name (``service.board_order``); deeds it does
    not know (a pack loaded from elsewhere) follow in the game file's order."""
    known = {n: i for i, n in enumerate(service.board_order(pack_name))}
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
            index[group] = {
                "group": group,
                "label": group.title(),
                "colour": colour,
                "colour_text": text_on(colour),
                "deeds": [],
            }
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
        return {
            "colour": group_colour(deed.get("group") or "other", deed.get("colour")),
            "group": deed.get("group") or "other",
            "detail": _deed_detail(desk, deed),
        }
    return {"colour": _NEUTRAL, "detail": ""}


def choices(desk: Desk, form: ActionForm, field: str) -> list[dict[str, Any]]:
    """Every answer to ``field``, from the Banker: value, label, colour, detail (what it means now),
    ``refused`` (the rule's reason, or None) and ``preview`` (the log's sentence when this answer
    completes the action); and ``others``, the chips of the other players who could act on it instead
    (see :func:`others_on_deeds`), on a chooser that offers them."""
    state = desk.state()
    kind = desk.specs[form.action].field(field).kind
    rows = []
    for choice in desk.choices(form.action, field, form.values):
        rows.append(
            _row(
                desk,
                kind,
                state,
                choice.value,
                choice.label,
                choice.detail if choice.preview else "",
                None if choice.possible else (choice.why_not or "not possible now"),
                choice.preview.summary if choice.preview is not None else "",
                promise(choice.preview),
            )
        )
    if offers_others(desk.specs[form.action], form, field):
        listed = [r["value"] for r in rows]
        others = others_on_deeds(desk, form, field, listed)
        for value, chips in others.items():
            if value not in listed:  # the acting player's own deed: only the others can act on it
                rows.append(_not_listed(desk, form, field, kind, state, value, chips[0]["deed_label"]))
        for row in rows:
            row["others"] = others.get(row["value"], [])
    if kind == "deed":
        order = {name: i for i, name in enumerate(board_order(state.get("rules", ""), [r["value"] for r in rows]))}
        rows.sort(key=lambda r: order.get(r["value"], len(order)))
    return rows


def _row(
    desk: Desk,
    kind: str,
    state: dict,
    value: Any,
    label: str,
    detail: str,
    refused: str | None,
    preview: str,
    promised: tuple | None = None,
) -> dict[str, Any]:
    """One answer; ``promise``: the preview whose money its tile shows (see companion.ui.shown)."""
    row = {"value": value, "label": label, **_look(desk, kind, value, state)}
    if detail:
        row["detail"] = detail
    row["colour_text"] = text_on(row["colour"])
    row["refused"] = refused
    row["preview"] = preview
    row["promise"] = promised if detail else None
    return row


def _not_listed(
    desk: Desk, form: ActionForm, field: str, kind: str, state: dict, value: Any, label: str
) -> dict[str, Any]:
    """A deed the Banker does not list for the acting player but does for another: the acting
    player's answer judged by the Banker's preview (its reason when refused)."""
    found, why = desk.preview({"action": form.action, **form.values, field: value})
    if found is None:
        return _row(desk, kind, state, value, label, "", why or "not possible now", "")
    return _row(desk, kind, state, value, label, money_words(found, desk.table), None, found.summary, promise(found))


# -- another player in one tap ------------------------------------------------------------------------
def offers_others(spec, form: ActionForm, field: str) -> bool:
    """Whether this chooser offers chips for the other players: the flow filled in its acting field, a
    player declared before the deed being asked. (Which deeds get chips, and for whom, is the Banker's:
    see :func:`others_on_deeds`.)"""
    if not form.actor or form.actor == field or form.values.get(form.actor) in (None, ""):
        return False
    names = [f.name for f in spec.fields]
    if form.actor not in names or field not in names or names.index(form.actor) > names.index(field):
        return False
    return spec.field(form.actor).kind == "player" and spec.field(field).kind == "deed"


def others_on_deeds(
    desk: Desk, form: ActionForm, field: str, listed: list | None = None
) -> dict[Any, list[dict[str, Any]]]:
    """The chips of each deed someone owns: every player in the game other than the acting one and
    the owner whom the Banker lists for this deed when that player acts (its choices with that player in
    the acting field, each judged by the rule: the amount they would pay, or the reason they cannot);
    ``listed`` is what the Banker lists for the acting player, when already asked.
    None when the deeds the Banker lists are the same whoever acts (a hazard may be planned on any
    district): then who acts is not a matter of which deed, and the strip of players stays the way to
    change it. Deeds nobody owns take no chips (anyone may buy them: the player to play does), and neither
    do a player's own deeds when only their owner may act on them (mortgages, buildings): the Banker
    lists them for their owner alone."""
    state = desk.state()
    owners = {d["name"]: d.get("owner") for d in state["deeds"]}
    acting = str(form.values.get(form.actor) or "")
    listed = [c.value for c in desk.choices(form.action, field, form.values)] if listed is None else listed
    each = {
        p["name"]: desk.choices(form.action, field, {**form.values, form.actor: p["name"]})
        for p in state["players"]
        if not p["bankrupt"] and p["name"].casefold() != acting.casefold()
    }
    if all([c.value for c in found] == list(listed) for found in each.values()):
        return {}
    colours = {p["name"]: player_colour(p["colour"]) for p in state["players"]}
    out: dict[Any, list[dict[str, Any]]] = {}
    for name, found in each.items():
        for choice in found:
            owner = owners.get(choice.value)
            if owner in (None, name):
                continue
            paid = -choice.preview.moved(name) if choice.preview is not None else 0
            colour = colours[name]
            out.setdefault(choice.value, []).append(
                {
                    "player": name,
                    "field": form.actor,
                    "deed_label": choice.label,
                    "amount": desk.fmt(paid) if paid > 0 else "",
                    "colour": colour,
                    "colour_text": text_on(colour),
                    "refused": None if choice.possible else (choice.why_not or "not possible now"),
                    "preview": choice.preview.summary if choice.preview is not None else "",
                    "promise": promise(choice.preview) if paid > 0 else None,
                }
            )
    return out


def live(row: dict[str, Any]) -> bool:
    """Whether a tap on this answer (or one of its chips) would be taken now."""
    return row["refused"] is None or any(c["refused"] is None for c in row.get("others", ()))


def on_show(rows: list[dict[str, Any]], show_all: bool) -> tuple[list[dict[str, Any]], int]:
    """The answers the chooser shows, and how many it keeps behind *Show N more*: the ones the rules
    refuse (with every chip), unless asked for, or unless nothing else is left. Shown on request,
    they follow the answers already on show, which keep their places (a tile never moves under the
    finger)."""
    shown = [r for r in rows if live(r)]
    if not shown:
        return rows, 0
    if show_all:
        return shown + [r for r in rows if not live(r)], 0
    return shown, len(rows) - len(shown)


_SHORT = {
    "residential": "Residential",
    "industrial": "Industrial",
    "railroad": "Railroad",
    "stadium": "Stadium",
    "skyscraper": "Skyscraper",
    "tower": "Tower",
}


def shown_rows(spec, form: ActionForm, state: dict | None = None) -> list[dict[str, Any]]:
    """The rows of fields the flow filled for the banker (the kind of building, how many blocks), each
    answer a small tile, the filled one selected: one tap changes it, the district stays the last tap."""
    rows = []
    declared = {f.name: f for f in spec.fields}
    for name in form.shown:
        f = declared.get(name)
        if f is None:
            continue
        if name == form.counts and form.values.get(form.builds) not in form.blocks:
            continue
        if f.kind == "count":
            high = min(f.high or 1, form.allowance) if form.allowance else (f.high or 1)
            options = [(n, str(n)) for n in range(f.low or 1, high + 1)]
        elif f.kind == "choice":
            options = [
                (v, _SHORT.get(v, label))
                for v, label in f.options
                if v not in form.spun_only or form.values.get(name) == v
            ]
        else:
            continue
        if len(options) < 2:
            continue
        current = form.values.get(name)
        rows.append(
            {
                "field": name,
                "label": "Blocks" if name == form.counts else "Build",
                "choices": [{"value": v, "label": label, "selected": v == current} for v, label in options],
            }
        )
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


def both_ways(desk: Desk, form: ActionForm, field: str) -> list[dict[str, Any]]:
    """A list field asked candidate by candidate, both ways (a mortgaged deed lifted now, or kept): two
    answers a candidate, each worded by the rule with what it costs ("Lift now: Ann pays $220"), greyed
    with the rule's reason when refused, the one chosen selected. Values are ``(candidate, inside)``."""
    state = desk.state()
    rows = []
    for item in desk.in_or_out(form.action, field, form.values):
        for choice in (item.inside, item.outside):
            row = _row(
                desk,
                "deed",
                state,
                (item.value, choice.value),
                f"{item.label}\n{choice.label}",
                "",
                None if choice.possible else (choice.why_not or "not possible now"),
                choice.preview.summary if choice.preview is not None else "",
            )
            row["selected"] = choice.value == item.listed
            rows.append(row)
    return rows


def ask_view(desk: Desk, form: ActionForm, field: str) -> dict[str, Any]:
    """What the chooser shows: the question, what is decided so far, and the answers."""
    spec = desk.specs[form.action]
    asked = spec.field(field)
    if asked.in_or_out is not None:
        rows = both_ways(desk, form, field)
    else:
        rows = choices(desk, form, field) if asked.kind not in ("text", "structured", "amount") else []
    state = desk.state()
    return {
        "title": f"{button_label(form.button or form.action, desk.specs)}: {asked.says.lower()}?",
        "field": field,
        "kind": "both_ways" if asked.in_or_out is not None else asked.kind,
        "so_far": so_far(desk, form),
        "who": who_row(state, form, field),
        "shown": shown_rows(spec, form),
        "choices": rows,
        "optional": not asked.required,
        "grouped": asked.kind == "deed",
        "text_entry": asked.kind == "text" and not rows,  # a structured field has its own form
        "help": for_people(spec.says),
    }
