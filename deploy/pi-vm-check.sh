#!/usr/bin/env bash
# Table Banker: boot the installed Raspberry Pi root as a whole arm64 machine under
# qemu-system-aarch64 and put the kiosk through the Pi's own stacks: KMS/DRM, the kernel's touch
# input, and GPIO lines.
#
#   sudo deploy/pi-vm-check.sh        (make pi-vm-check, after make pi-check)
#
# 1. tools: qemu-system-arm with virtio-multitouch (qemu 8 or newer: Debian 12's is 7.2, so it comes
#    from bookworm-backports through a source list of this run's own, leaving this machine's apt
#    sources as they are), device-tree-compiler, e2fsprogs
# 2. root: the installed root pi-check used last (from $PI_CHECK_CACHE)
# 3. kernel: a copy of it with Debian's arm64 kernel and initramfs (apt in the chroot), and what
#    Raspberry Pi OS has and a Debian root lacks: the gpio group owning /dev/gpiochip*, a network
#    brought up at boot; kept in $PI_VM_CACHE, keyed by the installed root and this script
# 4. install: deploy/install.sh --root with this checkout (the code as it is now)
# 5. table: what the check itself adds to its copy, never to the kiosk's unit: the header's GPIO
#    lines from gpio-sim (a unit ordered before the kiosk), a control channel on a virtio serial
#    port, and Friday's game with the banker's pass for the phones' API
# 6. image: an ext4 image of the root; the machine's device tree with the Pi's board revision
# 7. boot: qemu-system-aarch64 (virt, cortex-a72, virtio-gpu 800x480, virtio keyboard and
#    multitouch, user networking with restrict=on and only the phones' port forwarded to
#    127.0.0.1), then deploy/pi_vm_drive.py checks the display, touch and GPIO, stops the unit and
#    checks the game; the machine powers off
#
# Every stage prints its time. Screenshots, the console and the kiosk's journal go to
# artifacts/pi-vm-check/.
# Environment: PI_CHECK_CACHE (default /var/cache/table-banker/pi-check), PI_VM_CACHE (default
# /var/cache/table-banker/pi-vm-check), ARTIFACTS (default artifacts/pi-vm-check), PI_VM_CPUS (2),
# PI_VM_SCREEN_SECONDS (600: how long the first screen is awaited once the kiosk has opened the screen).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/.." && pwd)
PI_CACHE=${PI_CHECK_CACHE:-/var/cache/table-banker/pi-check}
CACHE=${PI_VM_CACHE:-/var/cache/table-banker/pi-vm-check}
ARTIFACTS=${ARTIFACTS:-$REPO/artifacts/pi-vm-check}
CPUS=${PI_VM_CPUS:-2}
NICE=(nice -n 5)
TOOLS=(device-tree-compiler e2fsprogs python3)
KERNEL_PACKAGES=(linux-image-arm64)
# A Raspberry Pi 4 Model B, 4 GB, revision 1.4: what its firmware writes into the device tree.
PI_REVISION=0xc03114
GAME=/var/lib/table-banker/friday.game
WORK=""
CHECK=pi-vm-check
# shellcheck source-path=SCRIPTDIR source=check-lib.sh
. "$HERE/check-lib.sh"

QEMU=""
cleanup() {
    local status=$?
    tell_where_it_failed "$status"
    if [ -n "$QEMU" ] && kill -0 "$QEMU" 2>/dev/null; then kill "$QEMU" 2>/dev/null || true; wait "$QEMU" 2>/dev/null || true; fi
    [ -n "$WORK" ] || return 0
    rm -rf --one-file-system "$WORK"
}
trap cleanup EXIT

key_of() { cat "$@" | sha256sum | cut -c1-16; }

# -- 1. tools --------------------------------------------------------------------------------------------
qemu_has_multitouch() {
    command -v qemu-system-aarch64 >/dev/null && qemu-system-aarch64 -device help 2>/dev/null | grep -q '"virtio-multitouch-pci"'
}

