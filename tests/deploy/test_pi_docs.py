"""docs/raspberry-pi.md stays true: its pin table is hw/pins.toml's, its options are install.sh's."""

from __future__ import annotations

import re

from companion.hardware import HEADER_PIN, load_pins
from tests.deploy.harness import DEPLOY, REPO

PAGE = (REPO / "docs" / "raspberry-pi.md").read_text()
PARTS = {
    "AUCTION / DEAL button": "auction",
    "BUILD button": "build",
    "NEXT TURN button": "next_turn",
    "UNDO button": "undo",
    "red LED": "light",
    "buzzer": "buzzer",
}


def test_the_wiring_table_is_the_pin_map():
    pins = load_pins()
    rows = dict(re.findall(r"^\| ([A-Za-z /]+?) \| (GPIO\d+ \| \d+) \|$", PAGE, flags=re.M))
    assert set(rows) == set(PARTS)
    for label, part in PARTS.items():
        bcm = getattr(pins, part)
        assert rows[label] == f"GPIO{bcm} | {HEADER_PIN[bcm]}", label
    assert "(../hw/wiring.md)" in PAGE and (REPO / "hw" / "wiring.md").exists()


def test_every_installer_option_is_documented():
    script = (DEPLOY / "install.sh").read_text()
    options = set(re.findall(r"^\s+(--[a-z-]+)\)", script, flags=re.M))
    options |= {
        o
        for group in re.findall(r"^\s+(--[a-z-]+(?: \| --[a-z-]+)*)\)", script, flags=re.M)
        for o in group.split(" | ")
    }
    internal = {"--record-source", "--python", "--help", "--no-packages"}  # for update.sh and developers
    assert options - internal, "no options found"
    for option in options - internal:
        assert f"`{option}" in PAGE, f"document {option} in docs/raspberry-pi.md"


def test_the_troubleshooting_covers_what_families_meet():
    for heading in ("software rendering", "double touches", "display index", "GPIO permissions"):
        assert re.search(rf"^### .*{heading}", PAGE, flags=re.M | re.I), heading


def test_every_stage_of_pi_check_is_explained():
    stages = re.findall(r"^\s+stage ([a-z-]+) ", (DEPLOY / "pi-check.sh").read_text(), flags=re.M)
    assert len(stages) >= 9, stages
    table = PAGE[PAGE.index("## Proving it on arm64 without a Pi") : PAGE.index("### What only a real Pi can prove")]
    documented = re.findall(r"^\| ([a-z-]+) \|", table, flags=re.M)[1:]  # below the heading row
    assert documented == stages
