"""Which screens live while the banker looks at another: the table, the one shown, and the screens of
a flow still under way. Every other screen is let go once off the window and made afresh (from the
game as it stands) the next time it is shown, so an evening never holds more than a turn needs.

Pure: the app asks, then does the letting go (see ``TableBankerApp._let_go_of_left_screens``).
"""

from __future__ import annotations

from typing import Iterable

__all__ = ["FLOW_SCREENS", "KEPT", "screens_to_let_go"]

#: The screen every turn starts and ends on: made once, kept for the whole run.
KEPT = "table"

#: The screens an action's flow passes through, and the new game's form. What the banker chose lives
#: on them (the form so far, a structured field's tiles, the deal, the lot and its bids, the card
#: being corrected, the deed whose card is open), and a flow hops between them (the auction asks its deed on the chooser, the deed
#: card opens a trade), so they stay until the table is back: every flow ends there.
FLOW_SCREENS = frozenset({"amount", "ask", "form", "auction", "trade", "card", "deeds", "setup"})


def screens_to_let_go(made: Iterable[str], shown: str, busy: Iterable[str] = ()) -> list[str]:
    """The screens to let go while ``shown`` is on the window: every screen made but the table and the
    one shown; a flow's screens only once the table is shown; never one ``busy`` with something still
    running (an auction's countdown)."""
    busy = set(busy)
    return sorted(
        name
        for name in made
        if name not in (KEPT, shown) and name not in busy and (name not in FLOW_SCREENS or shown == KEPT)
    )
