#!/usr/bin/env bash
# Table Banker: prove the Raspberry Pi appliance on arm64 on this (x86) machine, under qemu.
#
#   sudo deploy/pi-check.sh        (make pi-check)
#
# 1. tools: qemu-user-static, binfmt-support, debootstrap, systemd-container, Xvfb, ImageMagick
#    (installed with apt-get when missing; never skipped)
# 2. binfmt: arm64 programs run here through qemu-aarch64
# 3. root: a Debian Bookworm arm64 root made by debootstrap from the mirror this machine's apt uses,
#    kept in $PI_CHECK_CACHE between runs (keyed by the debootstrap settings), worked on as a copy
# 4. install: deploy/install.sh --root into the copy (the installed root is kept too, keyed by
#    install.sh, lib.sh and pyproject.toml, so the next run only upgrades the code)
# 5. again: a second run must say "nothing to change"
# 6. uninstall: on a copy, --uninstall must leave only the games
# 7. units: systemd-analyze verify --root, and the kiosk unit is enabled
# 8. hw-check: companion hw-check --dry-run with gpiozero's lgpio pins fails over to the on-screen unit
# 9. kiosk: the command of table-banker.service, as its user, under Xvfb 800x480 in a private
#    network (deploy/pi-kiosk.sh): first screen, screenshot, SIGTERM, companion check
# 10. boot: systemd-nspawn --boot of the root (deploy/pi-boot.sh): the unit active, its first screen
#    on Xvfb, stopped at power-off; where the sandbox forbids the boot, it says so and carries on
#
# Every stage prints its time. The screenshots go to artifacts/pi-check/ (first-screen.png, and
# boot-first-screen.png from the booted root).
# Environment: PI_CHECK_CACHE (default /var/cache/table-banker/pi-check), PI_CHECK_FRESH=1 (install
# on the bare root even when an installed one is cached), ARTIFACTS (default artifacts/pi-check).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
SUITE=bookworm
ARCH=arm64
INCLUDE=systemd,systemd-sysv,udev,dbus,ca-certificates
CACHE=${PI_CHECK_CACHE:-/var/cache/table-banker/pi-check}
ARTIFACTS=${ARTIFACTS:-$REPO/artifacts/pi-check}
TOOLS=(qemu-user-static binfmt-support debootstrap systemd-container xvfb xauth imagemagick x11-utils iproute2 util-linux)
NICE=(nice -n 10)
WORK=""
CHECK=pi-check
# shellcheck source-path=SCRIPTDIR source=check-lib.sh
. "$HERE/check-lib.sh"

