"""Sounds on the touchscreen: a short sound for each thing the table should hear.

Every sound is made by this module (sine tones with a soft start and end, written as 16-bit mono WAV
files into the app's cache folder the first time they are needed), so the project ships no recordings.
They play through Kivy's audio (``SoundLoader``) on the Pi's own output, HDMI or the headphone jack.

=============  =========================================================================
event          when
=============  =========================================================================
``money``      an action moved money (a payment, rent, a purchase)
``refusal``    the banker's tap was refused (the reason shows on the screen)
``warning``    the trading unit's timer is about to end (its warning beeps)
``timer_end``  the unit's timer or the game clock ran out with nothing sold
``sold``       an auction was sold
``game_over``  the game ended
=============  =========================================================================

Volume (0 to 100) and mute live in touchscreen.json and on the Settings screen. No audio device, no
audio library, a file that will not load: silence, never a crash. :attr:`Sounds.asked` remembers each
event asked for, so tests can check that each event asks for its sound without hearing it.
"""

from __future__ import annotations

import logging
import math
import struct
import wave
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["EVENTS", "Sounds", "make_wav", "outcome_sound"]

log = logging.getLogger(__name__)

RATE = 22050
#: Each event's notes: (frequency in Hz, seconds) in order; 0 Hz is a rest.
EVENTS: dict[str, tuple[tuple[float, float], ...]] = {
    "money": ((1318.5, 0.06), (1760.0, 0.09)),  # a bright two-note "ching"
    "refusal": ((220.0, 0.12), (0.0, 0.03), (185.0, 0.16)),  # low and falling
    "warning": ((880.0, 0.08),),  # one short beep per warning mark
    "timer_end": ((660.0, 0.15), (0.0, 0.05), (660.0, 0.15), (0.0, 0.05), (440.0, 0.3)),
    "sold": ((784.0, 0.1), (988.0, 0.1), (1175.0, 0.1), (1568.0, 0.25)),  # going up: sold!
    "game_over": ((523.3, 0.18), (659.3, 0.18), (784.0, 0.18), (1046.5, 0.45)),
}


def make_wav(path: Path, notes: tuple[tuple[float, float], ...], rate: int = RATE) -> Path:
    """Write ``notes`` as a 16-bit mono WAV file: each tone fades in and out over 5 ms (no clicks)."""
    frames = bytearray()
    fade = int(rate * 0.005)
    for hz, seconds in notes:
        n = int(rate * seconds)
        for i in range(n):
            edge = min(1.0, i / fade, (n - 1 - i) / fade) if fade else 1.0
            value = 0.0 if hz <= 0 else math.sin(2 * math.pi * hz * i / rate) * 0.6 * edge
            frames += struct.pack("<h", int(value * 32767))
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with wave.open(str(tmp), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(bytes(frames))
    tmp.replace(path)
    return path


def _kivy_loader() -> Callable[[str], Any] | None:
    try:
        from kivy.core.audio import SoundLoader
    except Exception:  # noqa: BLE001 - no audio provider on this machine, whatever the reason: silence
        return None
    return SoundLoader.load


def outcome_sound(outcome: Any, over: bool) -> str | None:
    """The sound an acknowledged action asks for: the game's end, an auction sold, or money moving."""
    if over:
        return "game_over"
    if outcome.entry.kind == "do" and (outcome.entry.action or {}).get("action") == "auction":
        return "sold"
    if any(e.get("type") == "Paid" and e.get("amount") for e in outcome.entry.events):
        return "money"
    return None


class Sounds:
    """The touchscreen's sounds: ``play("money")``. ``loader(path) -> sound or None`` (Kivy's by default)."""

    def __init__(
        self, folder: str | Path, *, volume: int = 80, muted: bool = False, loader: Callable[[str], Any] | None = None
    ) -> None:
        self.folder = Path(folder)
        self.volume = volume
        self.muted = muted
        self._loader = loader
        self._loaded: dict[str, Any] = {}
        self.asked: list[str] = []  # every event asked for, heard or not
        self.played: list[str] = []  # the ones that reached a sound device

    def set(self, *, volume: int | None = None, muted: bool | None = None) -> None:
        if volume is not None:
            self.volume = max(0, min(100, int(volume)))
        if muted is not None:
            self.muted = muted

    def _sound(self, event: str) -> Any:
        if event in self._loaded:
            return self._loaded[event]
        sound = None
        try:
            path = self.folder / f"{event}.wav"
            if not path.exists():
                make_wav(path, EVENTS[event])
            loader = self._loader or _kivy_loader()
            sound = loader(str(path)) if loader is not None else None
        except Exception as e:  # noqa: BLE001 - no device, no provider, no room on the card: silence
            log.info("sound %s unavailable: %s", event, e)
            sound = None
        self._loaded[event] = sound
        return sound

    def play(self, event: str) -> bool:
        """Ask for ``event``'s sound; True if it went to a sound device."""
        if event not in EVENTS:
            raise KeyError(f"no sound for {event!r}")
        self.asked.append(event)
        if self.muted or self.volume <= 0:
            return False
        sound = self._sound(event)
        if sound is None:
            return False
        try:
            sound.volume = self.volume / 100
            sound.stop()
            sound.play()
        except Exception as e:  # noqa: BLE001 - a device that went away mid-game
            log.info("sound %s failed: %s", event, e)
            return False
        self.played.append(event)
        return True
