"""The touchscreen's building blocks: big flat buttons, player tiles, the refusal bubble, the confirm box.

Their look lives in ``kv/widgets.kv``; here is only behaviour. Sizes scale with ``app.u`` (1.0 on the
official 800x480 display), so a touch target of ``48 * app.u`` pixels is about 9 mm on every screen
the app supports.
"""

from __future__ import annotations

import math
import time
import weakref

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.factory import Factory
from kivy.properties import BooleanProperty, ListProperty, NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.floatlayout import FloatLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from . import type_scale

__all__ = [
    "lines_needed",
    "SEEN_SECONDS",
    "Sight",
    "Aimed",
    "touched_at",
    "FingerClock",
    "FINGER_CLOCK",
    "Tap",
    "PlayerTile",
    "AccountTile",
    "ReasonBubble",
    "DoneNote",
    "ConfirmBox",
    "Caption",
    "Figure",
    "show_reason",
    "show_done",
]


#: How long a widget must have been on the screen, where it is, before it takes a tap (seconds). A
#: finger's second tap of a double tap comes 100 to 200 ms after the first; a person's tap aimed at
#: something new on the screen comes 400 ms or more after it appeared (seeing it, deciding, moving):
#: see "The tap guard" in docs/touchscreen.md.
SEEN_SECONDS = 0.25


class Sight:
    """When the whole view last changed under the finger: a screen shown, a box opened or closed.
    Each guarded widget also knows when it was put on the window, moved or made visible.

    Both count from the frame that first draws the change (:func:`on_the_glass`), not from the code
    that made it: the work after a change (letting the last screen go, setting back a kept one) can
    hold the loop for a while under load, and a finger that comes meanwhile is dispatched before that
    frame is drawn, when nothing new was yet to be seen."""

    changed_at = 0.0
    _pending = False

    @classmethod
    def changed(cls, *_: object) -> None:
        cls.changed_at = time.monotonic()
        cls._pending = True
        _watch_the_glass()


def on_the_glass(*_: object) -> None:
    """A frame was drawn (the window's ``on_flip``): what changed since is in sight from now."""
    now = time.monotonic()
    if Sight._pending:
        Sight.changed_at = now
        Sight._pending = False
    if Aimed._shifted:
        for widget in list(Aimed._shifted):
            if widget not in Aimed._fresh:
                where = widget.on_the_window()
                if where != widget._drawn_at:  # moved on the glass, not only in its parent's reckoning
                    widget._put_at, widget._drawn_at = now, where
        Aimed._shifted.clear()
    if Aimed._fresh:
        for widget in list(Aimed._fresh):
            widget._put_at, widget._drawn_at = now, widget.on_the_window()
        Aimed._fresh.clear()


_watching: list[bool] = []


def _watch_the_glass() -> None:
    """Stamp at the next frame drawn, and make sure one is (a change that moves no pixel draws none)."""
    if not _watching:
        Window.bind(on_flip=on_the_glass)
        _watching.append(True)
    Window.canvas.ask_update()


class FingerClock:
    """When a finger can have gone down at the earliest: an input post-processing module of Kivy's
    loop (``EventLoop.add_postproc_module``), which sees every turn's fingers just before they are
    handed to the widgets.

    Kivy stamps a touch when the window reads it from the display (SDL's poll, once a turn, after the
    frame), not when the finger went down: a finger that came while the turn's work held the loop
    (letting a screen go, under load) is read only once the loop turns again, and looks as if it came
    then. A finger handed on in this turn was read by the look after the last turn's frame, so it came
    after the look before that one, which was after the turn before last began: it counts from then.
    So the guard errs towards a finger that came early, never late: a tap on something that had not
    been in sight a moment before the loop was held is swallowed, never taken."""

    KEY = "companion.earliest"  # in the touch's user data

    def __init__(self) -> None:
        self._before_last = 0.0  # when the turn before last handed on its fingers
        self._last = 0.0  # and the last turn

    def process(self, events: list) -> list:
        for kind, touch in events:
            if kind == "begin" and self.KEY not in touch.ud:
                touch.ud[self.KEY] = self._before_last
        self._before_last, self._last = self._last, time.monotonic()
        return events

    def counts_from(self) -> float:
        """When a finger that goes down now, between two turns of the loop, counts from at the earliest:
        a person's tap on a widget waits until it has been in sight for the guard since then."""
        return self._last


