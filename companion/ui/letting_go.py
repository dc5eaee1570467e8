"""Which screens live while the banker looks at another: the table, the one shown, and the screens of
a flow still under way. Once done with, a screen is let go and made afresh (from the game as it
stands) the next time it is shown, so an evening never holds more than a turn needs; the few the
banker comes back to most are kept made instead and set back to as they were made (their widgets
stay, nothing of the visit does).

Pure: the app asks, then does the letting go (see ``TableBankerApp._let_go_of_left_screens``).
"""

from __future__ import annotations

from typing import Iterable

__all__ = [
    "FLOW_SCREENS",
    "KEPT",
    "MADE_ONCE",
    "COLLECT_AFTER_WIDGETS",
    "screens_done_with",
    "screens_to_let_go",
    "screens_to_set_back",
    "worth_collecting",
]

#: The screen every turn starts and ends on: made once, kept for the whole run.
KEPT = "table"

#: The screens an action's flow passes through, and the new game's form. What the banker chose lives
#: on them (the form so far, a structured field's tiles, the deal, the lot and its bids, the card
#: being corrected, the deed whose card is open), and a flow hops between them (the auction asks its deed on the chooser, the deed
#: card opens a trade), so they stay until the table is back: every flow ends there.
FLOW_SCREENS = frozenset({"amount", "ask", "form", "auction", "trade", "card", "deeds", "setup"})

#: The screens shown most often in an evening after the table (the menu of every other action, the
#: keypad of every payment, the chooser of every deed, player and count): made once and, when done
#: with, set back to as they were made instead of let go. Making a screen's widgets and freeing them
#: again was most of a visit's work (benchmarks/README.md, "Screens kept between visits"). The deeds
#: screen is made anew on each visit: its board of tiles was most of what keeping it cost (memory,
#: and the tidy-up at a pause) for little work saved where it is visited.
MADE_ONCE = frozenset({"amount", "ask", "more"})


def screens_done_with(made: Iterable[str], shown: str, busy: Iterable[str] = ()) -> list[str]:
    """The screens done with while ``shown`` is on the window: every screen made but the table and the
    one shown; a flow's screens only once the table is shown; never one ``busy`` with something still
    running (an auction's countdown)."""
    busy = set(busy)
    return sorted(
        name
        for name in made
        if name not in (KEPT, shown) and name not in busy and (name not in FLOW_SCREENS or shown == KEPT)
    )


def screens_to_let_go(
    made: Iterable[str], shown: str, busy: Iterable[str] = (), kept: frozenset[str] = MADE_ONCE
) -> list[str]:
    """The screens done with that are not ``kept`` made: let go, made afresh when next shown. Another
    game opened lets go of the kept ones too (``kept`` empty): what they hold is the last game's (its
    board of deeds, its menu of actions, its money's keys), and a game's kept screens are made anew
    for it."""
    return [name for name in screens_done_with(made, shown, busy) if name not in kept]


def screens_to_set_back(
    made: Iterable[str], shown: str, busy: Iterable[str] = (), kept: frozenset[str] = MADE_ONCE
) -> list[str]:
    """The screens done with that are ``kept`` made (:data:`MADE_ONCE`): set back to as they were made."""
    return [name for name in screens_done_with(made, shown, busy) if name in kept]


#: Widgets the kept screens' setting back may let go before the cycle collector is run for them: about
#: a small screen's worth (a chooser of two dozen deeds, a few payments' rows of payers and payees).
COLLECT_AFTER_WIDGETS = 100


def worth_collecting(screens_let_go: int, widgets_let_go: int, text_box_dropped: bool = False) -> bool:
    """Whether the cycle collector runs now for what was let go since it last ran: a whole screen let
    go (or the text box Kivy kept, which holds its screen), or the kept screens' setting back once
    their widgets let go add up to :data:`COLLECT_AFTER_WIDGETS`. A collection walks everything made
    since the heap last settled however little is garbage, so More shown and left (nothing let go)
    or one payment's rows of payers run none: they wait for the next one, or the tidy-up at a pause."""
    return screens_let_go > 0 or text_box_dropped or widgets_let_go >= COLLECT_AFTER_WIDGETS
