"""A throwaway Raspberry Pi OS root for running deploy/install.sh for real, and the fakes it meets.

The installer runs with ``--root DIR``: every file it writes lands under DIR, users and groups are made
by the real ``useradd --prefix DIR`` family, and ``systemctl --root=DIR enable`` is the real one too.
What would reach the network or the running machine is a recording fake on PATH: ``apt-get`` and
``dpkg-query`` (a package list kept in a state file), ``chroot`` (runs the target's programs with this
machine's, paths moved under DIR), ``python3 -m venv`` (a venv whose ``pip`` only records; everything
else runs this test interpreter, so Kivy's real defaults are used), ``systemctl`` without ``--root``
and ``udevadm`` (record only: the test machine's services are never touched).

``make_running_pi`` is the other way in: the installer run with no ``--root`` at all, as on a Pi that is
running, but inside a private mount namespace where the whole file system is an overlay whose
writes land in a throwaway layer (the real useradd then changes only the layer's /etc/passwd).
There the fakes stand in for the running systemd and udev: they record what they are told.
"""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DEPLOY = REPO / "deploy"

PASSWD = "root:x:0:0:root:/root:/bin/bash\npi:x:1000:1000:,,,:/home/pi:/bin/bash\n"
GROUPS = {"root": 0, "audio": 29, "video": 44, "input": 105, "render": 106, "gpio": 993, "pi": 1000}

_FAKES = {
    "apt-get": r"""#!/usr/bin/env bash
echo "apt-get $*" >>"$FAKE_LOG"
if [ "$1" = install ]; then
    for a in "$@"; do case $a in -*|install) ;; *) echo "$a" >>"$FAKE_STATE/packages" ;; esac; done
fi
""",
    "dpkg-query": r"""#!/usr/bin/env bash
pkg=${!#}
if grep -qx -- "$pkg" "$FAKE_STATE/packages" 2>/dev/null; then printf 'ii '; exit 0; fi
echo "dpkg-query: no packages found matching $pkg" >&2
exit 1
""",
    "chroot": r"""#!/usr/bin/env bash
root=$1; shift
echo "chroot ROOT $*" >>"$FAKE_LOG"
cmd=$1; shift
case $cmd in /*) cmd=$root$cmd ;; esac
args=()
for a in "$@"; do
    case $a in /opt/table-banker*|/etc/table-banker*|/var/lib/table-banker*) args+=("$root$a") ;; *) args+=("$a") ;; esac
done
exec "$cmd" "${args[@]}"
""",
    "python3": r"""#!/usr/bin/env bash
if [ "$1" = -m ] && [ "$2" = venv ]; then
    echo "python3 -m venv $3" >>"$FAKE_LOG"
    mkdir -p "$3/bin"
    printf 'home = %s\n' "$(dirname "$REAL_PYTHON")" >"$3/pyvenv.cfg"
    cat >"$3/bin/python" <<EOF
#!/usr/bin/env bash
if [ "\$1" = -m ] && [ "\$2" = pip ]; then echo "pip \${*:3}" >>"\$FAKE_LOG"; exit 0; fi
exec "\$REAL_PYTHON" "\$@"
EOF
    chmod +x "$3/bin/python"
    exit 0
fi
exec "$REAL_PYTHON" "$@"
""",
    "systemctl": r"""#!/usr/bin/env bash
echo "systemctl $*" >>"$FAKE_LOG"
for a in "$@"; do case $a in --root=*) exec /usr/bin/systemctl "$@" ;; esac; done
exit 0
""",
    "udevadm": r"""#!/usr/bin/env bash
echo "udevadm $*" >>"$FAKE_LOG"
""",
}
# The account tools are the real ones, but only ever on the throwaway root (or inside the throwaway
# layer of a running Pi, which FAKE_THROWAWAY_LAYER says).
for _tool in ("useradd", "groupadd", "usermod", "userdel", "groupdel"):
    _FAKES[_tool] = f"""#!/usr/bin/env bash
echo "{_tool} $*" >>"$FAKE_LOG"
case " $* " in *" --prefix "*) exec /usr/sbin/{_tool} "$@" ;; esac
[ -z "$FAKE_THROWAWAY_LAYER" ] || exec /usr/sbin/{_tool} "$@"
echo "{_tool}: refusing to change this machine's accounts in a test" >&2
exit 99
"""