#: The app's loop has one (:meth:`TableBankerApp.build` adds it, and takes it out on stop).
FINGER_CLOCK = FingerClock()


def touched_at(touch) -> float:
    """When the finger went down, on the monotonic clock (a list hands a touch on a moment later).

    With the guard on, no later than :class:`FingerClock` says it can have come. A touch handed to a
    widget outside the loop's reading of fingers (a test's synthetic one) counts from no later than
    the start of the loop's turn that handles it."""
    started = getattr(touch, "time_start", None)
    now = time.monotonic()
    down = now if not isinstance(started, (int, float)) else now - min(max(0.0, time.time() - started), 5.0)
    if Aimed.seen_seconds <= 0:
        return down
    earliest = touch.ud.get(FingerClock.KEY) if isinstance(getattr(touch, "ud", None), dict) else None
    if isinstance(earliest, float):
        return min(down, earliest)
    turn_began = now - max(0.0, Clock.time() - Clock.get_time())
    return min(down, turn_began)


class Aimed:
    """A widget that takes a tap only if it was on the screen when the finger went down and had been
    there, where and as large as it is, for :data:`SEEN_SECONDS`: a double tap on Back never reaches what the screen
    change put under the finger. A tap on a widget too new is swallowed (nothing under it gets it)."""

    seen_seconds = SEEN_SECONDS  # tests of single screens tap faster than a person: they set it to 0
    _put_at = 0.0
    _fresh: "weakref.WeakSet[Aimed]" = weakref.WeakSet()  # put, shown or reworded since the last frame drawn
    #: Moved or resized in its parent's coordinates since the last frame drawn. That is new to the eye
    #: only if it moved on the window: a list that grows below (the chooser making its answers a few
    #: rows a frame) moves every answer in the list's own coordinates and scrolls them all back by as
    #: much, so the answer the banker is looking at stays where it was, in sight all along.
    _shifted: "weakref.WeakSet[Aimed]" = weakref.WeakSet()
    _shifted_at = 0.0
    _drawn_at: tuple | None = None  # where on the window the frame that last stamped it showed it

    def _stamp(self) -> None:
        self._put_at = time.monotonic()
        Aimed._fresh.add(self)  # stamped again by the frame that draws it (on_the_glass)
        _watch_the_glass()

    def _shift(self) -> None:
        self._shifted_at = time.monotonic()
        Aimed._shifted.add(self)  # judged by the frame that draws it: moved on the window, or not
        _watch_the_glass()

    def on_the_window(self) -> tuple | None:
        """Where it is on the window, and how large (None while it is on none)."""
        if self.get_root_window() is None:  # type: ignore[attr-defined]  # the Kivy widget after this mixin has it
            return None
        x, y = self.to_window(self.x, self.y)  # type: ignore[attr-defined]
        return (x, y, self.width, self.height)  # type: ignore[attr-defined]

    def _moved_unseen(self) -> bool:
        """Moved on the window since the last frame drawn, and not yet drawn where it is now."""
        return self in Aimed._shifted and self.on_the_window() != self._drawn_at

    def on_parent(self, _widget, parent) -> None:
        if parent is not None:
            self._stamp()

    def on_pos(self, *_: object) -> None:
        self._shift()

    def on_size(self, *_: object) -> None:
        self._shift()  # grown under the finger (the Undo bar, once Redo gives back its half)

    def on_opacity(self, widget, opacity) -> None:
        super().on_opacity(widget, opacity)  # type: ignore[misc]  # the Kivy widget after this mixin has it: the canvas's opacity
        if opacity:
            self._stamp()

    def on_promise(self, _widget, _promise) -> None:
        """A widget that promises something (a button's money, the entry an Undo names) and now
        promises something else counts as new: its words changed under the finger."""
        if getattr(self, "parent", None) is not None:  # the Kivy widget after this mixin has it
            self._stamp()

    def appeared_at(self) -> float:
        """When this widget last came into sight where it is now (monotonic seconds); not yet (infinity)
        while the frame that draws its change is still to come."""
        moved = self._moved_unseen()
        if Aimed.seen_seconds > 0 and (Sight._pending or self in Aimed._fresh or moved):
            return math.inf
        return max(self._put_at, self._shifted_at if moved else 0.0, Sight.changed_at)

    #: When its words last changed under a finger its owner asks first for (:meth:`changes_asking_first`),
    #: and when it had come into sight before that.
    _changed_at = 0.0
    _in_sight_before = 0.0

    def changes_asking_first(self) -> None:
        """Its words change now (the build spinner stopped, and a district says what the spin allows),
        and its owner asks first, with the sentence, for a finger that went down before: such a touch is
        judged by what was in sight when it went down, not swallowed as one on something new."""
        self._in_sight_before = self.appeared_at()
        self._changed_at = time.monotonic()

    def went_down_before_it_changed(self, down_at: float) -> bool:
        """Whether a finger that went down at ``down_at`` met it before its words changed (its owner
        then asks first: what it moves now was not on it under the finger)."""
        return down_at < self._changed_at

    def too_new(self, down_at: float) -> bool:
        if self.went_down_before_it_changed(down_at):
            return down_at - max(self._in_sight_before, Sight.changed_at) < Aimed.seen_seconds
        return down_at - self.appeared_at() < Aimed.seen_seconds

    def on_touch_down(self, touch):
        if unseen(self):
            return False  # a widget nobody can see never takes a tap from the one drawn where it lies
        if self.collide_point(*touch.pos) and self.too_new(touched_at(touch)):
            return True  # swallowed: it was not there to be seen when the finger went down
        return super().on_touch_down(touch)


