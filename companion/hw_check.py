"""``companion hw-check``: walk a person through every button, the red light and the buzzer.

Meant for a newly built box: it asks for each button to be pressed, turns the light and
the buzzer on and asks whether they work, then prints a summary. Exit status: 0 when
everything works, 1 when a part did not answer, 2 when the GPIO could not be opened.

``--dry-run`` asks nothing: it opens the pins the way the app does and says what the app will use,
the trading unit or (when the pins cannot be opened) the on-screen unit alone.
"""

from __future__ import annotations

import argparse
import threading
from typing import Any, Callable

from companion.hardware import BUTTONS, BoardDevices, PinMap, load_pins
from companion.trading_unit import TradingUnitSettings

WITHOUT_A_PI = "GPIOZERO_PIN_FACTORY=mock GPIOZERO_MOCK_PIN_CLASS=mockpwmpin companion hw-check --dry-run"
"""How to try the check on a computer without GPIO: gpiozero's mock pins, with PWM for the light and buzzer."""

LABELS = {"auction": "AUCTION", "build": "BUILD", "next_turn": "NEXT TURN", "undo": "UNDO"}
"""What each button is called on the box."""


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion hw-check",
        description="Check the trading unit's buttons, red light and buzzer.",
        epilog=f"example:\n  companion hw-check --dry-run\n\nwithout a Pi (gpiozero's mock pins):\n  {WITHOUT_A_PI}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--pins", help="pin map file (default: hw/pins.toml)")
    parser.add_argument("--buzzer", choices=("active", "passive"), help="override the buzzer kind")
    parser.add_argument("--timeout", type=float, default=20.0, help="seconds to wait for each press")
    parser.add_argument(
        "--dry-run", action="store_true", help="only open the pins and say whether the app will use them; ask nothing"
    )
    return parser


def main(
    argv: list[str] | None = None,
    *,
    input: Callable[[str], str] = input,
    output: Callable[[str], Any] = print,
    pin_factory: Any = None,
) -> int:
    """Run the check; ``input``/``output`` talk to the person, ``pin_factory`` picks the GPIO."""
    args = _parser().parse_args(argv)
    try:
        pins = load_pins(args.pins, {"buzzer_kind": args.buzzer} if args.buzzer else None)
        devices = BoardDevices(pins, pin_factory=pin_factory)
    except Exception as error:  # no gpiozero, no GPIO, pin busy, bad pin map
        output(f"Cannot open the trading unit's pins: {type(error).__name__}: {reason_of(error)}")
        if args.dry_run:
            output(
                "The app will run with the on-screen trading unit only, as it does wherever the pins cannot be opened."
            )
        output(
            "Is this a Raspberry Pi, is another program (or the running app) using the pins, "
            "and does hw/pins.toml match the wiring (hw/wiring.md)?"
        )
        output(f"To try the check without a Pi: {WITHOUT_A_PI}")
        return 2
    if args.dry_run:
        output("The trading unit's pins open; the app will use the buttons, the red light and the buzzer:")
        for part in (*BUTTONS, "light", "buzzer"):
            output(f"  {part.replace('_', ' '):<10} {pins.describe(part)}")
        devices.close()
        return 0
    output("Trading unit check. Pins (BCM numbers, header pins in brackets):")
    for part in (*BUTTONS, "light", "buzzer"):
        output(f"  {part.replace('_', ' '):<10} {pins.describe(part)}")
    results: dict[str, bool] = {}
    try:
        for name in BUTTONS:
            results[f"{LABELS[name]} button"] = _check_button(devices, name, args.timeout, input, output)
        results["red light"] = _check_output(devices, "light", input, output)
        results["buzzer"] = _check_output(devices, "buzzer", input, output)
    except EOFError:
        output("No one is answering; stopping the check.")
        return 1
    finally:
        devices.close()
    output("Summary:")
    for part, ok in results.items():
        output(f"  {part:<18} {'works' if ok else 'NOT WORKING: check its wiring in hw/wiring.md'}")
    return 0 if all(results.values()) else 1


def reason_of(error: BaseException) -> str:
    """An error's reason in words, never empty: its message, else what its kind of error means."""
    text = str(error).strip()
    if text:
        return text
    for kind in type(error).__mro__:
        doc = (kind.__doc__ or "").strip()
        if doc and kind not in (Exception, BaseException, object):
            return doc.splitlines()[0].rstrip(".")
    return "no reason given"


def _check_button(
    devices: BoardDevices, name: str, timeout: float, input: Callable[[str], str], output: Callable[[str], Any]
) -> bool:
    """Ask for one press of the button; offer another try when none comes."""
    button, where = devices.buttons[name], devices.pins.describe(name)
    while True:
        if button.is_pressed:
            output(
                f"The {LABELS[name]} button reads as pressed before anyone touched it: is {where} shorted to ground?"
            )
            return False
        pressed = threading.Event()
        button.when_pressed = pressed.set
        output(f"Press the {LABELS[name]} button ({where}).")
        seen = pressed.wait(timeout)
        button.when_pressed = None
        if seen:
            output(f"  {LABELS[name]}: pressed, thank you.")
            return True
        output(f"  No press seen on {where} within {timeout:g} s.")
        if not _yes(input("  Try again? [y/n] ")):
            return False


def _check_output(devices: BoardDevices, part: str, input: Callable[[str], str], output: Callable[[str], Any]) -> bool:
    """Turn the light or the buzzer on, ask whether it works, turn it off."""
    pins: PinMap = devices.pins
    if part == "light":
        devices.show(1.0, None)
        question = f"The red light ({pins.describe('light')}) should be on now. Is it? [y/n] "
    else:
        devices.show(0.0, TradingUnitSettings().warning_tone_hz)
        question = f"The {pins.buzzer_kind} buzzer ({pins.describe('buzzer')}) should sound now. Does it? [y/n] "
    try:
        return _yes(input(question))
    finally:
        devices.show(0.0, None)


def _yes(answer: str) -> bool:
    return answer.strip().lower() in ("y", "yes")
