"""The touchscreen's sounds are made by the project and never crash the table: no device means silence."""

from __future__ import annotations

import wave

import pytest

from companion.ui.sounds import EVENTS, Sounds, make_wav


class FakeSound:
    def __init__(self, path: str) -> None:
        self.path, self.volume, self.plays = path, 1.0, 0

    def stop(self) -> None:
        pass

    def play(self) -> None:
        self.plays += 1


@pytest.mark.parametrize("event", sorted(EVENTS))
def test_each_event_has_a_short_sound_of_its_own_made_by_the_project(tmp_path, event):
    path = make_wav(tmp_path / f"{event}.wav", EVENTS[event])
    with wave.open(str(path)) as w:
        seconds = w.getnframes() / w.getframerate()
        assert w.getnchannels() == 1 and w.getsampwidth() == 2
    assert 0.05 < seconds < 1.5
    assert len({notes for notes in EVENTS.values()}) == len(EVENTS)  # no two events sound alike


def test_a_sound_plays_at_the_settings_volume(tmp_path):
    made: list[FakeSound] = []
    sounds = Sounds(tmp_path, volume=40, loader=lambda p: made.append(FakeSound(p)) or made[-1])
    assert sounds.play("money")
    assert made[0].volume == 0.4 and made[0].plays == 1 and made[0].path.endswith("money.wav")
    sounds.set(volume=70)
    sounds.play("money")
    assert len(made) == 1 and made[0].volume == 0.7 and made[0].plays == 2  # loaded once


def test_muted_or_silent_sounds_are_asked_for_but_not_played(tmp_path):
    sounds = Sounds(tmp_path, muted=True, loader=lambda p: FakeSound(p))
    assert not sounds.play("refusal")
    sounds.set(muted=False, volume=0)
    assert not sounds.play("refusal")
    assert sounds.asked == ["refusal", "refusal"] and sounds.played == []


def test_no_audio_device_means_silence_never_a_crash(tmp_path):
    def broken(path: str):
        raise RuntimeError("no audio device")

    assert not Sounds(tmp_path, loader=broken).play("sold")
    assert not Sounds(tmp_path, loader=lambda p: None).play("sold")

    class Gone(FakeSound):
        def play(self) -> None:
            raise OSError("the HDMI screen was unplugged")

    assert not Sounds(tmp_path, loader=Gone).play("game_over")


def test_an_unknown_event_is_a_programming_error(tmp_path):
    with pytest.raises(KeyError):
        Sounds(tmp_path).play("applause")
