#!/usr/bin/env bash
# Table Banker: start the kiosk in a Pi root the way its unit does, on a virtual 800x480 screen.
#
#   unshare --pid --net --fork --mount --mount-proc deploy/pi-kiosk.sh ROOT UNIT-FILE OUT-DIR
#
# Run by deploy/pi-check.sh inside its own PID, network and mount namespaces: only loopback exists,
# and every mount made here vanishes with the namespace. The unit file's User, Group, ExecStart,
# Environment, EnvironmentFile, WorkingDirectory, RuntimeDirectory and UMask are used as systemd
# would; one thing differs: Xvfb stands in for the DSI screen, so SDL_VIDEODRIVER=kmsdrm becomes x11.
# The phones' server listens on 127.0.0.1 and announces nothing.
#
# Waits for the first screen (the Kivy window is mapped and the screen, no longer blank, stays the
# same between two looks), saves it as OUT-DIR/first-screen.png, sends SIGTERM as `systemctl stop`
# does, and requires a clean stop within TimeoutStopSec and a game file that passes `companion check`.
set -euo pipefail

ROOT=${1:?the Pi root}
UNIT=${2:?the unit file}
OUT=${3:?the folder for the screenshot}
WAIT_SECONDS=${FIRST_SCREEN_TIMEOUT:-300}
GAME=/var/lib/table-banker/friday.game

say() { printf '%s\n' "$*"; }
die() { printf 'pi-kiosk: FAILED: %s\n' "$*" >&2; exit 1; }
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=pi-screen.sh
. "$HERE/pi-screen.sh"

# unit_values KEY: every value of KEY= in the unit's [Service] section, in order.
unit_values() {
    awk -v key="$1" '/^\[/ { service = ($0 == "[Service]") } service && index($0, key "=") == 1 {
        print substr($0, length(key) + 2) }' "$UNIT"
}
unit_value() { unit_values "$1" | tail -n 1; }
# %t is the runtime folder of a system unit.
specifiers() { sed -e 's|%t|/run|g' -e 's|%%|%|g'; }

private_mounts() {
    ip link set lo up
    private_screen_folders
    mount -t proc proc "$ROOT/proc"
    mount --rbind /dev "$ROOT/dev"
    mount --rbind -o ro /sys "$ROOT/sys" 2>/dev/null || mount --rbind /sys "$ROOT/sys"
    mount -t tmpfs -o mode=0755 tmpfs "$ROOT/run"
    mount -t tmpfs -o mode=1777 tmpfs "$ROOT/tmp"
    mkdir -m 1777 "$ROOT/tmp/.X11-unix"
    mount --bind /tmp/.X11-unix "$ROOT/tmp/.X11-unix"
}

# as_kiosk COMMAND...: run a program of the root as the unit's user, in its working folder and umask.
USER_NAME=""
GROUP_NAME=""
as_kiosk() {
    # shellcheck disable=SC2016 # expanded by the inner sh
    chroot --userspec="$USER_NAME:$GROUP_NAME" "$ROOT" /usr/bin/env -i "${KIOSK_ENV[@]}" /bin/sh -c \
        'cd "$0" && umask "$1" && shift && exec "$@"' "$WORKDIR" "$UMASK" "$@"
}