Factory.register("Aimed", cls=Aimed)  # for kv's own tappable classes (a saved game's tile)


class Tap(Aimed, ButtonBehavior, Label):
    """A big flat button; ``kind`` picks its colour (button, accent, danger).

    The double-tap guard (``guard``): a second tap on the very button released last, its finger
    down within :attr:`GUARD_SECONDS` of the release (counted from when it came, :func:`touched_at`,
    not from when a held loop handed it on), is the other half of a double tap and is ignored, so a
    one-tap action is not done twice. It is one record for the whole window, not one per button: a tap on any other
    button in between ends it, so quick taps on different buttons (Undo, then Salary) all count.
    A tap on a button that came into sight too recently is swallowed (:class:`Aimed`).

    ``promise``: the preview a button shows the money of (:mod:`companion.ui.shown`), so the tap
    that completes an action moves money without a confirming step only if it is what was shown
    (for Undo and Redo: the entry they name). A button whose promise changes counts as new, like
    one just put on the screen: its words changed under the finger."""

    GUARD_SECONDS = 0.4
    last_release: tuple = (None, 0.0)  # (weak reference to the Tap released last, when), for the window

    kind = StringProperty("button")
    guard = BooleanProperty(True)
    selected = BooleanProperty(False)
    name = StringProperty("")  # the action or key it stands for, for tests and handlers
    value = ObjectProperty(None, allownone=True)
    promise = ObjectProperty(None, allownone=True)

    def on_touch_down(self, touch):
        if unseen(self):
            return False
        if self.guard and self.collide_point(*touch.pos) and self.is_second_tap(touched_at(touch)):
            return True  # swallowed: the second tap of a double tap on this same button (from when it came)
        return super().on_touch_down(touch)

    def is_second_tap(self, now: float) -> bool:
        ref, when = Tap.last_release
        return ref is not None and ref() is self and now - when < self.GUARD_SECONDS

    def on_release(self):
        Tap.last_release = (weakref.ref(self), time.monotonic())

    @classmethod
    def forget_last(cls) -> None:
        """No tap before the next one (tests tap faster than a person; the guard has its own test)."""
        cls.last_release = (None, 0.0)


def unseen(widget) -> bool:
    """Whether the widget is hidden: it or a widget holding it is fully transparent. Kivy still hands
    such a widget touches, and a disabled one keeps every touch that lands on it."""
    while widget is not None:
        if widget.opacity == 0:
            return True
        parent = widget.parent
        widget = parent if parent is not widget else None
    return False


