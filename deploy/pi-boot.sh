#!/usr/bin/env bash
# Table Banker: boot a Pi root with systemd-nspawn and require the kiosk unit active, its first
# screen on a virtual 800x480 touchscreen.
#
#   unshare --mount --fork deploy/pi-boot.sh ROOT OUT-DIR
#
# Run by deploy/pi-check.sh in a mount namespace of its own (the X sockets' folder is private). The
# container has a private network (loopback only). A container has no /dev/tty1 and no DSI screen,
# so a drop-in, written only for this boot and removed after, turns the unit's tty1 settings off and
# points SDL at the Xvfb, whose socket is bound into the container; everything else is the unit as
# installed (user, PAM session, sandboxing, environment).
#
# Exit status: 0 the unit started and drew its first screen (OUT-DIR/boot-first-screen.png),
# 3 this machine does not let systemd-nspawn boot the root (the reason is printed), 1 anything else.
set -euo pipefail

ROOT=${1:?the Pi root}
OUT=${2:?the folder for the screenshot}
BOOT_SECONDS=${BOOT_TIMEOUT:-420}
DROPIN=$ROOT/etc/systemd/system/table-banker.service.d/pi-check.conf
NSPAWN=""

say() { printf '%s\n' "$*"; }
die() { printf 'pi-boot: FAILED: %s\n' "$*" >&2; exit 1; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=pi-screen.sh
. "$HERE/pi-screen.sh"

# console: the container's console so far, without colours.
console() { sed 's/\x1b\[[0-9;]*m//g' "$SCRATCH/boot.log"; }

stand_in_for_the_screen() {
    install -d -m 0755 "${DROPIN%/*}"
    cat >"$DROPIN" <<EOF
# pi-check only: a container has no tty1 and no DSI screen; the screen is an Xvfb.
[Unit]
ConditionPathExists=
[Service]
TTYPath=
StandardInput=null
TTYReset=no
TTYVHangup=no
TTYVTDisallocate=no
UtmpIdentifier=
UtmpMode=init
Environment=SDL_VIDEODRIVER=x11 DISPLAY=$SCREEN
BindReadOnlyPaths=/mnt/pi-check-x11:/tmp/.X11-unix
EOF
    # The phones' server on loopback, announcing nothing.
    printf '%s\n' '{"host": "127.0.0.1", "port": 0, "advertise": false}' >"$ROOT/var/lib/table-banker/touchscreen.json"
    chroot "$ROOT" chown table-banker:table-banker /var/lib/table-banker/touchscreen.json
}

take_it_away() {
    rm -rf "${DROPIN%/*}"
}

boot() {
    systemd-nspawn --quiet --boot --directory="$ROOT" --private-network --register=no --keep-unit \
        --bind-ro=/tmp/.X11-unix:/mnt/pi-check-x11 </dev/null >"$SCRATCH/boot.log" 2>&1 &
    NSPAWN=$!
}

# the_unit_is_up: the container runs, and the kiosk has not failed or been skipped.
the_unit_is_up() {
    if ! kill -0 "$NSPAWN" 2>/dev/null; then
        console | tail -n 20 >&2
        return 1
    fi
    if console | grep -E 'table-banker.service|Table Banker' | grep -E 'Failed|failed|skipped|Condition' >/dev/null; then
        console | grep -E 'table-banker|Table Banker' >&2
        return 1
    fi
}

power_off() {
    local tries=0 pid1
    # Under qemu, the signal nspawn sends to ask for a halt reaches systemd as another one (rescue):
    # so ask the container's own systemctl, in the container's namespaces.
    pid1=$(pgrep -P "$NSPAWN" | head -n 1 || true)
    if [ -n "$pid1" ]; then
        nsenter --target "$pid1" --mount --pid --uts --ipc -- /usr/bin/systemctl poweroff --no-block 2>/dev/null || true
    fi
    while kill -0 "$NSPAWN" 2>/dev/null; do
        tries=$((tries + 1))
        # the last resort: nspawn ends the container at the second SIGTERM
        if [ "$tries" = 120 ]; then kill -TERM "$NSPAWN" 2>/dev/null || true; sleep 1; kill -TERM "$NSPAWN" 2>/dev/null || true; fi
        if [ "$tries" = 150 ]; then kill -KILL "$NSPAWN" 2>/dev/null || true; fi
        sleep 1
    done
    wait "$NSPAWN" 2>/dev/null || true
}

main() {
    local began seconds
    private_screen_folders
    start_screen
    stand_in_for_the_screen
    trap 'take_it_away; [ -z "$NSPAWN" ] || power_off; console >"$OUT/boot-console.log"; forget_the_screen' EXIT
    began=$(date +%s)
    boot
    if ! seconds=$(wait_for_the_first_screen "$began" "$BOOT_SECONDS" "$OUT/boot-first-screen.png" the_unit_is_up); then
        console | tail -n 30 >&2
        if console | grep 'Multi-User System' >/dev/null; then die "the root booted, but the kiosk did not reach its first screen"; fi
        say "systemd-nspawn cannot boot the root here: $(console | grep -v '^$' | head -n 3 | tr '\n' ' ')"
        exit 3
    fi
    console | grep -E 'Started.*table-banker|Reached target.*Multi-User' | sed 's/^/  | /'
    say "booted; table-banker.service drew its first screen $seconds s after the boot began: $OUT/boot-first-screen.png"
    began=$(date +%s)
    power_off
    NSPAWN=""
    if console | grep 'Stopped.*table-banker' >/dev/null; then
        say "powered off in $(($(date +%s) - began)) s; table-banker.service stopped with it"
    else
        console | tail -n 15 >&2
        die "table-banker.service did not stop as the container powered off"
    fi
}

main
