"""Where the app works around Kivy: every reach into Kivy's internals, in one place.

Each workaround names the upstream report of the behaviour it works around (or says precisely what the
behaviour is, where no report was found) and the Kivy versions it was verified on. It reaches into
internals that another version may have changed or fixed, so it is applied only on those versions; on
any other it does nothing and says so once in the log. After upgrading Kivy, run
tests/gui/test_kivy_fixes.py: it shows each behaviour still there (or gone), and then the version is
added to :data:`VERIFIED` (or the workaround removed).

Each workaround here keeps a screen let go from living past the collection that should free it
(docs/architecture.md, "memory").
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
    "SCROLL_BAR_FADE_KEEPS_LIST",
    "forget_last_text_box",
    "kivy_version",
    "release_left_screen",
    "stop_what_runs_on",
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

SCROLL_BAR_FADE_KEEPS_LIST = Workaround(
    "scroll bar fade keeps a list that left",
    "ScrollView fades its scroll bar after every scroll update (laying out a list counts): a Clock trigger "
    "half a second later (ScrollView._bind_inactive_bar_color_ev, which holds the list while it is due), "
    "then a half-second Animation, kept in Animation._instances, a set of the class (made at start-up, "
    "so frozen out of the cycle collector's sight with start-up's heap); a list flung still has its "
    "effects' velocity trigger due every frame until it stops. A screen left within a second of its list "
    "moving outlives the collection that should free it, and nothing collects it until the next pause",
    None,  # searched kivy/kivy's issues and pull requests: none reports it
)

WORKAROUNDS = (TEXT_BOX_KEPT, TRANSITION_KEEPS_SCREEN, SCROLL_BAR_FADE_KEEPS_LIST)

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


def stop_what_runs_on(screen: Any) -> int:
    """Stop what Kivy still runs on the widgets of a screen let go, so the collection that follows
    frees it: every animation on them (Kivy's own API), and each list's scroll bar fade and fling
    (:data:`SCROLL_BAR_FADE_KEEPS_LIST`); how many were running."""
    from kivy.animation import Animation
    from kivy.uix.scrollview import ScrollView

    fixes = applies(SCROLL_BAR_FADE_KEEPS_LIST)
    animations: set[Any] = getattr(Animation, "_instances", set())  # only to count them: cancel_all is the API
    running = len(animations)
    stopped = 0
    for widget in screen.walk(restrict=True):
        Animation.cancel_all(widget)
        if not fixes or not isinstance(widget, ScrollView):
            continue
        fade = getattr(widget, "_bind_inactive_bar_color_ev", None)
        if fade is not None and fade.is_triggered:
            fade.cancel()
            stopped += 1
        for effect in (widget.effect_x, widget.effect_y):
            trigger = getattr(effect, "trigger_velocity_update", None)
            if trigger is not None and trigger.is_triggered:
                trigger.cancel()
                effect.velocity = 0
                stopped += 1
    return stopped + running - len(animations)