class Caption(Label):
    """A label that wraps to its width and grows to its text (for reasons, help and summaries)."""


_MEASURE: dict[tuple[float, bool], object] = {}


def lines_needed(text: str, font_size: float, width: float, *, bold: bool = False) -> int:
    """About how many lines ``text`` wraps to in ``width`` px at ``font_size``, erring on the side of one
    more (a line wrapped at a space leaves the end of the line empty): for a list whose rows are sized
    before they are drawn (the history's thousands of entries). One text measure, no drawing."""
    from kivy.core.text import Label as CoreLabel

    if not text or width <= 1:
        return 1
    key = (round(font_size, 2), bold)
    measure = _MEASURE.get(key)
    if measure is None:
        measure = _MEASURE[key] = CoreLabel(font_size=font_size, bold=bold)
    wide = measure.get_extents(text)[0]  # type: ignore[attr-defined]
    lines = 1
    while wide > width * lines * 0.88:  # 12% of each line may be left empty by a word that did not fit
        lines += 1
    return lines


class Figure(Label):
    """A big number (a balance, an amount) that shrinks to fit its box rather than overflow.

    It shrinks through the steps of the type scale only (:mod:`companion.ui.type_scale`): every
    distinct size is another font kept open for the whole evening. Below the smallest step it stays
    at the smallest."""

    base_size = NumericProperty(40)
    font_size: float  # Label's own property (Kivy has no type stubs)

    @staticmethod
    def _u() -> float:
        return getattr(App.get_running_app(), "u", 1.0) or 1.0

    def on_texture_size(self, *_):
        self._fit()

    def _fit(self) -> None:
        room = self.width - 2 * (self.padding[0] if isinstance(self.padding, (list, tuple)) else 0)
        u = self._u()
        step = self.font_size / u
        if room > 20 and self.texture_size[0] > room:
            step = min(step, type_scale.shrunk(self.font_size / u, room, self.texture_size[0]))
        if self.height > 10 and self.texture_size[1] > self.height + 1:  # a short tile: the lines below need room
            step = min(step, type_scale.shrunk(self.font_size / u, self.height, self.texture_size[1]))
        if step * u < self.font_size:
            self.font_size = step * u

    def _reset(self, *_):
        u = self._u()
        self.font_size = type_scale.at_most(self.base_size / u) * u
        self._fit()  # the same size: no new texture comes to tell the box changed

    on_text = on_width = on_height = on_base_size = _reset


class PlayerTile(Aimed, ButtonBehavior, BoxLayout):
    """A player's tile on the table: tap to make the buttons act for them."""

    name = StringProperty("")
    cash_text = StringProperty("")
    deeds_text = StringProperty("")
    warnings_text = StringProperty("")
    turn_text = StringProperty("")
    colour = ListProperty([0.5, 0.5, 0.5, 1])
    colour_text = ListProperty([1, 1, 1, 1])
    is_turn = BooleanProperty(False)
    selected = BooleanProperty(False)
    bankrupt = BooleanProperty(False)

    def show(self, tile: dict) -> None:
        """Copy a tile of :func:`companion.ui.table_view.player_tile` into the widget."""
        for key in ("name", "cash_text", "deeds_text", "warnings_text", "turn_text", "is_turn", "selected", "bankrupt"):
            setattr(self, key, tile[key])
        self.colour = list(tile["colour"])
        self.colour_text = list(tile["colour_text"])


class AccountTile(Tap):
    """A payer or payee to choose: a player (with their colour), the bank, or a pot."""

    account = StringProperty("")
    colour = ListProperty([0.4, 0.4, 0.4, 1])
    detail = StringProperty("")


