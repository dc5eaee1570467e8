"""JSON writers made once: what an action writes to the log, hashes into the chain and sends to phones.

``json.JSONEncoder.encode`` makes a new C encoder at every call (and ``json.dumps`` a new encoder
besides), which costs more than encoding one small value: an action encodes a dozen. :func:`writer`
makes the C encoder once and keeps it; its output is ``JSONEncoder(...).encode``'s, character for
character (the chain's hashes depend on it). No check for circular references: what is written is a
tree of plain values.
"""

from __future__ import annotations

import json
import json.encoder
from typing import Any, Callable

__all__ = ["writer", "chunks"]


def writer(*, ensure_ascii: bool, sort_keys: bool = False) -> Callable[[Any], str]:
    """``JSONEncoder(separators=(",", ":"), ensure_ascii=..., sort_keys=...).encode``, made once."""
    encode = chunks(ensure_ascii=ensure_ascii, sort_keys=sort_keys)
    join = "".join
    return lambda value: join(encode(value, 0))


def chunks(*, ensure_ascii: bool, sort_keys: bool = False) -> Callable[[Any, int], Any]:
    """What :func:`writer` joins: ``encode(value, 0)`` gives the text's pieces, ``"".join`` of which is
    the writer's text (for a caller writing several values, one Python call less each)."""
    plain = json.JSONEncoder(separators=(",", ":"), ensure_ascii=ensure_ascii, sort_keys=sort_keys)
    make = getattr(json.encoder, "c_make_encoder", None)  # not in the stubs: CPython's C accelerator
    if make is not None:
        strings = json.encoder.encode_basestring_ascii if ensure_ascii else json.encoder.encode_basestring
        try:
            found: Callable[[Any, int], Any] = make(
                None, plain.default, strings, None, ":", ",", sort_keys, False, True
            )
            return found
        except TypeError:  # another Python's signature
            pass
    return lambda value, _level: (plain.encode(value),)  # a Python without the C encoder
