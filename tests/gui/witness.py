"""What was on the screen when the finger went down: the instrument the law's tests and the monkey share.

A :class:`Witness` watches the running app from outside its code:

- every frame it notes each tappable widget in sight (a ``ButtonBehavior`` drawn on the window, not
  hidden) and when it came into sight where it is now, saying what it says now (its promise), on its
  own clock, not the app's;
- at every touch-down (it is the first handler of the window's ``on_touch_down``) it writes down a
  :class:`Sighting`: the screen's name, every text in sight, the widget the finger came down on (the
  topmost tappable one there, the way Kivy hands touches down), the texts under the finger (that
  widget's, and the deed tile it sits on for a chip) and how long that widget had been in sight.

:func:`lawful` compares a log entry with the sighting of the tap that committed it: money moved only if
the screen showed the entry's sentence (a confirming step) or the texts under the finger said each sum
moved and each player who pays or gets it (the button itself: "Mortgage: Ann gets $30"). Undo and Redo
name what they take back.
"""

from __future__ import annotations

import time
import weakref
from dataclasses import dataclass, field
from typing import Any


@dataclass
class Sighting:
    """One touch-down and what was in sight at that moment."""

    at: float  # monotonic
    pos: tuple[float, float]
    screen: str
    screen_texts: list[str]
    finger_texts: list[str]
    widget: Any = None  # weak reference to the widget the finger came down on
    name: str = ""
    in_sight: float | None = None  # seconds the widget had been in sight where it was (None: never seen)
    released: bool = field(default=False)

    def finger(self) -> str:
        return " | ".join(self.finger_texts)


def _visible(w) -> bool:
    while w is not None:
        if getattr(w, "opacity", 1) == 0:
            return False
        parent = w.parent
        w = parent if parent is not w else None
    return True


def _shown_in_order(root):
    """Every widget under ``root`` (itself included) in the order of ``root.walk(restrict=True)``, each
    with whether it is shown (:func:`_visible`) and the ancestors that move what they hold (the lists,
    the screens: a ``to_parent`` of their own), the nearest first: one pass over the tree instead of a
    walk up to the window for each widget."""
    out: list[tuple[Any, bool, tuple]] = []

    def visit(w, shown: bool, movers: tuple) -> None:
        shown = shown and getattr(w, "opacity", 1) != 0
        out.append((w, shown, movers))
        inner = (w, *movers) if _moves(w) else movers
        for child in reversed(w.children):
            visit(child, shown, inner)

    parent = root.parent
    visit(root, parent is None or parent is root or _visible(parent), _movers(root))
    return out


_MOVES: dict[type, bool] = {}


def _moves(w) -> bool:
    """Whether ``w``'s ``to_parent`` moves a point (a list, a screen: not Kivy's plain widget's, which
    gives it back unchanged), known once per class. ``w`` may be a weak proxy (kv's ids): its method
    is asked, as the proxy's type says nothing of the widget's."""
    kind = type(w)
    known = _MOVES.get(kind)
    if known is None:
        from kivy.uix.widget import Widget
        from kivy.weakproxy import WeakProxy

        known = getattr(w.to_parent, "__func__", None) is not Widget.to_parent
        if kind is not WeakProxy:
            _MOVES[kind] = known
    return known


def _movers(w) -> tuple:
    """The ancestors of ``w`` that move a point (:func:`_moves`), nearest first: the only steps of
    ``w.to_window`` that change a coordinate."""
    from kivy.uix.widget import Widget

    found = []
    parent = w.parent
    while isinstance(parent, Widget) and parent.parent is not parent:
        if _moves(parent):
            found.append(parent)
        parent = parent.parent
    return tuple(found)


def _texts(w) -> list[str]:
    out = []
    for x, shown, _ in _shown_in_order(w):
        text = getattr(x, "text", None)
        if isinstance(text, str) and text.strip() and shown and x.width > 1 and x.height > 1:
            out.append(text)
    return out


def _rect(w, movers: tuple | None = None) -> tuple:
    """Where a widget is, and what it promises (the money it shows, the entry an Undo names): a
    widget moved, grown or saying something else is new to the eye. ``movers``: the ancestors that
    move a point (:func:`_movers`), when already known; the same figures as ``w.to_window``, which
    takes the same steps (every other ancestor's ``to_parent`` gives the point back unchanged)."""
    x0, y0, x1, y1 = w.x, w.y, w.right, w.top
    for parent in _movers(w) if movers is None else movers:
        x0, y0 = parent.to_parent(x0, y0)
        x1, y1 = parent.to_parent(x1, y1)
    return (round(x0), round(y0), round(x1), round(y1), getattr(w, "promise", None))


