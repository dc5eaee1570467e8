"""Integer money: parsing and formatting in a pack's currency.

Money is always an ``int`` in the pack's smallest unit (a dollar for classic Monopoly). Two display
styles exist: ``plain`` ("$1,500") and ``short``, the way the notes of Monopoly City and Greenopoly
read: a round number of millions as "225M" or "1.5M" (at most ``places`` decimals, the pack's choice),
a round number of thousands as "500K" or "1,250K", and any other sum in whole units ("1,000,001").
A shown sum is never rounded.
"""

from __future__ import annotations

from typing import Any

import re
from dataclasses import dataclass, field
from decimal import Decimal

from .errors import BadAction

__all__ = ["Currency", "LIMIT"]

#: No single amount may exceed this (a quadrillion units): catches typos and overflow attacks.
LIMIT = 10**15

_SUFFIX = {"": 1, "K": 10**3, "M": 10**6, "B": 10**9}
#: Digits, with commas only as thousands separators (groups of exactly three), then an optional point and
#: decimals, then an optional K, M or B. "1,5" and "2,5M" are refused rather than guessed: a point is the
#: only decimal mark, because the notes and the trading unit print "2.5M".
_AMOUNT = re.compile(r"^(?P<sign>[-+]?)(?P<num>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|\.\d+)(?P<suffix>[KMB]?)$", re.I)
#: Longer text is no amount anyone typed: refuse it before reading a single digit.
_LONGEST = 32


#: The currency read last, with the pack's currency table it was read from (tables are never changed in
#: place, so the same table object always reads the same).
_LAST: "tuple[dict[str, Any], Currency] | None" = None


@dataclass(frozen=True)
class Currency:
    """How a pack writes money: a symbol, a style ("plain" or "short") and, for the short style, the
    most decimals a sum in millions may show (``places``: 2 shows 1.25M, while 1,234,000 shows as 1,234K)."""

    symbol: str = "$"
    style: str = "plain"
    places: int = 2
    #: What :meth:`format` wrote of each amount so far (the same balances and prices are written again
    #: and again, on every page): a currency never changes, so neither does what it writes.
    _written: dict[Any, str] = field(default_factory=dict, init=False, repr=False, compare=False, hash=False)

    @classmethod
    def from_pack(cls, pack: dict[str, Any]) -> "Currency":
        global _LAST
        cur = pack.get("currency", {})
        last = _LAST
        if last is not None and last[0] is cur:  # the same pack's currency, read at every action
            return last[1]
        made = cls._read(cur)
        _LAST = (cur, made)
        return made

    @classmethod
    def _read(cls, cur: dict[str, Any]) -> "Currency":
        places = cur.get("places", 2)
        if isinstance(places, bool) or not isinstance(places, int) or not 0 <= places <= 6:
            raise BadAction(f"currency places is a whole number from 0 to 6, not {places!r}")
        return cls(symbol=cur.get("symbol", "$"), style=cur.get("style", "plain"), places=places)

    def format(self, amount: int) -> str:
        """Write an amount for people: "$1,500", "-$25", "$2.5M", "$500K"."""
        written = self._written.get(amount)
        if written is None:
            written = self._write(amount)
            if len(self._written) < 4096:
                self._written[amount] = written
        return written

    def _write(self, amount: int) -> str:
        sign = "-" if amount < 0 else ""
        n = abs(int(amount))
        if self.style == "short":
            body = _short(n, self.places)
        else:
            body = f"{n:,}"
        return f"{sign}{self.symbol}{body}"

    def parse(self, text: object) -> int:
        """Read an amount typed by a person or sent as JSON; refuse anything that is not whole money.

        Accepts ints, and strings such as "1500", "$1,500", "1,500", "2.5M", "500k", "1.5K". Refuses floats
        with a fraction of the smallest unit, booleans, empty text, amounts beyond :data:`LIMIT`, a comma used
        as a decimal mark ("1,5", "2,5M"), exponents ("1e9") and text longer than 32 characters.
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
            from .text import shown

            raise BadAction(f"amount {shown(str(value), 24)} is too large (at most {self.format(LIMIT)})")
        return value

    def _parse_text(self, text: str) -> int:
        from .text import shown

        if len(text) > _LONGEST:
            raise BadAction(f"{shown(text)} is too long to be an amount of money")
        if re.search(r"\d\s+[\d,.]", text):
            raise BadAction(f"{shown(text)} is not an amount of money (digits with spaces between them)")
        cleaned = "".join(text.split())
        if self.symbol:
            cleaned = cleaned.replace(self.symbol, "", 1) if cleaned.lstrip("+-").startswith(self.symbol) else cleaned
            cleaned = cleaned.replace(f"-{self.symbol}", "-").replace(f"+{self.symbol}", "+")
        cleaned = cleaned.replace("_", "")
        m = _AMOUNT.match(cleaned)
        if not m:
            if re.fullmatch(r"[-+]?\d+,\d{1,2}[KMB]?", cleaned, re.I):
                raise BadAction(f"{shown(text)}: write decimals with a point (2.5M), and thousands as 1,500")
            if re.fullmatch(r"[-+]?[\d.]+e[-+]?\d+", cleaned, re.I):
                raise BadAction(f"{shown(text)}: write the amount out, or with K, M or B (1B)")
            raise BadAction(f"{shown(text)} is not an amount of money")
        number = Decimal(m["num"].replace(",", ""))
        value = number * _SUFFIX[m["suffix"].upper()]
        if value != value.to_integral_value():
            raise BadAction(f"{shown(text)} is not a whole number of {self.symbol or 'units'}")
        if value > LIMIT:
            raise BadAction(f"amount {shown(text)} is too large")
        result = int(value)
        return -result if m["sign"] == "-" else result


def _short(n: int, places: int = 2) -> str:
    """ "225M", "1.5M", "500K", "1,250K", or whole units when the sum is not a round number of thousands."""
    if n >= 10**6 and n % 10 ** max(6 - places, 0) == 0:
        whole, rest = divmod(n, 10**6)
        if not rest:
            return f"{whole:,}M"
        return f"{whole:,}." + f"{rest:06d}".rstrip("0") + "M"
    if n >= 10**3 and n % 10**3 == 0:
        return f"{n // 10**3:,}K"
    return f"{n:,}"
