#!/usr/bin/env bash
# Table Banker: look the Pi over and say what is wrong with the bank, without changing anything.
#
#   deploy/doctor.sh          (sudo shows a little more: the journal and the service user's groups)
#
# Each line is "ok", "check" (worth a look) or "PROBLEM", with what to do. docs/raspberry-pi.md has
# the longer story for each.
set -uo pipefail

PREFIX=/opt/table-banker
DATA=/var/lib/table-banker
CONF=/etc/table-banker/install.conf
PROBLEMS=0

ok() { printf 'ok       %s\n' "$*"; }
check() { printf 'check    %s\n' "$*"; }
problem() { PROBLEMS=$((PROBLEMS + 1)); printf 'PROBLEM  %s\n' "$*"; }
conf() { sed -n "s/^$1=//p" "$CONF" 2>/dev/null | tail -n 1; }

board() {
    local model
    model=$(tr -d '\0' 2>/dev/null </proc/device-tree/model || true)
    if [ -n "$model" ]; then ok "board: $model"; else check "board: not a Raspberry Pi (no device tree model)"; fi
    # shellcheck disable=SC1091 # the running system's own file
    . /etc/os-release 2>/dev/null && ok "system: ${PRETTY_NAME:-unknown} on $(uname -m)"
}

installation() {
    local edition
    if [ ! -x "$PREFIX/venv/bin/companion" ]; then
        problem "not installed: $PREFIX/venv/bin/companion is missing; run sudo deploy/install.sh"
        return
    fi
    edition=$(conf EDITION)
    ok "installed: the ${edition:-?} edition, code from $(conf SOURCE)"
    if [ "$edition" = lite ]; then
        case $(systemctl is-enabled table-banker.service 2>/dev/null) in
            enabled) ok "the kiosk starts at boot" ;;
            *) problem "the kiosk does not start at boot: sudo systemctl enable table-banker.service" ;;
        esac
        case $(systemctl is-active table-banker.service 2>/dev/null) in
            active) ok "the kiosk is running" ;;
            *) problem "the kiosk is not running: journalctl -u table-banker -b says why" ;;
        esac
    elif [ "$edition" = desktop ]; then
        if grep -qs '^[[:space:]]*autologin-user=' /etc/lightdm/lightdm.conf; then
            ok "the desktop logs in by itself"
        else
            problem "the desktop does not log in by itself: sudo raspi-config, System Options, Boot / Auto Login"
        fi
    fi
}

display() {
    local status card index found=0
    for status in /sys/class/drm/card*-*/status; do
        [ -e "$status" ] || continue
        card=${status#/sys/class/drm/}
        card=${card%/status}
        if [ "$(cat "$status")" = connected ]; then
            found=1
            index=${card%%-*}
            ok "screen: $card is connected (device index ${index#card}, for SDL_KMSDRM_DEVICE_INDEX)"
        fi
    done
    [ "$found" = 1 ] || problem "screen: no connected display in /sys/class/drm (cable, or the display's overlay in /boot/firmware/config.txt)"
    if grep -qs '^[[:space:]]*SDL_KMSDRM_DEVICE_INDEX=' /etc/default/table-banker; then
        check "screen: chosen by hand in /etc/default/table-banker ($(grep '^[[:space:]]*SDL_KMSDRM_DEVICE_INDEX=' /etc/default/table-banker))"
    fi
    if [ -x "$PREFIX/venv/bin/python" ]; then
        local drivers
        drivers=$("$PREFIX/venv/bin/python" - <<'EOF' 2>/dev/null
import ctypes, glob, os, kivy
libs = glob.glob(os.path.join(os.path.dirname(os.path.dirname(kivy.__file__)), "[Kk]ivy.libs", "libSDL2-*.so*"))
sdl = ctypes.CDLL(libs[0])
sdl.SDL_GetVideoDriver.restype = ctypes.c_char_p
print(" ".join(sdl.SDL_GetVideoDriver(i).decode() for i in range(sdl.SDL_GetNumVideoDrivers())))
EOF
        )
        case " $drivers " in
            *" KMSDRM "*) ok "Kivy's SDL can drive the screen directly (video drivers: $drivers)" ;;
            "  ") check "could not ask Kivy's SDL for its video drivers" ;;
            *) problem "Kivy's SDL has no KMSDRM driver ($drivers): the Lite kiosk cannot show anything" ;;
        esac
    fi
    if journalctl -u table-banker -b --no-pager 2>/dev/null | grep -qi llvmpipe; then
        problem "software rendering (llvmpipe): the GPU is not used; see 'Software rendering' in docs/raspberry-pi.md"
    fi
}

