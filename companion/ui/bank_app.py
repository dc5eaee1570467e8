"""TableBankerApp: the Kivy App. Holds the open game (a :class:`Desk`), the theme and the scale, and
does every tap's work: act, undo, redo, run a flow, show a refusal, ask for a confirmation.

Import this only after :func:`companion.ui.app.configure_kivy` (Kivy reads its settings once).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import logging
from pathlib import Path
from typing import Any, Callable

from kivy.app import App
from kivy.base import EventLoop
from kivy.clock import Clock, ClockEvent
from kivy.core.window import Window
from kivy.factory import Factory
from kivy.lang import Builder
from kivy.properties import DictProperty, NumericProperty, ObjectProperty, StringProperty

from companion.paths import data_dir, last_game, remember_last_game
from companion.service import WATCH_SECONDS
from companion.watch import GameWatch

from .colours import theme
from .desk import Desk, Result
from .taps import Taps
from .games import NewGame, game_file_name
from .letting_go import KEPT, MADE_ONCE, screens_to_let_go, screens_to_set_back, worth_collecting
from .kivy_fixes import forget_last_text_box, release_left_screen, stop_what_runs_on
from .tidy import WHOLE_EVERY, collect_young
from .type_scale import window_u
from .widgets import FINGER_CLOCK, Sight
from .phones import Phones, entry_text
from .sounds import Sounds, outcome_sound
from companion.settings import UiSettings
from .unit_link import UnitLink
from .widgets import DoneNote

__all__ = ["TableBankerApp", "load_kv", "SCREENS"]

log = logging.getLogger(__name__)

#: Screen name -> "module:Class" under companion.ui.screens; each has a kv file of the same name.
SCREENS = {
    "start": "start:StartScreen",
    "setup": "setup:SetupScreen",
    "table": "table:TableScreen",
    "amount": "amount:AmountScreen",
    "ask": "ask:AskScreen",
    "form": "form:FormScreen",
    "more": "more:MoreScreen",
    "deeds": "deeds:DeedsScreen",
    "auction": "auction:AuctionScreen",
    "unit": "unit:UnitScreen",
    "trade": "trade:TradeScreen",
    "loans": "loans:LoansScreen",
    "history": "history:HistoryScreen",
    "requests": "requests:RequestsScreen",
    "join": "join:JoinScreen",
    "settings": "settings:SettingsScreen",
    "card": "card:CardScreen",
    "over": "over:OverScreen",
}

#: Screens that make sense without an open game.
NO_GAME_SCREENS = ("start", "setup", "settings")

#: The shortest wait between two looks at the trading unit's time (its next change is never sooner).
UNIT_PACE_FLOOR = 0.005
#: Seconds without a screen change or an entry before freed memory is handed back. The collection can
#: hold the screen for a fraction of a second (taps meanwhile wait in the queue, none is lost), so it
#: waits for a real pause at the table (dice rolled, pieces moved), not the gap between two quick taps.
TIDY_AFTER_SECONDS = 8.0
#: How long after a screen is let go its widgets are freed: after the next screen's first frames,
#: so freeing never delays what the banker just asked to see.
COLLECT_AFTER_SECONDS = 0.1

_LOADED: set[str] = set()


def load_kv(names: list[str]) -> None:
    """Load ``kv/widgets.kv``, ``kv/app.kv`` and each screen's kv file, once per process."""
    from .app import KV_DIR

    for name in ["widgets", "app", *names]:
        path = KV_DIR / f"{name}.kv"
        if str(path) not in _LOADED and path.exists():
            Builder.load_file(str(path))
            _LOADED.add(str(path))


def _screen_class(spec: str):
    import importlib

    module, cls = spec.split(":")
    return getattr(importlib.import_module(f"companion.ui.screens.{module}"), cls)