class Witness:
    """Watches the app's window: what is in sight each frame drawn, and each touch-down's sighting.

    ``watch``: note what is in sight frame by frame (the time each tappable widget has been in sight,
    for the tap guard's check); without it only the touch-downs are written down (the law's walk,
    whose simulated touches leave the tap guard out)."""

    def __init__(self, app, *, watch: bool = True) -> None:
        from kivy.core.window import Window

        self.app = app
        self.sightings: list[Sighting] = []
        self._seen: dict[int, tuple[Any, tuple, float]] = {}  # id -> (weakref, rect, since)
        self.watch = watch
        Window.bind(on_touch_down=self._down)
        if watch:
            # What is in sight changes only with a frame drawn (the app asks for one when a tappable
            # widget moves, grows, shows or says something else: widgets._watch_the_glass), so the
            # witness looks as each frame is put on the glass, as the app's tap guard stamps it
            Window.bind(on_flip=self.look)
            self.look()

    def close(self) -> None:
        from kivy.core.window import Window

        Window.unbind(on_touch_down=self._down)
        if self.watch:
            Window.unbind(on_flip=self.look)

    # -- every frame drawn: what is in sight, since when ---------------------------------------------
    def _in_sight_now(self) -> list[tuple[Any, tuple]]:
        """Every tappable widget on the window (a ``ButtonBehavior`` drawn, not hidden) with its
        :func:`_rect`, in the order of the window's walk."""
        from kivy.core.window import Window
        from kivy.uix.behaviors import ButtonBehavior

        found = []
        for root in Window.children:
            for w, shown, movers in _shown_in_order(root):
                if shown and isinstance(w, ButtonBehavior) and w.width > 1 and w.height > 1:
                    found.append((w, _rect(w, movers)))
        return found

    def _tappable(self):
        for w, _ in self._in_sight_now():
            yield w

    def look(self, *_: object) -> None:
        now = time.monotonic()
        seen = {}
        for w, rect in self._in_sight_now():
            key = id(w)
            old = self._seen.get(key)
            since = old[2] if old is not None and old[0]() is w and old[1] == rect else now
            seen[key] = (weakref.ref(w), rect, since)
        self._seen = seen

    def in_sight(self, w, now: float) -> float | None:
        old = self._seen.get(id(w))
        if old is None or old[0]() is not w or old[1] != _rect(w):
            return None
        return now - old[2]

    # -- each touch-down -----------------------------------------------------------------------------
    def touch_order(self) -> list:
        """The tappable widgets in the order Kivy offers a touch to them (the topmost first: the
        window's last child first, each widget's children before itself, nothing under a hidden
        widget), each with its :func:`_rect`; a box on top takes every touch, so the list ends at the
        first box with a None. :meth:`under` reads it: one pass over the tree for many points."""
        from kivy.core.window import Window
        from kivy.uix.behaviors import ButtonBehavior
        from kivy.uix.modalview import ModalView

        order: list = []

        def search(w, movers: tuple) -> None:
            if getattr(w, "opacity", 1) == 0:
                return
            inner = (w, *movers) if _moves(w) else movers
            for child in w.children:
                search(child, inner)
            if isinstance(w, ButtonBehavior) and w.width > 1 and w.height > 1:
                order.append((w, _rect(w, movers)))

        for root in Window.children:
            search(root, _movers(root))
            if isinstance(root, ModalView):
                order.append(None)
                break
        return order

    def under(self, x: float, y: float, order: list | None = None):
        """The tappable widget a touch at (x, y) comes down on: the topmost, in Kivy's order (a box
        on top takes every touch). ``order``: :meth:`touch_order` already taken, for the screen as
        it still stands."""
        for entry in self.touch_order() if order is None else order:
            if entry is None:
                return None
            w, (x0, y0, x1, y1, _) = entry
            if x0 <= x <= x1 and y0 <= y <= y1:
                return w
        return None

    def screen_texts(self) -> list[str]:
        from kivy.core.window import Window

        out: list[str] = []
        for root in Window.children:
            if root is self.app.root:
                out += _texts(self.app.layer) + _texts(self.app.screens[self.app.manager.current])
            else:
                out += _texts(root)
        return out

    def _down(self, _window, touch) -> None:
        now = time.monotonic()
        x, y = touch.pos
        w = self.under(x, y)
        finger: list[str] = []
        if w is not None:
            finger = _texts(w)
            parent = w.parent
            for _ in range(3):  # a chip reads with the deed tile it sits on
                if parent is None or parent is parent.parent:
                    break
                if type(parent).__name__ == "ChoiceWithOthers":
                    finger += [t for t in _texts(parent) if t not in finger]
                    break
                parent = parent.parent
        self.sightings.append(
            Sighting(
                at=now,
                pos=(x, y),
                screen=self.app.manager.current,
                screen_texts=self.screen_texts(),
                finger_texts=finger,
                widget=weakref.ref(w) if w is not None else None,
                name=str(getattr(w, "name", "") or ""),
                in_sight=self.in_sight(w, now) if w is not None else None,
            )
        )

    def last(self) -> Sighting | None:
        return self.sightings[-1] if self.sightings else None


