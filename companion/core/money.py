"""Integer money: parsing and formatting in a pack's currency.

Money is always an ``int`` in the pack's smallest unit (a dollar for classic Monopoly). Two display
styles exist: ``plain`` ("$1,500") and ``short``, the way the notes of Monopoly City and Greenopoly
read: a round number of millions as "225M" or "1.5M" (at most ``places`` decimals, the pack's choice),
a round number of thousands as "500K" or "1,250K", and any other sum in whole units ("1,000,001").
A shown sum is never rounded.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation

from .errors import BadAction

__all__ = ["Currency", "LIMIT"]

#: No single amount may exceed this (a quadrillion units): catches typos and overflow attacks.
LIMIT = 10**15

_SUFFIX = {"": 1, "K": 10**3, "M": 10**6, "B": 10**9}
_AMOUNT = re.compile(r"^\s*(?P<sign>[-+]?)\s*(?P<num>\d[\d,_]*(?:\.\d+)?|\.\d+)\s*(?P<suffix>[KMB]?)\s*$", re.I)


@dataclass(frozen=True)
class Currency:
    """How a pack writes money: a symbol, a style ("plain" or "short") and, for the short style, the
    most decimals a sum in millions may show (``places``: 2 shows 1.25M, while 1,234,000 shows as 1,234K)."""

    symbol: str = "$"
    style: str = "plain"
    places: int = 2

    @classmethod
    def from_pack(cls, pack: dict) -> "Currency":
        cur = pack.get("currency", {})
        places = cur.get("places", 2)
        if isinstance(places, bool) or not isinstance(places, int) or not 0 <= places <= 6:
            raise BadAction(f"currency places is a whole number from 0 to 6, not {places!r}")
        return cls(symbol=cur.get("symbol", "$"), style=cur.get("style", "plain"), places=places)

    def format(self, amount: int) -> str:
        """Write an amount for people: "$1,500", "-$25", "$2.5M", "$500K"."""
        sign = "-" if amount < 0 else ""
        n = abs(int(amount))
        if self.style == "short":
            body = _short(n, self.places)
        else:
            body = f"{n:,}"
        return f"{sign}{self.symbol}{body}"

    def parse(self, text: object) -> int:
        """Read an amount typed by a person or sent as JSON; refuse anything that is not whole money.

        Accepts ints, and strings such as "1500", "$1,500", "2.5M", "500k". Refuses floats with a
        fraction of the smallest unit, booleans, empty text and amounts beyond :data:`LIMIT`.
        """
        if isinstance(text, bool):
            raise BadAction(f"amount must be a number, not {text!r}")
        if isinstance(text, int):
            value = text
        elif isinstance(text, float):
            if text != text or text in (float("inf"), float("-inf")) or not text.is_integer():
                raise BadAction(f"amount {text!r} is not a whole number of {self.symbol or 'units'}")
            value = int(text)
        elif isinstance(text, str):
            value = self._parse_text(text)
        else:
            raise BadAction(f"amount must be a number, not {type(text).__name__}")
        if abs(value) > LIMIT:
            raise BadAction(f"amount {value} is too large")
        return value

    def _parse_text(self, text: str) -> int:
        cleaned = text.strip()
        if self.symbol:
            cleaned = cleaned.replace(self.symbol, "")
        m = _AMOUNT.match(cleaned)
        if not m:
            raise BadAction(f"{text!r} is not an amount of money")
        try:
            number = Decimal(m["num"].replace(",", "").replace("_", ""))
        except InvalidOperation:  # pragma: no cover - the regex already guards this
            raise BadAction(f"{text!r} is not an amount of money") from None
        value = number * _SUFFIX[m["suffix"].upper()]
        if value != value.to_integral_value():
            raise BadAction(f"{text!r} is not a whole number of {self.symbol or 'units'}")
        if value > LIMIT:
            raise BadAction(f"amount {text!r} is too large")
        result = int(value)
        return -result if m["sign"] == "-" else result


def _short(n: int, places: int = 2) -> str:
    """"225M", "1.5M", "500K", "1,250K", or whole units when the sum is not a round number of thousands."""
    if n >= 10**6 and n % 10 ** max(6 - places, 0) == 0:
        whole, rest = divmod(n, 10**6)
        if not rest:
            return f"{whole:,}M"
        return f"{whole:,}." + f"{rest:06d}".rstrip("0") + "M"
    if n >= 10**3 and n % 10**3 == 0:
        return f"{n // 10**3:,}K"
    return f"{n:,}"
