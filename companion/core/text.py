"""Text from people: one cleaner for every memo, reason and name, and one way to match names.

Every adapter (the command line, the touchscreen, the phones) hands text to the contract, and the contract
hands it here. Text is refused, never silently cut or repaired:

- lone surrogates (what a broken phone keyboard or undecodable command-line bytes turn into) cannot be stored
  as UTF-8, so they are refused;
- control characters and the bidirectional overrides and isolates (U+202A-U+202E, U+2066-U+2069) could hide
  or reorder what the log says, so they are refused; tabs and line breaks are ordinary spaces;
- runs of white space become one space, and the ends are trimmed;
- text longer than its field allows is refused with the limit in the reason.

Names are matched by :func:`name_key`: Unicode NFKC, then case folding, then NFKC again, so "Straße" and
"STRASSE" (or "Bank" and its full-width spelling) are the same name whether the table is checking for twins,
for a reserved name, or looking a name up.

Names are held to more than other text, since a name is how people tell each other apart on every screen:
:func:`clean_name` refuses format and other invisible (default-ignorable) characters, and two names are
twins when :func:`look_keys` shares a key between them: the same :func:`name_key`, or the same confusable
skeleton (Unicode UTS #39, :mod:`companion.core.lookalike`), as the Cyrillic "Аnn" has with "Ann".
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from .errors import BadAction
from .lookalike import invisible, skeleton

__all__ = ["clean_text", "clean_name", "check_token", "name_key", "look_keys", "shown", "BIDI_CONTROLS"]

#: Embedding, override and isolate controls: they reorder the text around them.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")

#: How much of a refused value a reason quotes.
_QUOTE = 40


def shown(value: object, limit: int = _QUOTE) -> str:
    """A value quoted inside a one-line reason: short, printable, with no control characters."""
    text = value if isinstance(value, str) else repr(value)
    text = "".join(c if c.isprintable() and c not in BIDI_CONTROLS and not _surrogate(c) else "?" for c in text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return repr(text)


def _surrogate(c: str) -> bool:
    return "\ud800" <= c <= "\udfff"


def clean_text(value: object, what: str, max_len: int, *, allow_empty: bool = True) -> str:
    """``value`` as one clean line of at most ``max_len`` characters, or a :class:`BadAction` saying why."""
    if not isinstance(value, str):
        raise BadAction(f"{what} must be text, not {shown(value)}")
    if len(value) > max_len * 4 + 64:  # far too long even before white space is folded: say so cheaply
        raise BadAction(f"{what} is {len(value):,} characters long; at most {max_len} are allowed")
    for c in value:
        if _surrogate(c):
            raise BadAction(f"{what} holds a broken character (an unpaired surrogate); type it again")
        if c in BIDI_CONTROLS:
            raise BadAction(f"{what} holds a text-direction control character (U+{ord(c):04X}); remove it")
        if unicodedata.category(c) == "Cc" and not c.isspace():
            raise BadAction(f"{what} holds a control character (U+{ord(c):04X}); remove it")
    text = unicodedata.normalize("NFC", " ".join(value.split()))
    if len(text) > max_len:
        raise BadAction(f"{what} is {len(text):,} characters long; at most {max_len} are allowed")
    if not text and not allow_empty:
        raise BadAction(f"{what} is empty")
    return text


def check_token(value: object, what: str, max_len: int) -> str:
    """An identifier kept exactly as sent (an action id): printable text of 1 to ``max_len`` characters."""
    if not isinstance(value, str) or not 1 <= len(value) <= max_len:
        raise BadAction(f"{what} is text of 1 to {max_len} characters")
    if any(_surrogate(ch) or not ch.isprintable() or ch in BIDI_CONTROLS for ch in value):
        raise BadAction(f"{what} holds a character that cannot be stored (a control or broken character)")
    return value


def clean_name(value: object, what: str, max_len: int) -> str:
    """A name for a player: clean text that shows at least one visible character and holds no invisible one."""
    text = clean_text(value, what, max_len, allow_empty=False)
    for c in text:
        kind = invisible(c)
        if kind is not None:
            described = unicodedata.name(c, "").lower()
            raise BadAction(
                f"{what} {shown(text)} holds {kind} nobody can see (U+{ord(c):04X}"
                f"{', ' + described if described else ''}); a name must show every character it has"
            )
    if not any(unicodedata.category(c)[0] in "LNPS" for c in text):
        raise BadAction(f"{what} {shown(text)} has no visible characters")
    return text


@lru_cache(maxsize=2048)  # a table's few dozen names, looked up at every action: each worked out once
def name_key(name: str) -> str:
    """The form two names are compared in: equal keys are the same name to the table."""
    folded = unicodedata.normalize("NFKC", " ".join(name.split())).casefold()
    return unicodedata.normalize("NFKC", folded)


def look_keys(name: str) -> frozenset[tuple[str, str]]:
    """The forms in which two names could be taken for each other: two names sharing any are twins.

    The same :func:`name_key` ("ann" and "ANN"), or the same confusable skeleton as written ("AI" with a
    capital i and "Al") or case-folded ("Аnn" with a Cyrillic A and "ann").
    """
    written = unicodedata.normalize("NFKC", " ".join(name.split()))
    key = name_key(name)
    return frozenset({("same", key), ("looks", skeleton(written)), ("looks folded", skeleton(key))})
