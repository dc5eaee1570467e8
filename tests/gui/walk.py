"""Playing one action of a game from the touchscreen, whatever the action: the banker's generic hands.

:func:`play` starts an action where the screen offers it (a table button, or its button under
More...), then answers whatever the app asks next, screen by screen, the way a banker would who takes
the first answer the rules allow: the first live tile of a chooser, the smallest quick amount on the
keypad, the form's confirm (after its first tiles), a deed and some cash in a trade, a bidder and a
step at an auction, Yes on a confirming step. It ends back on a screen where flows end, with the
action done, refused (a reason in a bubble) or impossible now (no answer the rules allow).
"""

from __future__ import annotations

import random

#: Actions played last: they end a player's game or the game.
LAST = ("bankrupt", "end_game")

#: Screens where an action's flow has ended.
RESTING = ("table", "deeds", "loans", "more", "over", "history", "unit")

#: How each screen of a flow is left without doing anything.
WAY_OUT = {
    "ask": "cancel",
    "amount": "cancel",
    "form": "cancel",
    "trade": "cancel",
    "auction": "back",
    "card": "back",
    "more": "back",
    "deeds": "back",
    "loans": "back",
    "history": "back",
    "over": "back",
    "unit": "back",
    "requests": "back",
    "join": "back",
    "settings": "back",
}


def named(hands, prefix: str) -> list:
    return [w for w in hands.all() if str(getattr(w, "name", "") or "").startswith(prefix)]


def box_open(hands):
    """The confirming box on show, if any."""
    from kivy.core.window import Window

    from companion.ui.widgets import ConfirmBox

    return next((c for c in Window.children if isinstance(c, ConfirmBox)), None)


def to_table(hands) -> None:
    """Back to the table from wherever the screen is, by tapping the way out."""
    for _ in range(6):
        box = box_open(hands)
        if box is not None:
            hands.tap("confirm-no")
            hands.until("the box to close", lambda: box_open(hands) is None, 5)
            continue
        if hands.screen == "table":
            return
        screen = hands.screen
        hands.tap(WAY_OUT.get(screen, "back"))
        hands.until(
            f"the {screen} screen to close",
            lambda screen=screen: hands.screen != screen or box_open(hands) is not None,
            5,
        )
    assert hands.screen == "table", f"stuck on {hands.screen}"


def start(hands, action: str) -> bool:
    """Open an action's flow from the table or More...; False when no button offers it."""
    from companion.ui import flows

    to_table(hands)
    if hands.has(action):
        hands.tap(action)
        return True
    hands.tap("more")
    hands.until("More to show", lambda: hands.screen == "more")
    if action in flows.ON_SETTINGS:  # the game's table options: a button each on Settings, one tap an entry
        hands.tap("go-settings")
        hands.until("Settings to show", lambda: hands.screen == "settings")
        switches = named(hands, "option-")
        if not switches:
            return False
        hands.tap(widget=switches[0])
        return True
    if not hands.has(f"action-{action}"):
        return False
    hands.tap(f"action-{action}")
    return True


def _step(hands) -> str | None:
    """Answer what the screen asks now; None to go on, else how the flow ended."""
    if hands.bubble():
        return "refused"
    if box_open(hands) is not None:
        hands.tap("confirm-yes")
        hands.until("the box to close", lambda: box_open(hands) is None, 5)
        return None
    screen = hands.screen
    if screen in RESTING:
        return "ended"
    if screen == "ask":
        strip = hands.current.ids.spinner
        if strip.spinning and any(w.selected for w in named(hands, "choice-")):
            # a district tapped while the build spinner turns shows as chosen: it is asked when the
            # spinner stops, and the banker waits for that rather than tapping it again (a second
            # finger held by the list over the stop is rightly swallowed: the box came under it)
            hands.until("the spinner to stop", lambda: hands.screen != "ask" or not strip.spinning, 30)
            return None
        live = [w for w in named(hands, "choice-") if not getattr(w, "refused", "")]
        if not live:
            return "impossible"
        hands.tap(widget=live[0])
        return None
    if screen == "amount":
        current = hands.current
        for side in sorted(current.sides_shown):  # a side still to choose: the first player who may
            if not current.form.values.get(side) and side in ("from", "to"):
                other = str(current.form.values.get({"from": "to", "to": "from"}[side]) or "")
                tiles = [w for w in named(hands, f"{side}-") if w.account != other]
                if tiles:
                    hands.tap(widget=tiles[0])
        if not current.ready:
            quick = named(hands, "quick-")
            if not quick:
                return "impossible"
            hands.tap(widget=min(quick, key=lambda w: w.value))
        hands.tap("confirm")
        return None
    if screen == "form":
        if not hands.current.ready:
            rows = hands.current.ids.rows
            from companion.ui.widgets import Tap

            tiles = [
                w
                for w in rows.walk(restrict=True)
                if isinstance(w, Tap)
                and w.width > 1
                and w.opacity > 0
                and not w.disabled
                and not w.selected
                and not str(w.name).endswith("-figure")
            ]
            if not tiles:
                return "impossible"
            hands.tap(widget=tiles[0])
            return None
        hands.tap("confirm")
        return None
    if screen == "trade":
        view = hands.current.view
        if not view.get("ready"):
            others = [w for w in named(hands, "get-player-") if not w.selected]
            if others and not any(w.selected for w in named(hands, "get-player-")):
                hands.tap(widget=others[0])
            deeds = named(hands, "give-deed-") + named(hands, "give-cash-")
            if not deeds:
                return "impossible"
            hands.tap(widget=deeds[0])
            if not hands.current.view.get("ready"):
                return "impossible"
        hands.tap("confirm")
        return None
    if screen == "auction":
        bidders = named(hands, "bidder-")
        steps = named(hands, "raise-")
        if not bidders or not steps:
            return "impossible"
        hands.tap(widget=bidders[0])
        hands.tap(widget=steps[0])
        hands.tap("sold")
        return None
    return "impossible"


def play(hands, action: str, steps: int = 14) -> str:
    """Play ``action`` from the touchscreen: "ended" (done, or left on a screen where flows end),
    "refused", "impossible" (nothing the rules allow to answer), "absent" (no button offers it)."""
    if not start(hands, action):
        return "absent"
    how = "impossible"
    for _ in range(steps):
        hands.pump(2)
        ended = _step(hands)
        if ended is not None:
            how = ended
            break
    to_table(hands)
    return how


def evening_under_way(folder, pack: str, options: dict, seed: int = 7, actions: int = 100):
    """A game file with an evening under way (three players, ``actions`` accepted actions a banker
    might take, seeded): deeds bought, built on and mortgaged, loans taken, nobody bankrupt yet."""
    from companion.core.errors import BankerError
    from companion.service import Banker
    from tests.random_actions import GENERATORS

    path = folder / f"{pack}-{seed}.game"
    banker = Banker.create(path, pack, [{"name": n} for n in ("Ann", "Bob", "Cy")], options)
    rnd = random.Random(seed)
    made = 0
    for _ in range(actions * 4):
        if made >= actions:
            break
        action = GENERATORS[pack](banker.table, rnd)
        if action.get("action") in LAST:
            continue
        try:
            banker.do(action)
            made += 1
        except BankerError:
            pass
    banker.close()
    return path
