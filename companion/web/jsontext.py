"""JSON text the phones receive: inert anywhere, and put together from parts written once.

A page is mostly text that does not change between two actions (the story lines, the chart's
points): each part is encoded once, when it is made, and a page's text is spliced from the parts
instead of encoding the same values again for every page.
"""

from __future__ import annotations

from typing import Any, Iterable

from companion.jsoncode import writer

__all__ = ["safe_text", "dumps_safe", "array"]

_ESCAPES = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026"}
_ENCODE = writer(ensure_ascii=True)  # made once, not per call (companion.jsoncode)


def safe_text(value: Any) -> str:
    """JSON that is inert anywhere: ASCII only (bidi controls become \\u escapes), no raw < > &."""
    text = _ENCODE(value)
    if "<" in text or ">" in text or "&" in text:  # three quick scans; most pages hold none
        text = text.translate(_ESCAPES)
    return text


def dumps_safe(value: Any) -> bytes:
    """:func:`safe_text` as bytes, ready to send."""
    return safe_text(value).encode("ascii")


def array(items: Iterable[str]) -> str:
    """A JSON array's text from its items' texts."""
    return "[" + ",".join(items) + "]"
