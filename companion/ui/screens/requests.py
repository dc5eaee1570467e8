"""Requests: what waits for the banker from the phones - players' own actions that take the bank's money
(each with the sentence the log will hold) and payments players asked for - to approve or decline (with a
reason), and the one tap that pauses every phone's actions."""

from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import StringProperty

from ..phones import DECLINE_REASONS, play_rows, request_rows
from . import BankScreen

__all__ = ["RequestsScreen"]


class RequestsScreen(BankScreen):
    status = StringProperty("")
    empty_text = StringProperty("")
    pause_text = StringProperty("Pause phones")
    _shown: list | None = None

    def refresh(self) -> None:
        phones = self.app.phones
        self.status = phones.status_text()
        box = self.ids.rows
        if self.desk is None:
            box.clear_widgets()
            self._shown = None
            return
        self.pause_text = "Let phones act" if phones.paused else "Pause phones"
        rows = [("play", r) for r in play_rows(phones.plays_waiting())]
        rows += [("request", r) for r in request_rows(phones.pending(), self.desk)]
        self.empty_text = "" if rows else ("Nothing from the phones is waiting." if phones.running else "")
        shown = [(kind, row["id"], row["text"], row["refused"]) for kind, row in rows]
        if shown == self._shown and len(box.children) == len(rows):
            return  # the same rows stay where they are: a finger on the way to one still lands on it
        self._shown = shown
        box.clear_widgets()
        for kind, row in rows:
            line = Factory.RequestRow()
            line.screen = self
            line.kind = kind
            line.request_id, line.words = row["id"], row["text"]
            line.refused = row["refused"] or ""
            box.add_widget(line)

    def toggle_pause(self, tap=None) -> None:
        result = self.app.phones.pause(not self.app.phones.paused)
        if not result.ok:
            self.app.refuse(result.text, tap)
        self.refresh()

    def approve(self, row, tap) -> None:
        phones = self.app.phones
        result = phones.approve_play(row.request_id) if row.kind == "play" else phones.approve(row.request_id)
        if not result.ok:
            self.app.refuse(result.text, tap)
        self.refresh()

    def decline(self, row, tap) -> None:
        box = Factory.DeclineBox()
        box.request_id = row.request_id
        box.kind = row.kind
        for reason in ([row.refused] if row.refused else []) + list(DECLINE_REASONS):
            button = Factory.Tap(text=reason, name=f"reason-{reason}", font_size=self.app.u * 20)
            button.value = reason
            button.bind(on_release=lambda b, box=box: self.declined(box, b))
            box.ids.reasons.add_widget(button)
        box.open()

    def declined(self, box, tap) -> None:
        if box.answered:  # a second finger on the box while it fades out (it takes every tap until gone)
            return
        box.answered = True
        box.dismiss()
        phones = self.app.phones
        decline = phones.decline_play if box.kind == "play" else phones.decline
        result = decline(box.request_id, tap.value)
        if not result.ok:
            self.app.refuse(result.text)
        self.refresh()

    def back(self) -> None:
        self.app.to_table()
