"""Settings: theme and sound, the trading unit's pins (a live test of each part), the phones' network
address and the game's table options (players' actions from their phones...), backups and restoring one, every game
copied to a USB stick in one tap, and correcting a deed card to match the box."""

from __future__ import annotations

from kivy.clock import Clock
from kivy.factory import Factory
from kivy.properties import BooleanProperty, StringProperty

from companion.core.common import TABLE_SWITCHES, switch_is_on

from ..settings_view import backup_rows, part_rows
from . import BankScreen

__all__ = ["SettingsScreen"]


class SettingsScreen(BankScreen):
    hardware_text = StringProperty("")
    phones_text = StringProperty("")
    parts_text = StringProperty("")
    sound = BooleanProperty(True)
    volume_text = StringProperty("")
    has_board = BooleanProperty(False)
    usb_busy = BooleanProperty(False)
    usb_text = StringProperty("")
    has_game = BooleanProperty(False)
    _poll = None

    def on_pre_enter(self, *args):
        self.refresh()
        self._poll = Clock.schedule_interval(self._watch_parts, 0.2)

    def on_leave(self, *args):
        if self._poll is not None:
            self._poll.cancel()
            self._poll = None

    def refresh(self) -> None:
        app = self.app
        s = app.settings_store
        self.sound = s.sound
        self.volume_text = f"Volume {s.volume}%"
        self.ids.host.text, self.ids.port.text = s.host, str(s.port)
        self.phones_text = app.phones.status_text()
        self.has_game = self.desk is not None
        self._show_switches()
        link = app.unit_link
        self.hardware_text = link.hardware_text if link else "No game open"
        self.has_board = bool(link and getattr(link.board, "present", False))
        self._watch_parts()
        box = self.ids.backups
        box.clear_widgets()
        rows = backup_rows(self.desk.path) if self.desk is not None else []
        for row in rows[:8]:
            line = Factory.BackupRow()
            line.screen = self
            line.path, line.words = row["path"], row["text"]
            box.add_widget(line)
        self.ids.no_backups.text = (
            "" if rows else ("No backups yet (one is taken every 20 actions)." if self.desk else "")
        )

    def _watch_parts(self, *_):
        link = self.app.unit_link
        rows = part_rows(link.board) if link is not None else []
        self.parts_text = "   ".join(f"{r['label']}: {'DOWN' if r['pressed'] else 'up'}" for r in rows)

    # -- taps --------------------------------------------------------------------------------------
    def set_theme(self, name: str) -> None:
        self.app.change_setting("theme", name)
        self.app.set_theme(name)

    def toggle_sound(self) -> None:
        self.app.change_setting("sound", not self.app.settings_store.sound)
        if self.app.unit_link is not None:
            self.app.unit_link.muted = not self.app.settings_store.sound
        self.refresh()

    def change_volume(self, step: int) -> None:
        """Louder or softer by ``step`` (10 a tap), heard at once with the sound of money."""
        volume = max(0, min(100, self.app.settings_store.volume + step))
        self.app.change_setting("volume", volume)
        self.app.sounds.play("money")
        self.refresh()

    def _show_switches(self) -> None:
        """One button for each of the game's table options (players' actions from their phones...),
        saying whether it is on; a tap turns it the other way."""
        box = self.ids.switches
        if not box.children:
            for key in TABLE_SWITCHES:
                tap = Factory.Tap(name=f"option-{key}", font_size=self.app.u * 20)
                tap.option = key
                tap.bind(on_release=self.toggle_option)
                box.add_widget(tap)
        for tap in box.children:
            words = TABLE_SWITCHES[tap.option]
            on = self.desk is not None and switch_is_on(self.desk.table, tap.option)
            tap.text = f"{words[:1].upper()}{words[1:]}: {'on' if on else 'off'}"
            tap.selected, tap.disabled = on, self.desk is None

    def toggle_option(self, tap) -> None:
        """Turn one of the game's table options the other way: an entry in the log like any action,
        so the table sees it and Undo takes it back."""
        if self.desk is None:
            self.app.refuse("no game is open", tap)
            return
        on = not switch_is_on(self.desk.table, tap.option)
        result = self.desk.do({"action": "set_option", "option": tap.option, "on": on})
        if not result.ok:
            self.app.refuse(result.text, tap)
        self.refresh()

    def test_light(self, tap) -> None:
        devices = self._devices(tap)
        if devices is not None:
            devices.show(1.0, None)
            Clock.schedule_once(lambda *_: devices.show(0.0, None), 1.0)

    def test_buzzer(self, tap) -> None:
        devices = self._devices(tap)
        if devices is not None:
            devices.show(0.0, 1760.0)
            Clock.schedule_once(lambda *_: devices.show(0.0, None), 0.3)

    def _devices(self, tap):
        link = self.app.unit_link
        devices = getattr(getattr(link, "board", None), "devices", None) if link else None
        if devices is None:
            self.app.refuse(
                "the trading unit's pins are not connected: " + (link.hardware_text if link else "no game"), tap
            )
        return devices

    def save_network(self, tap) -> None:
        port = self.ids.port.text.strip()
        try:
            self.app.change_setting("host", self.ids.host.text.strip())
            self.app.change_setting("port", int(port) if port.isdigit() else port)
        except ValueError as e:
            self.app.refuse(str(e), tap)
            return
        self.app.restart_phones()
        self.refresh()

    def restore(self, row, tap) -> None:
        self.app.confirm(
            "Restore this backup? The game goes back to it; the current file is kept aside.",
            "Restore",
            lambda: self._restore(row.path, tap),
        )

    def _restore(self, path: str, tap) -> None:
        problem = self.app.restore_backup(path)
        if problem:
            self.app.refuse(problem, tap)

    def usb_backup(self, tap) -> None:
        """Copy every game to the USB stick plugged in, beside the app's loop (a copy takes seconds);
        the result, or why it could not, shows under the button."""
        import threading

        from companion.core.errors import BankerError
        from companion.usb_backup import backup_to_stick

        if self.usb_busy:
            return
        self.usb_busy, self.usb_text = True, "Looking for the stick and copying the games..."
        folder = self.app.folder

        def copy() -> None:
            try:
                text = backup_to_stick(folder).text
            except (BankerError, OSError) as e:
                text = f"Not copied: {e}"
            Clock.schedule_once(lambda *_: self._usb_done(text), 0)

        threading.Thread(target=copy, name="usb-backup", daemon=True).start()

    def busy(self) -> bool:
        """A copy to the USB stick is running: the screen stays to show its result."""
        return self.usb_busy

    def _usb_done(self, text: str) -> None:
        self.usb_busy, self.usb_text = False, text[:1].upper() + text[1:]

    def correct_card(self) -> None:
        self.app.show("card")

    def quit(self) -> None:
        self.app.confirm(
            "Close the bank? The game is saved and opens again when the bank starts.", "Close", self.app.stop
        )

    def back(self) -> None:
        self.app.to_table()
