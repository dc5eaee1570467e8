"""Join: a QR code per player (their phone's link to their own balance), the table's address, and
revoking a link that got into the wrong hands."""

from __future__ import annotations

import io

from kivy.core.image import Image as CoreImage
from kivy.factory import Factory
from kivy.properties import ObjectProperty, StringProperty

from . import BankScreen

__all__ = ["JoinScreen", "qr_texture"]

BANKER = "(banker)"


def qr_texture(url: str):
    """A crisp Kivy texture of the link's QR code (companion.qr)."""
    from companion.qr import qr_png

    texture = CoreImage(io.BytesIO(qr_png(url, box=8)), ext="png").texture
    texture.mag_filter = "nearest"
    texture.min_filter = "nearest"
    return texture


class JoinScreen(BankScreen):
    who = StringProperty("")  # the player whose code is shown, or BANKER
    url = StringProperty("")
    status = StringProperty("")
    texture = ObjectProperty(None, allownone=True)

    def refresh(self) -> None:
        phones = self.app.phones
        self.status = phones.status_text()
        desk = self.desk
        box = self.ids.people
        box.clear_widgets()
        if desk is None:
            return
        names = list(desk.table["order"])
        if self.who not in names + [BANKER]:
            self.who = names[0] if names else ""
        for name in names + [BANKER]:
            tap = Factory.Tap(
                text="Banker's phone" if name == BANKER else name,
                name=f"join-{name}",
                selected=name == self.who,
                size_hint_y=1,
                font_size=self.app.u * 20,
            )
            tap.value = name
            tap.bind(on_release=self.pick)
            box.add_widget(tap)
        url = (phones.banker_url() if self.who == BANKER else phones.join_url(self.who)) if phones.running else None
        self.url = url or ""
        self.texture = qr_texture(url) if url else None

    def pick(self, tap) -> None:
        self.who = tap.value
        self.refresh()

    def revoke(self, tap) -> None:
        if not self.app.phones.running:
            self.app.refuse("the phones are not connected", tap)
            return
        who = None if self.who == BANKER else self.who
        label = "the banker's phone" if who is None else f"{who}'s phone"

        def go() -> None:
            self.app.phones.revoke(who)
            self.refresh()

        self.app.confirm(f"Revoke {label}? Its page stops working at once; a new code appears here.", "Revoke", go)

    def back(self) -> None:
        self.app.to_table()
