"""The settings screen's view-model: the game's backups to restore, the trading unit's parts to test,
and the values a deed card can be corrected to (money the way the pack's notes read it: "100K" on a
Greenopoly card, typed back the same way). Pure: no Kivy."""

from __future__ import annotations

import datetime as _dt
import re
from pathlib import Path
from typing import Any

from companion.core.money import Currency

__all__ = ["backup_rows", "part_rows", "card_fields", "parse_card_value", "changed_values"]


def backup_rows(game: Path) -> list[dict[str, Any]]:
    """The game's backups, newest first: file, the log entry it holds, when it was taken."""
    from companion.backups import list_backups

    rows = []
    for path in reversed(list_backups(Path(game))):
        m = re.search(r"-(\d+)\.game$", path.name)
        when = _dt.datetime.fromtimestamp(path.stat().st_mtime).strftime("%d %b %H:%M")
        rows.append(
            {
                "path": str(path),
                "entry": int(m.group(1)) if m else None,
                "text": f"After action {int(m.group(1))}, {when}" if m else f"{path.name}, {when}",
            }
        )
    return rows


def part_rows(board: Any) -> list[dict[str, Any]]:
    """Each GPIO button with whether it is pressed now (for the live test), when the board is present."""
    devices = getattr(board, "devices", None)
    if devices is None:
        return []
    rows = []
    for name, button in devices.buttons.items():
        pins = getattr(devices, "pins", None)
        where = pins.describe(name) if pins is not None and hasattr(pins, "describe") else ""
        rows.append(
            {
                "part": name,
                "label": name.replace("_", " ").capitalize(),
                "where": where,
                "pressed": bool(button.is_pressed),
            }
        )
    return rows


def _figure(n: Any, money: Currency | None) -> str:
    """A number on a card as text to edit: "100K" where the pack's notes read so, else its digits
    (never with a comma, which separates a list's numbers)."""
    if money is None or money.style != "short" or isinstance(n, bool) or not isinstance(n, int):
        return str(n)
    text = money.format(n).replace(money.symbol, "", 1)
    return str(n) if "," in text else text


def card_fields(card: dict, money: Currency | None = None) -> list[dict[str, Any]]:
    """The card's values the banker may correct, as text to edit (lists as "2, 10, 30"; with the
    pack's ``money``, a short currency's sums as "6K, 30K")."""
    rows = []
    for key, value in card.items():
        if key in ("group", "kind", "colour") or isinstance(value, (bool, dict)):
            continue
        if isinstance(value, list):
            text = ", ".join(_figure(v, money) for v in value)
        else:
            text = _figure(value, money)
        rows.append(
            {
                "key": key,
                "label": key.replace("_", " ").capitalize(),
                "text": text,
                "kind": "list" if isinstance(value, list) else ("int" if isinstance(value, int) else "text"),
            }
        )
    return rows


def parse_card_value(kind: str, text: str, money: Currency | None = None) -> Any:
    """The edited text back as the card's type; ValueError with the reason when it is not one. With
    the pack's ``money``, a sum may be written its way ("250K")."""
    text = text.strip()
    if kind == "int":
        if money is not None and not re.fullmatch(r"\d+", text.replace(",", "")):
            return _sum(money, text)
        if not re.fullmatch(r"\d+", text.replace(",", "")):
            raise ValueError(f"{text!r} is not a whole number")
        return int(text.replace(",", ""))
    if kind == "list":
        parts = [p.strip() for p in text.split(",") if p.strip()]
        if money is not None:
            return [_sum(money, p) for p in parts]
        if not all(re.fullmatch(r"\d+", p) for p in parts):
            raise ValueError(f"{text!r} is not a list of whole numbers (write them with commas between)")
        return [int(p) for p in parts]
    return text


def _sum(money: Currency, text: str) -> int:
    """A sum written the pack's way, never below 0 (the card's own check says what each needs)."""
    value = money.parse(text)  # BadAction is a ValueError, with its reason
    if value < 0:
        raise ValueError(f"{text!r} is less than nothing")
    return value


def changed_values(card: dict, edited: dict[str, tuple[str, str]], money: Currency | None = None) -> dict[str, Any]:
    """The values that differ from the card: ``edited`` maps key -> (kind, text)."""
    out = {}
    for key, (kind, text) in edited.items():
        value = parse_card_value(kind, text, money)
        if card.get(key) != value:
            out[key] = value
    return out