cleanup() {
    local status=$?
    tell_where_it_failed "$status"
    [ -n "$WORK" ] || return 0
    rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT

# -- 1. tools --------------------------------------------------------------------------------------------
need_tools() {
    local missing=() p
    for p in "${TOOLS[@]}"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    if [ ${#missing[@]} -eq 0 ]; then say "all there: ${TOOLS[*]}"; return 0; fi
    [ "$(id -u)" = 0 ] || die "missing ${missing[*]}; run as root (sudo make pi-check), it installs them"
    say "installing ${missing[*]}"
    apt-get -o DPkg::Lock::Timeout=600 update -qq
    DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
        "${missing[@]}" >/dev/null
}

# -- 2. binfmt -------------------------------------------------------------------------------------------
enable_arm64() {
    local binfmt=/proc/sys/fs/binfmt_misc
    # Without systemd as PID 1 nothing mounts binfmt_misc or registers qemu at boot: do it here.
    if [ ! -e "$binfmt/register" ]; then mount -t binfmt_misc binfmt_misc "$binfmt"; fi
    if ! grep -qs '^enabled' "$binfmt/qemu-aarch64"; then update-binfmts --enable qemu-aarch64; fi
    grep -qs '^enabled' "$binfmt/qemu-aarch64" || die "qemu-aarch64 is not registered in $binfmt"
    # F: the kernel opens qemu once, so it works inside a chroot that has no qemu of its own.
    grep -qs '^flags: .*F' "$binfmt/qemu-aarch64" || die "qemu-aarch64 is registered without the F flag"
    say "arm64 programs run through $(sed -n 's/^interpreter //p' "$binfmt/qemu-aarch64")"
}

# -- 3. the bare root ------------------------------------------------------------------------------------
# The Debian mirror this machine's apt uses: the first URI of the main archive in deb822 sources.
debian_mirror() {
    local sources=/etc/apt/sources.list.d/debian.sources uri
    uri=$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' "$sources" 2>/dev/null)
    [ -n "$uri" ] || uri=$(awk '$1 == "deb" && $0 !~ /security/ { for (i = 2; i <= NF; i++) if ($i ~ /:\/\//) { print $i; exit } }' \
        /etc/apt/sources.list 2>/dev/null)
    [ -n "$uri" ] || die "no Debian mirror in $sources or /etc/apt/sources.list"
    printf '%s' "$uri"
}

key_of() { cat "$@" | sha256sum | cut -c1-16; }

BASE=""
bare_root() {
    local mirror key tmp
    mirror=$(debian_mirror)
    key=$(printf '%s %s %s %s' "$SUITE" "$ARCH" "$INCLUDE" "$mirror" | key_of)
    BASE=$CACHE/base-$key
    if [ -f "$BASE/.complete" ]; then say "reusing $BASE"; return 0; fi
    say "debootstrap $SUITE $ARCH from $mirror into $BASE (a few minutes)"
    mkdir -p "$CACHE"
    tmp=$CACHE/.base-$key.partial
    rm -rf --one-file-system "$tmp"
    "${NICE[@]}" debootstrap --arch="$ARCH" --variant=minbase --include="$INCLUDE" "$SUITE" "$tmp" "$mirror" \
        >"$CACHE/debootstrap.log" 2>&1 || { tail -n 20 "$CACHE/debootstrap.log" >&2; die "debootstrap failed"; }
    [ "$(chroot "$tmp" uname -m)" = aarch64 ] || die "the root's programs do not run as aarch64"
    touch "$tmp/.complete"
    mv "$tmp" "$BASE"
    say "$(du -sh "$BASE" | cut -f1) in $BASE"
}

# -- 4. install ------------------------------------------------------------------------------------------
INSTALLED=""
copy_root() { cp -a --reflink=auto "$1" "$2"; }

# The machine's own certificate authorities go in before the installer: pip in the root checks the
# package index against them (update-ca-certificates puts them in the bundle).
trust_this_machines_cas() {
    local crt
    for crt in /usr/local/share/ca-certificates/*.crt; do
        [ -e "$crt" ] || continue
        install -D -m 0644 "$crt" "$WORK/root/usr/local/share/ca-certificates/${crt##*/}"
    done
    chroot "$WORK/root" update-ca-certificates >"$WORK/ca.log" 2>&1 || { cat "$WORK/ca.log" >&2; die "update-ca-certificates failed"; }
    cp /etc/resolv.conf "$WORK/root/etc/resolv.conf"
}

# The checkout as it is now: the runs of the installer compare against it, so work going on in the
# checkout meanwhile must not look like a change.
SOURCE=""
freeze_the_checkout() {
    SOURCE=$WORK/table-banker
    mkdir -p "$SOURCE"
    tar -C "$REPO" -cf - --exclude=./.git --exclude=./.venv --exclude=./artifacts --exclude=__pycache__ . |
        tar -C "$SOURCE" -xf -
}

# The installer's own lines, without the Debian packages' and pip's chatter.
installer_lines() {
    grep -E '^(Table Banker|Done|run: |install |create |write |add |give |set |start |stop |compile |remove |warning|error|\([0-9]+ warnings)' "$1" |
        sed 's/^/  | /'
}

run_installer() {
    local log=$1
    shift
    # PIP_FIND_LINKS and friends name folders of this machine, not of the Pi.
    if ! in_root_mounts "$WORK/root" env -u PIP_FIND_LINKS -u PIP_EXTRA_INDEX_URL -u PIP_INDEX_URL \
        "${NICE[@]}" bash "$SOURCE/deploy/install.sh" --root "$WORK/root" "$@" >"$log" 2>&1; then
        cat "$log" >&2
        die "deploy/install.sh --root $* failed"
    fi
}

install_into_root() {
    local key
    key=$(key_of "$REPO/deploy/install.sh" "$REPO/deploy/lib.sh" "$REPO/pyproject.toml")
    INSTALLED=$CACHE/installed-${BASE##*base-}-$key
    WORK=$(mktemp -d "$CACHE/work.XXXXXX")
    if [ -f "$INSTALLED/.complete" ] && [ "${PI_CHECK_FRESH:-0}" != 1 ]; then
        say "reusing the installed root $INSTALLED (this run upgrades it to this checkout's code)"
        touch "$INSTALLED"
        copy_root "$INSTALLED" "$WORK/root"
    else
        say "installing into a copy of the bare root"
        copy_root "$BASE" "$WORK/root"
        rm -f "$WORK/root/.complete"
    fi
    trust_this_machines_cas
    freeze_the_checkout
    run_installer "$WORK/install.log" --source "$SOURCE"
    installer_lines "$WORK/install.log"
    if [ ! -f "$INSTALLED/.complete" ]; then
        rm -rf --one-file-system "$INSTALLED.partial"
        copy_root "$WORK/root" "$INSTALLED.partial"
        touch "$INSTALLED.partial/.complete"
        rm -rf --one-file-system "$INSTALLED"
        mv "$INSTALLED.partial" "$INSTALLED"
        say "kept for the next run: $INSTALLED"
        # Installed roots of installers not used for a week go (each is about 900 MB).
        find "$CACHE" -mindepth 1 -maxdepth 1 -name 'installed-*' ! -name "${INSTALLED##*/}" -mtime +7 \
            -exec rm -rf --one-file-system {} +
    fi
    [ "$(chroot "$WORK/root" dpkg --print-architecture)" = arm64 ] || die "the root is not arm64"
    say "Kivy in the root: $(chroot "$WORK/root" /opt/table-banker/venv/bin/python -c \
        'import importlib.metadata as m; print(*(f"{p} {m.version(p)}" for p in ("kivy", "aiohttp", "zeroconf", "pillow", "lgpio")), sep=", ")')"
}

# -- 5. again --------------------------------------------------------------------------------------------
install_again() {
    run_installer "$WORK/again.log"
    installer_lines "$WORK/again.log"
    grep -q 'nothing to change' "$WORK/again.log" || die "a second run of install.sh changed something"
}

# -- 6. uninstall ----------------------------------------------------------------------------------------
uninstall_a_copy() {
    local copy=$WORK/uninstalled left
    # /usr is only read by the uninstaller: hard links save copying it.
    mkdir -p "$copy"
    (cd "$WORK/root" && for entry in * .[!.]*; do
        [ -e "$entry" ] || [ -L "$entry" ] || continue
        if [ "$entry" = usr ]; then cp -al usr "$copy/usr"; else cp -a "$entry" "$copy/"; fi
    done)
    chroot --userspec=table-banker:table-banker "$copy" /opt/table-banker/venv/bin/companion \
        new /var/lib/table-banker/friday.game --rules classic --player Ann --player Bob >/dev/null
    bash "$SOURCE/deploy/install.sh" --root "$copy" --uninstall | sed 's/^/  | /'
    left=$(find "$copy" \( -path "$copy/proc" -o -path "$copy/sys" -o -path "$copy/dev" -o -path "$copy/var/lib/table-banker" \) \
        -prune -o \( -name '*table-banker*' -o -name '*table_banker*' \) -printf '/%P\n')
    [ -z "$left" ] || die "--uninstall left: $left"
    ! grep -q '^table-banker:' "$copy/etc/passwd" "$copy/etc/group" || die "--uninstall left the user or group"
    [ -f "$copy/var/lib/table-banker/friday.game" ] || die "--uninstall took the games"
    say "only the games remain: $(cd "$copy" && find var/lib/table-banker -mindepth 1 | tr '\n' ' ')"
    rm -rf --one-file-system "$copy"
}

# -- 7. units --------------------------------------------------------------------------------------------
verify_units() {
    local out
    out=$(SYSTEMD_LOG_LEVEL=warning systemd-analyze verify --root="$WORK/root" \
        /etc/systemd/system/table-banker.service 2>&1) || { say "$out"; die "systemd-analyze verify found problems"; }
    # Complaints about units of the bare Debian root are not ours; ours must be clean.
    if printf '%s\n' "$out" | grep -i 'table-banker'; then die "systemd-analyze verify: table-banker.service"; fi
    say "systemd-analyze verify --root: table-banker.service is clean"
    [ -L "$WORK/root/etc/systemd/system/multi-user.target.wants/table-banker.service" ] ||
        die "table-banker.service is not enabled in the root"
}

# -- 8. hw-check ------------------------------------------------------------------------------------------
hw_check_fails_over() {
    local out status=0
    out=$(in_root_mounts "$WORK/root" chroot --userspec=table-banker:table-banker "$WORK/root" env -i PATH=/usr/bin:/bin \
        GPIOZERO_PIN_FACTORY=lgpio LG_WD=/tmp HOME=/var/lib/table-banker \
        /opt/table-banker/venv/bin/companion hw-check --dry-run 2>&1) || status=$?
    printf '%s\n' "$out" | sed 's/^/  | /'
    [ "$status" = 2 ] || die "hw-check --dry-run without GPIO: exit $status, not 2"
    printf '%s\n' "$out" | grep 'on-screen' >/dev/null || die "hw-check --dry-run did not say the on-screen unit takes over"
}

# -- 9. kiosk --------------------------------------------------------------------------------------------
# -- 10. boot ---------------------------------------------------------------------------------------------
NSPAWN=untried
boot_the_root() {
    local status=0
    unshare --mount --fork -- "${NICE[@]}" bash "$SOURCE/deploy/pi-boot.sh" "$WORK/root" "$ARTIFACTS" || status=$?
    case $status in
        0) NSPAWN="booted; table-banker.service active, its first screen in $ARTIFACTS/boot-first-screen.png" ;;
        3)
            NSPAWN="NOT POSSIBLE in this sandbox (see above); left to a real Pi"
            say "systemd-nspawn --boot is NOT possible in this sandbox: the boot is left to a real Pi"
            say "  (see 'What only a real Pi can prove' in docs/raspberry-pi.md)" ;;
        *) die "the kiosk unit in the booted root: see above (console: $ARTIFACTS/boot-console.log)" ;;
    esac
}

start_the_kiosk() {
    mkdir -p "$ARTIFACTS"
    unshare --pid --net --fork --mount --mount-proc -- \
        "${NICE[@]}" bash "$SOURCE/deploy/pi-kiosk.sh" "$WORK/root" "$SOURCE/deploy/systemd/table-banker.service" "$ARTIFACTS"
}

main() {
    [ "$(id -u)" = 0 ] || die "run it as root: it installs tools, registers qemu and uses chroot"
    say "pi-check: Table Banker on Debian $SUITE $ARCH under qemu, from $REPO"
    stage tools need_tools
    stage binfmt enable_arm64
    stage root bare_root
    stage install install_into_root
    stage again install_again
    stage uninstall uninstall_a_copy
    stage units verify_units
    stage hw-check hw_check_fails_over
    stage kiosk start_the_kiosk
    stage boot boot_the_root
    print_times
    say "  first screen under emulation: $(cat "$ARTIFACTS/first-screen-seconds" 2>/dev/null || echo ?) s"
    say "  systemd-nspawn --boot: $NSPAWN"
    say "pi-check: passed"
}

main "$@"