class TableBankerApp(Taps, App):
    """The bank on the touchscreen. One instance per window."""

    u = NumericProperty(1.0)  # scale: 1.0 on 800x480; every size in kv is a multiple of it
    c = DictProperty(theme("dark"))  # the theme's colours
    theme_name = StringProperty("dark")
    desk = ObjectProperty(None, allownone=True)
    last_text = StringProperty("")  # the last thing done, in words

    def __init__(
        self,
        *,
        game: str | os.PathLike | None = None,
        data: str | os.PathLike | None = None,
        settings: UiSettings | None = None,
        phone_server: Callable[..., Any] | None = None,
        board_opener: Callable[..., Any] | None = None,
        settle_heap: bool = False,
        **kwargs: Any,
    ) -> None:
        self.game_arg = Path(game) if game else None
        self.folder = data_dir(data)
        self.settings_store = settings or UiSettings.load(self.folder)
        self.exit_code = 0
        self._unsubscribe: Callable[[], None] | None = None
        #: What looks for other programs' writes to the open game: the kernel's notifications on the
        #: asyncio loop (``watch``), or Kivy's clock every WATCH_SECONDS without that loop (``_poll_event``).
        self.watch: GameWatch | None = None
        self._unwatch: Callable[[], None] | None = None
        self._poll_event = None
        self._unit_due: ClockEvent | None = None  # the trading unit's next change, when it has one
        self._unit_wake: ClockEvent | None = None
        self._refresh_trigger = None
        self._let_go_trigger: ClockEvent | None = None
        self._tidy_trigger: ClockEvent | None = None
        self._collect_trigger: ClockEvent | None = None
        self.tidied, self.tidy_ms = 0, 0.0  # tidy-ups done, and how long the last one took
        self._unsettled = False  # whether the settled heap may hold garbage (a game was closed since)
        self._another_game = False  # a game was opened since the screens were last let go
        #: Screens and kept screens' widgets let go since the cycle collector last ran (letting_go.worth_collecting).
        self._screens_let_go = self._widgets_let_go = 0
        self.settle_heap = settle_heap  # this process is the app's alone: see on_start
        self.stopped = False  # shut down: nothing more is drawn
        self.screens = _Screens(None)  # built lazily once the window exists (see build)
        self.unit_link: UnitLink | None = None
        self.board_opener = board_opener  # the hardware adapter's open_board, from the composition root
        self.phones = Phones(self.settings_store, server_factory=phone_server, advertise=self.settings_store.advertise)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._tasks: set[asyncio.Task] = set()
        self._was_over = False
        #: Short sounds for what the table should hear (made by the app into the data folder's cache).
        self.sounds = Sounds(
            self.folder / ".sounds", volume=self.settings_store.volume, muted=not self.settings_store.sound
        )
        self._beeping = False  # whether the trading unit's buzzer was sounding at the last look
        super().__init__(**kwargs)
        self.title = "Table Banker"
        self.set_theme(self.settings_store.theme)

    # -- building --------------------------------------------------------------------------------
    def build(self):
        load_kv(list(SCREENS))
        root = Factory.BankRoot()
        self.screens = _Screens(root.ids.screens)  # each screen is built the first time it is needed
        self.root_widget = root
        Window.bind(size=self._rescale)
        self._rescale(Window, Window.size)
        self.fbind("c", self._paint_background)
        self._paint_background()
        self._refresh_trigger = Clock.create_trigger(self._refresh_now, 0)
        self._let_go_trigger = Clock.create_trigger(self._let_go_of_left_screens, 0)
        self._tidy_trigger = Clock.create_trigger(self.tidy, TIDY_AFTER_SECONDS)
        self._collect_trigger = Clock.create_trigger(self._collect_let_go, COLLECT_AFTER_SECONDS)
        # What is under the finger changes with the screen shown and with a box opened or closed: taps
        # wait until it has been in sight a moment (widgets.Aimed), from the frame that first draws it
        # (widgets.on_the_glass).
        self._unit_wake = Clock.create_trigger(self._pace_unit, 0)
        root.ids.screens.bind(current=self._view_changed)
        Window.bind(children=self._view_changed)
        EventLoop.add_postproc_module(FINGER_CLOCK)  # when each finger can have come, at the earliest
        Window.bind(on_flip=self._draw_the_first_frame_again)
        return root

    def _paint_background(self, *_: object) -> None:
        """The theme's background is the colour the window is cleared to before each frame (kv/app.kv):
        the same pixels as a rectangle over the whole window, without drawing one."""
        Window.clearcolor = self.c["bg"]

    def _draw_the_first_frame_again(self, window, *_: object) -> None:
        """One more frame after the first, once.

        SDL's KMS/DRM video driver (the Pi's kiosk, SDL_VIDEODRIVER=kmsdrm) makes its drawing surfaces
        anew at the first buffer swap after the window was made full screen: the first frame is drawn
        into the surfaces it then throws away, and the screen shows the new surfaces' empty buffer,
        black, until something on the screen changes. The second frame is drawn into the surfaces that
        stay. (Seen with the SDL 2.30 in Kivy 2.3.1's wheel: KMSDRM_SetWindowFullscreen marks the
        surfaces dirty and KMSDRM_GLES_SwapWindow recreates them before it swaps.) Elsewhere the
        extra frame costs one redraw at start."""
        window.unbind(on_flip=self._draw_the_first_frame_again)
        window.canvas.ask_update()

    def _view_changed(self, *_: object) -> None:
        Sight.changed()

    def on_start(self):
        if self.settle_heap:
            # What start-up built (modules, kv rules, the window) lives all run: frozen out of the
            # cycle collector's way, so the tidy-up at a pause walks only what the evening made
            # (companion.heap). Before any screen is made: screens are let go, so never frozen.
            from companion.heap import settle

            settle()
        self.open_first()

    def on_stop(self):
        self.shutdown()

    def shutdown(self) -> None:
        """Close the game and every adapter; safe to call twice."""
        if self.root is not None:
            current = self.screens.get(self.manager.current)
            if current is not None:
                current.dispatch("on_leave")  # screens stop their timers
        self.close_game()
        Window.unbind(size=self._rescale)
        Window.unbind(children=self._view_changed)
        EventLoop.remove_postproc_module(FINGER_CLOCK)
        Window.unbind(on_flip=self._draw_the_first_frame_again)
        # A redraw, a letting go or a tidy-up still due (closing the game asks for one) would run on
        # screens whose app has stopped (Ctrl-C right after a game opens): none is wanted any more.
        self.stopped = True
        for trigger in (
            self._refresh_trigger,
            self._let_go_trigger,
            self._tidy_trigger,
            self._collect_trigger,
            self._unit_wake,
        ):
            if trigger is not None:
                trigger.cancel()

    async def main(self) -> None:
        """Run the window, and beside it on the same loop the phones' server (when installed).

        SIGTERM (systemd stopping the kiosk) and SIGINT (Ctrl-C) close the app the same way the window's
        close does, whatever a parent process left those signals set to (a signal ignored by the parent
        stays ignored in a child unless the child sets its own handler)."""
        self.loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                self.loop.add_signal_handler(sig, self.stop)
        try:
            await self.async_run(async_lib="asyncio")
        finally:
            await self.phones.stop()

    def _spawn(self, coro) -> None:
        """Run a coroutine on the app's loop (only when the app runs under asyncio)."""
        if self.loop is None:
            coro.close()
            return
        task = self.loop.create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def restart_phones(self) -> None:
        """(Re)start the phones' server for the open game, per the settings."""
        self.phones.settings = self.settings_store
        self.phones.advertise = self.settings_store.advertise
        if self.desk is None or not self.settings_store.phones:
            self._spawn(self.phones.stop())
            return
        self._spawn(self._start_phones(self.desk.banker))

    async def _start_phones(self, banker) -> None:
        problem = await self.phones.start(banker, on_change=lambda request: self.refresh())
        if problem:
            log.warning("phones: %s", problem)
        self.refresh()  # the join and requests screens show the server's address or the problem

    def change_setting(self, key: str, value) -> None:
        """Change and save one of the touchscreen's settings (ValueError with the reason if it cannot be)."""
        self.settings_store = self.settings_store.change(key, value)
        self.sounds.set(volume=self.settings_store.volume, muted=not self.settings_store.sound)
        try:
            self.settings_store.save()
        except OSError as e:
            log.warning("cannot save the settings: %s", e)

    def _rescale(self, window, size) -> None:
        self.u = window_u(*size)

    def set_theme(self, name: str) -> None:
        self.theme_name = name if name in ("light", "dark") else "dark"
        self.c = theme(self.theme_name)

    # -- screens ---------------------------------------------------------------------------------
    @property
    def manager(self):
        return self.root.ids.screens

    @property
    def layer(self):
        return self.root.ids.layer

    def show(self, name: str) -> Any:
        if self.desk is None and name not in NO_GAME_SCREENS:
            name = "start"
        screen = self.screens[name]
        if self.manager.current != name:
            self.manager.current = name
            self._notes_stay_with(name)
            if self._let_go_trigger is not None:
                self._let_go_trigger()
        else:
            screen.refresh()
        return screen

    def _notes_stay_with(self, name: str) -> None:
        """The note of money just moved belongs to the screen it was put on (placed for that screen's
        layout): another screen shown takes it away at once, so it never lies over the new screen's
        content."""
        for note in [w for w in self.layer.children if isinstance(w, DoneNote)]:
            if getattr(note, "screen", name) != name:
                note.close()

    def _let_go_of_left_screens(self, *_: object) -> None:
        """Set back the screens done with that are kept made, let go of the others (once off the
        window), then tidy up."""
        if self.stopped:
            return
        waiting = False
        shown = self.manager.current
        busy = [name for name, screen in self.screens.items() if screen.busy()]
        kept = frozenset() if self._another_game else MADE_ONCE  # the last game's kept screens go with it
        for name in screens_to_set_back(self.screens.made(), shown, busy, kept):
            # what the visit made (a question's tiles, a payment's rows) is garbage now
            self._widgets_let_go += self.screens[name].set_back_once()
        for name in screens_to_let_go(self.screens.made(), shown, busy, kept):
            if self.screens.let_go(name):
                self._screens_let_go += 1
            else:
                waiting = True  # still leaving the window: try again next frame
        if waiting:
            if self._let_go_trigger is not None:
                self._let_go_trigger()
        else:
            self._another_game = False
            worth = worth_collecting(self._screens_let_go, self._widgets_let_go, forget_last_text_box())
            if worth and self._collect_trigger is not None:
                self._collect_trigger()  # one collection for a burst of screens, once they are drawn
            self._tidy_later()

    def _collect_let_go(self, *_: object) -> None:
        if not self.stopped:
            self._screens_let_go = self._widgets_let_go = 0
            collect_young()

    def _tidy_later(self) -> None:
        """(Re)start the wait for a pause: every screen change or entry starts it again."""
        if self._tidy_trigger is not None:
            self._tidy_trigger.cancel()
            self._tidy_trigger()

    def _steady(self) -> bool:
        """Whether only what lives all evening is made: the table on show, and the screens kept made
        (set back by now: the letting go runs before the tidy-up)."""
        return self.manager.current == KEPT and set(self.screens.made()) <= {KEPT, *MADE_ONCE}

    def tidy(self, *_: object) -> None:
        """Hand freed memory back once the screen has been still for a moment."""
        import time

        from .tidy import give_back

        started = time.perf_counter()
        # Settle only the steady state (the table and the kept screens) where possible: a screen settled stays until a
        # whole walk. After a whole walk settle anyway, or every later collection would walk it all.
        steady = self._steady()
        whole = self._unsettled or self.tidied % WHOLE_EVERY == WHOLE_EVERY - 1
        self._screens_let_go = self._widgets_let_go = 0
        give_back(settle=steady or whole, whole=whole)
        self._unsettled = False if whole else self._unsettled
        self.tidy_ms = (time.perf_counter() - started) * 1000
        self.tidied += 1

    def look_at(self, player: str) -> None:
        """Show a player's deeds; who acts stays the player to play."""
        self.screens["deeds"].look_at(player)
        self.show("deeds")

    def to_table(self, *_: object) -> None:
        self.show("table" if self.desk is not None else "start")

    def refresh(self, *_: object) -> None:
        """Ask for one refresh of the screen on show (batched: many entries, one redraw)."""
        if self._refresh_trigger is not None:
            self._refresh_trigger()

    def _refresh_now(self, *_: object) -> None:
        if self.stopped:
            return
        screen = self.screens.get(self.manager.current)
        if screen is not None:
            screen.refresh()

    # -- games -----------------------------------------------------------------------------------
    def open_first(self) -> None:
        """The game named on the command line, else the one played last, else the start screen."""
        path = self.game_arg
        if path is None:
            path = last_game(self.folder)  # by the record written when it opened, never by file times
        if path is not None:
            problem = self.open_game(path)
            if problem is None:
                return
            self.screens["start"].problem = problem
        self.show("start")

    def open_game(self, path: str | Path) -> str | None:
        """Open a saved game and show the table; the reason it cannot be opened, or None."""
        from companion.core.errors import BankerError

        try:
            desk = Desk.open(path)
        except BankerError as e:
            return str(e)
        self._use(desk)
        self.show("table")
        return None

    def create_game(self, form: NewGame) -> str | None:
        """Start a new game from the setup form; the reason it cannot start, or None."""
        from companion.core.errors import BankerError

        problem = form.check()
        if problem:
            return problem
        try:
            desk = Desk.create(game_file_name(self.folder, form.pack), form.pack, form.people(), form.options)
        except BankerError as e:
            return str(e)
        self._use(desk)
        self.last_text = desk.banker.log()[-1].summary
        phones_coming = self.settings_store.phones and self.phones.installed and self.loop is not None
        self.show("join" if phones_coming else "table")  # the players scan their codes first
        return None

    def _use(self, desk: Desk) -> None:
        self.close_game()
        self._view_changed()  # another game on the same table screen: nothing on it was seen yet
        remember_last_game(self.folder, desk.banker.path)
        self._unsettled = True  # the last game's part of the settled heap is garbage now: walk it all at the next pause
        self._another_game = True  # the screens kept made hold the last game's: let go of them too
        if self._let_go_trigger is not None:
            self._let_go_trigger()  # even where the table stays on show
        self.desk = desk
        desk.banker.settle_in()  # open for the evening: its -wal's room, made before its watch starts
        self._unsubscribe = desk.subscribe(self._committed)
        self._watch_game(desk)
        self.last_text = ""
        self._was_over = bool(desk.table.get("over"))
        records_spins = "spin" in desk.specs
        self.unit_link = UnitLink(
            desk.pack,
            act=self._unit_act,
            on_sold=self._unit_sold,
            on_event=self._unit_event,
            whose_turn=self._whose_turn if records_spins else None,
        )
        self.unit_link.muted = not self.settings_store.sound
        self.unit_link.follow_turn(desk.table["turn"]["number"], desk.table["turn"].get("roll", 1))
        if self.settings_store.hardware:
            self.unit_link.open_board(
                self.board_opener,
                call_soon_threadsafe=self._call_soon_threadsafe,
                call_later=self._call_later,
                pins=self.settings_store.pins,
            )
        self._pace_unit()
        self.restart_phones()

    def close_game(self) -> None:
        """Close the open game: its ledger, the trading unit's link and the phones' server."""
        if self._unsubscribe is not None:
            self._unsubscribe()
            self._unsubscribe = None
        self._stop_watching()
        if self._unit_due is not None:
            self._unit_due.cancel()
            self._unit_due = None
        if self.unit_link is not None:
            self.unit_link.close()
            self.unit_link = None
        if self.desk is not None:
            if self.phones.running:
                self._spawn(self.phones.stop())
            self.desk.close()
            self.desk = None
            self._tidy_later()

    def restore_backup(self, backup: str) -> str | None:
        """Bring back a backup of the open game (the current file is kept aside) and reopen it."""
        from companion.core.errors import BankerError
        from companion.restore import restore

        if self.desk is None:
            return "no game is open"
        game = self.desk.path
        self.close_game()
        try:
            self.last_text = restore(game, Path(backup))
        except BankerError as e:
            problem = str(e)
            self.open_game(game)
            return problem
        return self.open_game(game)

    def _committed(self, outcome) -> None:
        self.last_text = entry_text(outcome.entry)  # an action from a phone says whose phone started it
        if self.unit_link is not None and self.desk is not None:
            self.unit_link.follow_turn(self.desk.table["turn"]["number"], self.desk.table["turn"].get("roll", 1))
        over = bool(self.desk is not None and self.desk.table.get("over"))
        sound = outcome_sound(outcome, over and not self._was_over)
        if sound is not None:
            self.sounds.play(sound)
        if over and not self._was_over:
            Clock.schedule_once(lambda *_: self.show("over"), 0)
        self._was_over = over
        self.refresh()
        self._tidy_later()

    # -- the trading unit's link to the loop -------------------------------------------------------
    def _whose_turn(self) -> str | None:
        from companion.core.model import current_player

        return current_player(self.desk.table) if self.desk is not None else None

    def _unit_act(self, action: dict) -> Result:
        return self.act(action)

    def _unit_sold(self, result: Result | None) -> None:
        """The unit's auction ended (sold and logged, or not sold): the next auction starts clean."""
        auction = self.screens.get("auction")  # let go since: the next one is made clean
        if auction is not None:
            auction.clean()
        if result is not None and result.ok and self.manager.current == "auction":
            self.to_table()

    def open_auction(self, deed: str = "") -> None:
        """The one auction, wherever it starts: table, deed card, trading unit or its button."""
        if deed:
            self.screens["auction"].open_lot(deed)
        self.show("auction")

    def _unit_event(self, event) -> None:
        """The unit asks (a held undo, a second press on a running timer) or refuses a press: show it
        on whatever screen is up, unless the unit's own screen is showing it already."""
        from companion.trading_unit import CancelAsked, PressRefused, TimerStarted, UndoConfirmAsked
        from companion.trading_unit.events import ClockRanOut, TimerEnded

        if self._unit_wake is not None:
            self._unit_wake()  # its next change may come sooner now: plan it once this event is settled
        if isinstance(event, ClockRanOut) or (isinstance(event, TimerEnded) and event.outcome != "sold"):
            self.sounds.play("timer_end")  # a sale is heard as "sold" once the ledger has it
        if self.root is None:
            return
        if isinstance(event, TimerStarted) and event.purpose == "auction" and not event.lot:
            self.open_auction()  # the unit's own button: the deed and the bids are chosen on the auction screen
            return
        if self.manager.current == "unit":
            return
        link = self.unit_link  # the unit's own events: its link is open
        if isinstance(event, UndoConfirmAsked) and link is not None:
            what = self.desk.undo_text() if self.desk is not None else None
            self.confirm(
                f"Undo: {what}?" if what else "Undo the last action?",
                "Undo",
                lambda: link.unit.confirm_undo(link.clock()),
                on_no=lambda: link.unit.dismiss(link.clock()),
            )
        elif isinstance(event, CancelAsked) and link is not None:
            self.confirm(
                f"Cancel the {event.purpose}? No bid wins.",
                f"Cancel the {event.purpose}",
                lambda: link.unit.confirm_cancel(link.clock()),
                on_no=lambda: link.unit.dismiss(link.clock()),
            )
        elif isinstance(event, PressRefused) and event.button in ("auction", "build"):
            self.refuse(event.reason)

    def _call_soon_threadsafe(self, fn, *args) -> None:
        """gpiozero's threads hand a press to the app's loop (asyncio when running, else Kivy's Clock)."""
        if self.loop is not None:
            self.loop.call_soon_threadsafe(fn, *args)
        else:
            Clock.schedule_once(lambda *_: fn(*args), 0)

    def _call_later(self, delay: float, fn):
        event = Clock.schedule_once(lambda *_: fn(), delay)
        return _Cancel(event)

    # -- other programs' writes, and the trading unit's time ----------------------------------------
    def _watch_game(self, desk: Desk) -> None:
        """Look for what other programs write to the game (a phones' server of its own, ``companion do``).

        On the app's asyncio loop (``companion run``) the kernel says when the game's files are written
        (:class:`companion.watch.GameWatch`, as the phones' server does; it polls adaptively where there
        are no notifications), so a still table costs nothing between looks. Without that loop (Kivy
        driven frame by frame, as the GUI tests do) Kivy's clock looks every ``WATCH_SECONDS``."""
        self._stop_watching()
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            self._poll_event = Clock.schedule_interval(self._look_on_the_clock, WATCH_SECONDS)
            return
        watch = GameWatch(self.look, desk.path)
        self._unwatch = desk.subscribe(watch.own_commit, first=True)
        watch.start()
        self.watch = watch

    def _stop_watching(self) -> None:
        if self._poll_event is not None:
            self._poll_event.cancel()
            self._poll_event = None
        if self._unwatch is not None:
            self._unwatch()
            self._unwatch = None
        if self.watch is not None:
            self.watch.stop()
            self.watch = None

    def look(self, *_: object) -> bool:
        """Pick up entries committed elsewhere (the phones' server in another process, the command
        line); True when there were some (each is told to the screen like our own)."""
        return self.desk.refresh() if self.desk is not None else False

    def _look_on_the_clock(self, *_: object) -> None:
        self.look()  # returns nothing: a Kivy interval whose callback returns False is cancelled

    def poll(self, *_: object) -> None:
        """Look at everything now: other programs' entries, and the trading unit's time."""
        self.look()
        self._pace_unit()

    def _pace_unit(self, *_: object) -> None:
        """Let the trading unit's time pass (an auction whose light went off is sold even if no screen
        shows it; a warning beep is heard), then come back at its next change, not every frame: a unit
        at rest waits for a press. Every event of the unit wakes this too (``_unit_event``)."""
        if self._unit_due is not None:
            self._unit_due.cancel()
            self._unit_due = None
        link = self.unit_link
        if link is None or self.stopped:
            return
        link.tick()
        self._hear_the_buzzer()
        if self.unit_link is not link:  # the tick's sale closed the game (it ended)
            return
        now = link.clock()
        upcoming = link.unit.next_change(now)
        if upcoming is not None:
            self._unit_due = Clock.schedule_once(self._pace_unit, max(upcoming - now, UNIT_PACE_FLOOR))

    def _hear_the_buzzer(self) -> None:
        """Each of the trading unit's warning beeps is heard from the touchscreen too."""
        link = self.unit_link
        beeping = link is not None and link.unit.outputs(link.clock()).tone_hz is not None
        if beeping and not self._beeping:
            self.sounds.play("warning")
        self._beeping = beeping

    def refuse(self, text: str, near=None) -> None:
        self.sounds.play("refusal")
        super().refuse(text, near)


