"""The game-over screen's view-model: the pack's scoring and ranks, and each player's worth over the
game, computed from the log (the table folded entry by entry, the family's ``worth`` after each).

While the game is still on, the same screen shows the standings as they would be if it ended now.
Pure: no Kivy.
"""

from __future__ import annotations

from typing import Any

from companion.core import engine

from .colours import player_colour

__all__ = ["worth_series", "WorthHistory", "over_view", "sample"]


def sample(values: list[int], most: int) -> list[int]:
    """At most ``most`` points of a series, evenly spread, always keeping the first and the last."""
    if len(values) <= most or most < 2:
        return list(values)
    step = (len(values) - 1) / (most - 1)
    return [values[round(i * step)] for i in range(most)]


class WorthHistory:
    """Each player's worth after every entry of a game's log that still stands, kept up to date by
    folding only the entries added since the last look (the log is append-only, undo included): an
    undo takes its entry's point off the line, a redo puts it back, so the chart shows the game as
    played, never an action taken back."""

    def __init__(self) -> None:
        self.seq = 0
        self.table: dict | None = None
        self.series: dict[str, list[int]] = {}

    def update(self, banker) -> dict[str, list[int]]:
        if self.table is None:
            self.table = banker.opening_table()
            self.series = {p: [] for p in self.table["order"]}
        for entry in banker.log(self.seq):
            self.table = engine.fold(self.table, entry.events)
            for p in self.series:
                if entry.kind == "undo" and len(self.series[p]) > 1:
                    self.series[p].pop()  # the undone entry's point goes; the line is back where it was
                elif entry.kind != "undo":
                    self.series[p].append(banker.rules.worth(self.table, p))
            self.seq = entry.seq
        return self.series


def worth_series(banker, most: int = 120) -> dict[str, list[int]]:
    """Each player's worth after every entry of the log (the opening included), at most ``most`` points."""
    return {p: sample(v, most) for p, v in WorthHistory().update(banker).items()}


def over_view(state: dict, ranking: list[dict], fmt, series: dict[str, list[int]]) -> dict[str, Any]:
    """Ranks (the pack's count), the winner and why, and the chart's lines (one colour per player)."""
    over = state.get("over")
    colours = {p["name"]: p["colour"] for p in state["players"]}
    rows = []
    for i, r in enumerate(over["ranking"] if over and over.get("ranking") else ranking):
        rows.append(
            {
                "rank": f"{i + 1}.",
                "player": r["player"],
                "colour": player_colour(colours.get(r["player"])),
                "worth_text": fmt(r["worth"]),
                "cash_text": fmt(r.get("cash", 0)),
            }
        )
    out = [p["name"] for p in state["players"] if p["bankrupt"]]
    for name in out:
        if not any(r["player"] == name for r in rows):
            rows.append(
                {
                    "rank": "out",
                    "player": name,
                    "colour": player_colour(colours.get(name)),
                    "worth_text": fmt(0),
                    "cash_text": fmt(0),
                }
            )
    top = max((max(v) for v in series.values() if v), default=0)
    lines = [{"player": p, "colour": player_colour(colours.get(p)), "points": v} for p, v in series.items()]
    if over:
        title = f"{over.get('winner') or 'Nobody'} wins"
        reason = over.get("reason", "")
    else:
        title = "Standings if the game ended now"
        reason = "The game goes on: End game in More makes these the final ranks."
    return {
        "title": title,
        "reason": reason,
        "over": bool(over),
        "rows": rows,
        "lines": lines,
        "top": top,
        "top_text": fmt(top),
        "entries": max((len(v) for v in series.values()), default=0),
    }
