"""The deeds screen's view-model: the board's colour groups, and one deed's card with what can be done
with it now.

"What can be done now" is asked of the Banker: every action the family declares with a deed field is
put together for this deed (the owner acts for mortgages and building whoever is to play; the player
to play, or the next one who is not the owner, buys it or pays its rent), and the Banker's preview
says what it would do or the rule's reason it cannot. A choice the action still needs (houses or a
hotel) becomes one button per choice the Banker lists. So a family's own deed actions (improve a park,
remove a hazard) appear here without any code for them. Pure: no Kivy.
"""

from __future__ import annotations

from typing import Any

from companion.core.contract import acting_field, role_fields
from companion.views import deed_marks

from .ask_view import deed_groups
from .colours import player_colour, text_on
from companion.core.contract import money_words

from .desk import Desk
from .shown import moves_money, promise, said

__all__ = ["deed_to_show", "deeds_view", "deed_card", "card_lines", "rent_now"]


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
            rows.append(
                {
                    "name": deed["name"],
                    "owner": owner or "",
                    "owner_colour": player_colour(colours.get(owner)) if owner else (0, 0, 0, 0),
                    "detail": ", ".join([owner or "bank", *deed_marks(deed)]),
                    "selected": deed["name"] == selected,
                    "mortgaged": bool(deed.get("mortgaged")),
                }
            )
        if rows:
            groups.append({**group, "deeds": rows})
    return {
        "groups": groups,
        "selected": selected,
        "whose": whose or "",
        "title": f"Deeds of {whose}" if whose else "Deeds",
    }


def card_lines(desk: Desk, card: dict) -> list[tuple[str, str]]:
    """A deed's printed values as (label, text) lines: rent tables joined, and money written the pack's
    way where the family says the value is money (``rules.extras["card_money"]``: "Property tax $100")."""
    lines = []
    money = desk.rules.extras.get("card_money", ())
    for key, value in card.items():
        if key in ("group", "kind", "colour", "stand_in") or isinstance(value, bool):
            continue
        label = key.replace("_", " ").capitalize()
        moneyish = key in money
        if isinstance(value, int):
            lines.append((label, desk.fmt(value) if moneyish else str(value)))
        elif isinstance(value, list) and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
            lines.append((label, " / ".join(desk.fmt(v) if moneyish else str(v) for v in value)))
        elif isinstance(value, (str, float)):
            lines.append((label, str(value)))
    return lines


def _visitor(desk: Desk, owner: str) -> str | None:
    """Who would pay rent on an owner's deed: the player to play, or the next player who is not the owner."""
    state = desk.state()
    for name in (state["turn"]["player"], *state["active"]):
        if name and name != owner and name in state["active"]:
            return name
    return None


def deed_to_show(table: dict, whose: str | None, deed: str) -> str:
    """The deed whose card the Deeds screen opens: the one open if it still suits, else the first of
    the player looked at, or "" when that player owns none (never another's or the bank's card, with
    its Buy live, under a player who has no deeds); with every deed shown, the first deed."""
    deeds = table["deeds"]
    if whose:
        owned = [n for n, d in deeds.items() if d.get("owner") == whose]
        return deed if deed in owned else (owned[0] if owned else "")
    return deed if deed in deeds else next(iter(deeds), "")


def rent_now(desk: Desk, deed: str) -> str:
    """What the player to play (or the next visitor) would pay the owner now, from the Banker's own
    choices for Rent ('' when the family has no rent or nobody owns the deed)."""
    owner = desk.table["deeds"].get(deed, {}).get("owner")
    spec = desk.specs.get("rent")
    if owner is None or spec is None:
        return ""
    payer = next((f.name for f in role_fields(spec, "payer")), None)
    deed_field = next((f.name for f in spec.fields if f.kind == "deed"), None)
    visitor = _visitor(desk, owner)
    if payer is None or deed_field is None or visitor is None:
        return ""
    values = {payer: visitor}
    choice = next((c for c in desk.choices("rent", deed_field, values) if c.value == deed), None)
    if choice is None:
        return ""
    if not choice.possible:
        return choice.why_not or ""
    if choice.preview is None:
        later = desk.next_field("rent", {**values, deed_field: deed})
        return f"Rent depends on the {later.says.lower()}" if later is not None else ""
    return f"Rent now: {desk.fmt(-choice.preview.moved(visitor))} from {visitor}"


