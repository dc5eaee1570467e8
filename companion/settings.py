"""The appliance's settings: theme, sound, the phones' network address, pin overrides.

Read by the touchscreen and by ``companion serve`` alike, so neither adapter imports the other. Kept as
JSON beside the games (``touchscreen.json`` in the data folder), written atomically. A
missing or unreadable file means the defaults; a bad value is refused with a reason and not saved.
Pure apart from reading and writing that one file; no Kivy.
"""

from __future__ import annotations

import ipaddress
import json
import os
from dataclasses import asdict, dataclass, field, fields, replace
from pathlib import Path
from typing import Any

__all__ = ["UiSettings", "SETTINGS_FILE"]

SETTINGS_FILE = "touchscreen.json"


@dataclass(frozen=True)
class UiSettings:
    """What the banker can change in the Settings screen. ``folder`` is where the file lives."""

    theme: str = "dark"
    sound: bool = True
    volume: int = 80  # the touchscreen's sounds, 0 to 100
    host: str = "0.0.0.0"  # where the phones' server listens: every interface on the Pi
    port: int = 8080
    phones: bool = True  # start the phones' server with the app (when it is installed)
    advertise: bool = True  # announce the table on the network by zeroconf, so phones find it
    hardware: bool = True  # use the GPIO trading unit (when present)
    pins: dict = field(default_factory=dict)  # overrides of hw/pins.toml, e.g. {"light": 18}
    folder: str = ""

    @classmethod
    def load(cls, folder: str | os.PathLike) -> "UiSettings":
        path = Path(folder) / SETTINGS_FILE
        try:
            raw = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return cls(folder=str(folder))
        known = {f.name for f in fields(cls)} - {"folder"}
        current = cls(folder=str(folder))
        for key, value in raw.items() if isinstance(raw, dict) else ():
            if key in known:
                try:
                    current = current.change(key, value)
                except ValueError:
                    continue  # one bad value does not cost the others
        return current

    def change(self, key: str, value: Any) -> "UiSettings":
        """A copy with one setting changed; ValueError with the reason when the value cannot be."""
        if key == "theme" and value not in ("light", "dark"):
            raise ValueError("the theme is light or dark")
        if key in ("sound", "phones", "hardware", "advertise") and not isinstance(value, bool):
            raise ValueError(f"{key} is on or off")
        if key == "host":
            try:
                ipaddress.ip_address(str(value))
            except ValueError:
                raise ValueError(f"{value!r} is not an IP address (0.0.0.0 listens on every network)") from None
        if key == "port" and (
            isinstance(value, bool) or not isinstance(value, int) or not (value == 0 or 1024 <= value <= 65535)
        ):
            raise ValueError("the port is a number from 1024 to 65535 (0: any free port)")
        if key == "volume" and (isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 100):
            raise ValueError("the volume is a whole number from 0 to 100")
        if key == "pins" and not isinstance(value, dict):
            raise ValueError("pins are a table of part names and BCM numbers")
        if key not in {f.name for f in fields(self)}:
            raise ValueError(f"there is no setting called {key!r}")
        return replace(self, **{key: value})

    def save(self) -> Path:
        """Write the file (to a temporary name first, so a power cut never leaves half a file)."""
        folder = Path(self.folder)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / SETTINGS_FILE
        tmp = path.with_name(f".{SETTINGS_FILE}.tmp")
        data = {k: v for k, v in asdict(self).items() if k != "folder"}
        tmp.write_text(json.dumps(data, indent=1, sort_keys=True), encoding="utf-8")
        os.replace(tmp, path)
        return path
