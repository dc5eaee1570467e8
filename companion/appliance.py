"""The appliance: the one place that puts the bank together for the table.

The touchscreen (:mod:`companion.ui`), the phones' server (:mod:`companion.web`), the trading unit's
buttons, light and buzzer (:mod:`companion.hardware`, opened through the touchscreen's unit link when the
settings say so) and the zeroconf advertisement (inside the phones' server) are adapters around one
:class:`~companion.service.Banker`. None of them imports another: this module hands the phones'
server class and the GPIO board's opener to the touchscreen, which runs the server on its own asyncio loop
beside the window and opens the board for the game's trading unit. Anything
that is not installed (the web extras on a bare system) is left out and the bank runs without it.
"""

from __future__ import annotations

import os
from typing import Any

__all__ = ["phone_server", "board_opener", "run"]


def phone_server() -> Any | None:
    """The phones' server class, or None when the web adapter is not installed."""
    try:
        from companion.web.server import PhoneServer
    except ImportError:
        return None
    return PhoneServer


def board_opener() -> Any | None:
    """The trading unit's GPIO opener (buttons, light, buzzer), or None when gpiozero is not installed."""
    try:
        from companion.hardware import open_board
    except ImportError:
        return None
    return open_board


def run(game: str | os.PathLike | None = None, data: str | os.PathLike | None = None, fullscreen: bool = False) -> int:
    """``companion run``: the touchscreen on GAME (or the last game), the phones' server beside it."""
    from companion.ui.app import run_app

    return run_app(
        game=game, data=data, fullscreen=fullscreen, phone_server=phone_server(), board_opener=board_opener()
    )
