"""deploy/pi_vm_drive.py's own parts, without a machine: the Pi's device tree, the screen's colours."""

from __future__ import annotations

import importlib.util
import re
import shutil
import subprocess

import pytest

from tests.deploy.harness import DEPLOY

spec = importlib.util.spec_from_file_location("pi_vm_drive", DEPLOY / "pi_vm_drive.py")
assert spec and spec.loader
drive = importlib.util.module_from_spec(spec)
spec.loader.exec_module(drive)

# The shape of qemu's virt machine's tree: a GPIO controller (PL061) and the power key on it.
VIRT = """/dts-v1/;

/ {
\tinterrupt-parent = <0x8002>;
\tmodel = "linux,dummy-virt";
\t#size-cells = <0x02>;

\tpl061@9030000 {
\t\tphandle = <0x8005>;
\t\tclocks = <0x8000>;
\t\tgpio-controller;
\t\tcompatible = "arm,pl061\\0arm,primecell";
\t\treg = <0x00 0x9030000 0x00 0x1000>;
\t};

\tgpio-keys {
\t\tcompatible = "gpio-keys";

\t\tpoweroff {
\t\t\tgpios = <0x8005 0x03 0x00>;
\t\t\tlinux,code = <0x74>;
\t\t\tlabel = "GPIO Key Poweroff";
\t\t};
\t};

\tchosen {
\t\tstdout-path = "/pl011@9000000";
\t};
};
"""


def test_the_pi_tree_has_the_board_revision_where_gpiozero_reads_it():
    tree = drive.pi_device_tree(VIRT, 0xC03114)
    assert re.search(r"system \{\s*linux,revision = <0xc03114>;\s*\};\s*\};\s*$", tree)


def test_the_pi_tree_has_no_other_gpio_chip_so_the_header_is_gpiochip0():
    tree = drive.pi_device_tree(VIRT, 0xC03114)
    assert "pl061" not in tree and "gpio-keys" not in tree and "0x8005" not in tree
    assert 'model = "linux,dummy-virt";' in tree and "chosen {" in tree


@pytest.mark.skipif(shutil.which("dtc") is None, reason="needs dtc (device-tree-compiler)")
def test_the_pi_tree_compiles(tmp_path):
    source = tmp_path / "pi.dts"
    source.write_text(drive.pi_device_tree(VIRT, 0xC03114))
    done = subprocess.run(
        ["dtc", "-q", "-I", "dts", "-O", "dtb", "-o", str(tmp_path / "pi.dtb"), str(source)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr


def test_a_one_colour_screen_is_told_from_a_drawn_one(tmp_path):
    blank = tmp_path / "blank.ppm"
    blank.write_bytes(b"P6\n800 480\n255\n" + bytes(800 * 480 * 3))
    drawn = tmp_path / "drawn.ppm"
    drawn.write_bytes(b"P6\n800 480\n255\n" + bytes(i % 251 for i in range(800 * 480 * 3)))
    assert drive.ppm_colours(blank) == 1
    assert drive.ppm_colours(drawn) > 4


def test_an_entry_names_its_action_either_way():
    assert drive.action_of({"action": "salary"}) == "salary"
    assert drive.action_of({"action": {"action": "next_turn", "player": "Ann"}}) == "next_turn"


def test_a_tap_puts_the_finger_down_at_its_place_and_lifts_it():
    """qemu's virtio multitouch passes the tracking id through as ABS_MT_TRACKING_ID: -1 lifts the finger."""
    sent: list[list[dict]] = []
    monitor = drive.Monitor.__new__(drive.Monitor)
    monitor.run = lambda command, **arguments: sent.append(arguments["events"])  # type: ignore[method-assign]
    monitor.tap(400, 240)
    down, up = ([e["data"] for e in events] for events in sent)
    assert [(e["type"], e["tracking-id"]) for e in down] == [("begin", 1), ("data", 1), ("data", 1)]
    assert [(e["axis"], e["value"]) for e in down[1:]] == [("x", 0x7FFF // 2 + 1), ("y", 0x7FFF // 2 + 1)]
    assert [(e["type"], e["tracking-id"]) for e in up] == [("end", -1)]


def _an_auction(beeps: int = 5, first_lit: float = 0.05) -> str:
    """watch-lines' output for the classic timer pressed at 0 s: the red light flashing once a second,
    four times a second in the last five, the buzzer's warning beeps, both low at the end; the light
    first lit ``first_lit`` s after the press (the kiosk's first look at the timer)."""
    rows = [(0.0, 12, 0), (0.0, 13, 0), (first_lit, 12, 1), (0.5, 12, 0)]
    rows += [(at + half, 12, 1 - k) for at in range(1, 45) for k, half in enumerate((0.0, 0.5))]
    rows += [(45 + i * 0.25 + half, 12, 1 - k) for i in range(20) for k, half in enumerate((0.0, 0.125))]
    rows += [(45 + i + half, 13, 1 - k) for i in range(beeps) for k, half in enumerate((0.0, 0.25))]
    return "\n".join(f"{t:.3f} {line} {value}" for t, line, value in sorted(rows))


def test_the_auction_lines_flash_and_sound_in_the_last_five_seconds():
    said = drive.read_the_timer(drive.line_changes(_an_auction()))
    assert "lit 0.05 s after the press, flashed 45 times, then 20 times in the last 5 s" in said
    assert "sounded 5 of 5 warning beeps, at 45.00, 46.00, 47.00, 48.00, 49.00 s; both low 49.88 s" in said


def test_a_buzzer_never_heard_fails_the_timer_saying_so():
    with pytest.raises(drive.CheckFailed, match="the buzzer's line never went high"):
        drive.read_the_timer(drive.line_changes(_an_auction(beeps=0)))


def test_a_warning_with_only_one_beep_heard_fails():
    with pytest.raises(drive.CheckFailed, match="sounded 1 time"):
        drive.read_the_timer(drive.line_changes(_an_auction(beeps=1)))


def test_a_buzzer_sounding_before_the_warning_fails():
    changes = drive.line_changes(_an_auction())
    changes[13] = [(0.0, 0), (10.0, 1), (10.25, 0)] + changes[13][1:]
    with pytest.raises(drive.CheckFailed, match="went high at 10.00 s after the press, outside the warning's 45-50 s"):
        drive.read_the_timer(changes)


def test_a_buzzer_left_sounding_after_the_end_fails():
    changes = drive.line_changes(_an_auction())
    changes[13].append((49.5, 1))
    with pytest.raises(drive.CheckFailed, match="the buzzer's line did not go low"):
        drive.read_the_timer(changes)


def test_a_light_that_never_flashed_fails():
    changes = drive.line_changes(_an_auction())
    changes[12] = [(0.0, 0), (0.05, 1), (49.9, 0)]
    with pytest.raises(drive.CheckFailed, match="flashed 1 times in the timer.s first 45 s"):
        drive.read_the_timer(changes)