# The running Pi's systemd: it records what it is told, keeps the "start at boot" link as the real one
# would, and refuses "enable" while the state folder holds a file named enable-fails (the run that
# dies half-way).
_RUNNING_SYSTEMCTL = r"""#!/usr/bin/env bash
echo "systemctl $*" >>"$FAKE_LOG"
wants=/etc/systemd/system/multi-user.target.wants/table-banker.service
case $1 in
    enable)
        if [ -e "$FAKE_STATE/enable-fails" ]; then echo "Failed to enable unit: the power went out" >&2; exit 1; fi
        mkdir -p "${wants%/*}" && ln -sf /etc/systemd/system/table-banker.service "$wants" ;;
    disable) rm -f "$wants" ;;
    is-active) echo inactive; exit 3 ;;
esac
exit 0
"""

# Inside a private mount namespace: the whole file system seen through an overlay whose writes land in
# LAYER, and the installer run there with chroot. $1 layer, $2 overlay work folder, $3 mount point,
# $4 the test's folder (fakes, state, checkout: shared with the test); the rest is the command.
_IN_THROWAWAY_LAYER = r"""
set -e
layer=$1 work=$2 top=$3 shared=$4
shift 4
mount --make-rprivate /
mount -t overlay overlay -o "lowerdir=/,upperdir=$layer,workdir=$work" "$top"
for d in proc dev sys; do mount --rbind "/$d" "$top/$d"; done
mkdir -p "$top$shared"
mount --bind "$shared" "$top$shared"
exec /usr/sbin/chroot "$top" "$@"
"""


IGNORE = shutil.ignore_patterns(
    ".git",
    ".venv",
    "__pycache__",
    "*.egg-info",
    ".pytest_cache",
    ".hypothesis",
    "artifacts",
    "*.game",
    "*.game-wal",
    "*.game-shm",
    "*.backups",
)


def freeze_checkout(folder: Path) -> Path:
    """A copy of this repository, as a family would have cloned it: fixed for the test, ours to change
    (the working tree itself keeps changing while other work goes on)."""
    shutil.copytree(REPO, folder, ignore=IGNORE, symlinks=True)
    return folder


