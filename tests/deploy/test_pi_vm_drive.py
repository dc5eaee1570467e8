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