def _who_acts(desk: Desk, spec, owner: str | None) -> dict[str, Any]:
    """A deed action's players, from the role its acting field declares: the owner acts on their deed
    (mortgage, build, sell), whoever is to play; a player who is not the owner pays its rent or buys
    it (the player to play first)."""
    state = desk.state()
    values: dict[str, Any] = {}
    f = acting_field(spec)
    if f is None or f.kind != "player":
        return values
    if f.role != "payer" and owner is not None and owner in state["active"]:
        values[f.name] = owner
    else:
        visitor = _visitor(desk, owner or "")
        if visitor is not None:
            values[f.name] = visitor
    return values


def _field_for(desk: Desk, action: str, fields: list[str], values: dict, deed: str) -> str:
    """The deed field this deed answers: the first whose candidates include it (City Life's exchange
    takes a Tower and a House: a House's card fills the House), else the first."""
    if len(fields) > 1:
        for name in fields:
            if any(c.value == deed for c in desk.choices(action, name, values)):
                return name
    return fields[0]


def _none_possible(desk: Desk, action: str, values: dict) -> str | None:
    """When an action still asks a field (how many houses on the whole group), the rule's reason if
    no answer to it is possible now (the group is not the player's), so the card greys the button
    rather than asking a question every answer of which is refused."""
    later = desk.next_field(action, values)
    if later is None or later.kind in ("amount", "text", "structured"):
        return None
    answers = desk.choices(action, later.name, values)
    if not answers or any(a.possible for a in answers):
        return None
    return answers[0].why_not or "not possible now"


def deed_card(desk: Desk, deed: str, chosen: str | None = None) -> dict[str, Any]:
    """One deed's card: owner, buildings, rent now, mortgage state, printed values, and each action
    of the family that takes a deed, for its owner whoever is acting, judged by the Banker now:
    ``refused`` holds the rule's reason, or None; ``preview`` the log's sentence."""
    state = desk.state()
    row = next(d for d in state["deeds"] if d["name"] == deed)
    card = desk.pack["cards"][deed]
    owner = row.get("owner")
    colours = {p["name"]: p["colour"] for p in state["players"]}
    group = next(g for g in deed_groups(state) if any(d["name"] == deed for d in g["deeds"]))
    actions = []
    for name, spec in desk.specs.items():
        deed_fields = [f.name for f in spec.fields if f.kind == "deed" and f.required]
        if not deed_fields or name in ("correct_card", "auction", "trade"):
            continue
        acting = _who_acts(desk, spec, owner)
        values = {**acting, _field_for(desk, name, deed_fields, acting, deed): deed}
        actor = acting_field(spec)
        who = values.get(actor.name) if actor is not None else None
        later = desk.next_field(name, values)
        if later is None and spec.group == "deeds":  # an optional choice (houses or a hotel): one button each
            later = next(
                (
                    f
                    for f in spec.fields
                    if f.kind == "choice" and not f.required and f.option_values(desk.table, values)
                ),
                None,
            )
        variants = [(values, spec.label, None)]
        if later is not None and later.kind == "choice":
            variants = [
                ({**values, later.name: c.value}, f"{spec.label}: {c.label}", c)
                for c in desk.choices(name, later.name, values)
            ]
        shown_who = who if who and who != owner else None
        for variant, label, choice in variants:
            ready = desk.next_field(name, variant) is None
            preview, refused = desk.preview({"action": name, **variant}) if ready else (None, None)
            if not ready:
                refused = _none_possible(desk, name, variant)
            if choice is not None and not choice.possible:
                refused = choice.why_not
            text = label + (f" ({shown_who})" if shown_who else "")
            if preview is not None and moves_money(preview):  # the law: who pays whom how much, on the button
                text = said(label, money_words(preview, desk.table))
            actions.append(
                {
                    "action": name,
                    "label": label,
                    "who": who or "",
                    "text": text,
                    "values": dict(variant),
                    "refused": refused,
                    "ready": ready,
                    "preview": preview.summary if preview is not None else "",
                    "promise": promise(preview) if preview is not None and refused is None else None,
                }
            )
    if owner is None and "auction" in desk.specs:
        actions.append(
            {
                "action": "auction",
                "label": desk.specs["auction"].label,
                "who": "",
                "text": desk.specs["auction"].label,
                "values": {"deed": deed},
                "refused": None,
                "ready": False,
                "preview": "",
                "promise": None,
            }
        )
    actions.sort(key=lambda a: a["refused"] is not None)  # the family's order, possible ones first
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
