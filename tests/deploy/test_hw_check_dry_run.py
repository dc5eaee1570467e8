"""`companion hw-check --dry-run`: what make pi-check asks a Pi root without buttons. It asks nobody
anything; it opens the pins as the app does and says which trading unit the app will use."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from gpiozero import LED
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.hw_check import main

LIGHT = 12


def nobody_answers(prompt: str) -> str:
    raise AssertionError(f"a dry run asked: {prompt}")


def test_a_wired_box_is_found_and_nothing_is_asked():
    lines: list[str] = []
    status = main(
        ["--dry-run"], input=nobody_answers, output=lines.append, pin_factory=MockFactory(pin_class=MockPWMPin)
    )
    assert status == 0
    assert any("the app will use the buttons, the red light and the buzzer" in line for line in lines)


def test_pins_another_program_holds_leave_the_app_to_the_on_screen_unit():
    factory = MockFactory(pin_class=MockPWMPin)
    squatter = LED(LIGHT, pin_factory=factory)
    lines: list[str] = []
    try:
        status = main(["--dry-run"], input=nobody_answers, output=lines.append, pin_factory=factory)
    finally:
        squatter.close()
    assert status == 2
    assert any("on-screen trading unit only" in line for line in lines)


def test_a_machine_without_the_pi_pin_library_says_the_on_screen_unit_takes_over():
    """As in the arm64 root of make pi-check: gpiozero told to use lgpio, and no GPIO chip to open."""
    companion = Path(sys.executable).parent / "companion"
    env = {**os.environ, "GPIOZERO_PIN_FACTORY": "lgpio", "LG_WD": "/tmp"}
    done = subprocess.run(
        [str(companion), "hw-check", "--dry-run"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Cannot open the trading unit's pins" in done.stdout
    assert "on-screen trading unit only" in done.stdout
