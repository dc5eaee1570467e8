"""The table screen's view-model: a tile per player, the pots, whose turn, the buttons, undo and redo.

Built from :func:`companion.views.state_json` (the same public state the phones get), so the
touchscreen and the phones always tell the same story. Pure: no Kivy; the screen copies these values
into its widgets.
"""

from __future__ import annotations

from typing import Any

from .colours import player_colour, text_on
from .flows import buttons_for, has_deeds, has_unit

__all__ = ["player_warnings", "player_tile", "table_view", "plural"]


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"


def player_warnings(state: dict, player: dict, names: dict | None = None) -> list[str]:
    """What the banker must not miss about a player: out, in jail, turns to miss, loans, mortgages."""
    notes: list[str] = []
    if player["bankrupt"]:
        return ["out of the game"]
    if player.get("in_jail"):
        notes.append(f"in {(names or {}).get('jail') or 'jail'}")
    if player.get("turns_to_miss"):
        notes.append(f"misses {plural(player['turns_to_miss'], 'turn')}")
    for loan in player.get("loans") or []:
        if isinstance(loan, dict):
            due = loan.get("due_in_turns", loan.get("due_in"))
            text = loan.get("text") or (f"loan due in {plural(due, 'turn')}" if isinstance(due, int) else "loan")
            if isinstance(due, int) and due <= 0 and not loan.get("text"):
                text = "loan due now"
            notes.append(text)
        else:
            notes.append(str(loan))
    mortgaged = sum(1 for d in state["deeds"] if d.get("owner") == player["name"] and d.get("mortgaged"))
    if mortgaged:
        notes.append(f"{mortgaged} mortgaged")
    return notes


def player_tile(state: dict, player: dict, *, names: dict | None = None) -> dict[str, Any]:
    """One player's tile: name, colour, balance in big figures, how many deeds and how many of them
    are built on (houses, hotels or what the family puts on deeds), warnings. The player to play is outlined: the buttons act for them."""
    colour = player_colour(player.get("colour"))
    turn = state["turn"]["player"] == player["name"]
    deeds = len(player.get("deeds", []))
    warnings = player_warnings(state, player, names)
    built = sum(
        1
        for d in state["deeds"]
        if d.get("owner") == player["name"] and any(m != "mortgaged" for m in d.get("marks", []))
    )
    # a short line that always fits the tile: which deed holds what is on the deeds screen, a tap away
    deeds_text = (plural(deeds, "deed") if deeds else "no deeds") + (f"\n{built} built on" if built else "")
    return {
        "name": player["name"],
        "colour": colour,
        "colour_text": text_on(colour),
        "cash": player["cash"],
        "cash_text": player["cash_text"],
        # a family without deeds (The Game of Life) says nothing of them
        "deeds_text": deeds_text if state["deeds"] else "",
        "warnings": warnings,
        "warnings_text": " · ".join(warnings),
        "is_turn": turn,
        "turn_text": "to play" if turn else "",
        "bankrupt": player["bankrupt"],
        "selected": turn,
    }


def table_view(
    state: dict,
    specs: dict,
    *,
    undo_text: str | None = None,
    redo_text: str | None = None,
    last_text: str | None = None,
    names: dict | None = None,
) -> dict[str, Any]:
    """Everything the table screen shows. The buttons act for the player to play (a flow lets the
    banker pick another for one action); ``names`` are the pack's names for places (its jail)."""
    turn = state["turn"]["player"]
    common, more = buttons_for(specs)
    over = state.get("over")
    if over:
        turn_text = f"Game over: {over.get('winner') or 'nobody'} wins"
        # a finished game opens with its buttons greyed, each saying why (Undo still goes back into it)
        closed = "the game is over: Undo goes back into it, History and More show how it went"
        common = [{**b, "refused": closed} for b in common]
    else:
        turn_text = f"Turn {state['turn']['number']}: {turn} to play" if turn else "Nobody is left in the game"
    return {
        "title": state["title"],
        "turn_text": turn_text,
        "turn_player": turn,
        "acting": turn,
        "players": [player_tile(state, p, names=names) for p in state["players"]],
        "pots": [{"name": p["name"], "label": p["label"], "amount_text": p["amount_text"]} for p in state["pots"]],
        "pots_text": "  ·  ".join(f"{p['label']}: {p['amount_text']}" for p in state["pots"]),
        "buttons": common,
        "more": more,
        # the top bar leads only to what the family has (The Game of Life has no deeds and no use for
        # the trading unit)
        "has_deeds": has_deeds(specs),
        "has_unit": has_unit(specs),
        "can_undo": undo_text is not None,
        "undo_text": f"Undo: {undo_text}" if undo_text else "Nothing to undo",
        "can_redo": redo_text is not None,
        "redo_text": f"Redo: {redo_text}" if redo_text else "Nothing to redo",
        "last_text": last_text or "",
        "over": bool(over),
        "version": state["version"],
    }
