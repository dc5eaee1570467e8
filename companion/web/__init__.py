"""Players' phones: an aiohttp server with live pages, join links, payment requests and a JSON API.

Public names (imported lazily, so ``companion`` commands that never serve pages stay quick):

* :class:`PhoneServer` - start/stop beside a Banker; join links, revocation, ``.requests``
* :class:`PaymentRequests` / :class:`PaymentRequest` - what phones ask and the banker answers
* :class:`Limits` - rate and size limits
* :func:`build_app` - the aiohttp application, for tests and embedding

See docs/phones.md for the whole picture and docs/api.md for the API.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

__all__ = ["PhoneServer", "PaymentRequests", "PaymentRequest", "Limits", "build_app", "PhoneDesk"]

_WHERE = {
    "PhoneServer": "server",
    "PaymentRequests": "requests",
    "PaymentRequest": "requests",
    "Limits": "limits",
    "build_app": "app",
    "PhoneDesk": "desk",
}


def __getattr__(name: str) -> Any:
    if name in _WHERE:
        return getattr(import_module(f"{__name__}.{_WHERE[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
