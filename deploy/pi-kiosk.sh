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
    mount --make-rprivate /
    mount -t tmpfs -o mode=1777 tmpfs /tmp
    mkdir -m 1777 /tmp/.X11-unix
    mount -t proc proc "$ROOT/proc"
    mount --rbind /dev "$ROOT/dev"
    mount --rbind -o ro /sys "$ROOT/sys" 2>/dev/null || mount --rbind /sys "$ROOT/sys"
    mount -t tmpfs -o mode=0755 tmpfs "$ROOT/run"
    mount -t tmpfs -o mode=1777 tmpfs "$ROOT/tmp"
    mkdir -m 1777 "$ROOT/tmp/.X11-unix"
    mount --bind /tmp/.X11-unix "$ROOT/tmp/.X11-unix"
}

SCREEN=""
XVFB=""
start_screen() {
    local number=/tmp/display
    Xvfb -displayfd 3 -screen 0 800x480x24 -nolisten tcp 3>"$number" 2>/tmp/xvfb.log &
    XVFB=$!
    while [ ! -s "$number" ]; do
        kill -0 "$XVFB" 2>/dev/null || { cat /tmp/xvfb.log >&2; die "Xvfb did not start"; }
        sleep 0.2
    done
    SCREEN=":$(head -n 1 "$number")"
    say "Xvfb $SCREEN, 800x480"
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

# screen_signature: the screen's pixels as a checksum, or "blank" when it is one colour.
screen_signature() {
    import -display "$SCREEN" -window root "$1" 2>/dev/null || { echo none; return; }
    if [ "$(identify -format '%k' "$1")" -le 1 ]; then echo blank; return; fi
    identify -format '%#' "$1"
}

APP=""
wait_for_the_first_screen() {
    local began=$1 previous=none now elapsed
    while :; do
        elapsed=$(($(date +%s) - began))
        kill -0 "$APP" 2>/dev/null || { tail -n 40 /tmp/app.log >&2; die "the app exited before its first screen"; }
        [ "$elapsed" -lt "$WAIT_SECONDS" ] || { tail -n 40 /tmp/app.log >&2; die "no first screen in $WAIT_SECONDS s"; }
        if xwininfo -display "$SCREEN" -root -children 2>/dev/null | grep -q '"Table Banker"'; then
            now=$(screen_signature /tmp/look.png)
            if [ "$now" != blank ] && [ "$now" != none ] && [ "$now" = "$previous" ]; then
                cp /tmp/look.png "$OUT/first-screen.png"
                printf '%s\n' "$elapsed" >"$OUT/first-screen-seconds"
                say "first screen after $elapsed s: $OUT/first-screen.png"
                return 0
            fi
            previous=$now
        fi
        sleep 1  # the next look at the screen
    done
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
    case $status in 0 | 143) ;; *) tail -n 40 /tmp/app.log >&2; die "the app did not stop cleanly (status $status)" ;; esac
    grep -n 'Traceback' /tmp/app.log && { tail -n 40 /tmp/app.log >&2; die "the app logged a Python traceback"; }
    return 0
}

main() {
    local began
    private_mounts
    start_screen
    read_the_unit
    a_game_on_the_table
    began=$(date +%s)
    as_kiosk "${KIOSK_COMMAND[@]}" >/tmp/app.log 2>&1 &
    APP=$!
    wait_for_the_first_screen "$began"
    if grep -q 'on-screen unit only' /tmp/app.log; then
        say "no GPIO in the root: $(grep -m 1 -o 'trading unit hardware not available.*' /tmp/app.log)"
    fi
    stop_like_systemd
    cp /tmp/app.log "$OUT/app.log"
    as_kiosk "${KIOSK_COMMAND[0]}" check "$GAME" || die "companion check: the game file is damaged"
    as_kiosk "${KIOSK_COMMAND[0]}" show "$GAME" | head -n 5
    kill "$XVFB" 2>/dev/null || true
}

main
