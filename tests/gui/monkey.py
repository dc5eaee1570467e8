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


def reachable(witness) -> list:
    """The tappable widgets a finger can reach now: in the window, and the topmost at their centre."""
    from kivy.core.window import Window

    out = []
    for w in witness._tappable():
        name = str(getattr(w, "name", "") or "")
        if any(name == n or (n.endswith("-") and name.startswith(n)) for n in LEAVE_ALONE):
            continue
        if type(w).__name__ == "SavedGameTile":
            continue
        x, y = w.to_window(*w.center)
        if not (2 < x < Window.width - 2 and 2 < y < Window.height - 2):
            continue
        if witness.under(x, y) is w:
            out.append((w, x, y))
    return out


def run(hands, seed: int, taps: int, referee, witness) -> list[str]:
    """``taps`` random taps (seeded); returns where they landed, for the report of a failure."""
    rnd = random.Random(seed)
    trail: list[str] = []
    last = 0.0
    for step in range(taps):
        hands.turn()
        choices = reachable(witness)
        if not choices:
            hands.until("something to tap", lambda: bool(reachable(witness)), 10)
            choices = reachable(witness)
        w, x, y = rnd.choice(choices)
        # a point inside the widget, not always its very centre (a finger is not precise)
        x += rnd.uniform(-0.3, 0.3) * w.width
        y += rnd.uniform(-0.3, 0.3) * w.height
        gap = rnd.triangular(*PACE)
        hands.until("the monkey's pace", lambda last=last, gap=gap: time.monotonic() - last >= gap, gap + 5)
        seen = len(witness.sightings)
        trail.append(f"{step}: {hands.screen}/{getattr(w, 'name', '') or getattr(w, 'text', '')!s:.40}")
        last = time.monotonic()
        hands.pointer.press_at(x, y)
        hands.until("the tap to reach the window", lambda seen=seen: len(witness.sightings) > seen, 10)
        hands.turn()
        referee()
        if referee.problems:
            break
    return trail
