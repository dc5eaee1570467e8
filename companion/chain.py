"""The log that proves itself: every entry carries a hash chained to the one before it.

An entry's hash is SHA-256 over the previous entry's hash (32 bytes; 32 zero bytes before the first
entry) followed by the entry's canonical content: its fields as JSON with sorted keys, no spaces, UTF-8.
A snapshot records the chain's head at its entry and a digest of its own text under that head, so the
table a game opens from is proved by the same chain. One changed byte anywhere in an entry changes its
hash and every hash after it; git and certificate-transparency logs work this way. SQLite keeps no page
checksums, so without the chain a changed digit would go unnoticed.

Pure functions only: :mod:`companion.store` stores and checks, :mod:`companion.service` reports.
"""

from __future__ import annotations

import hashlib
import importlib
from typing import Any, Callable

from .jsoncode import writer

__all__ = ["GENESIS", "content", "entry_hash", "snapshot_digest"]

GENESIS = "0" * 64  # the head of a chain with no entry yet


def _sha256_of_python() -> Callable[[bytes], Any]:
    """CPython's own SHA-256 (the same digest as :func:`hashlib.sha256`), for an entry's short text: an
    action comes after a quiet spell, on cold caches, where OpenSSL's call (its provider dispatch and
    locks) costs about twice what the interpreter's small hash does; hashlib's where the interpreter
    has none of its own. A snapshot's long text goes to OpenSSL, which hashes more bytes a second."""
    for module in ("_sha256", "_sha2"):  # CPython 3.11; 3.12 and later
        try:
            found: Callable[[bytes], Any] = importlib.import_module(module).sha256
        except (ImportError, AttributeError):
            continue
        return found
    return hashlib.sha256


_sha256 = _sha256_of_python()
_canonical = writer(ensure_ascii=False, sort_keys=True)  # made once: cheap per entry


def content(
    seq: int,
    kind: str,
    action_id: str | None,
    action: Any,
    events: Any,
    summary: str,
    target: int | None,
    at: str,
    said: Any = None,
) -> dict:
    """The fields of an entry the hash covers: all of them but the hash itself. ``said``, the summary's
    parts (file format 3), is covered when the entry keeps them; an entry without them hashes as it
    always did, so the chain of a game written before them proves it unchanged."""
    fields = {
        "seq": seq,
        "kind": kind,
        "id": action_id,
        "action": action,
        "events": events,
        "summary": summary,
        "target": target,
        "at": at,
    }
    if said is not None:
        fields["said"] = said
    return fields


def entry_hash(previous: str, fields: dict) -> str:
    """SHA-256 of the previous entry's hash and this entry's canonical JSON, as 64 hex digits."""
    text = _canonical(fields)
    return _sha256(_raw(previous) + text.encode("utf-8")).hexdigest()


def snapshot_digest(head: str, state_text: str) -> str:
    """SHA-256 of the chain's head at the snapshot and the snapshot's stored text."""
    return hashlib.sha256(_raw(head) + state_text.encode("utf-8")).hexdigest()  # long: OpenSSL's is faster


def _raw(digest: str) -> bytes:
    """A stored hash's 32 bytes; a damaged one (not 64 hex digits) still hashes, to a value that cannot
    match, so damage is reported where it is and never raised from here."""
    try:
        raw = bytes.fromhex(digest)
    except (TypeError, ValueError):
        raw = b""
    return raw if len(raw) == 32 else b"\xff" + str(digest).encode("utf-8", "replace")