def side_row(row: dict, on_pick, *, value=None, colour=None):
    """A labelled row of tiles, one per choice of ``row`` (``{"field", "label", "choices"}``, each choice
    ``{"value", "label", "selected"}`` and maybe ``"colour"``): the strip of who acts, a payment's sides,
    what the flow filled in. ``value(row, choice)`` is what a tapped tile carries (default: the field)."""
    box = Factory.SideRow()
    box.label = row["label"]
    for choice in row["choices"]:
        tile = AccountTile(
            text=choice["label"],
            account=str(choice["value"]),
            colour=list(colour or choice.get("colour") or (0.35, 0.4, 0.45, 1)),
            selected=choice["selected"],
            name=f"{row['field']}-{choice['value']}",
            guard=False,
        )
        tile.value = value(row, choice) if value else row["field"]
        tile.bind(on_release=on_pick)
        box.ids.tiles.add_widget(tile)
    return box


class ReasonBubble(Label):
    """Why a tap was refused, shown right where the banker tapped; a tap anywhere or time closes it."""

    SECONDS = 8.0

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._timeout = Clock.schedule_once(self.close, self.SECONDS)

    def on_touch_down(self, touch):
        self.close()
        return False  # the tap still reaches what is under it

    def close(self, *_):
        self._timeout.cancel()
        if self.parent is not None:
            self.parent.remove_widget(self)


def _overlay(layer: FloatLayout, widget):
    """Put ``widget`` on ``layer`` in place of the last overlay of its kind, sized to its text."""
    for child in list(layer.children):
        if type(child) is type(widget):
            child.close()
    layer.add_widget(widget)
    widget.texture_update()
    return widget


def show_reason(layer: FloatLayout, text: str, near=None) -> ReasonBubble:
    """Put a refusal bubble on ``layer`` next to the widget ``near`` (or mid-screen), inside the window."""
    bubble = _overlay(layer, ReasonBubble(text=text))
    width, height = bubble.size
    if near is not None and near.get_root_window() is not None:
        x, y = near.to_window(near.center_x, near.y)
        top = near.to_window(near.x, near.top)[1]
        bx = x - width / 2
        by = top + 6 if top + 6 + height <= Window.height else y - height - 6
    else:
        bx, by = (Window.width - width) / 2, (Window.height - height) / 2
    bubble.pos = (min(max(4, bx), Window.width - width - 4), min(max(4, by), Window.height - height - 4))
    return bubble


class DoneNote(Label):
    """What just happened with money ("Bob paid Ann $22 rent for ..."), shown for a moment
    where the screen puts it (the table: between its tiles and its buttons).
    It never takes a tap: every touch goes on to what is under it, so the next tap is never lost."""

    SECONDS = 2.5

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._timeout = Clock.schedule_once(self.close, self.SECONDS)

    def on_touch_down(self, touch):
        return False

    def on_touch_move(self, touch):
        return False

    def on_touch_up(self, touch):
        return False

    def close(self, *_):
        self._timeout.cancel()
        if self.parent is not None:
            self.parent.remove_widget(self)


def show_done(layer: FloatLayout, text: str, middle_y: float | None = None) -> DoneNote:
    """Put the note of what was just done centred on ``middle_y`` (window y), or at the top of the
    window, inside it (replacing the last one)."""
    note = _overlay(layer, DoneNote(text=text))
    top = Window.height - note.height - 4
    y = top if middle_y is None else min(max(4, middle_y - note.height / 2), top)
    note.pos = ((Window.width - note.width) / 2, y)
    return note


class ConfirmBox(ModalView):
    """ "Are you sure?" for what cannot be taken back with one tap (bankruptcy, ending the game, revoking),
    and the confirming step of money no button showed (its sentence, and Yes saying who pays how much)."""

    question = StringProperty("")
    yes_text = StringProperty("Yes")
    yes_kind = StringProperty("danger")
    yes_action = ObjectProperty(None, allownone=True)
    no_action = ObjectProperty(None, allownone=True)
    #: The box answers once. While it fades out it still takes every tap (nothing under it may get
    #: one), so on a slow frame the second finger of a double tap on Yes or No reaches it again.
    answered = BooleanProperty(False)

    def yes(self):
        if self._answer():
            self.dismiss()
            if self.yes_action is not None:
                self.yes_action()

    def no(self):
        if self._answer():
            self.dismiss()
            if self.no_action is not None:
                self.no_action()

    def _answer(self) -> bool:
        """True for the first answer, False for any after it."""
        first, self.answered = not self.answered, True
        return first


def app() -> App:
    return App.get_running_app()
