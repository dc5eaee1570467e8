"""Taps: what the app does when the banker touches something. Mixed into the App.

One place decides every tap's effect: an action goes through the :class:`Desk` and a refusal is
shown next to the tapped widget; a table button opens its flow, prefilled for the player it acts
for; a flow asks its next missing field on the screen made for that kind of field (the keypad, the
chooser, the structured form, the auction, the trade, the card editor) or, once complete, does the action (asking first
only when it cannot be taken back, or when the tap did not show the money it moves: see
:mod:`companion.ui.shown`).
"""

from __future__ import annotations

from typing import Any, Callable

from kivy.clock import Clock

from . import flows
from companion.core.contract import money_words

from .desk import Result
from .shown import moves_money, promise, said, taking_back
from .who_acts import player_to_play
from .widgets import ConfirmBox, DoneNote, show_done, show_reason

__all__ = ["Taps"]


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


class Taps:
    """Needs ``desk``, ``screens``, ``manager``, ``layer``, ``stopped``, ``show`` and ``to_table`` from the App."""

    # What the App provides (declared for the type checker; the App sets them).
    desk: Any
    root: Any
    screens: Any
    manager: Any
    layer: Any
    stopped: bool
    show: Callable[..., Any]
    open_auction: Callable[..., Any]

    # -- taps --------------------------------------------------------------------------------------
    def act(self, action: dict, near=None) -> Result:
        """Do an action; on refusal show the reason next to ``near`` (the tapped widget)."""
        if self.desk is None:
            return Result(False, "no game is open")
        desk = self.desk
        result = desk.do(action)
        if not result.ok:
            self.refuse(result.text, near)
        elif self.root is not None:
            Clock.schedule_once(lambda _dt: self._note(result.text, desk), 0)
        return result

    def _note(self, text: str, desk) -> None:
        """Who, how much, why: for a moment, never in the way, on the screen the action led to (a flow
        goes back to the table right after its action; the table puts the note between its tiles and
        its buttons). Only while the game it happened in is the one open."""
        if self.root is None or self.stopped or desk is not self.desk:
            return
        screen = self.screens.get(self.manager.current)
        note = show_done(self.layer, text, screen.note_y() if screen is not None else None)
        note.screen = self.manager.current  # it goes when another screen is shown

    def on_desk(self, _app, _desk) -> None:
        """Another game (or none) on the table: the note of money moved in the last one goes with it."""
        if self.root is not None:
            for note in [w for w in self.layer.children if isinstance(w, DoneNote)]:
                note.close()

    def undo(self, near=None) -> Result | None:
        return self.take_back("undo", near)

    def redo(self, near=None) -> Result | None:
        return self.take_back("redo", near)

    def take_back(self, kind: str, near=None, shown: Any = ...) -> Result | None:
        """Undo or redo (``kind``) in one tap when the tapped button named the entry it takes back
        (its promise, see :func:`companion.ui.shown.taking_back`); when it named another (the log
        moved under the finger) or nothing, ask first with the entry's sentence. ``shown``: what
        the tap promised (by default the promise of ``near``; a tap from no widget promises what
        is next)."""
        if self.desk is None:
            return Result(False, "no game is open")
        now = taking_back(self.desk, kind)
        if shown is ...:
            shown = getattr(near, "promise", now["promise"]) if near is not None else now["promise"]
        if now["promise"] is not None and shown != now["promise"]:
            self.confirm(
                f"{now['text']}?",
                kind.capitalize(),
                lambda: self.take_back(kind, near, now["promise"]),
                yes_kind="accent",
            )
            return None
        return self.act({"action": kind}, near)

    def refuse(self, text: str, near=None) -> None:
        show_reason(self.layer, text[:1].upper() + text[1:], near)

    def confirm(
        self,
        question: str,
        yes_text: str,
        on_yes: Callable[[], Any],
        on_no: Callable[[], Any] | None = None,
        yes_kind: str = "danger",
    ) -> ConfirmBox:
        """Ask first (what cannot be taken back with one tap, or money no button showed); ``on_yes``
        runs only on Yes."""
        box = ConfirmBox(question=question, yes_text=yes_text, yes_action=on_yes, no_action=on_no, yes_kind=yes_kind)
        box.open()
        return box

    def player_to_play(self) -> str | None:
        """Who a flow acts for until the banker picks another inside it: the player whose turn it is."""
        if self.desk is None:
            return None
        return player_to_play(self.desk.state())

    def start(self, button: str, back: str = "table") -> flows.ActionForm | None:
        """The form of a button's flow, for the player to play."""
        return flows.start_flow(button, self.desk.specs, player=self.player_to_play(), back=back)

    def press(self, button: str, near=None) -> None:
        """A table button: open its flow for the player to play."""
        if self.desk is None:
            return
        if button == "undo":
            self.undo(near)
            return
        if button == "redo":
            self.redo(near)
            return
        form = self.start(button)
        if form is None:
            self.refuse(f"{flows.button_label(button, self.desk.specs)} is not part of this game", near)
            return
        self.run_flow(form, near)

    def run_flow(self, form: flows.ActionForm, near=None) -> Result | None:
        """Ask the field the Banker names next on the screen made for its kind, or do the action once
        nothing is left to ask (asking first only when it cannot be taken back)."""
        spec = self.desk.specs[form.action]
        field = self.desk.next_field(form.action, form.values)
        screen = flows.asking_screen(form, spec, field)
        if screen is None:
            return self.commit(form, near)
        if screen == "auction":
            self.open_auction(flows.filled_of_kind(form, spec, "deed"))  # one auction screen, wherever it starts
            return None
        if screen == "trade":
            self.screens["trade"].start(form.values.get(form.actor) or self.player_to_play() or "")
        elif screen == "card":
            self.screens["card"].deed = flows.filled_of_kind(form, spec, "deed") or ""
        elif screen == "form":
            self.screens["form"].ask(form, field.name)  # tiles read from its schema, or "Type it"
        elif screen == "amount":
            self.screens["amount"].ask(form)
        else:
            self.screens["ask"].ask(form, field.name)
        self.show(screen)
        return None

    def commit(self, form: flows.ActionForm, near=None) -> Result | None:
        """Do a complete action, under the law of the banker's screen: money moves on this tap only
        if the tapped widget showed this very preview (its ``promise``); otherwise a confirming step
        carries the preview's sentence first. An action that ends something always asks, with its
        sentence. A refused action is tried, so its reason shows next to the tap."""
        spec = self.desk.specs[form.action]
        found, _why = self.desk.preview(form.as_action())
        if form.action in flows.DESTRUCTIVE:
            sums = flows.every_sum(found.postings, self.desk.account_name, self.desk.fmt) if found else []
            sentence = found.summary if found else ""
            self.confirm(
                flows.destructive_question(form, self.desk.account_name, sums, sentence, spec),
                spec.label,
                lambda: self._confirmed(form, near, promise(found)),
            )
            return None
        if found is not None and moves_money(found) and promise(found) != getattr(near, "promise", None):
            self.confirm(
                _sentence(found.summary),
                said(
                    flows.button_label(form.button or form.action, self.desk.specs), money_words(found, self.desk.table)
                ),
                lambda: self._confirmed(form, near, promise(found)),
                yes_kind="accent",
            )
            return None
        return self._finish(form, near)

    def _confirmed(self, form: flows.ActionForm, near, shown) -> Result | None:
        """Yes on a confirming step: done if the table would still do what the step said, else asked
        again with what it would do now (something else was recorded while the box was up)."""
        found, _why = self.desk.preview(form.as_action()) if self.desk is not None else (None, None)
        if found is not None and promise(found) != shown:
            return self.commit(form, None)
        return self._finish(form, near)  # refused now: the reason shows next to the tap, nothing moves

    def _finish(self, form: flows.ActionForm, near=None) -> Result:
        result = self.act(form.as_action(), near)
        if result.ok:
            self.show(form.back if form.back in self.screens else "table")
        return result
