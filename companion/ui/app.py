"""The touchscreen app: a Kivy window over the open game, its screens, and the loop they share.

``run_app`` is what ``companion run [GAME]`` calls. It opens GAME, or the game played last in the data
folder, or the start screen when there is none; with ``fullscreen`` it fills the display with no window
frame, for a Pi that boots straight into the bank.

The app is thin: screens show view-models (plain dicts made by the ``*_view`` modules) and call one
method here per tap. :meth:`TableBankerApp.act` does every action through the :class:`Desk`; a
refusal is shown right where the banker tapped and changes nothing. The screen follows the ledger:
every committed entry (ours, a phone's, another process's picked up when the kernel says the game
was written: :mod:`companion.watch`) triggers one batched refresh.
"""

from __future__ import annotations

import logging
import os
from importlib.resources import files
from pathlib import Path

__all__ = ["run_app", "configure_kivy", "KV_DIR"]

log = logging.getLogger(__name__)

#: The layouts: package data (companion/kv links to the checkout's kv/, and the wheel carries a copy).
KV_DIR = Path(os.environ.get("COMPANION_KV") or str(files("companion") / "kv")).resolve()


def configure_kivy(*, fullscreen: bool = False, size: tuple[int, int] = (800, 480)) -> None:
    """Settings Kivy reads once, before its window opens: no command-line parsing, size, fullscreen.

    Input devices are left to Kivy's config (on the Pi, ``deploy/kivy/*.ini`` names exactly one touch
    source, so a tap never counts twice). The allocator's arenas are limited here, before the window's
    GL driver and the app start their threads (see :mod:`companion.ui.tidy`)."""
    from .tidy import limit_arenas

    limit_arenas()
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    if "JOURNAL_STREAM" not in os.environ:  # under systemd, Kivy's lines belong in the journal
        os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from kivy.config import Config

    Config.set("kivy", "exit_on_escape", "0")  # a stray Escape must never close the bank
    if fullscreen:
        Config.set("graphics", "fullscreen", "auto")
        Config.set("graphics", "borderless", "1")
        Config.set("graphics", "show_cursor", "0")
        Config.set("kivy", "keyboard_mode", "systemanddock")  # names and options typed without a keyboard
    else:
        Config.set("graphics", "fullscreen", "0")
        Config.set("graphics", "width", str(size[0]))
        Config.set("graphics", "height", str(size[1]))
    Config.set("graphics", "resizable", "1")


def run_app(
    game: str | os.PathLike | None = None,
    data: str | os.PathLike | None = None,
    fullscreen: bool = False,
    phone_server=None,
    board_opener=None,
) -> int:
    """Open the touchscreen app and return its exit code when the window closes. ``phone_server`` is
    the phones' server class and ``board_opener`` the GPIO board's opener that the composition root
    (:mod:`companion.appliance`) hands in, or None."""
    configure_kivy(fullscreen=fullscreen)
    import asyncio

    from .bank_app import TableBankerApp

    app = TableBankerApp(game=game, data=data, phone_server=phone_server, board_opener=board_opener, settle_heap=True)
    try:
        asyncio.run(app.main())
    except KeyboardInterrupt:
        return 130
    return app.exit_code