KIOSK_ENV=()
KIOSK_COMMAND=()
WORKDIR=/
UMASK=0022
read_the_unit() {
    local line value home runtime i
    USER_NAME=$(unit_value User)
    GROUP_NAME=$(unit_value Group)
    GROUP_NAME=${GROUP_NAME:-$USER_NAME}
    home=$(awk -F: -v n="$USER_NAME" '$1 == n { print $6 }' "$ROOT/etc/passwd")
    [ -n "$home" ] || die "no user $USER_NAME in the root"
    # What systemd sets for a unit with User= and its output on the journal.
    KIOSK_ENV=(PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin LANG=C.UTF-8 HOME="$home"
               USER="$USER_NAME" LOGNAME="$USER_NAME" SHELL=/usr/sbin/nologin JOURNAL_STREAM=0:0)
    while IFS= read -r line; do
        KIOSK_ENV+=("$(printf '%s' "$line" | specifiers)")
    done < <(unit_values Environment)
    while IFS= read -r line; do
        line=${line#-}
        [ -f "$ROOT$line" ] || continue
        while IFS= read -r value; do KIOSK_ENV+=("$value"); done \
            < <(grep -E '^[[:space:]]*[A-Za-z_][A-Za-z0-9_]*=' "$ROOT$line" | sed 's/^[[:space:]]*//')
    done < <(unit_values EnvironmentFile)
    for i in "${!KIOSK_ENV[@]}"; do
        [ "${KIOSK_ENV[i]}" != SDL_VIDEODRIVER=kmsdrm ] || KIOSK_ENV[i]=SDL_VIDEODRIVER=x11
    done
    KIOSK_ENV+=(DISPLAY="$SCREEN" COMPANION_LAN_ADDRESS=127.0.0.1)
    read -r -a KIOSK_COMMAND <<<"$(unit_value ExecStart)"
    WORKDIR=$(unit_value WorkingDirectory | specifiers)
    UMASK=$(unit_value UMask)
    UMASK=${UMASK:-0022}
    for runtime in $(unit_values RuntimeDirectory); do
        install -d -m 0755 -o "$(awk -F: -v n="$USER_NAME" '$1 == n { print $3 }' "$ROOT/etc/passwd")" \
            -g "$(awk -F: -v n="$GROUP_NAME" '$1 == n { print $3 }' "$ROOT/etc/group")" "$ROOT/run/$runtime"
    done
    say "as $USER_NAME:$GROUP_NAME in $WORKDIR (umask $UMASK): ${KIOSK_COMMAND[*]}"
    printf '  %s\n' "${KIOSK_ENV[@]}"
}

# Friday's game, left open last: the app opens it. The phones' server stays on loopback, unannounced.
a_game_on_the_table() {
    as_kiosk "${KIOSK_COMMAND[0]}" new "$GAME" --rules classic --player Ann --player Bob >/dev/null
    as_kiosk "${KIOSK_COMMAND[0]}" 'do' "$GAME" '{"action": "buy", "player": "Ann", "deed": "Boardwalk"}' >/dev/null
    printf '%s\n' '{"host": "127.0.0.1", "port": 0, "advertise": false}' >"$ROOT/var/lib/table-banker/touchscreen.json"
    chroot "$ROOT" chown "$USER_NAME:$GROUP_NAME" /var/lib/table-banker/touchscreen.json
}

APP=""
app_is_running() {
    kill -0 "$APP" 2>/dev/null && return 0
    tail -n 40 "$SCRATCH/app.log" >&2
    say "the app exited before its first screen" >&2
    return 1
}

stop_like_systemd() {
    local stop_seconds status=0 began
    stop_seconds=$(unit_value TimeoutStopSec)
    stop_seconds=${stop_seconds:-90}
    began=$(date +%s)
    kill -TERM "$APP"
    # systemd waits TimeoutStopSec for the process to go, then kills it: so does this.
    ( sleep "$stop_seconds"; kill -KILL "$APP" 2>/dev/null ) &
    local killer=$!
    wait "$APP" || status=$?
    kill "$killer" 2>/dev/null || true
    say "stopped after $(($(date +%s) - began)) s with exit status $status"
    # What systemd counts as a clean stop: exit 0, or the SIGTERM it sent (128 + 15).
    case $status in 0 | 143) ;; *) tail -n 40 "$SCRATCH/app.log" >&2; die "the app did not stop cleanly (status $status)" ;; esac
    grep -n 'Traceback' "$SCRATCH/app.log" && { tail -n 40 "$SCRATCH/app.log" >&2; die "the app logged a Python traceback"; }
    return 0
}

main() {
    local began seconds
    trap forget_the_screen EXIT
    private_mounts
    start_screen
    read_the_unit
    a_game_on_the_table
    began=$(date +%s)
    as_kiosk "${KIOSK_COMMAND[@]}" >"$SCRATCH/app.log" 2>&1 &
    APP=$!
    seconds=$(wait_for_the_first_screen "$began" "$WAIT_SECONDS" "$OUT/first-screen.png" app_is_running) ||
        { tail -n 40 "$SCRATCH/app.log" >&2; die "no first screen"; }
    printf '%s\n' "$seconds" >"$OUT/first-screen-seconds"
    say "first screen after $seconds s: $OUT/first-screen.png"
    if grep -q 'on-screen unit only' "$SCRATCH/app.log"; then
        say "no GPIO in the root: $(grep -m 1 -o 'trading unit hardware not available.*' "$SCRATCH/app.log")"
    fi
    stop_like_systemd
    cp "$SCRATCH/app.log" "$OUT/app.log"
    as_kiosk "${KIOSK_COMMAND[0]}" check "$GAME" || die "companion check: the game file is damaged"
    as_kiosk "${KIOSK_COMMAND[0]}" show "$GAME" | head -n 5
}

main
