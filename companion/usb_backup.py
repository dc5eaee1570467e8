"""A copy of every game on a USB stick, in one tap; and the way back.

A stick is any removable medium mounted under ``/media`` or ``/run/media`` (the appliance mounts
sticks at ``/media/table-banker/<device>``; a desktop mounts them at ``/media/<user>/<label>``).
:func:`backup_to_stick` copies each game of the games folder with SQLite's backup API (a consistent
copy even in the middle of a round, never the live files) into a dated folder
``table-banker/<YYYY-MM-DD_HHMMSS>/`` on the stick, checks every copy opens as a sound game, and
writes a ``manifest.json``. The folder carries a ``.part`` suffix until the last byte is on the stick,
so a stick pulled too early never looks like a finished backup. :func:`restore_from_stick` brings
games back; a game that already exists is kept aside (``<name>.replaced-<time>``), never destroyed.

Every problem (no stick, two sticks, a full or read-only stick) is a :class:`StickProblem` with one
line that says what to do. The touchscreen's settings screen calls these functions from a worker
thread (a copy takes a second or two) and shows ``.text`` of the result; ``python -m
companion.usb_backup`` does the same from a terminal. Restore only games that are not open.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable, Sequence

from .core.errors import GameFileError, Refused
from .head_record import forget_head
from .paths import data_dir, list_games
from .restore import restore
from .store import Store, backup_copy

__all__ = [
    "Stick",
    "StickBackup",
    "Copied",
    "Restored",
    "StickProblem",
    "STICK_ROOTS",
    "FOLDER",
    "find_sticks",
    "sticks_from_mounts",
    "choose_stick",
    "backup_to_stick",
    "stick_backups",
    "restore_from_stick",
    "main",
]

STICK_ROOTS = ("/media", "/run/media")
"""Where removable media are mounted (udisks on a desktop, the appliance's udev rule on Lite)."""
FOLDER = "table-banker"
"""The folder on the stick that holds one dated folder per backup."""
MANIFEST = "manifest.json"
PART = ".part"
_NOT_STICKS = {"tmpfs", "proc", "sysfs", "devtmpfs", "overlay", "squashfs", "autofs", "ramfs", "cgroup2"}
_SLACK = 1.05  # a copy can be a little larger than the game file (page alignment, the manifest)


class StickProblem(Refused):
    "No stick, more than one, or one that is full or read-only: the message says what to do."

    kind = "usb-stick"
    title = "The USB stick cannot be used"


@dataclass(frozen=True)
class Stick:
    """A mounted removable medium: where it is mounted, its name for people, whether it is writable."""

    path: Path
    label: str
    device: str = ""
    readonly: bool = False


@dataclass(frozen=True)
class StickBackup:
    """One dated backup folder on a stick and the games it holds (file name -> last entry number)."""

    folder: Path
    made: str
    games: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Copied:
    """What :func:`backup_to_stick` did; ``text`` is the line the screen shows."""

    stick: Stick
    folder: Path
    games: dict[str, int]

    @property
    def text(self) -> str:
        count = len(self.games)
        what = "1 game" if count == 1 else f"{count} games"
        return f"Copied {what} to {self.stick.label} ({FOLDER}/{self.folder.name}); you can pull the stick out now"


@dataclass(frozen=True)
class Restored:
    """What :func:`restore_from_stick` did, one line per game in ``lines``."""

    backup: StickBackup
    lines: list[str]

    @property
    def text(self) -> str:
        count = len(self.lines)
        return f"Brought back {count} game{'s' if count != 1 else ''} from the stick ({self.backup.folder.name})"


# -- finding sticks ----------------------------------------------------------------------------------
def _unescape(text: str) -> str:
    """/proc/mounts writes a space as \\040, a tab as \\011 and so on."""
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and i + 3 < len(text) and text[i + 1 : i + 4].isdigit():
            out.append(chr(int(text[i + 1 : i + 4], 8)))
            i += 4
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def sticks_from_mounts(
    mounts: str, roots: Iterable[str] = STICK_ROOTS, labels: dict[str, str] | None = None
) -> list[Stick]:
    """The sticks in a mount table (the text of /proc/self/mounts), in mount order.

    A stick is a real file system mounted strictly below one of ``roots``. ``labels`` maps a device
    (``/dev/sda1``) to its volume label; without one, the mount point's name is the label.
    """
    roots = [r.rstrip("/") for r in roots]
    labels = labels or {}
    found: dict[str, Stick] = {}
    for line in mounts.splitlines():
        parts = line.split()
        if len(parts) < 4:
            continue
        device, point, fstype, options = _unescape(parts[0]), _unescape(parts[1]), parts[2], parts[3]
        if fstype in _NOT_STICKS or not any(point.startswith(root + "/") for root in roots):
            continue
        label = labels.get(device) or Path(point).name
        found[point] = Stick(Path(point), label, device, "ro" in options.split(","))
    return list(found.values())


def _labels(by_label: Path = Path("/dev/disk/by-label")) -> dict[str, str]:
    labels: dict[str, str] = {}
    try:
        entries = list(by_label.iterdir())
    except OSError:
        return labels
    for link in entries:
        try:
            labels[str(link.resolve())] = _decode_udev(link.name)
        except OSError:
            continue
    return labels


def _decode_udev(name: str) -> str:
    """udev writes unsafe characters of a label as \\xNN (a space is \\x20)."""
    out, i = [], 0
    while i < len(name):
        if name.startswith("\\x", i) and i + 4 <= len(name):
            try:
                out.append(chr(int(name[i + 2 : i + 4], 16)))
                i += 4
                continue
            except ValueError:
                pass
        out.append(name[i])
        i += 1
    return "".join(out)


def find_sticks(roots: Iterable[str] = STICK_ROOTS, mounts_file: str = "/proc/self/mounts") -> list[Stick]:
    """The sticks mounted on this machine right now."""
    try:
        mounts = Path(mounts_file).read_text(encoding="utf-8", errors="replace")
    except OSError:
        return []
    return sticks_from_mounts(mounts, roots, _labels())


def choose_stick(sticks: Sequence[Stick], *, writable: bool = True) -> Stick:
    """The one stick to use; a StickProblem when there is none, or more than one."""
    usable = [s for s in sticks if not (writable and s.readonly)]
    if not sticks:
        raise StickProblem("no USB stick found: plug one in, wait a few seconds and try again")
    if not usable:
        raise StickProblem(f"the stick {sticks[0].label} is read-only: use another stick, or unlock it")
    if len(usable) > 1:
        names = ", ".join(s.label for s in usable)
        raise StickProblem(f"{len(usable)} sticks are plugged in ({names}): choose one, or pull out the others")
    return usable[0]


def _as_stick(stick: Stick | str | os.PathLike | None, *, writable: bool) -> Stick:
    if stick is None:
        return choose_stick(find_sticks(), writable=writable)
    if isinstance(stick, Stick):
        return stick
    path = Path(stick)
    if not path.is_dir():
        raise StickProblem(f"{path} is not there: is the stick plugged in?")
    return Stick(path, path.name)


# -- copying to the stick ------------------------------------------------------------------------------
def _game_bytes(game: Path) -> int:
    total = 0
    for p in (game, Path(f"{game}-wal")):
        try:
            total += p.stat().st_size
        except OSError:
            pass
    return total


def _stamp(now: _dt.datetime) -> str:
    return now.strftime("%Y-%m-%d_%H%M%S")  # no colons: FAT sticks refuse them


def _new_folder(top: Path, stamp: str) -> Path:
    name, n = stamp, 1
    while (top / name).exists() or (top / f"{name}{PART}").exists():
        n += 1
        name = f"{stamp}-{n}"
    return top / name


def _write_json(path: Path, value: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(value, f, indent=1, ensure_ascii=False, sort_keys=True)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _stick_error(stick: Stick, error: OSError) -> StickProblem:
    import errno

    if error.errno == errno.EROFS or error.errno == errno.EACCES or error.errno == errno.EPERM:
        return StickProblem(f"cannot write to the stick {stick.label}: it is read-only or locked")
    if error.errno == errno.ENOSPC:
        return StickProblem(f"the stick {stick.label} filled up during the copy: use a stick with more room")
    return StickProblem(f"the copy to the stick {stick.label} failed ({error.strerror or error}); try again")


def backup_to_stick(
    data: str | os.PathLike | None = None,
    stick: Stick | str | os.PathLike | None = None,
    *,
    now: _dt.datetime | None = None,
) -> Copied:
    """Copy every game of the games folder ``data`` to the stick; the one plugged in when ``stick`` is None."""
    folder = data_dir(data)
    target = _as_stick(stick, writable=True)
    if target.readonly:
        raise StickProblem(f"the stick {target.label} is read-only: use another stick, or unlock it")
    games = list_games(folder)
    if not games:
        raise StickProblem(f"there is no game to copy in {folder}")
    need = int(sum(_game_bytes(g) for g in games) * _SLACK) + 64 * 1024
    try:
        free = shutil.disk_usage(target.path).free
    except OSError as e:
        raise _stick_error(target, e) from None
    if need > free:
        raise StickProblem(f"the stick {target.label} has {_size(free)} free but the games need {_size(need)}")
    made = now or _dt.datetime.now()
    top = target.path / FOLDER
    final = _new_folder(top, _stamp(made))
    part = final.with_name(final.name + PART)
    copied: dict[str, int] = {}
    try:
        part.mkdir(parents=True)
        for game in games:
            copy = part / game.name
            backup_copy(game, copy)
            copied[game.name] = _last_entry(copy)
        _write_json(part / MANIFEST, {"format": 1, "made": made.isoformat(timespec="seconds"), "games": copied})
        _fsync_dir(part)
        os.replace(part, final)
        _fsync_dir(top)
    except OSError as e:
        raise _stick_error(target, e) from None
    return Copied(target, final, copied)


def _last_entry(copy: Path) -> int:
    """Open the copy as a game (which runs SQLite's quick_check) and return its last entry number."""
    store = Store.open(copy, readonly=True)
    try:
        return store.last_seq()
    finally:
        store.close()


def _size(n: float) -> str:
    """1536 -> '1.5 KB'."""
    unit = "bytes"
    for unit in ("bytes", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            break
        n /= 1024
    return f"{int(n)} bytes" if unit == "bytes" else f"{n:.1f} {unit}"


# -- reading backups back --------------------------------------------------------------------------------
def stick_backups(stick: Stick | str | os.PathLike | None = None) -> list[StickBackup]:
    """The finished backups on a stick, the newest first (half-made ``.part`` folders are left out)."""
    target = _as_stick(stick, writable=False)
    top = target.path / FOLDER
    found = []
    try:
        folders = [p for p in top.iterdir() if p.is_dir() and not p.name.endswith(PART)]
    except OSError:
        return []
    for folder in folders:
        try:
            manifest = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
            games = {str(k): int(v) for k, v in manifest["games"].items()}
            made = str(manifest["made"])
        except (OSError, ValueError, KeyError, TypeError, AttributeError):
            continue  # not one of ours, or damaged: never offered for a restore
        found.append(StickBackup(folder, made, games))
    return sorted(found, key=lambda b: (b.made, b.folder.name), reverse=True)


def restore_from_stick(
    backup: StickBackup | str | os.PathLike, data: str | os.PathLike | None = None, games: Iterable[str] | None = None
) -> Restored:
    """Bring games back from a stick backup into the games folder (all of them, or those named).

    A game that exists is replaced by the copy and kept aside first; a damaged copy is refused and
    leaves the game as it was. Close the games being restored before calling this.
    """
    if not isinstance(backup, StickBackup):
        folder = Path(backup)
        matches = [b for b in stick_backups(folder.parent.parent) if b.folder == folder] if folder.is_dir() else []
        if not matches:
            raise StickProblem(f"{folder} is not a finished Table Banker backup")
        backup = matches[0]
    wanted = list(backup.games) if games is None else list(games)
    unknown = [g for g in wanted if g not in backup.games]
    if unknown:
        raise StickProblem(f"the backup {backup.folder.name} has no game called {unknown[0]}")
    folder = data_dir(data)
    folder.mkdir(parents=True, exist_ok=True)
    lines = []
    for name in wanted:
        source, target = backup.folder / name, folder / name
        try:
            if target.exists():
                lines.append(restore(target, source))
            else:
                Store.open(source, readonly=True).close()  # a sound game, or GameFileError
                backup_copy(source, target)
                forget_head(target)  # a record left by a deleted game of that name is not this game's
                lines.append(f"restored {target} from {source}")
        except GameFileError as e:
            raise StickProblem(f"{name} on the stick cannot be used ({e}); nothing of it was restored") from None
    return Restored(backup, lines)


# -- the command ------------------------------------------------------------------------------------------
def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="companion usb-backup",
        description="Copy every game to a USB stick, or bring games back from one.",
        epilog="example:\n  companion usb-backup backup",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--data", help="folder of games (default: $COMPANION_DATA or the user data folder)")
    p.add_argument("--json", action="store_true", help="print JSON, for programs")
    sub = p.add_subparsers(dest="command")
    for name, says in (
        ("sticks", "the sticks plugged in"),
        ("backup", "copy every game to the stick (the default)"),
        ("list", "the backups on the stick, newest first"),
        ("restore", "bring back games from a backup on the stick (the newest by default)"),
    ):
        s = sub.add_parser(name, help=says)
        s.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print JSON, for programs")
        if name == "sticks":
            continue
        s.add_argument("--stick", help="the stick's mount point, when more than one is plugged in")
        if name == "restore":
            s.add_argument("--from", dest="source", help="a backup folder on the stick")
            s.add_argument("--game", action="append", help="only this game file (repeat for more)")
    return p


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    command = args.command or "backup"
    as_json = args.json

    def say(text: str, value: object) -> None:
        print(json.dumps(value, ensure_ascii=False) if as_json else text)

    try:
        if command == "sticks":
            sticks = find_sticks()
            if as_json:
                say(
                    "",
                    [
                        {"path": str(s.path), "label": s.label, "device": s.device, "readonly": s.readonly}
                        for s in sticks
                    ],
                )
            for s in [] if as_json else sticks:
                print(f"{s.path}\t{s.label}\t{s.device}\t{'read-only' if s.readonly else 'writable'}")
            return 0
        if command == "backup":
            copied = backup_to_stick(args.data, getattr(args, "stick", None))
            say(
                copied.text,
                {
                    "stick": str(copied.stick.path),
                    "folder": str(copied.folder),
                    "games": copied.games,
                    "said": copied.text,
                },
            )
            return 0
        if command == "list":
            backups = stick_backups(args.stick)
            if as_json:
                say("", [{"folder": str(b.folder), "made": b.made, "games": b.games} for b in backups])
            for b in [] if as_json else backups:
                print(f"{b.folder}\t{b.made}\t" + ", ".join(f"{g} (entry {n})" for g, n in b.games.items()))
            return 0
        source = args.source
        if source is None:
            backups = stick_backups(args.stick)
            if not backups:
                raise StickProblem("the stick holds no Table Banker backup")
            source = backups[0]
        done = restore_from_stick(source, args.data, args.game)
        if as_json:
            say("", {"folder": str(done.backup.folder), "lines": done.lines, "said": done.text})
            return 0
        for line in done.lines:
            print(line)
        print(done.text)
        return 0
    except Refused as e:
        print(f"companion: {e}", file=sys.stderr)
        return e.exit_code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
