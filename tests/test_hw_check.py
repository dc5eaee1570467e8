"""Setting up a new box: `companion hw-check` with mock pins standing in for the wiring."""

import pytest
from gpiozero import LED
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.hw_check import main

PINS = {"AUCTION": 5, "BUILD": 6, "NEXT TURN": 16, "UNDO": 26}
LIGHT, BUZZER = 12, 13


class Person:
    """Someone at the box: presses the buttons they are asked for and says what they see."""

    def __init__(self, factory, answers=None, broken_buttons=()):
        self.factory, self.lines, self.asked = factory, [], []
        self.answers = dict(answers or {})
        self.broken = set(broken_buttons)

    def output(self, line):
        self.lines.append(line)
        for label, bcm in PINS.items():
            if line.startswith(f"Press the {label} button") and label not in self.broken:
                self.factory.pin(bcm).drive_low()
                self.factory.pin(bcm).drive_high()

    def input(self, prompt):
        light, buzzer = self.factory.pin(LIGHT), self.factory.pin(BUZZER)
        self.asked.append((prompt, light.state, buzzer.state))
        for key, answer in self.answers.items():
            if key in prompt:
                return answer
        return "y"

    @property
    def text(self):
        return "\n".join(self.lines)


@pytest.fixture
def factory():
    return MockFactory(pin_class=MockPWMPin)


def test_a_well_wired_box_passes(factory):
    person = Person(factory)
    assert main([], input=person.input, output=person.output, pin_factory=factory) == 0
    assert "auction    GPIO5 (pin 29)" in person.text
    for label in PINS:
        assert f"{label}: pressed" in person.text
    (light_q, light_on, _), (buzz_q, light_after, buzzing) = person.asked
    assert "red light" in light_q and light_on == 1.0
    assert "buzzer" in buzz_q and buzzing == 1.0 and light_after == 0.0
    assert factory.pin(LIGHT).state == 0.0 and factory.pin(BUZZER).state == 0.0
    assert "NOT WORKING" not in person.text


def test_an_unwired_button_is_reported(factory):
    person = Person(factory, answers={"Try again": "n"}, broken_buttons={"BUILD"})
    status = main(["--timeout", "0.01"], input=person.input, output=person.output, pin_factory=factory)
    assert status == 1
    assert "No press seen on GPIO6 (pin 31)" in person.text
    assert "BUILD button       NOT WORKING" in person.text


def test_a_dark_light_is_reported(factory):
    person = Person(factory, answers={"red light": "n"})
    assert main([], input=person.input, output=person.output, pin_factory=factory) == 1
    assert "red light          NOT WORKING" in person.text


def test_a_passive_buzzer_gets_a_pitch(factory):
    person = Person(factory)
    assert main(["--buzzer", "passive"], input=person.input, output=person.output, pin_factory=factory) == 0
    assert any("passive buzzer" in q and state == 0.5 for q, _, state in person.asked)


def test_a_button_shorted_to_ground_is_named(factory):
    person = Person(factory)
    original = person.output

    def output(line):
        original(line)
        if line.startswith("Press the AUCTION"):
            factory.pin(PINS["BUILD"]).drive_low()  # stuck before anyone asks for it

    assert main([], input=person.input, output=output, pin_factory=factory) == 1
    assert "reads as pressed before anyone touched it: is GPIO6 (pin 31) shorted" in person.text


def test_busy_pins_end_the_check_with_status_2(factory):
    squatter = LED(LIGHT, pin_factory=factory)
    person = Person(factory)
    assert main([], input=person.input, output=person.output, pin_factory=factory) == 2
    assert "Cannot open the trading unit's pins" in person.text
    squatter.close()
    assert main([], input=person.input, output=person.output, pin_factory=factory) == 0


def test_no_answer_stops_the_check(factory):
    def silent(prompt):
        raise EOFError

    person = Person(factory)
    assert main([], input=silent, output=person.output, pin_factory=factory) == 1
    assert factory.pin(LIGHT).state == 0.0


def test_mock_pins_without_pwm_give_a_reason_and_say_how_to_try_it_without_a_pi():
    person = Person(MockFactory())  # gpiozero's default mock pins cannot drive the light and buzzer with PWM
    assert main(["--dry-run"], input=person.input, output=person.output, pin_factory=MockFactory()) == 2
    first = person.lines[0]
    assert first.startswith("Cannot open the trading unit's pins: PinPWMUnsupported: ") and not first.endswith(": ")
    assert "GPIOZERO_PIN_FACTORY=mock GPIOZERO_MOCK_PIN_CLASS=mockpwmpin companion hw-check" in person.text


def test_the_way_to_try_it_without_a_pi_works_as_written(monkeypatch):
    monkeypatch.setenv("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")
    person = Person(None)
    assert main(["--dry-run"], input=person.input, output=person.output, pin_factory=MockFactory()) == 0
    assert "The trading unit's pins open" in person.lines[0]