class _Cancel:
    """What ``call_later`` hands back: something with ``cancel()``, like asyncio's handles."""

    def __init__(self, event) -> None:
        self.event = event

    def cancel(self) -> None:
        self.event.cancel()


class _Screens(dict):
    """The app's screens by name, each made (and added to the manager) on first use: a banker who
    never opens Settings never pays for its widgets."""

    def __init__(self, manager) -> None:
        super().__init__()
        self.manager = manager  # None until the window exists: no screen is made before

    def __missing__(self, name: str):
        if name not in SCREENS or self.manager is None:
            raise KeyError(name)
        screen = _screen_class(SCREENS[name])(name=name)
        self[name] = screen
        self.manager.add_widget(screen)
        return screen

    def get(self, name, default=None):
        return dict.get(self, name, default)

    def made(self) -> set[str]:
        """The screens that exist now."""
        return set(self.keys())

    def let_go(self, name: str) -> bool:
        """Forget a screen that is off the window (the next use makes a fresh one); False while it
        is still on the window (shown, or leaving it)."""
        screen = dict.get(self, name)
        if screen is None:
            return True
        if screen.parent is not None:
            return False
        del self[name]
        self.manager.remove_widget(screen)
        release_left_screen(self.manager, screen)  # the finished transition would hold it all evening
        stop_what_runs_on(screen)  # a scroll bar still fading would hold it past the collection that frees it
        return True

    def __contains__(self, name) -> bool:
        return name in SCREENS
