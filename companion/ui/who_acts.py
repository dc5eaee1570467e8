"""Who acts: the player to play, unless the banker picks another inside one action's flow.

A flow opened from the table is prefilled with the player to play in its acting field (``form.actor``:
the payer of rent, the player who collects salary, the one who pays the bank). The chooser and the
keypad show that player as a strip of names with the player to play selected, so the banker can pick
another for this one action; the choice lives in the form and is gone once the action is done or
cancelled. Looking at a tile or a deed card never changes who pays. Pure: no Kivy.
"""

from __future__ import annotations

from typing import Any

from .colours import player_colour
from .flows import ActionForm

__all__ = ["player_to_play", "who_row"]

#: The strip's label, from the role the acting field declares.
_ROLE_LABELS = {"payer": "Who pays", "owner": "Whose deed", "payee": "Who gets it", "actor": "Who"}


def player_to_play(state: dict) -> str | None:
    """The player whose turn it is (None when nobody is left)."""
    return state["turn"]["player"]


def who_row(state: dict, form: ActionForm | None, asking: str | None = None) -> dict[str, Any] | None:
    """The strip of players for the flow's acting field, or None when the flow has none or is asking
    that very field now (then the chooser itself lists the players)."""
    if form is None or not form.actor or form.actor == asking:
        return None
    chosen = str(form.values.get(form.actor) or "")
    choices = [
        {
            "value": p["name"],
            "label": p["name"],
            "colour": player_colour(p["colour"]),
            "selected": p["name"].casefold() == chosen.casefold(),
        }
        for p in state["players"]
        if not p["bankrupt"]
    ]
    if not choices:
        return None
    label = _ROLE_LABELS.get(form.actor_role, "Who")
    return {"field": form.actor, "label": label, "choices": choices, "changed": chosen != (player_to_play(state) or "")}
