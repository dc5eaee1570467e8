"""A monkey at the banker's screen: a seeded random walk with the real pointer, checking after every tap.

:func:`run` taps, with the X server's pointer (xdotool under Xvfb), a widget chosen at random among
those a finger can reach on the screen as it stands (the topmost tappable widget under its centre),
the next tap 150 to 600 ms after the last one went down (most of them quick: a triangular spread
whose peak is at 150 ms). It never waits for a widget to have been seen: taps land on screens just
changed, on boxes just opened, on tiles just refilled, as a hurried banker's do. After every tap the
:class:`tests.gui.witness.Referee` checks that the app still runs (an exception in a callback ends
the walk with its traceback), money is conserved in the ledger and nobody but the bank is below zero,
every new entry's sentence or sums were on the screen under the finger when the tap that committed
it went down, and no entry came from a tap on a widget in sight for less than the tap guard's time.

What leaves the game or the app is never tapped: quitting, other games, deleting, a new game, backups
and USB copies, the phones' network settings.
"""

from __future__ import annotations

import random
import time

#: Widgets the monkey leaves alone (by name, or a name's start): they leave this game or the app.
LEAVE_ALONE = (
    "quit",
    "usb-backup",
    "restore",
    "save-network",
    "new-game",
    "start-game",
    "same-players",
    "go-start",
    "revoke",
    "delete-",
    "add-player",
    "remove",
    "colour",
    "option-",
    "back-to-games",
)

#: The pace between two taps going down: from, to, and the most common gap (seconds).
PACE = (0.15, 0.6, 0.15)


#: How far inside the window's edge a finger lands at the least (px): the glass ends there.
EDGE = 2


def in_sight(w) -> tuple[float, float, float, float] | None:
    """The part of ``w`` a person sees on the glass, (left, bottom, right, top) in window coordinates:
    its box, cut by every list holding it (a list shows only what lies inside it) and by the window's
    edge; None when too little of it shows to aim at."""
    from kivy.core.window import Window
    from kivy.uix.stencilview import StencilView

    left, bottom = w.to_window(w.x, w.y)
    right, top = w.to_window(w.right, w.top)
    parent = w.parent
    while parent is not None and parent is not parent.parent:  # the window is its own parent
        if isinstance(parent, StencilView):  # a ScrollView draws nothing outside itself
            x0, y0 = parent.to_window(parent.x, parent.y)
            x1, y1 = parent.to_window(parent.right, parent.top)
            left, bottom, right, top = max(left, x0), max(bottom, y0), min(right, x1), min(top, y1)
        parent = parent.parent
    left, bottom = max(left, EDGE), max(bottom, EDGE)
    right, top = min(right, Window.width - EDGE), min(top, Window.height - EDGE)
    return (left, bottom, right, top) if right - left > 2 * EDGE and top - bottom > 2 * EDGE else None


def reachable(witness, order: list | None = None) -> list:
    """The tappable widgets a finger can reach now, each with the part of it in sight: some of it shows
    on the glass, and it is the topmost widget at that part's centre. ``order``: the witness's
    :meth:`~tests.gui.witness.Witness.touch_order` of the screen as it stands (taken here if not given)."""
    if order is None:
        order = witness.touch_order()
    out = []
    for w in witness._tappable():
        name = str(getattr(w, "name", "") or "")
        if any(name == n or (n.endswith("-") and name.startswith(n)) for n in LEAVE_ALONE):
            continue
        if type(w).__name__ == "SavedGameTile":
            continue
        seen = in_sight(w)
        if seen is None:
            continue
        left, bottom, right, top = seen
        if witness.under((left + right) / 2, (bottom + top) / 2, order) is w:
            out.append((w, seen))
    return out


def aim(
    rnd: random.Random, witness, w, seen: tuple[float, float, float, float], order: list | None = None
) -> tuple[float, float]:
    """Where the finger lands: a point in the part of ``w`` in sight, not always its very centre (a
    finger is not precise), and on ``w`` itself (not on a widget lying over a corner of it); the centre
    of what shows when the jittered point is not."""
    left, bottom, right, top = seen
    x = (left + right) / 2 + rnd.uniform(-0.3, 0.3) * (right - left)
    y = (bottom + top) / 2 + rnd.uniform(-0.3, 0.3) * (top - bottom)
    if witness.under(x, y, order) is w:
        return x, y
    return (left + right) / 2, (bottom + top) / 2


def run(hands, seed: int, taps: int, referee, witness) -> list[str]:
    """``taps`` random taps (seeded); returns where they landed, for the report of a failure."""
    rnd = random.Random(seed)
    trail: list[str] = []
    last = 0.0
    for step in range(taps):
        hands.turn()
        order = witness.touch_order()
        choices = reachable(witness, order)
        if not choices:
            hands.until("something to tap", lambda: bool(reachable(witness)), 10)
            order = witness.touch_order()
            choices = reachable(witness, order)
        w, in_view = rnd.choice(choices)
        x, y = aim(rnd, witness, w, in_view, order)
        gap = rnd.triangular(*PACE)
        hands.until("the monkey's pace", lambda last=last, gap=gap: time.monotonic() - last >= gap, gap + 5)
        seen = len(witness.sightings)
        trail.append(
            f"{step}: {hands.screen}/{getattr(w, 'name', '') or getattr(w, 'text', '')!s:.40} at ({x:.0f},{y:.0f})"
        )
        last = time.monotonic()
        hands.pointer.press_at(x, y)
        try:
            hands.until("the tap to reach the window", lambda seen=seen: len(witness.sightings) > seen, 10)
        except AssertionError as lost:
            raise AssertionError(f"{lost}; {hands.pointer.where()}\nthe last taps:\n" + "\n".join(trail[-8:])) from None
        hands.turn()
        referee()
        if referee.problems:
            break
    return trail
