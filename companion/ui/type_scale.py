"""The touchscreen's type scale: the few text sizes every label uses, in px at ``app.u == 1`` (800x480).

Kivy opens one FreeType font per (font file, size, bold) the first time a label asks for it and
keeps it open for the whole run, so every distinct size costs memory for the rest of the evening.
Text therefore comes in these steps only (``app.u * STEPS["body"]``, or ``app.u * 20`` in kv), and a
big figure that must shrink to fit its box shrinks through the steps, never to an arbitrary size.
"""

from __future__ import annotations

__all__ = ["STEPS", "SIZES", "SMALLEST", "at_most", "shrunk", "window_u"]

#: The named steps, smallest first.
STEPS: dict[str, int] = {
    "small": 18,  # second lines: details, hints, long questions
    "body": 20,  # words and captions
    "large": 24,  # buttons and headings
    "title": 32,  # a screen's one big line, figures in a row
    "figure": 40,  # a balance on a player's tile, the amount being typed
    "huge": 64,  # the auction's countdown
    "dial": 112,  # the trading unit's countdown, read from across the table
}

#: The sizes alone, smallest first.
SIZES: tuple[int, ...] = tuple(sorted(STEPS.values()))
SMALLEST: int = SIZES[0]


def at_most(wanted: float) -> int:
    """The largest step not above ``wanted`` (px at ``app.u == 1``); the smallest step if none is."""
    fitting = [size for size in SIZES if size <= wanted + 1e-6]
    return fitting[-1] if fitting else SMALLEST


def shrunk(step: float, room: float, width: float) -> int:
    """The step a figure drawn ``width`` px wide at ``step`` takes to fit ``room`` px: the largest step
    that should fit (text width grows with its size) and always one below ``step``, so that shrinking
    ends; never below the smallest step (there the label shortens instead)."""
    if width <= room:
        return at_most(step)
    below = [size for size in SIZES if size < step - 1e-6]
    if not below:
        return SMALLEST
    return min(at_most(step * room / width), below[-1])


def window_u(width: float, height: float) -> float:
    """The scale of every size for a window of ``width`` x ``height`` px: 1.0 on the 800x480 display.
    It is ``app.u``, for widgets that may be shown without the app (the trading unit)."""
    return max(0.5, min(width / 800.0, height / 480.0))