touch_input() {
    local dev name found=0
    for dev in /sys/class/input/event*; do
        [ -e "$dev/device/capabilities/abs" ] || continue
        name=$(cat "$dev/device/name" 2>/dev/null)
        # ABS_MT_POSITION_X is bit 53 of the absolute-axis capability mask (hex words, highest first).
        # shellcheck disable=SC2046 # one argument per word of the mask
        if python3 -c "import sys; b = int(sys.argv[1]); m = 0
for w in sys.argv[2:]: m = (m << b) | int(w, 16)
sys.exit(not m >> 53 & 1)" "$(getconf LONG_BIT)" $(cat "$dev/device/capabilities/abs") 2>/dev/null; then
            found=1
            ok "touchscreen: $name (/dev/input/${dev##*/})"
        fi
    done
    [ "$found" = 1 ] || check "no multi-touch screen found in /sys/class/input (a mouse still works)"
}

permissions() {
    local chip group
    for chip in /dev/gpiochip*; do
        [ -e "$chip" ] || continue
        group=$(stat -c %G "$chip")
        if id -nG table-banker 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then
            ok "GPIO: $chip belongs to $group, and table-banker is in it"
        else
            check "GPIO: $chip belongs to $group; the bank's user table-banker is not in that group"
        fi
        break
    done
    if ! id table-banker >/dev/null 2>&1; then
        problem "there is no user table-banker: run sudo deploy/install.sh"
        return
    fi
    for group in video render input; do
        if id -nG table-banker 2>/dev/null | tr ' ' '\n' | grep -qx "$group"; then :; else
            problem "table-banker is not in the $group group: sudo deploy/install.sh puts it there"
        fi
    done
}

games() {
    local count free
    if [ ! -d "$DATA" ]; then problem "no games folder $DATA"; return; fi
    count=$(find "$DATA" -maxdepth 1 -name '*.game' 2>/dev/null | wc -l)
    free=$(df -h --output=avail "$DATA" 2>/dev/null | tail -n 1 | tr -d ' ')
    ok "games: $count in $DATA, $free free"
    if [ -n "$(find "$DATA" -mindepth 1 -maxdepth 1 ! -user table-banker -print -quit 2>/dev/null)" ]; then
        problem "some files in $DATA do not belong to table-banker: sudo deploy/install.sh fixes that"
    fi
    if [ "$(findmnt -n -o FSTYPE / 2>/dev/null)" = overlay ] && [ "$(findmnt -n -o TARGET --target "$DATA")" = / ]; then
        problem "the root file system is an overlay: games in $DATA vanish at reboot; see 'Protecting the SD card'"
    fi
}

logs() {
    if grep -qs '^Storage=volatile' /etc/systemd/journald.conf.d/table-banker.conf; then
        ok "logs: in memory only (volatile); they are lost at reboot"
    else
        ok "logs: kept in the journal on the SD card (at most 64 MB)"
    fi
    if [ "$(id -u)" = 0 ] && [ "$(conf EDITION)" = lite ]; then
        echo "--- the kiosk's last messages (journalctl -u table-banker -b -n 15):"
        journalctl -u table-banker -b -n 15 --no-pager 2>/dev/null || true
    fi
}

board
installation
display
touch_input
permissions
games
logs
if [ "$PROBLEMS" = 0 ]; then echo "No problem found."; else echo "$PROBLEMS problem(s) found."; exit 1; fi
