"""Surveys of every screen: each family's screens and the first screen of each of its actions, opened
through the app's own navigation and read (test_words, test_type_scale, test_nothing_cut).

A survey reads what a screen shows once it is laid out: its widgets' places and sizes, each label's
text, its lines and its texture's size, fonts. Kivy makes all of that on its clock, before a frame is
drawn (the layouts' and the labels' updates run in the clock's turn before the frame), so a survey
turns the loop without drawing (:func:`glance`) until the screen stops changing (:func:`look`): no
frame is drawn at a person's pace, only for a screenshot. Tests about taps use the hands' real turns
(:mod:`tests.gui.hands`).

A survey reaches every screen and every action from the table, as the banker does: the screen it
leaves is set back or let go there, as after a real visit (going from screen to screen instead kept
the screens a flow passes through made until the table came back, and every collection after a
screen let go walked them again).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

from tests.gui.hands import SCREENS as EVERY_SCREEN, Hands

__all__ = ["SCREENS", "action_screens", "close_boxes", "glance", "look", "show"]

#: Every screen that can be shown without an action under way (the keypad and the chooser are the
#: first screens of actions: :func:`action_screens`).
SCREENS = list(EVERY_SCREEN)

#: The most turns a look waits for a screen to stop changing (a screen laid out takes two to four).
MOST_TURNS = 30


def glance() -> None:
    """One turn of the app's loop without drawing: the clock's timers (a screen shown, let go, set
    back), input, kv's bindings, then what the clock runs before a frame (layout, labels' text)."""
    from kivy.base import EventLoop
    from kivy.clock import Clock
    from kivy.lang import Builder

    Clock.tick()
    EventLoop.dispatch_input()
    Builder.sync()
    Clock.tick_draw()
    Builder.sync()


def _on_show(bank: Hands) -> list:
    """What the screen shows, as a survey reads it: every widget's place, size and opacity, every
    text with its texture's size, every list's scroll (boxes on top, the layer, the screen)."""
    from kivy.core.window import Window

    app = bank.app
    roots = [w for w in Window.children if w is not app.root] + [app.layer, bank.current]
    seen: list = []
    for root in roots:
        for w in root.walk(restrict=True):
            seen.append(
                (
                    id(w),
                    w.x,
                    w.y,
                    w.width,
                    w.height,
                    w.opacity,
                    getattr(w, "text", None),
                    getattr(w, "texture_size", None),
                    getattr(w, "scroll_y", None),
                )
            )
    return seen


def look(bank: Hands) -> None:
    """Turn the loop, without drawing, until the screen on show reads the same for two turns running
    (laid out, its texts made); at most :data:`MOST_TURNS` turns."""
    last, still = None, 0
    for _ in range(MOST_TURNS):
        glance()
        now = _on_show(bank)
        still = still + 1 if now == last else 0
        if still == 2:
            return
        last = now


def show(bank: Hands, name: str, pack: str = "classic") -> None:
    """Show a screen as the banker reaches it (a deed's card, a lot, a trade of Ann's, a card to
    correct, this pack's new-game tab), and look at it."""
    app, desk = bank.app, bank.app.desk
    if bank.screen != "table":  # back to the table first, as the banker comes back to it: the last screen is let go
        app.show("table")
        look(bank)
    first_deed = next(iter(desk.table["deeds"]), "")
    if name == "deeds" and first_deed:
        app.screens["deeds"].deed = first_deed
    elif name == "auction":
        lots = [n for n, d in desk.table["deeds"].items() if not d.get("owner")]
        if lots:
            app.screens["auction"].open_lot(lots[0])
    elif name == "trade":
        app.screens["trade"].start("Ann")
    elif name == "card":
        app.screens["card"].deed = first_deed
    elif name == "setup":  # this pack's tab, with its options as the form shows them
        from companion.ui.games import NewGame

        app.screens["setup"].form = NewGame.start().choose_pack(pack)
    app.show(name)
    look(bank)


def action_screens(bank: Hands, wanted: Callable[[str], bool] = lambda screen: True) -> Iterator[str]:
    """Each action's first screen in turn, opened from the table (the common buttons, then More's; a
    one-tap action has no screen of its own), when ``wanted`` (given the screen's name) says so: yields
    the button's name while its screen is on show, closes the boxes it opened, and ends on the table."""
    from companion.ui import flows

    app = bank.app
    common, more = flows.buttons_for(app.desk.specs)
    for button in [b["name"] for b in common] + [m["name"] for m in more]:
        form = app.start(button)
        if form is None:
            continue
        field = app.desk.next_field(form.action, form.values)
        screen = flows.asking_screen(form, app.desk.specs[form.action], field)
        if screen is None or not wanted(screen):
            continue
        app.show("table")
        app.run_flow(form)
        look(bank)
        assert bank.screen == screen, f"{button} asked on the {bank.screen} screen, not the {screen} screen"
        every_answer_made(bank)
        yield button
        close_boxes(bank)
    app.show("table")
    look(bank)


def every_answer_made(bank: Hands) -> None:
    """A long chooser makes its tiles as the list comes near them: scrolled to its end and back, so
    every answer's tile is there to be read."""
    screen: Any = bank.current
    if getattr(screen, "made_all", True):
        return
    scroll = screen.ids.scroll
    for _ in range(MOST_TURNS):
        scroll.scroll_y = 0
        glance()
        if not screen.made_all:
            screen.make_shown()  # already at its end before it was laid out: no scroll to hear
        if screen.made_all:
            break
    assert screen.made_all, "the chooser never made every answer's tile"
    scroll.scroll_y = 1
    look(bank)


def close_boxes(bank: Hands) -> None:
    """Close any box a screen opened (a question, a refusal's box), at once."""
    from kivy.core.window import Window
    from kivy.uix.modalview import ModalView

    for child in list(Window.children):
        if isinstance(child, ModalView):
            child.dismiss(animation=False)
    look(bank)
