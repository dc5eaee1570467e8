"""The history screen's view-model: every entry of the log in words, newest first, with what undo and
redo would do next. Entries taken back by an undo (and not redone) are marked. Pure: no Kivy."""

from __future__ import annotations

import datetime as _dt
from typing import Any, Iterable

__all__ = ["history_rows", "history_view", "clock_time"]


def clock_time(at: str) -> str:
    """'20:15' (local time) from the log's ISO time stamp."""
    try:
        return _dt.datetime.fromisoformat(at).astimezone().strftime("%H:%M")
    except (TypeError, ValueError):
        return ""


def _by(entry: Any) -> str:
    """Whose phone started an entry ("" when the banker did)."""
    by = entry.action.get("by") if isinstance(getattr(entry, "action", None), dict) else None
    return f"{by}'s phone" if by else ""


def history_rows(entries: Iterable[Any], limit: int | None = None) -> list[dict[str, Any]]:
    """Rows for the log's entries, newest first; ``limit`` keeps only the newest ones."""
    entries = list(entries)
    undone: set[int] = set()
    for e in entries:
        if e.kind == "undo" and e.target is not None:
            undone.add(e.target)
        elif e.kind == "redo" and e.target is not None:
            undone.discard(e.target)
    rows = []
    for e in reversed(entries):
        moved = sum(ev["amount"] for ev in e.events if ev.get("type") == "Paid")
        rows.append(
            {
                "seq": e.seq,
                "number": f"{e.seq}",
                "time": clock_time(e.at),
                "text": e.summary,
                "kind": e.kind,
                "undone": e.seq in undone,
                "note": "taken back"
                if e.seq in undone
                else ("undo" if e.kind == "undo" else ("redo" if e.kind == "redo" else _by(e))),
                "moved": moved,
            }
        )
        if limit is not None and len(rows) >= limit:
            break
    return rows


def history_view(
    entries: Iterable[Any], *, undo_text: str | None, redo_text: str | None, limit: int | None = None
) -> dict[str, Any]:
    rows = history_rows(entries, limit)
    return {
        "rows": rows,
        "count_text": f"{len(rows)} entries" if limit is None or len(rows) < limit else f"the newest {limit} entries",
        "can_undo": undo_text is not None,
        "undo_text": f"Undo: {undo_text}" if undo_text else "Nothing to undo",
        "can_redo": redo_text is not None,
        "redo_text": f"Redo: {redo_text}" if redo_text else "Nothing to redo",
    }
