"""Where the app works around Kivy: every reach into Kivy's internals, in one place.

Each workaround names the upstream report of the behaviour it works around (or says precisely what the
behaviour is, where no report was found) and the Kivy versions it was verified on. It reaches into
internals that another version may have changed or fixed, so it is applied only on those versions; on
any other it does nothing and says so once in the log. After upgrading Kivy, run
tests/gui/test_kivy_fixes.py: it shows each behaviour still there (or gone), and then the version is
added to :data:`VERIFIED` (or the workaround removed).

Both workarounds here keep a screen let go from living all evening (docs/architecture.md, "memory").
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

__all__ = [
    "TEXT_BOX_KEPT",
    "TRANSITION_KEEPS_SCREEN",
    "VERIFIED",
    "WORKAROUNDS",
    "Workaround",
    "applies",
    "forget_last_text_box",
    "kivy_version",
    "release_left_screen",
]

log = logging.getLogger(__name__)

#: The Kivy versions every workaround below was verified on.
VERIFIED = ("2.3.1",)


@dataclass(frozen=True)
class Workaround:
    """One behaviour of Kivy the app works around."""

    name: str
    #: What Kivy does that the app works around.
    behaviour: str
    #: The upstream report or fix, or None when none was found.
    upstream: str | None
    #: The Kivy versions on which the behaviour was seen and the workaround checked.
    verified_on: tuple[str, ...] = VERIFIED


TEXT_BOX_KEPT = Workaround(
    "text box kept by TextInput._adjust_viewport",
    "`@triggered` (kivy.clock) keeps the arguments of the last call in a closure made once for the "
    "function, so a method decorated with it, TextInput._adjust_viewport, keeps the last text box that "
    "scrolled its text (and, through its parents, the whole screen it was on) alive for the rest of the run",
    "https://github.com/kivy/kivy/pull/9275 (instance isolation for @triggered methods; merged after 2.3.1)",
)

TRANSITION_KEEPS_SCREEN = Workaround(
    "finished transition keeps the screen that left",
    "ScreenManager's transition (TransitionBase.screen_out, an ObjectProperty) still holds the screen that "
    "left once the transition is over, so a screen removed from the manager lives until the next transition",
    None,  # searched kivy/kivy's issues and pull requests: none reports this reference (#949 is another cause)
)

WORKAROUNDS = (TEXT_BOX_KEPT, TRANSITION_KEEPS_SCREEN)

_warned: set[str] = set()


def kivy_version() -> str:
    import kivy

    return str(kivy.__version__)


def applies(workaround: Workaround) -> bool:
    """Whether ``workaround`` is applied on the Kivy installed: only on a version it was verified on;
    on another, a warning once (per workaround) and nothing done."""
    version = kivy_version()
    if version in workaround.verified_on:
        return True
    if workaround.name not in _warned:
        _warned.add(workaround.name)
        log.warning(
            "Kivy %s is not a version the workaround for the %s was verified on (%s); it is not applied: "
            "run tests/gui/test_kivy_fixes.py and update companion/ui/kivy_fixes.py",
            version,
            workaround.name,
            ", ".join(workaround.verified_on),
        )
    return False


def forget_last_text_box() -> bool:
    """Drop the text box ``TextInput._adjust_viewport`` keeps once it has left the window; True if one
    was dropped (:data:`TEXT_BOX_KEPT`)."""
    if not applies(TEXT_BOX_KEPT):
        return False
    from kivy.uix.textinput import TextInput

    trigger = TextInput._adjust_viewport
    names = trigger.__code__.co_freevars
    if "_args" not in names or trigger.__closure__ is None:
        return False  # a Kivy that keeps nothing there
    held = trigger.__closure__[names.index("_args")].cell_contents
    box = held[0] if held else None
    if box is None or box.get_root_window() is not None:
        return False
    trigger.cancel()  # nothing is left to scroll on a box off the window
    held.clear()
    return True


def release_left_screen(manager: Any, screen: Any) -> bool:
    """After ``screen`` was removed from ``manager``: make its finished transition let go of it; True if
    the transition held it (:data:`TRANSITION_KEEPS_SCREEN`)."""
    if not applies(TRANSITION_KEEPS_SCREEN):
        return False
    transition = manager.transition
    if transition.screen_out is not screen:
        return False
    transition.screen_out = transition.screen_in
    return True
