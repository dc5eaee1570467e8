"""JSON text the phones receive: inert anywhere, and put together from parts written once.

A page is mostly text that does not change between two actions (the story lines, the chart's
points): each part is encoded once, when it is made, and a page's text is spliced from the parts
instead of encoding the same values again for every page.
"""

from __future__ import annotations

import json
import json.encoder
from typing import Any, Callable, Iterable

__all__ = ["safe_text", "dumps_safe", "with_members", "array"]

_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026"}
_ENCODER = json.JSONEncoder(ensure_ascii=True, separators=(",", ":"))


def _c_encoder() -> Callable[[Any], str] | None:
    """The C encoder behind ``_ENCODER``, made once: ``JSONEncoder.encode`` makes a new one at every call,
    which costs more than encoding a small part of a page. No check for circular references (a page is
    a tree of plain values). None where this Python has no C encoder of that shape."""
    make = json.encoder.c_make_encoder
    if make is None:
        return None
    try:
        chunks = make(None, _ENCODER.default, json.encoder.encode_basestring_ascii, None, ":", ",", False, False, True)
    except TypeError:  # another Python's signature
        return None
    join = "".join
    return lambda value: join(chunks(value, 0))


_ENCODE = _c_encoder() or _ENCODER.encode


def safe_text(value: Any) -> str:
    """JSON that is inert anywhere: ASCII only (bidi controls become \\u escapes), no raw < > &."""
    text = _ENCODE(value)
    if "<" in text or ">" in text or "&" in text:  # three quick scans; most pages hold none
        text = text.translate(_ESCAPES)
    return text


def dumps_safe(value: Any) -> bytes:
    """:func:`safe_text` as bytes, ready to send."""
    return safe_text(value).encode("ascii")


def with_members(text: str, members: Iterable[tuple[str, str]]) -> str:
    """A JSON object's text with more members whose values are already JSON text (written by
    :func:`safe_text`, or digits and brackets only). Keys are plain ASCII names."""
    extra = ",".join(f'"{key}":{raw}' for key, raw in members)
    if not extra:
        return text
    return ("{" if text == "{}" else text[:-1] + ",") + extra + "}"


def array(items: Iterable[str]) -> str:
    """A JSON array's text from its items' texts."""
    return "[" + ",".join(items) + "]"