@dataclass
class Pi:
    """A throwaway Pi root plus the fakes' log, for one test. ``source`` is the checkout a first
    install is made from (later runs find it in install.conf, as on a real Pi)."""

    root: Path
    bin: Path
    state: Path
    source: Path

    @property
    def log(self) -> list[str]:
        path = self.state / "log"
        return path.read_text().splitlines() if path.exists() else []

    def clear_log(self) -> None:
        (self.state / "log").unlink(missing_ok=True)

    def path(self, inside: str) -> Path:
        return self.root / inside.lstrip("/")

    def install(
        self, *args: str, check: bool = True, script: str = "install.sh", scripts: Path | None = None
    ) -> subprocess.CompletedProcess:
        """Run <scripts>/<script> --root <root> ARGS with the fakes first on PATH (the scripts of
        the source checkout unless ``scripts`` names another folder)."""
        first = not self.path("/etc/table-banker/install.conf").exists()
        if script == "install.sh" and first and "--source" not in args and "--uninstall" not in args:
            args = ("--source", str(self.source), *args)
        scripts = scripts or self.source / "deploy"
        done = self._run(["bash", str(scripts / script), *args], self._env())
        if check and done.returncode != 0:
            raise AssertionError(f"{script} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
        return done

    def _env(self) -> dict[str, str]:
        env = {
            **os.environ,
            "PATH": f"{self.bin}:{os.environ.get('PATH', '/usr/bin:/bin')}",
            "FAKE_LOG": str(self.state / "log"),
            "FAKE_STATE": str(self.state),
            "REAL_PYTHON": sys.executable,
            "LC_ALL": "C",
        }
        env.pop("SUDO_USER", None)
        return env

    def _run(self, command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
        return subprocess.run(
            [*command[:2], "--root", str(self.root), *command[2:]], capture_output=True, text=True, env=env, timeout=300
        )

    def snapshot(self) -> dict[str, tuple]:
        """Every path under the root with its type, mode, owner and content (or link target)."""
        seen = {}
        for path in sorted(self.root.rglob("*")):
            rel = "/" + str(path.relative_to(self.root))
            info = path.lstat()
            if path.is_symlink():
                seen[rel] = ("link", os.readlink(path))
            elif path.is_dir():
                seen[rel] = ("dir", stat.S_IMODE(info.st_mode), info.st_uid, info.st_gid)
            else:
                seen[rel] = ("file", stat.S_IMODE(info.st_mode), info.st_uid, info.st_gid, path.read_bytes())
        return seen


def make_pi(tmp: Path, *, desktop: bool = False, source: Path | None = None) -> Pi:
    """A fresh Raspberry Pi OS Bookworm root: accounts, os-release, and for the desktop a display manager.
    Installs come from ``source``, else from a frozen copy of this repository."""
    root, fakes, state = tmp / "pi", tmp / "fakes", tmp / "state"
    source = source or freeze_checkout(tmp / "table-banker")
    for folder in (root / "etc", fakes, state):
        folder.mkdir(parents=True)
    (root / "etc" / "passwd").write_text(PASSWD)
    (root / "etc" / "shadow").write_text("root:*:19000:0:99999:7:::\npi:*:19000:0:99999:7:::\n")
    (root / "etc" / "group").write_text(
        "".join(f"{g}:x:{n}:{'pi' if g in ('video', 'gpio') else ''}\n" for g, n in GROUPS.items())
    )
    (root / "etc" / "gshadow").write_text("".join(f"{g}:*::\n" for g in GROUPS))
    (root / "etc" / "os-release").write_text(
        'PRETTY_NAME="Debian GNU/Linux 12 (bookworm)"\nVERSION_CODENAME=bookworm\n'
    )
    if desktop:
        (root / "etc" / "systemd" / "system").mkdir(parents=True)
        (root / "etc" / "systemd" / "system" / "display-manager.service").symlink_to(
            "/lib/systemd/system/lightdm.service"
        )
        (root / "etc" / "lightdm").mkdir()
        (root / "etc" / "lightdm" / "lightdm.conf").write_text("[Seat:*]\nautologin-user=pi\n")
    for name, text in _FAKES.items():
        (fakes / name).write_text(text)
        (fakes / name).chmod(0o755)
    return Pi(root, fakes, state, source)


@dataclass
class RunningPi(Pi):
    """This machine playing a running Pi: install.sh runs without --root, and every file it writes
    lands in the throwaway layer ``root`` (so ``path()`` and ``snapshot()`` show what it changed)."""

    work: Path = Path()

    def _env(self) -> dict[str, str]:
        return {**super()._env(), "FAKE_THROWAWAY_LAYER": "1"}

    def _run(self, command: list[str], env: dict[str, str]) -> subprocess.CompletedProcess:
        top = self.work / "top"
        top.mkdir(parents=True, exist_ok=True)
        return subprocess.run(
            [
                "unshare",
                "--mount",
                "--fork",
                "bash",
                "-c",
                _IN_THROWAWAY_LAYER,
                "layer",
                str(self.root),
                str(self.work / "overlay"),
                str(top),
                str(self.bin.parent),
                "env",
                *(f"{k}={v}" for k, v in env.items()),
                *command,
            ],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
        )

    def power_cut_at_enable(self, on: bool = True) -> None:
        """The next runs die at "systemctl enable", after the unit files are written (or no longer)."""
        flag = self.state / "enable-fails"
        if on:
            flag.touch()
        else:
            flag.unlink(missing_ok=True)


def make_running_pi(tmp: Path) -> RunningPi:
    """This machine as a running Pi seen through a throwaway layer, with its systemd and udev faked."""
    plain = make_pi(tmp)
    (plain.bin / "systemctl").write_text(_RUNNING_SYSTEMCTL)
    layer, work = tmp / "layer", tmp / "machine"
    shutil.rmtree(plain.root)  # the layer starts empty: the machine itself is the Pi
    for folder in (layer, work / "overlay"):
        folder.mkdir(parents=True)
    return RunningPi(layer, plain.bin, plain.state, plain.source, work)


def have_root() -> bool:
    return os.geteuid() == 0 and shutil.which("useradd", path="/usr/sbin:/sbin") is not None


def changes(output: str) -> list[str]:
    """The change lines of an install.sh run, without its banner, summary and hints."""
    return [
        line
        for line in output.splitlines()
        if line
        and not line.startswith(("Table Banker", "Done:", "Restart the Pi", "Log ", "(", "warning"))
        and "changes would be made" not in line
    ]
