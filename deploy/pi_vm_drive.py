#!/usr/bin/env python3
"""Drive the booted Pi machine of ``make pi-vm-check`` and check the kiosk on the Pi's own stacks.

Run by deploy/pi-vm-check.sh on the host, with the host's python3 (standard library only):

``pi_vm_drive.py device-tree DTS REVISION``
    prints the machine's device tree with a Raspberry Pi's board revision at
    ``/system/linux,revision`` (where a Pi's firmware puts it, and where gpiozero reads it) and without
    the machine's own GPIO controller (PL061) and the keys on it, so the header's chip is gpiochip0 as
    on a Pi 4.

``pi_vm_drive.py check --work DIR --out DIR --port N --pass-file FILE --game PATH --qemu-pid PID``
    talks to qemu through QMP (screendump, input-send-event), to the guest through its control channel
    (a virtio serial port: one shell line in, ``STATUS BASE64`` back) and to the phones' API on the
    forwarded port, and checks, in order:

    display   the kiosk unit is active, its process holds /dev/dri/card0 (virtio_gpu) and no X server
              runs; the first screen (QMP screendump, not blank, the same at two looks) is saved
    touch     a tap on Salary through the multitouch device reaches the app through the provider of
              its Kivy settings: exactly one ``salary`` entry, read back through the phones' API
    gpio      the app holds the gpio-sim chip through lgpio; the Next turn button's line writes one
              ``next_turn`` entry after the salary (so no second salary came in between); the Auction
              button's line starts the timer, and the guest watches the red light's and the buzzer's
              lines (every 5 ms, each change with its time) until past the timer's end: the light
              flashes, the buzzer sounds its warning beeps in the last five seconds only, and both
              end low
    stop      ``systemctl stop table-banker`` ends it cleanly, no traceback in its journal, and
              ``companion check`` finds the game intact

Nothing waits on a fixed sleep except a button held down for a person's press; everything else waits
on the state it needs, with a limit.
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import socket
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from typing import Any

SCREEN = (800, 480)
#: Where Salary is on the table screen at 800x480 (its centre, from the top left), measured with the
#: tests' hands (tests/gui) on this layout: the check fails, saying so, when a tap misses it.
SALARY_AT = (82, 336)
AUCTION, NEXT_TURN, LIGHT, BUZZER = 5, 16, 12, 13  # BCM numbers, hw/pins.toml
#: How long the kiosk may take to write what a tap or a button asked for, and to answer the phones'
#: API meanwhile (it serves them on its own loop): under emulation every frame is drawn in software
#: by emulated processors, and on a busy host one tap has taken over a minute.
BUSY_SECONDS = 300
ABS_MAX = 0x7FFF


class CheckFailed(Exception):
    """One of the checks did not hold; the message says which and what was seen."""


def say(text: str) -> None:
    print(text, flush=True)


# -- the device tree ---------------------------------------------------------------------------------
def _drop_node(dts: str, pattern: str) -> str:
    """``dts`` without the node whose opening line matches ``pattern`` (a regex), braces balanced."""
    match = re.search(pattern, dts, flags=re.MULTILINE)
    if match is None:
        return dts
    depth, i = 0, match.end() - 1
    while True:
        if dts[i] == "{":
            depth += 1
        elif dts[i] == "}":
            depth -= 1
            if depth == 0:
                break
        i += 1
    end = dts.index(";", i) + 1
    start = dts.rfind("\n", 0, match.start()) + 1
    return dts[:start] + dts[end + 1 :]


def pi_device_tree(dts: str, revision: int) -> str:
    dts = _drop_node(dts, r"^\s*pl061@[0-9a-f]+ \{")
    dts = _drop_node(dts, r"^\s*gpio-keys \{")
    end = dts.rindex("\n};")  # the root node's end: subnodes follow its properties
    system = f"\n\tsystem {{\n\t\tlinux,revision = <{revision:#x}>;\n\t}};\n"
    return dts[:end] + system + dts[end:]


# -- qemu's monitor (QMP) ----------------------------------------------------------------------------
class Monitor:
    def __init__(self, path: Path, alive: Callable[[], bool], limit: float = 120) -> None:
        until = time.monotonic() + limit
        while True:
            try:
                self.sock = socket.socket(socket.AF_UNIX)
                self.sock.connect(str(path))
                break
            except OSError:
                self.sock.close()
                if not alive() or time.monotonic() > until:
                    raise CheckFailed("qemu's monitor did not open") from None
                time.sleep(0.2)
        self.file = self.sock.makefile("rw")
        json.loads(self.file.readline())  # the greeting
        self.run("qmp_capabilities")

    def run(self, command: str, **arguments: Any) -> Any:
        self.file.write(json.dumps({"execute": command, "arguments": arguments}) + "\n")
        self.file.flush()
        while True:
            answer = json.loads(self.file.readline())
            if "event" in answer:
                continue
            if "error" in answer:
                raise CheckFailed(f"QMP {command}: {answer['error'].get('desc')}")
            return answer.get("return")

    def screen(self, path: Path, fmt: str = "ppm") -> None:
        self.run("screendump", filename=str(path), format=fmt)

    def tap(self, x: float, y: float, slot: int = 0, tracking: int = 1) -> None:
        """One finger down and up at (x, y) of the screen, through the virtio multitouch device."""
        ax, ay = round(x * ABS_MAX / SCREEN[0]), round(y * ABS_MAX / SCREEN[1])

        def mtt(kind: str, axis: str = "x", value: int = 0, finger: int = tracking) -> dict:
            return {
                "type": "mtt",
                "data": {"type": kind, "slot": slot, "tracking-id": finger, "axis": axis, "value": value},
            }

        self.run("input-send-event", events=[mtt("begin"), mtt("data", "x", ax), mtt("data", "y", ay)])
        time.sleep(0.12)  # a finger rests on the glass a moment
        # qemu's virtio multitouch passes the tracking id through as ABS_MT_TRACKING_ID: -1 lifts the finger
        self.run("input-send-event", events=[mtt("end", finger=-1)])


def ppm_colours(path: Path) -> int:
    """How many colours the screendump (binary PPM) has, counting up to 64."""
    data = path.read_bytes()
    parts = data.split(maxsplit=4)
    pixels = parts[4]
    seen: set[bytes] = set()
    for i in range(0, len(pixels) - 2, 3 * 97):  # a sample of the pixels is enough
        seen.add(pixels[i : i + 3])
        if len(seen) >= 64:
            break
    return len(seen)


# -- the guest's control channel ---------------------------------------------------------------------
class Guest:
    def __init__(self, path: Path, alive: Callable[[], bool]) -> None:
        self.path, self.alive = path, alive
        self.sock: socket.socket | None = None
        self.buffer = b""
        self.asked = 0

    def _connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX)
        self.sock.connect(str(self.path))

    def run(self, command: str, timeout: float = 120) -> tuple[int, str]:
        """Run ``command`` in the guest: (exit status, output). Answers to earlier commands that
        timed out (or pings sent before the guest listened) are told apart by their number."""
        if self.sock is None:
            self._connect()
        assert self.sock is not None
        self.asked += 1
        ask = str(self.asked)
        self.sock.sendall(f"{ask} {command}\n".encode())
        until = time.monotonic() + timeout
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                number, status, out = (line.decode(errors="replace").split(" ") + ["", ""])[:3]
                if number == ask:
                    return int(status), base64.b64decode(out).decode(errors="replace")
            self.sock.settimeout(max(0.1, min(2.0, until - time.monotonic())))
            try:
                chunk = self.sock.recv(65536)
            except TimeoutError:
                chunk = None
            if chunk == b"":
                raise CheckFailed("the guest's control channel closed")
            if chunk:
                self.buffer += chunk
            elif time.monotonic() > until or not self.alive():
                raise TimeoutError(command)

    def out(self, command: str, timeout: float = 120) -> str:
        status, out = self.run(command, timeout)
        if status != 0:
            raise CheckFailed(f"in the guest, `{command}` failed ({status}): {out.strip()[-600:]}")
        return out.strip()

    def wait_ready(self, limit: float) -> None:
        until = time.monotonic() + limit
        while True:
            try:
                if self.run("true", timeout=5)[0] == 0:
                    return
            except TimeoutError:
                pass
            except OSError:
                self.sock = None
                time.sleep(1)
            if not self.alive():
                raise CheckFailed("the machine stopped before its control channel answered")
            if time.monotonic() > until:
                raise CheckFailed(f"the guest's control channel did not answer in {limit:.0f} s")


# -- the phones' API ---------------------------------------------------------------------------------
class Phones:
    def __init__(self, port: int, banker_pass: str) -> None:
        self.base = f"http://127.0.0.1:{port}"
        self.banker_pass = banker_pass

    def log(self, after: int = 0) -> list[dict]:
        request = urllib.request.Request(
            f"{self.base}/api/v1/log?after={after}&limit=500", headers={"Authorization": f"Bearer {self.banker_pass}"}
        )
        with urllib.request.urlopen(request, timeout=20) as answer:
            return json.load(answer)["entries"]


def action_of(entry: dict) -> str:
    action = entry.get("action")
    if isinstance(action, dict):
        return str(action.get("action"))
    return str(action)


def until(what: str, check: Callable[[], Any], limit: float, every: float = 1.0) -> Any:
    """Wait for ``check`` to give something true; fail after ``limit`` seconds, naming ``what``."""
    deadline = time.monotonic() + limit
    last: Exception | None = None
    while True:
        try:
            got = check()
        except (OSError, ValueError) as e:  # the API not up yet, a screendump half written
            got, last = None, e
        else:
            last = None
        if got:
            return got
        if time.monotonic() > deadline:
            raise CheckFailed(f"{what}: not within {limit:.0f} s" + (f" ({last})" if last else ""))
        time.sleep(every)


# -- the trading unit's lines -------------------------------------------------------------------------
#: The classic pack's timer: TradingUnitSettings' defaults (the pack has no [trading_unit] table).
AUCTION_SECONDS, WARNING_SECONDS = 50.0, 5.0
BEEPS = 5  # the warning sound: a quarter of a second at the start of each of the last five seconds
#: How far a change on the lines may stray from its moment on the unit's clock: the press is stamped
#: when gpiozero's thread sees the line fall (debounced), and the pins are written by a thread of
#: their own, which an emulated machine schedules late at times.
SLACK = 0.5
WATCH_SECONDS = AUCTION_SECONDS + 8


def line_changes(text: str) -> dict[int, list[tuple[float, int]]]:
    """watch-lines' output ("SECONDS LINE VALUE" a line) as each line's changes in time order."""
    changes: dict[int, list[tuple[float, int]]] = {}
    for row in text.split("\n"):
        if row.strip():
            at, line, value = row.split()
            changes.setdefault(int(line), []).append((float(at), int(value)))
    return changes


def _rises(changes: list[tuple[float, int]]) -> list[float]:
    return [at for i, (at, value) in enumerate(changes) if value == 1 and i > 0 and changes[i - 1][1] == 0]


def read_the_timer(changes: dict[int, list[tuple[float, int]]]) -> str:
    """What the red light's and the buzzer's lines did after the Auction button was pressed (at 0 s),
    as one line for the summary. CheckFailed unless the light flashed while the timer ran, the buzzer
    sounded its warning beeps in the last seconds and never before, and both lines ended low."""
    light, buzzer = changes.get(LIGHT, []), changes.get(BUZZER, [])
    lit = [at for at, value in light if value == 1]
    if not lit:
        raise CheckFailed("the red light's line never went high after the Auction button")
    warning, ends = AUCTION_SECONDS - WARNING_SECONDS, AUCTION_SECONDS
    flashes = [at for at in _rises(light) if at < warning]
    if len(flashes) < 10:
        raise CheckFailed(
            f"the red light's line flashed {len(flashes)} times in the timer's first "
            f"{warning:.0f} s, not about once a second"
        )
    beeps = _rises(buzzer)
    if not beeps:
        raise CheckFailed(
            f"the buzzer's line never went high in the {WATCH_SECONDS:.0f} s after the press "
            f"(the red light's line changed {len(light)} times)"
        )
    stray = [at for at in beeps if not warning - SLACK <= at <= ends + SLACK]
    if stray:
        raise CheckFailed(
            f"the buzzer's line went high at {', '.join(f'{at:.2f}' for at in stray)} s after the press, "
            f"outside the warning's {warning:.0f}-{ends:.0f} s"
        )
    if len(beeps) < BEEPS - 1:
        raise CheckFailed(f"the buzzer's line sounded {len(beeps)} time(s) in the warning, not {BEEPS}")
    for name, line in (("red light", light), ("buzzer", buzzer)):
        if line[-1][1] != 0 or line[-1][0] > ends + SLACK:
            raise CheckFailed(f"the {name}'s line did not go low at the timer's end (its last changes: {line[-3:]})")
    fast = [at for at in _rises(light) if warning <= at < ends]
    return (
        f"the red light's line lit {lit[0]:.2f} s after the press, flashed {len(flashes)} times, then "
        f"{len(fast)} times in the last {WARNING_SECONDS:.0f} s; the buzzer's line sounded {len(beeps)} of "
        f"{BEEPS} warning beeps, at {', '.join(f'{at:.2f}' for at in beeps)} s; both low "
        f"{max(light[-1][0], buzzer[-1][0]):.2f} s after the press"
    )


# -- the checks --------------------------------------------------------------------------------------
class Check:
    def __init__(self, args: argparse.Namespace) -> None:
        self.work, self.out = Path(args.work), Path(args.out)
        self.qemu_pid, self.game = args.qemu_pid, args.game
        self.began = time.monotonic()
        self.summary: list[str] = []
        self.failures: list[str] = []  # checks that failed without stopping the ones after them
        self.monitor = Monitor(self.work / "qmp.sock", self.alive)
        self.guest = Guest(self.work / "ctl.sock", self.alive)
        self.phones = Phones(args.port, Path(args.pass_file).read_text().strip())

    def alive(self) -> bool:
        try:
            os.kill(self.qemu_pid, 0)
        except OSError:
            return False
        return True

    def note(self, line: str) -> None:
        say(line)
        self.summary.append(line)

    def kiosk_pid(self) -> int:
        return int(self.guest.out("systemctl show -p MainPID --value table-banker.service") or 0)

    def fds_of_kiosk(self) -> str:
        return self.guest.out(
            "pid=$(systemctl show -p MainPID --value table-banker.service); "
            '[ "$pid" != 0 ] && for f in /proc/$pid/fd/*; do readlink "$f"; done | sort -u || true'
        )

    # display -----------------------------------------------------------------------------------------
    def display(self) -> None:
        self.guest.wait_ready(900)
        booted = time.monotonic() - self.began
        say(f"the guest answers {booted:.0f} s after qemu started")
        until(
            "the kiosk unit active",
            lambda: (
                self.guest.run("systemctl is-active table-banker.service")[1].strip() == "active" or self._unit_failed()
            ),
            300,
            2,
        )
        until(
            "the kiosk holding /dev/dri/card0",
            lambda: "/dev/dri/card0" in self.fds_of_kiosk() or self._unit_failed(),
            600,
            2,
        )
        look, previous = self.work / "look.ppm", None
        limit = float(os.environ.get("PI_VM_SCREEN_SECONDS", "600"))
        deadline = time.monotonic() + limit
        told = time.monotonic()
        while True:
            self._unit_failed()
            self.monitor.screen(look)
            data = look.read_bytes()
            if ppm_colours(look) > 4 and data == previous:
                break
            previous = data
            if time.monotonic() > told + 120:  # what the kiosk is doing meanwhile, for the reader
                told = time.monotonic()
                last = self.guest.run("journalctl -b -u table-banker.service -o cat | tail -n 1")[1].strip()
                say(f"  waiting for the first screen ({told - self.began:.0f} s): {last[-200:]}")
            if time.monotonic() > deadline:
                raise CheckFailed(f"no steady first screen within {limit:.0f} s of the kiosk opening the screen")
            time.sleep(1.5)
        seconds = time.monotonic() - self.began
        self.monitor.screen(self.out / "first-screen.png", "png")
        (self.out / "first-screen-seconds").write_text(f"{seconds:.0f}\n")
        # The card's device is the PCI function (driven by virtio-pci); virtio_gpu drives the virtio
        # device on it.
        driver = self.guest.out(
            "set -- /sys/class/drm/card0/device/virtio*/driver; "
            '[ -e "$1" ] || set -- /sys/class/drm/card0/device/driver; basename "$(readlink "$1")"'
        )
        if driver != "virtio_gpu":
            raise CheckFailed(f"/dev/dri/card0 is driven by {driver}, not virtio_gpu")
        # (the root has no procps: the processes' names are read from /proc)
        xservers = self.guest.run("grep -l -x -E 'Xorg|Xvfb|Xwayland' /proc/[0-9]*/comm 2>/dev/null || true")[1].strip()
        if xservers:
            raise CheckFailed(f"an X server runs in the guest: {xservers}")
        renderer = self.guest.run("journalctl -b -u table-banker.service -o cat | grep -m1 -i 'renderer'")[1].strip()
        self.note(f"display: the kiosk draws through KMS/DRM on /dev/dri/card0 ({driver}), no X server; {renderer}")
        self.note(
            f"display: first screen {seconds:.0f} s after the machine was switched on: {self.out / 'first-screen.png'}"
        )

    def _unit_failed(self) -> bool:
        state = self.guest.run("systemctl is-failed table-banker.service")[1].strip()
        restarts = self.guest.run("systemctl show -p NRestarts --value table-banker.service")[1].strip()
        if state == "failed" or (restarts.isdigit() and int(restarts) > 0):
            journal = self.guest.run("journalctl -b -u table-banker.service -o cat | tail -n 40")[1]
            raise CheckFailed(f"the kiosk unit failed or restarted ({state}, {restarts} restarts):\n{journal}")
        return False

    # touch -------------------------------------------------------------------------------------------
    def touch(self) -> None:
        fds = self.fds_of_kiosk()
        events = sorted(set(re.findall(r"/dev/input/event\d+", fds)))
        names = [self.guest.out(f"cat /sys/class/input/{e.rsplit('/', 1)[1]}/device/name") for e in events]
        touch_devices = [f"{e} ({n})" for e, n in zip(events, names) if "touch" in n.lower()]
        if not touch_devices:
            raise CheckFailed(f"the kiosk has no touch device open (input devices open: {list(zip(events, names))})")
        provider = self.guest.out("grep -E '^(touchscreen|mouse)' /etc/table-banker/kivy-kms/config.ini | tr '\\n' ';'")
        before = until("the phones' API", lambda: self.phones.log(0) or None, 300, 2)
        last = before[-1]["seq"] if "seq" in before[-1] else len(before)
        self.last_seq = last
        self.monitor.tap(*SALARY_AT)
        new = until("one entry after the tap on Salary", lambda: self.phones.log(last), BUSY_SECONDS, 0.5)
        if [action_of(e) for e in new] != ["salary"]:
            raise CheckFailed(f"the tap on Salary wrote {[action_of(e) for e in new]}, not one salary")
        self.monitor.screen(self.out / "after-the-tap.png", "png")
        self.note(
            f"touch: one tap on Salary at {SALARY_AT} through {', '.join(touch_devices)} "
            f"({provider.rstrip(';')}): one salary entry, read back through the phones' API"
        )

    # gpio --------------------------------------------------------------------------------------------
    def gpio(self) -> None:
        chip = self.guest.out("cat /run/pi-vm-check/chip")
        fds = self.fds_of_kiosk()
        if "/dev/gpiochip0" not in fds:
            journal = self.guest.run(
                "journalctl -b -u table-banker.service -o cat | grep -i -E 'gpio|trading unit|hardware'"
            )[1]
            raise CheckFailed(f"the kiosk does not hold /dev/gpiochip0 (lgpio); its journal says:\n{journal}")
        label = self.guest.out(
            f"cat {chip}/../gpio/*/label 2>/dev/null || cat /sys/bus/gpio/devices/gpiochip0/../label 2>/dev/null || true"
        )
        pulled = self.guest.out(f"cat {chip}/sim_gpio{AUCTION}/value")
        if pulled != "1":
            raise CheckFailed(f"the Auction button's line reads {pulled}: lgpio did not ask for its pull-up")
        self.note(
            f"gpio: the kiosk holds /dev/gpiochip0 ({label or 'gpio-sim'}) through lgpio; the buttons' lines are pulled up"
        )

        # Next turn: one entry through the API, right after the salary (no second salary between).
        self.press(chip, NEXT_TURN)
        new = until(
            "the next_turn entry after the Next turn button", lambda: self.phones.log(self.last_seq), BUSY_SECONDS, 0.5
        )
        actions = [action_of(e) for e in new]
        if actions != ["salary", "next_turn"]:
            raise CheckFailed(f"after the tap and the Next turn button the log has {actions}, not salary, next_turn")
        self.note("gpio: the Next turn button's line writes one next_turn entry (after exactly one salary)")

        # Auction: the timer starts; the red light flashes and the buzzer sounds before it ends. The
        # guest presses the button and watches both lines itself (a look from here takes longer than a
        # warning beep lasts), past the timer's end.
        watched = self.guest.out(
            f"/usr/local/lib/pi-vm-check/watch-lines {chip} {AUCTION} {WATCH_SECONDS:.0f} {LIGHT} {BUZZER}",
            timeout=AUCTION_SECONDS + 120,
        )
        (self.out / "auction-lines.txt").write_text(watched + "\n")
        self.monitor.screen(self.out / "auction.png", "png")
        try:
            timer = read_the_timer(line_changes(watched))
        except CheckFailed as failed:  # the stop is still checked, then this fails the run
            self.failures.append(f"{failed} (the lines' changes: auction-lines.txt)")
            self.note(f"gpio: FAILED: {failed}")
        else:
            self.note(f"gpio: the Auction button's line starts the timer: {timer}")

    def press(self, chip: str, bcm: int) -> None:
        """A finger on the button: its line pulled to ground for a moment, then let go."""
        self.guest.out(f"echo pull-down >{chip}/sim_gpio{bcm}/pull; sleep 0.3; echo pull-up >{chip}/sim_gpio{bcm}/pull")

    # stop --------------------------------------------------------------------------------------------
    def stop(self) -> None:
        began = time.monotonic()
        self.guest.out("systemctl stop table-banker.service", timeout=120)
        took = time.monotonic() - began
        result = self.guest.out("systemctl show -p Result --value table-banker.service")
        journal = self.guest.run("journalctl -b -u table-banker.service -o short-monotonic")[1]
        (self.out / "kiosk-journal.txt").write_text(journal)
        if result != "success":
            raise CheckFailed(f"systemctl stop: the unit's result is {result}")
        if "Traceback" in journal:
            raise CheckFailed("the kiosk logged a Python traceback (artifacts: kiosk-journal.txt)")
        checked = self.guest.out(
            f"runuser -u table-banker -- env COMPANION_DATA=/var/lib/table-banker "
            f"/opt/table-banker/venv/bin/companion check {self.game}"
        )
        self.note(
            f"stop: systemctl stop in {took:.0f} s, result success, no traceback; companion check: "
            f"{checked.splitlines()[-1] if checked else 'ok'}"
        )

    def power_off(self) -> None:
        try:
            self.guest.run("systemctl poweroff --no-block", timeout=10)
        except (TimeoutError, OSError, CheckFailed):
            pass
        deadline = time.monotonic() + 240
        while self.alive() and time.monotonic() < deadline:
            time.sleep(1)
        if self.alive():
            self.monitor.run("quit")
            self.note("power off: the machine did not power off within 240 s; qemu was told to quit")

    def run(self) -> None:
        try:
            self.display()
            self.touch()
            self.gpio()
            self.stop()
            if self.failures:
                raise CheckFailed("; ".join(self.failures))
        except CheckFailed:
            self.keep_the_journal()
            raise
        finally:
            (self.out / "summary.txt").write_text("\n".join(self.summary) + "\n")
            self.power_off()

    def keep_the_journal(self) -> None:
        """After a failed check: the boot's journal and the screen as they are, for the reader."""
        try:
            # Busy (drawing slowly) or blocked (waiting on the display)? Its threads' states and waits.
            threads = self.guest.run(
                "pid=$(systemctl show -p MainPID --value table-banker.service); cat /proc/loadavg; "
                'for t in /proc/$pid/task/*; do echo "$t $(cut -d" " -f3,14,15 $t/stat) $(cat $t/wchan)"; done',
                timeout=60,
            )[1]
            (self.out / "kiosk-threads.txt").write_text(threads)
            say(threads)
            journal = self.guest.run("journalctl -b -o short-monotonic --no-pager", timeout=120)[1]
            (self.out / "journal.txt").write_text(journal)
            say(f"the guest's journal: {self.out / 'journal.txt'}")
            self.monitor.screen(self.out / "screen-at-failure.png", "png")
        except (OSError, CheckFailed) as e:
            say(f"the guest's journal could not be read: {e}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    tree = sub.add_parser("device-tree")
    tree.add_argument("dts")
    tree.add_argument("revision")
    check = sub.add_parser("check")
    check.add_argument("--work", required=True)
    check.add_argument("--out", required=True)
    check.add_argument("--port", type=int, required=True)
    check.add_argument("--pass-file", required=True)
    check.add_argument("--game", required=True)
    check.add_argument("--qemu-pid", type=int, required=True)
    args = parser.parse_args(argv)
    if args.command == "device-tree":
        sys.stdout.write(pi_device_tree(Path(args.dts).read_text(), int(args.revision, 0)))
        return 0
    try:
        Check(args).run()
    except CheckFailed as e:
        print(f"pi-vm-check: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
