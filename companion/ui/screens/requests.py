"""Requests: payments players asked for from their phones, to approve or decline (with a reason)."""
from __future__ import annotations

from kivy.factory import Factory
from kivy.properties import StringProperty

from ..phones import DECLINE_REASONS, request_rows
from . import BankScreen

__all__ = ["RequestsScreen"]


class RequestsScreen(BankScreen):
    status = StringProperty("")
    empty_text = StringProperty("")

    def refresh(self) -> None:
        phones = self.app.phones
        self.status = phones.status_text()
        box = self.ids.rows
        box.clear_widgets()
        if self.desk is None:
            return
        rows = request_rows(phones.pending(), self.desk)
        self.empty_text = "" if rows else ("No payments are waiting." if phones.running else "")
        for row in rows:
            line = Factory.RequestRow()
            line.screen = self
            line.request_id, line.words = row["id"], row["text"]
            line.refused = row["refused"] or ""
            box.add_widget(line)

    def approve(self, row, tap) -> None:
        result = self.app.phones.approve(row.request_id)
        if not result.ok:
            self.app.refuse(result.text, tap)
        self.refresh()

    def decline(self, row, tap) -> None:
        box = Factory.DeclineBox()
        box.request_id = row.request_id
        for reason in ([row.refused] if row.refused else []) + list(DECLINE_REASONS):
            button = Factory.Tap(text=reason, name=f"reason-{reason}", font_size=self.app.u * 20)
            button.value = reason
            button.bind(on_release=lambda b, box=box: self.declined(box, b))
            box.ids.reasons.add_widget(button)
        box.open()

    def declined(self, box, tap) -> None:
        box.dismiss()
        result = self.app.phones.decline(box.request_id, tap.value)
        if not result.ok:
            self.app.refuse(result.text)
        self.refresh()

    def back(self) -> None:
        self.app.to_table()