# -- the law, checked -------------------------------------------------------------------------------
def nets(entry) -> dict[str, int]:
    """What each account gained (+) or lost (-) in a log entry."""
    out: dict[str, int] = {}
    for e in entry.events:
        if e.get("type") == "Paid" and e["amount"]:
            out[e["from"]] = out.get(e["from"], 0) - e["amount"]
            out[e["to"]] = out.get(e["to"], 0) + e["amount"]
    return {a: n for a, n in out.items() if n}


def _said(text: str, sentence: str) -> bool:
    return sentence[:1].upper() + sentence[1:] in text or sentence in text


def lawful(entry, sighting: Sighting | None, fmt, players: set[str], undone: str | None = None) -> str | None:
    """None when the entry's money was on the screen under the finger before the tap that made it,
    else why not. ``undone``: for an undo or redo, the sentence of the entry it takes back or brings back."""
    moved = nets(entry)
    if not moved:
        return None
    if sighting is None:
        return f"{entry.summary!r} moved money with no tap seen"
    if entry.kind in ("undo", "redo"):
        if undone and any(undone[:30] in t for t in sighting.finger_texts + sighting.screen_texts):
            return None  # the button, or the question it answers ("Undo: ...?"), named it
        return f"{entry.kind} of {undone!r} from a tap on {sighting.finger()!r}"
    if any(_said(t, entry.summary) for t in sighting.screen_texts):
        return None  # a confirming step carried the sentence
    finger = " ".join(sighting.finger_texts)
    missing = [fmt(abs(n)) for a, n in moved.items() if fmt(abs(n)) not in finger]
    missing += [a for a in moved if a in players and a not in finger]
    if not missing:
        return None
    return (
        f"{entry.summary!r} committed by a tap on {sighting.finger()!r} on the {sighting.screen} screen, "
        f"which did not show {', '.join(missing)}"
    )


class Referee:
    """Checks the ledger after every tap against what the witness saw: every new entry's money was on
    the screen under the finger (:func:`lawful`); money is conserved and nobody but the bank is below
    zero; and (``guard``) no entry came from a tap on a widget in sight for less than the tap guard's
    time. Problems are collected in ``problems``; ``committed`` lists the actions done."""

    #: The witness notes what is in sight once a frame; the app stamps a widget on the frame that draws it.
    SLACK = 0.03

    def __init__(self, desk, witness: Witness, *, guard: bool = True) -> None:
        self.desk = desk
        self.witness = witness
        self.guard = guard
        self.version = desk.version
        self.problems: list[str] = []
        self.committed: list[str] = []

    def __call__(self, _widget=None) -> None:
        from companion.ui.widgets import SEEN_SECONDS

        desk = self.desk
        if desk.version == self.version:
            return
        entries = desk.banker.log(self.version)
        self.version = desk.version
        seen = self.witness.last()
        players = set(desk.table["order"])
        for entry in entries:
            if str(entry.action_id or "").startswith("unit-auction-"):
                continue  # the trading unit's light went off: the box's own rule sells, not a tap
            self.committed.append(entry.action.get("action", entry.kind) if entry.kind == "do" else entry.kind)
            undone = entry.summary.split(": ", 1)[-1] if entry.kind in ("undo", "redo") else None
            why = lawful(entry, seen, desk.fmt, players, undone)
            if why:
                self.problems.append(why)
            if (
                self.guard
                and nets(entry)
                and seen is not None
                and (seen.in_sight is None or seen.in_sight < SEEN_SECONDS - self.SLACK)
            ):
                self.problems.append(
                    f"{entry.summary!r} came from a tap on {seen.name or seen.finger()!r}, in sight "
                    f"{'never' if seen.in_sight is None else f'{seen.in_sight * 1000:.0f} ms'} before"
                )
        accounts = desk.table["accounts"]
        if sum(accounts.values()) != 0:
            self.problems.append(f"money not conserved after {entries[-1].summary!r}: {sum(accounts.values())}")
        below = [a for a, v in accounts.items() if a != "bank" and v < 0]
        if below:
            self.problems.append(f"{', '.join(below)} below zero after {entries[-1].summary!r}")