need_tools() {
    local missing=() p apt_private
    for p in "${TOOLS[@]}"; do
        dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing ${missing[*]}"
        apt-get -o DPkg::Lock::Timeout=600 update -qq
        DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq --no-install-recommends \
            "${missing[@]}" >/dev/null
    fi
    if ! qemu_has_multitouch; then
        # Debian 12's qemu (7.2) has no virtio-multitouch: bookworm-backports' has. Its source list is
        # this run's own, so this machine's apt sources stay as they are.
        apt_private=$(mktemp -d /tmp/pi-vm-apt.XXXXXX)
        mkdir -p "$apt_private/lists/partial"
        # shellcheck disable=SC2016 # the $ is awk's
        local main
        main=$(awk '/^URIs:/ { u = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) if ($i !~ /-/) print "deb " u " " $i " main" }' \
            /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n 1)
        main=${main:-deb http://deb.debian.org/debian bookworm main}
        printf '%s\n%s\n' "$main" "${main/ bookworm / bookworm-backports }" >"$apt_private/sources.list"
        local apt=(-o "Dir::Etc::SourceList=$apt_private/sources.list" -o Dir::Etc::SourceParts=/dev/null
                   -o "Dir::State::Lists=$apt_private/lists" -o DPkg::Lock::Timeout=600)
        say "installing qemu-system-arm from bookworm-backports (virtio-multitouch needs qemu 8 or newer)"
        apt-get "${apt[@]}" update -qq
        DEBIAN_FRONTEND=noninteractive apt-get "${apt[@]}" install -y -qq --no-install-recommends \
            qemu-system-arm/bookworm-backports qemu-system-common/bookworm-backports \
            qemu-system-data/bookworm-backports >/dev/null
        rm -rf "$apt_private"
    fi
    qemu_has_multitouch || die "qemu-system-aarch64 has no virtio-multitouch-pci"
    say "$(qemu-system-aarch64 --version | head -n 1); $(dtc --version); $(mkfs.ext4 -V 2>&1 | head -n 1)"
}

# -- 2. the installed root -------------------------------------------------------------------------------
INSTALLED=""
find_the_installed_root() {
    # pi-check touches the installed root it uses: the newest one is this checkout's installer's.
    INSTALLED=$(find "$PI_CACHE" -mindepth 1 -maxdepth 1 -name 'installed-*' -type d -printf '%T@ %p\n' 2>/dev/null |
        sort -rn | while read -r _ dir; do [ -f "$dir/.complete" ] && { printf '%s\n' "$dir"; break; }; done)
    [ -n "$INSTALLED" ] || die "no installed root in $PI_CACHE: run make pi-check first"
    say "the installed root: $INSTALLED"
}

# -- 3. the kernel and what Raspberry Pi OS brings ------------------------------------------------------
VMROOT=""
kernel_root() {
    local key tmp log
    # keyed by the installed root, the packages and the steps below as they are written
    key=$({ printf '%s %s\n' "${INSTALLED##*/}" "${KERNEL_PACKAGES[*]}"; declare -f kernel_root like_raspberry_pi_os; } |
        sha256sum | cut -c1-16)
    VMROOT=$CACHE/root-$key
    if [ -f "$VMROOT/.complete" ]; then say "reusing $VMROOT"; touch "$VMROOT"; return 0; fi
    mkdir -p "$CACHE"
    tmp=$CACHE/.root-$key.partial
    log=$CACHE/kernel.log
    rm -rf --one-file-system "$tmp"
    say "copying the installed root"
    cp -a --reflink=auto "$INSTALLED" "$tmp"
    rm -f "$tmp/.complete"
    # The initramfs holds only what the machine needs to reach its disk: made under emulation, the
    # usual one (every storage and network driver) takes many minutes on a busy machine.
    install -D -m 0644 /dev/stdin "$tmp/etc/initramfs-tools/conf.d/pi-vm-check.conf" <<<'MODULES=list'
    install -d "$tmp/etc/initramfs-tools"
    printf '%s\n' virtio_pci virtio_blk ext4 >>"$tmp/etc/initramfs-tools/modules"
    say "installing ${KERNEL_PACKAGES[*]} into it (apt in the chroot; the initramfs is made under emulation)"
    if ! in_root_mounts "$tmp" "${NICE[@]}" chroot "$tmp" /bin/sh -c "
            apt-get -o DPkg::Lock::Timeout=600 update -qq &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ${KERNEL_PACKAGES[*]} initramfs-tools &&
            apt-get clean" >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        die "the kernel did not install"
    fi
    if [ ! -e "$tmp/vmlinuz" ] || [ ! -e "$tmp/initrd.img" ]; then die "no /vmlinuz or /initrd.img in the root"; fi
    like_raspberry_pi_os "$tmp"
    touch "$tmp/.complete"
    rm -rf --one-file-system "$CACHE"/root-*
    mv "$tmp" "$VMROOT"
    say "$(du -sh "$VMROOT" | cut -f1) in $VMROOT: $(readlink "$VMROOT/vmlinuz")"
}

# like_raspberry_pi_os ROOT: what Raspberry Pi OS has and debootstrap's Debian root does not.
like_raspberry_pi_os() {
    local root=$1
    # raspberrypi-sys-mods: a gpio group that owns the GPIO chips (the installer adds the bank's user).
    chroot "$root" getent group gpio >/dev/null || chroot "$root" groupadd --system gpio
    install -D -m 0644 /dev/stdin "$root/etc/udev/rules.d/60-gpiochip-gpio-group.rules" <<'EOF'
# As Raspberry Pi OS's raspberrypi-sys-mods: the GPIO chips belong to the gpio group.
SUBSYSTEM=="gpio", KERNEL=="gpiochip*", GROUP="gpio", MODE="0660"
EOF
    # Raspberry Pi OS brings the network up at boot (NetworkManager); here systemd-networkd, with DHCP.
    install -D -m 0644 /dev/stdin "$root/etc/systemd/network/20-wired.network" <<'EOF'
[Match]
Name=en* eth*

[Network]
DHCP=ipv4
EOF
    chroot "$root" systemctl enable systemd-networkd.service >/dev/null 2>&1
    printf 'raspberrypi\n' >"$root/etc/hostname"
    printf '127.0.0.1\tlocalhost\n127.0.1.1\traspberrypi\n' >"$root/etc/hosts"
    # The root file system, as the Pi's /etc/fstab has it (the kernel mounts it read-write).
    printf '/dev/vda  /  ext4  defaults,noatime  0  1\n' >"$root/etc/fstab"
}

# -- 3b. gpio-sim ---------------------------------------------------------------------------------------
# Debian's arm64 kernels (bookworm's 6.1 and bookworm-backports' 6.12) are built without gpio-sim
# and without gpio-mockup. The module is built here from the same kernel's source (the Debian
# archive's linux-source package) against its headers, in a builder root of its own (a copy of
# pi-check's bare root), and kept in the cache by kernel version. It is the check's stand-in
# hardware, put into the check's copy only.
GPIO_SIM=""
build_gpio_sim() {
    local kver base builder log series
    kver=$(readlink "$VMROOT/vmlinuz")
    kver=${kver#boot/vmlinuz-}
    GPIO_SIM=$CACHE/gpio-sim-$kver.ko
    if [ -s "$GPIO_SIM" ]; then say "reusing $GPIO_SIM"; return 0; fi
    base=$PI_CACHE/base-${INSTALLED#*/installed-}
    base=${base%-*}
    [ -f "$base/.complete" ] || die "no bare root $base to build gpio-sim in"
    series=$(printf '%s' "$kver" | cut -d. -f1,2)  # 6.1.0-50-arm64: linux-source-6.1
    builder=$CACHE/.builder
    log=$CACHE/gpio-sim.log
    rm -rf --one-file-system "$builder"
    cp -a --reflink=auto "$base" "$builder"
    cp /etc/resolv.conf "$builder/etc/resolv.conf"
    say "building gpio-sim for $kver from linux-source-$series (under emulation)"
    if ! in_root_mounts "$builder" "${NICE[@]}" chroot "$builder" /bin/sh -c "
            set -e
            apt-get -o DPkg::Lock::Timeout=600 update -qq
            DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
                linux-headers-$kver linux-source-$series gcc make xz-utils
            mkdir -p /tmp/gpio-sim && cd /tmp/gpio-sim
            tar -xf /usr/src/linux-source-$series.tar.xz --strip-components=3 \
                linux-source-$series/drivers/gpio/gpio-sim.c linux-source-$series/drivers/gpio/gpiolib.h \
                linux-source-$series/kernel/irq/irq_sim.c
            mv gpio-sim.c gpio-sim-main.c
            # irq_sim calls irq_to_desc, which modules may not: generic_handle_irq does the same for them.
            sed -i 's/handle_simple_irq(irq_to_desc(irqnum))/generic_handle_irq(irqnum)/' irq_sim.c
            # gpio-sim's interrupts come from the kernel's irq_sim, which Debian does not build either.
            if grep -q '^CONFIG_IRQ_SIM=y' /usr/src/linux-headers-$kver/.config; then
                printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o\n' >Kbuild
            else
                printf 'obj-m := gpio-sim.o\ngpio-sim-y := gpio-sim-main.o irq_sim.o\n' >Kbuild
            fi
            make -C /usr/src/linux-headers-$kver M=/tmp/gpio-sim modules" >"$log" 2>&1; then
        tail -n 30 "$log" >&2
        die "gpio-sim did not build"
    fi
    cp "$builder/tmp/gpio-sim/gpio-sim.ko" "$GPIO_SIM.partial"
    mv "$GPIO_SIM.partial" "$GPIO_SIM"
    rm -rf --one-file-system "$builder"
    say "built $GPIO_SIM"
}

# -- 4. install this checkout ----------------------------------------------------------------------------
SOURCE=""
install_this_checkout() {
    local log crt
    WORK=$(mktemp -d "$CACHE/work.XXXXXX")
    say "copying the root"
    cp -a --reflink=auto "$VMROOT" "$WORK/root"
    rm -f "$WORK/root/.complete"
    for crt in /usr/local/share/ca-certificates/*.crt; do
        [ -e "$crt" ] || continue
        install -D -m 0644 "$crt" "$WORK/root/usr/local/share/ca-certificates/${crt##*/}"
    done
    chroot "$WORK/root" update-ca-certificates >/dev/null 2>&1 || die "update-ca-certificates failed"
    cp /etc/resolv.conf "$WORK/root/etc/resolv.conf"
    SOURCE=$WORK/table-banker
    mkdir -p "$SOURCE"
    tar -C "$REPO" -cf - --exclude=./.git --exclude=./.venv --exclude=./artifacts --exclude=__pycache__ . |
        tar -C "$SOURCE" -xf -
    log=$WORK/install.log
    if ! in_root_mounts "$WORK/root" env -u PIP_FIND_LINKS -u PIP_EXTRA_INDEX_URL -u PIP_INDEX_URL \
        "${NICE[@]}" bash "$SOURCE/deploy/install.sh" --root "$WORK/root" --source "$SOURCE" >"$log" 2>&1; then
        cat "$log" >&2
        die "deploy/install.sh --root failed"
    fi
    grep -E '^(Table Banker|Done|nothing to change|warning|error)' "$log" | sed 's/^/  | /' || true
    chroot "$WORK/root" id table-banker | grep -q '(gpio)' || die "the bank's user is not in the gpio group"
}

# -- 5. what the check adds to its copy ------------------------------------------------------------------
set_the_table() {
    local root=$WORK/root tool=/usr/local/lib/pi-vm-check
    install -d "$root$tool"
    local kver
    kver=$(basename "$GPIO_SIM" .ko)
    kver=${kver#gpio-sim-}
    install -D -m 0644 "$GPIO_SIM" "$root/lib/modules/$kver/updates/gpio-sim.ko"
    chroot "$root" depmod "$kver"
    # The header's GPIO lines: gpio-sim, before the kiosk starts (on a Pi the chip is there from boot).
    install -m 0755 /dev/stdin "$root$tool/header-lines" <<'EOF'
#!/bin/sh
# pi-vm-check only: a gpio-sim chip of 58 lines (the BCM2711's) standing in for the 40-pin header.
set -e
modprobe configfs
mountpoint -q /sys/kernel/config || mount -t configfs configfs /sys/kernel/config
modprobe gpio-sim
sim=/sys/kernel/config/gpio-sim/pi-header
mkdir -p "$sim/bank0"
echo 58 >"$sim/bank0/num_lines"
echo pinctrl-bcm2711 >"$sim/bank0/label"
echo 1 >"$sim/live"
udevadm settle
mkdir -p /run/pi-vm-check
echo "/sys/devices/platform/$(cat "$sim/dev_name")/$(cat "$sim/bank0/chip_name")" >/run/pi-vm-check/chip
EOF
    install -m 0644 /dev/stdin "$root/etc/systemd/system/pi-vm-check-gpio.service" <<'EOF'
# pi-vm-check only: the header's GPIO lines (gpio-sim), there before the kiosk starts.
[Unit]
Description=pi-vm-check: GPIO header lines from gpio-sim
DefaultDependencies=no
After=sys-kernel-config.mount systemd-udevd.service
Before=table-banker.service sysinit.target

[Service]
Type=oneshot
RemainAfterExit=yes
ExecStart=/usr/local/lib/pi-vm-check/header-lines

[Install]
WantedBy=sysinit.target
EOF
    # The trading unit's outputs, watched: a finger on a button, then every change of the lines.
    install -m 0755 /dev/stdin "$root$tool/watch-lines" <<'EOF'
#!/usr/bin/python3
"""pi-vm-check only: watch-lines CHIP BUTTON SECONDS LINE...: hold BUTTON's line low for a press,
then print each change of the LINEs' values for SECONDS: "SECONDS-SINCE-THE-PRESS LINE VALUE" (the
values at the press first). It looks every 5 ms and sleeps between looks, so the kiosk keeps the
machine's processors."""
import sys
import time

chip, button, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
files = {int(n): open(f"{chip}/sim_gpio{n}/value", "rb", buffering=0) for n in sys.argv[4:]}


def pull(how):
    with open(f"{chip}/sim_gpio{button}/pull", "w") as f:
        f.write(how)


pull("pull-down")
pressed = time.monotonic()
time.sleep(0.3)  # a finger on the button a moment
pull("pull-up")
seen = {}
while True:
    now = time.monotonic() - pressed
    for n, f in files.items():
        f.seek(0)
        v = f.read().strip().decode()
        if seen.get(n) != v:
            seen[n] = v
            print(f"{now:.3f} {n} {v}", flush=True)
    if now > seconds:
        break
    time.sleep(0.005)
EOF
    # The control channel: one shell command a line from the host, one answer a line back.
    install -m 0755 /dev/stdin "$root$tool/agent" <<'EOF'
#!/bin/bash
# pi-vm-check only: runs each line "ID COMMAND" the host sends on the virtio port tb.ctl and
# answers "ID STATUS BASE64-OF-THE-OUTPUT". While no host is connected the port reads as ended at
# once: the agent then waits a moment and opens it again (never a restart loop systemd gives up on).
port=/dev/virtio-ports/tb.ctl
while true; do
    while [ ! -e "$port" ]; do sleep 0.5; done
    exec 3<>"$port"
    while IFS=' ' read -r id line <&3; do
        out=$(bash -c "$line" 2>&1 </dev/null 3>&-) && status=0 || status=$?
        printf '%s %s %s\n' "$id" "$status" "$(printf '%s' "$out" | base64 -w0)" >&3
    done
    exec 3<&-
    sleep 1
done
EOF
    install -m 0644 /dev/stdin "$root/etc/systemd/system/pi-vm-check-agent.service" <<'EOF'
# pi-vm-check only: the host's commands through the virtio serial port tb.ctl.
[Unit]
Description=pi-vm-check: the host's control channel
StartLimitIntervalSec=0

[Service]
ExecStart=/usr/local/lib/pi-vm-check/agent
Restart=always
RestartSec=1

[Install]
WantedBy=multi-user.target
EOF
    chroot "$root" systemctl enable pi-vm-check-gpio.service pi-vm-check-agent.service >/dev/null 2>&1
    # Friday's game, as the bank's user, and the banker's pass for the phones' API.
    as_bank companion new "$GAME" --rules classic --player Ann --player Bob >/dev/null
    as_bank companion 'do' "$GAME" '{"action": "buy", "player": "Ann", "deed": "Boardwalk"}' >/dev/null
    as_bank python -c 'import sys
from companion.web.sidecar import open_sidecar
from companion.web.tokens import JoinTokens
print(JoinTokens(open_sidecar(sys.argv[1])).for_banker())' "$GAME" >"$WORK/banker-pass"
    [ -s "$WORK/banker-pass" ] || die "no banker's pass"
    say "Friday's game: Ann and Bob, classic; Ann owns Boardwalk"
}

as_bank() {
    local program=$1
    shift
    chroot --userspec=table-banker:table-banker "$WORK/root" env -i PATH=/usr/bin:/bin HOME=/var/lib/table-banker \
        COMPANION_DATA=/var/lib/table-banker "/opt/table-banker/venv/bin/$program" "$@"
}

# -- 6. the disk image and the device tree ---------------------------------------------------------------
IMAGE=""
DTB=""
make_the_image() {
    local megabytes
    IMAGE=$WORK/root.img
    rm -f "$WORK/root/etc/resolv.conf"
    megabytes=$(du -sm --one-file-system "$WORK/root" | cut -f1)
    megabytes=$((megabytes + 1024))
    "${NICE[@]}" mkfs.ext4 -q -F -L pi-root -d "$WORK/root" "$IMAGE" "${megabytes}M" || die "mkfs.ext4 -d failed"
    cp -L "$WORK/root/vmlinuz" "$WORK/vmlinuz"
    cp -L "$WORK/root/initrd.img" "$WORK/initrd.img"
    say "root.img: ${megabytes} MB, kernel $(readlink "$WORK/root/vmlinuz")"
    DTB=$WORK/pi.dtb
    qemu_machine -machine "virt,dumpdtb=$WORK/virt.dtb" >/dev/null 2>&1 || die "qemu could not write the machine's device tree"
    dtc -q -I dtb -O dts -o "$WORK/virt.dts" "$WORK/virt.dtb"
    python3 "$HERE/pi_vm_drive.py" device-tree "$WORK/virt.dts" "$PI_REVISION" >"$WORK/pi.dts"
    dtc -q -I dts -O dtb -o "$DTB" "$WORK/pi.dts"
    say "device tree: the machine's, with the Pi's board revision ($PI_REVISION) and no other GPIO chip"
}

PORT=8080
HOST_PORT=""
# qemu_machine ARGS...: qemu-system-aarch64 with this check's machine.
qemu_machine() {
    "${NICE[@]}" qemu-system-aarch64 \
        -machine virt -cpu cortex-a72 -smp "$CPUS" -m 2048 \
        -nodefaults -display none -no-reboot \
        -kernel "$WORK/vmlinuz" -initrd "$WORK/initrd.img" \
        -append "root=/dev/vda rw rootwait console=ttyAMA0 systemd.show_status=1" \
        -drive "if=none,id=root,format=raw,file=$WORK/root.img" -device virtio-blk-pci,drive=root \
        -device virtio-gpu-pci,xres=800,yres=480 \
        -device virtio-keyboard-pci -device virtio-multitouch-pci \
        -netdev "user,id=net,restrict=on,hostfwd=tcp:127.0.0.1:${HOST_PORT:-$PORT}-:$PORT" \
        -device virtio-net-pci,netdev=net,romfile= \
        -device virtio-serial-pci \
        -chardev "socket,id=ctl,path=$WORK/ctl.sock,server=on,wait=off" \
        -device virtserialport,chardev=ctl,name=tb.ctl \
        -chardev "file,id=console,path=$WORK/console.log" -serial chardev:console \
        -qmp "unix:$WORK/qmp.sock,server=on,wait=off" \
        "$@"
}

# -- 7. boot and check -----------------------------------------------------------------------------------
boot_and_check() {
    local status=0
    mkdir -p "$ARTIFACTS"
    rm -f "$ARTIFACTS"/*
    HOST_PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    say "qemu-system-aarch64: virt, cortex-a72 x $CPUS, 2 GB; the phones' port $PORT at 127.0.0.1:$HOST_PORT"
    qemu_machine -dtb "$DTB" 2>"$WORK/qemu.log" &
    QEMU=$!
    python3 "$HERE/pi_vm_drive.py" check --work "$WORK" --out "$ARTIFACTS" --port "$HOST_PORT" \
        --pass-file "$WORK/banker-pass" --game "$GAME" --qemu-pid "$QEMU" || status=$?
    cp "$WORK/console.log" "$ARTIFACTS/console.log" 2>/dev/null || true
    if [ "$status" != 0 ]; then
        tail -n 30 "$WORK/console.log" >&2 || true
        cat "$WORK/qemu.log" >&2 || true
        die "the checks in the booted machine (see above; console: $ARTIFACTS/console.log)"
    fi
    wait "$QEMU" || true
    QEMU=""
}

main() {
    [ "$(id -u)" = 0 ] || die "run it as root: it installs tools and uses chroot"
    say "pi-vm-check: Table Banker on a whole arm64 machine under qemu-system-aarch64, from $REPO"
    stage tools need_tools
    stage root find_the_installed_root
    stage kernel kernel_root
    stage gpio-sim build_gpio_sim
    stage install install_this_checkout
    stage table set_the_table
    stage image make_the_image
    stage boot boot_and_check
    print_times
    [ -f "$ARTIFACTS/summary.txt" ] && sed 's/^/  /' "$ARTIFACTS/summary.txt"
    say "pi-vm-check: passed"
}

main "$@"
