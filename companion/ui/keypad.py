"""The amount keypad: what the banker has typed, and what it is worth in the pack's currency.

Digits, a double zero, backspace and clear; the pack's quick amounts add to what is shown (the way
banknotes are counted: +200, +50); for a short currency (Monopoly City's "2.5M") a decimal point and
the K and M keys. Pure: a frozen value per keystroke.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from companion.core.errors import BadAction
from companion.core.money import Currency

__all__ = ["Keypad", "keys_for", "wide_keys", "quick_amounts"]

MAX_CHARS = 13


def keys_for(currency: Currency) -> list[str]:
    """The keypad's keys in reading order, three to a row. ``<`` is backspace (``C``, clear, sits
    beside the figure)."""
    if currency.style == "short":
        return ["7", "8", "9", "4", "5", "6", "1", "2", "3", ".", "0", "<", "K", "M", "00"]
    return ["7", "8", "9", "4", "5", "6", "1", "2", "3", "00", "0", "<"]


def wide_keys(keys: list[str]) -> list[str]:
    """The same keys for a keypad two rows high (the auction's): 1 to 9 and 0 in reading order, then
    the rest (00, the point, K, M, backspace)."""
    digits = sorted((k for k in keys if len(k) == 1 and k.isdigit()), key=lambda k: (k == "0", k))
    return digits + [k for k in keys if k not in digits]


def quick_amounts(pack: dict) -> list[int]:
    """The pack's quick amounts, else a round set based on its starting cash."""
    given = pack.get("quick_amounts")
    if (
        isinstance(given, list)
        and all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in given)
        and given
    ):
        return list(given)
    base = max(1, int(pack.get("start_cash", 1500)) // 1500)
    return [v * base for v in (1, 5, 10, 20, 50, 100, 200, 500)]


@dataclass(frozen=True)
class Keypad:
    """Typed text (digits, maybe '.', maybe a K/M suffix) in a currency."""

    currency: Currency = Currency()
    text: str = ""

    def press(self, key: str) -> "Keypad":
        if key == "<":
            return replace(self, text=self.text[:-1])
        if key == "C":
            return replace(self, text="")
        if key in ("K", "M"):
            if not self.text or self.text[-1] in "KM." or self.currency.style != "short":
                return self
            return replace(self, text=self.text + key)
        if self.text and self.text[-1] in "KM":
            return self  # nothing after the suffix
        if key == ".":
            if self.currency.style != "short" or "." in self.text:
                return self
            return replace(self, text=(self.text or "0") + ".")
        if not key.isdigit():
            return self
        if not self.text and key.strip("0") == "":
            return self  # no leading zeros
        text = self.text + key
        if len(text) > MAX_CHARS:
            return self
        return replace(self, text=text)

    def add(self, amount: int) -> "Keypad":
        """A quick amount: added to what is shown."""
        now = self.value() or 0
        return replace(self, text=str(now + amount))

    def set(self, amount: int | None) -> "Keypad":
        return replace(self, text="" if not amount else str(amount))

    def value(self) -> int | None:
        """The amount typed, or None while it is empty or not a whole amount yet ("2.5" before "K")."""
        if not self.text or self.text.endswith("."):
            return None
        try:
            return self.currency.parse(self.text)
        except BadAction:
            return None

    def problem(self) -> str | None:
        """Why the typed text is not an amount (shown under it), or None."""
        if not self.text:
            return None
        if self.value() is None:
            if "." in self.text and self.text[-1] not in "KM":
                return "finish with K or M"
            return f"{self.text} is not a whole amount"
        return None

    def display(self) -> str:
        """What the big figure shows: the formatted amount, or the raw text while typing a fraction."""
        value = self.value()
        if value is not None:
            return self.currency.format(value)
        if not self.text:
            return self.currency.format(0)
        return f"{self.currency.symbol}{self.text}"
