"""The deeds screen's view-model: the board's colour groups, and one deed's card with what can be done
with it now.

"What can be done now" is asked of the rules themselves: every action of the family that takes a
``deed`` is put together for this deed (the owner acts for mortgages and building, the chosen player
for buying and paying rent) and tried on the current table without committing anything. A refused one
carries the rule's reason. So a family's own deed actions (improve a park, remove a hazard) appear
here without any code for them. Pure: no Kivy.
"""
from __future__ import annotations

from typing import Any

from companion.core import engine
from companion.core.errors import BankerError
from companion.core.model import BANK
from companion.views import deed_marks

from .ask_view import deed_groups, probe_choices
from .colours import player_colour, text_on
from .desk import Desk
from .flows import ActionForm, action_label, field_kind

__all__ = ["deeds_view", "deed_card", "card_lines", "rent_now"]

_MONEY_KEYS = ("price", "mortgage", "value", "cost", "rent", "fee", "toll")


def deeds_view(desk: Desk, selected: str | None = None, *, whose: str | None = None) -> dict[str, Any]:
    """The deeds by colour group, each with its owner's colour and marks, and the selected deed;
    ``whose``: only that player's deeds."""
    state = desk.state()
    colours = {p["name"]: p["colour"] for p in state["players"]}
    groups = []
    for group in deed_groups(state):
        rows = []
        for deed in group["deeds"]:
            owner = deed.get("owner")
            if whose is not None and owner != whose:
                continue
            rows.append({
                "name": deed["name"],
                "owner": owner or "",
                "owner_colour": player_colour(colours.get(owner)) if owner else (0, 0, 0, 0),
                "detail": ", ".join([owner or "bank", *deed_marks(deed)]),
                "selected": deed["name"] == selected,
                "mortgaged": bool(deed.get("mortgaged")),
            })
        if rows:
            groups.append({**group, "deeds": rows})
    return {"groups": groups, "selected": selected, "whose": whose or "",
            "title": f"Deeds of {whose}" if whose else "Deeds"}


def card_lines(desk: Desk, card: dict) -> list[tuple[str, str]]:
    """A deed's printed values as (label, text) lines: money formatted, rent tables joined."""
    lines = []
    for key, value in card.items():
        if key in ("group", "kind", "colour", "stand_in") or isinstance(value, bool):
            continue
        label = key.replace("_", " ").capitalize()
        moneyish = any(k in key for k in _MONEY_KEYS)
        if isinstance(value, int):
            lines.append((label, desk.fmt(value) if moneyish else str(value)))
        elif isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            lines.append((label, " / ".join(desk.fmt(v) if moneyish else str(v) for v in value)))
        elif isinstance(value, (str, float)):
            lines.append((label, str(value)))
    return lines


def rent_now(desk: Desk, deed: str) -> str:
    """What a visitor would pay the owner now, asked of the rules on a what-if table where the visitor
    has money enough (nothing is committed); '' when no rent is due or it needs the dice."""
    table = desk.table
    state = table["deeds"].get(deed, {})
    owner = state.get("owner")
    if owner is None or "rent" not in desk.specs:
        return ""
    spec = desk.specs["rent"]
    visitor = next((p for p in table["order"] if p != owner and not table["players"][p]["bankrupt"]), None)
    if visitor is None or "payer" not in spec.required:
        return ""
    rich = dict(table["accounts"])
    top_up = 10**12
    rich[visitor] = rich.get(visitor, 0) + top_up
    rich[BANK] = rich.get(BANK, 0) - top_up
    try:
        events, _ = engine.decide({**table, "accounts": rich}, {"action": "rent", "payer": visitor, "deed": deed}, desk.rules)
    except BankerError as e:
        text = str(e)
        if "dice" in text:
            return "rent depends on the dice"
        return text if "no rent" in text else ""
    paid = sum(e["amount"] for e in events if e["type"] == "Paid" and e["from"] == visitor)
    return f"Rent now: {desk.fmt(paid)}"


def _actor(desk: Desk, field: str, owner: str | None, chosen: str | None) -> str | None:
    """Who a deed action's player field names: the owner acts on their deed; otherwise the chosen player
    (for rent, a visitor who is not the owner)."""
    state = desk.state()
    active = state["active"]
    if field == "payer":
        for name in (chosen, state["turn"]["player"], *active):
            if name and name != owner and name in active:
                return name
        return None
    if field in ("player", "owner") and owner is not None and owner in active:
        return owner
    return chosen if chosen in active else state["turn"]["player"]


def deed_card(desk: Desk, deed: str, chosen: str | None = None) -> dict[str, Any]:
    """One deed's card: owner, buildings, rent now, mortgage state, printed values, and each action
    of the family that takes a deed, tried now: ``refused`` holds the rule's reason, or None."""
    state = desk.state()
    row = next(d for d in state["deeds"] if d["name"] == deed)
    card = desk.pack["cards"][deed]
    owner = row.get("owner")
    colours = {p["name"]: p["colour"] for p in state["players"]}
    group = next(g for g in deed_groups(state) if any(d["name"] == deed for d in g["deeds"]))
    actions = []
    for name, spec in desk.specs.items():
        deed_fields = [f for f in spec.required if field_kind(f) == "deed"]
        if not deed_fields or name == "correct_card":
            continue
        values: dict[str, Any] = {deed_fields[0]: deed}
        for f in spec.required:
            if field_kind(f) == "player" and f not in ("winner",):
                actor = _actor(desk, f, owner, chosen)
                if actor is not None:
                    values[f] = actor
        form = ActionForm(name, spec.required, spec.optional, values, button=name)
        who = next((values[f] for f in spec.required if field_kind(f) == "player" and f in values), None)
        variants = [(form, action_label(name))]
        if "building" in spec.required + spec.optional and (form.ready or form.pending() == ["building"]):
            options = probe_choices(desk, form, "building")
            if options:
                variants = [(form.fill("building", v), f"{action_label(name)}: {label.lower()}") for v, label in options]
        shown_who = who if who and who != owner else None
        for variant, label in variants:
            refused = None
            if variant.ready:
                check = desk.check(variant.as_action())
                refused = None if check.ok or check.malformed else check.text
            actions.append({
                "action": name,
                "label": label,
                "who": who or "",
                "text": label + (f" ({shown_who})" if shown_who else ""),
                "values": dict(variant.values),
                "refused": refused,
                "ready": variant.ready,
            })
    actions.sort(key=lambda a: (a["refused"] is not None, a["action"]))
    owner_colour = player_colour(colours.get(owner)) if owner else (0.35, 0.4, 0.45, 1)
    return {
        "name": deed,
        "group": group["label"],
        "colour": group["colour"],
        "colour_text": group["colour_text"],
        "owner": owner or "",
        "owner_text": f"Owner: {owner}" if owner else "Owned by the bank",
        "owner_colour": owner_colour,
        "owner_colour_text": text_on(owner_colour),
        "marks_text": ", ".join(deed_marks(row)) or ("no buildings" if owner else ""),
        "mortgaged": bool(row.get("mortgaged")),
        "rent_text": rent_now(desk, deed),
        "lines": card_lines(desk, card),
        "actions": actions,
    }
