#!/usr/bin/env bash
# Table Banker on a Raspberry Pi: one command turns a fresh Raspberry Pi OS Bookworm into the bank.
#
#   sudo deploy/install.sh                install, or upgrade in place (run it again at any time)
#   sudo deploy/install.sh --dry-run      print every change it would make, and make none
#   sudo deploy/install.sh --uninstall    remove everything but the games
#
# Options:
#   --edition auto|lite|desktop  lite: the kiosk on the console (Raspberry Pi OS Lite); desktop: full
#                                screen in the desktop's automatic login; auto (the default): desktop
#                                when a display manager is enabled, else lite
#   --desktop-user NAME          who the desktop edition runs as (default: the desktop's autologin
#                                user, else the user who ran sudo)
#   --volatile-logs              keep the journal in memory only: no log writes to the SD card
#   --persistent-logs            keep the journal on the SD card, capped at 64 MB (the default)
#   --gpio auto|yes|no           install lgpio for the buttons (auto: on ARM boards)
#   --start                      start the bank now rather than at the next boot
#   --source DIR                 the checkout to install from (default: the one holding this script)
#   --root DIR                   install into another file system tree (an SD card image being
#                                built; programs of that tree are run with chroot)
#   --python PATH                the Python that makes the environment (default: python3)
#   --no-packages                do not install Debian packages
# Choices are kept in /etc/table-banker/install.conf, so a re-run or update.sh keeps them.
#
# What goes where: the code in /opt/table-banker/app, its Python environment in
# /opt/table-banker/venv, settings in /etc/table-banker and /etc/default/table-banker, the games in
# /var/lib/table-banker (never touched by this script), the service user table-banker.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

NAME=table-banker
PREFIX=/opt/table-banker
APP=$PREFIX/app
VENV=$PREFIX/venv
ETC=/etc/table-banker
DATA=/var/lib/table-banker
STICKS=/media/table-banker
CONF=$ETC/install.conf
UNIT=/etc/systemd/system/table-banker.service
USER_UNIT=/etc/systemd/user/table-banker-desktop.service
AUTOSTART=/etc/xdg/autostart/table-banker.desktop
UDEV_RULE=/etc/udev/rules.d/90-table-banker-usb.rules
JOURNALD=/etc/systemd/journald.conf.d/table-banker.conf
DEFAULTS=/etc/default/table-banker
PAM=/etc/pam.d/table-banker
WANTS=/etc/systemd/system/multi-user.target.wants/table-banker.service
DEVICE_GROUPS=(video render input gpio audio)
PACKAGES=(python3 python3-venv libgl1 libegl1 libgles2 libgbm1 libgl1-mesa-dri libmtdev1 libasound2)

ROOT=""
DRY_RUN=0
UNINSTALL=0
START=0
PACKAGES_WANTED=1
PYTHON=python3
EDITION=""
DESKTOP_USER=""
LOGS=""
GPIO=""
SOURCE=""
RECORD_SOURCE=""

usage() { sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }

parse_args() {
    while [ $# -gt 0 ]; do
        case $1 in
            --dry-run) DRY_RUN=1 ;;
            --uninstall) UNINSTALL=1 ;;
            --start) START=1 ;;
            --no-packages) PACKAGES_WANTED=0 ;;
            --volatile-logs) LOGS=volatile ;;
            --persistent-logs) LOGS=persistent ;;
            --edition) EDITION=${2:?--edition needs auto, lite or desktop}; shift ;;
            --desktop-user) DESKTOP_USER=${2:?--desktop-user needs a name}; shift ;;
            --gpio) GPIO=${2:?--gpio needs auto, yes or no}; shift ;;
            --source) SOURCE=${2:?--source needs a folder}; shift ;;
            --record-source) RECORD_SOURCE=${2:?--record-source needs a folder}; shift ;;
            --root) ROOT=${2:?--root needs a folder}; shift ;;
            --python) PYTHON=${2:?--python needs a program}; shift ;;
            -h | --help) usage; exit 0 ;;
            *) die "unknown option $1 (see --help)" ;;
        esac
        shift
    done
    if [ -n "$ROOT" ]; then
        ROOT=$(cd "$ROOT" && pwd) || die "--root: no folder $ROOT"
        [ "$ROOT" = / ] && ROOT=""
    fi
    case ${EDITION:-auto} in auto | lite | desktop) ;; *) die "--edition is auto, lite or desktop" ;; esac
    case ${GPIO:-auto} in auto | yes | no) ;; *) die "--gpio is auto, yes or no" ;; esac
    if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
        die "run it as root: sudo $0 $*"
    fi
    true
}

# -- choices ---------------------------------------------------------------------------------------------
load_choices() {
    local conf
    conf=$(at "$CONF")
    # The code comes from --source, else from the checkout holding this script; the installed copy's
    # own script (/opt/table-banker/app/deploy) installs from the checkout remembered in install.conf.
    local here
    here=$(cd "$HERE/.." && pwd)
    if [ -z "$SOURCE" ]; then
        SOURCE=$here
        if [ "$here" = "$(at "$APP")" ]; then SOURCE=$(conf_get "$conf" SOURCE); fi
        if [ -z "$SOURCE" ] || [ ! -d "$SOURCE" ]; then SOURCE=$here; fi
    fi
    SOURCE=$(cd "$SOURCE" && pwd)
    if [ ! -f "$SOURCE/pyproject.toml" ] || [ ! -d "$SOURCE/companion" ]; then
        die "$SOURCE is not a Table Banker checkout"
    fi
    RECORD_SOURCE=${RECORD_SOURCE:-$SOURCE}
    EDITION=${EDITION:-$(conf_get "$conf" EDITION)}
    DESKTOP_USER=${DESKTOP_USER:-$(conf_get "$conf" DESKTOP_USER)}
    LOGS=${LOGS:-$(conf_get "$conf" LOGS)}
    LOGS=${LOGS:-persistent}
    GPIO=${GPIO:-$(conf_get "$conf" GPIO)}
    GPIO=${GPIO:-auto}
    if [ -z "$EDITION" ] || [ "$EDITION" = auto ]; then
        if [ -L "$(at /etc/systemd/system/display-manager.service)" ] || [ -e "$(at /etc/systemd/system/display-manager.service)" ]; then
            EDITION=desktop
        else
            EDITION=lite
        fi
    fi
    if [ "$EDITION" = desktop ] && [ -z "$DESKTOP_USER" ]; then
        DESKTOP_USER=$(sed -n 's/^[[:space:]]*autologin-user=//p' "$(at /etc/lightdm/lightdm.conf)" 2>/dev/null | tail -n 1)
        if [ -z "$DESKTOP_USER" ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then DESKTOP_USER=$SUDO_USER; fi
        [ -n "$DESKTOP_USER" ] || die "the desktop edition needs --desktop-user NAME (the user the desktop logs in)"
    fi
    if [ "$EDITION" = desktop ]; then
        user_exists "$DESKTOP_USER" || die "there is no user $DESKTOP_USER for the desktop edition"
    fi
    if [ "$GPIO" = auto ]; then
        case $(in_target dpkg --print-architecture 2>/dev/null || uname -m) in
            arm64 | armhf | aarch64 | armv7l) GPIO=yes ;;
            *) GPIO=no ;;
        esac
    fi
}

check_system() {
    local codename
    codename=$(sed -n 's/^VERSION_CODENAME=//p' "$(at /etc/os-release)" 2>/dev/null || true)
    if [ "$codename" != bookworm ]; then
        warn "made for Raspberry Pi OS Bookworm; this is ${codename:-an unknown system}: carrying on"
    fi
    if [ -z "$ROOT" ] && ! grep -qs "Raspberry Pi" /proc/device-tree/model; then
        warn "this is not a Raspberry Pi: the buttons and the kiosk display may not work"
    fi
}

# -- the steps ---------------------------------------------------------------------------------------------
install_packages() {
    local missing=() p
    [ "$PACKAGES_WANTED" = 1 ] || return 0
    for p in "${PACKAGES[@]}"; do
        # shellcheck disable=SC2016 # dpkg-query's own ${field} syntax
        if [ "$(in_target dpkg-query -W -f='${db:Status-Abbrev}' "$p" 2>/dev/null || true)" != "ii " ]; then
            missing+=("$p")
        fi
    done
    [ ${#missing[@]} -gt 0 ] || return 0
    change "run: apt-get update" in_target apt-get update -q
    change "install the Debian packages ${missing[*]}" \
        in_target env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
}

account_opts() { [ -z "$ROOT" ] || printf '%s\n' --prefix "$ROOT"; }

make_user() {
    local opts=() g
    mapfile -t opts < <(account_opts)
    group_exists "$NAME" || change "add the group $NAME" groupadd "${opts[@]}" --system "$NAME"
    user_exists "$NAME" || change "add the user $NAME" useradd "${opts[@]}" --system --gid "$NAME" \
        --home-dir "$DATA" --no-create-home --shell /usr/sbin/nologin --comment "Table Banker" "$NAME"
    for g in "${DEVICE_GROUPS[@]}"; do
        if ! group_exists "$g"; then
            [ "$g" = gpio ] && warn "no gpio group (not Raspberry Pi OS?): the buttons may need root"
            continue
        fi
        in_group "$NAME" "$g" || change "add $NAME to the group $g" usermod "${opts[@]}" -a -G "$g" "$NAME"
    done
    if [ "$EDITION" = desktop ]; then
        in_group "$DESKTOP_USER" "$NAME" || \
            change "add $DESKTOP_USER to the group $NAME (the games are shared)" usermod "${opts[@]}" -a -G "$NAME" "$DESKTOP_USER"
    fi
}

make_folders() {
    local ids
    put_dir "$PREFIX" 0755 root
    put_dir "$ETC" 0755 root
    put_dir "$STICKS" 0755 root
    put_dir "$DATA" 2770 "$NAME"
    ids=$(owner_ids "$NAME")
    if [ -d "$(at "$DATA")" ] && [ "$ids" != ":" ] && \
        [ -n "$(find "$(at "$DATA")" -mindepth 1 \( ! -uid "${ids%:*}" -o ! -gid "${ids#*:}" \) -print -quit)" ]; then
        change "give the games in $DATA to $NAME" chown -R "$ids" "$(at "$DATA")"
    fi
}

install_code() {
    local stage
    if [ "$DRY_RUN" = 1 ]; then stage=$(mktemp -d); else stage=$(at "$PREFIX/.staging"); rm -rf "$stage"; fi
    copy_tree "$SOURCE" "$stage"
    chmod -R u+rwX,go+rX,go-w "$stage"
    if same_tree "$stage" "$(at "$APP")"; then
        rm -rf "$stage"
        return 0
    fi
    owe restart
    change "install the code from $SOURCE into $APP (the code it replaces is kept in $APP.previous)" \
        swap_in "$stage"
    [ "$DRY_RUN" = 0 ] || rm -rf "$stage"
}
swap_in() {
    local app
    app=$(at "$APP")
    rm -rf "$app.previous"
    if [ -d "$app" ]; then mv "$app" "$app.previous"; fi
    mv "$1" "$app"
}

make_environment() {
    local want have stamp
    if [ ! -x "$(at "$VENV/bin/python")" ]; then
        in_target "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))' ||
            die "$PYTHON is older than Python 3.11: use Raspberry Pi OS Bookworm, or --python"
        change "create the Python environment $VENV" in_target "$PYTHON" -m venv "$VENV"
    fi
    stamp=$(at "$VENV/.table-banker")
    want="pyproject=$(sha256sum <"$SOURCE/pyproject.toml" | cut -c1-16) gpio=$GPIO"
    have=$(cat "$stamp" 2>/dev/null || true)
    if [ "$want" != "$have" ]; then
        owe restart
        change "install the app and its Python libraries into $VENV (from the Python package index)" \
            pip_install "$want" "$stamp"
    fi
    if owed restart; then  # new code or libraries (now, or in a run that did not finish)
        change "compile the code for a faster start" \
            in_target "$VENV/bin/python" -m compileall -q "$APP/companion"
    fi
}
pip_install() {
    local extra=()
    [ "$GPIO" = yes ] && extra=(lgpio)
    in_target "$VENV/bin/python" -m pip install --disable-pip-version-check --no-input -q -e "$APP" "${extra[@]}"
    printf '%s\n' "$1" >"$2"
}

write_kivy_configs() {
    local edition tmp
    for edition in kms desktop; do
        put_dir "$ETC/kivy-$edition" 0755 root
        put_dir "$ETC/kivy-$edition/mods" 0755 root
        put_dir "$ETC/kivy-$edition/icon" 0755 root
        if [ ! -x "$(at "$VENV/bin/python")" ] || [ ! -f "$(at "$APP/deploy/kivy_config.py")" ]; then
            change "write $ETC/kivy-$edition/config.ini (Kivy's defaults and deploy/kivy/$edition.ini)" true
            continue
        fi
        tmp=$(mktemp)
        in_target "$VENV/bin/python" "$APP/deploy/kivy_config.py" "$edition" >"$tmp" ||
            die "could not write Kivy's settings (is Kivy installed in $VENV?)"
        put_file "$tmp" "$ETC/kivy-$edition/config.ini" 0644 root
        rm -f "$tmp"
    done
}

# The files the running system reads, in three groups by what it must be told when they change.
install_units() {
    if would_change put_unit_files; then owe daemon-reload; owe restart; fi
    put_unit_files
    if would_change put_device_rules; then owe udev-reload; fi
    put_device_rules
    if would_change put_journal_settings; then owe journald-restart; fi
    put_journal_settings
}

put_unit_files() {
    put_file "$SOURCE/deploy/systemd/table-banker.service" "$UNIT" 0644 root
    put_file "$SOURCE/deploy/systemd/table-banker-desktop.service" "$USER_UNIT" 0644 root
    put_file "$SOURCE/deploy/pam/table-banker" "$PAM" 0644 root
    put_new_file "$SOURCE/deploy/default/table-banker" "$DEFAULTS" 0644
}

put_device_rules() {
    local tmp uid gid
    if [ "$EDITION" = lite ]; then
        uid=$(uid_of "$NAME")
        gid=$(gid_of "$NAME")
        tmp=$(mktemp)
        sed -e "s/uid=@UID@/uid=${uid:-0}/" -e "s/gid=@GID@/gid=${gid:-0}/" \
            "$SOURCE/deploy/udev/90-table-banker-usb.rules" >"$tmp"
        put_file "$tmp" "$UDEV_RULE" 0644 root
        rm -f "$tmp"
        drop "$AUTOSTART"
    else
        drop "$UDEV_RULE"
        put_file "$SOURCE/deploy/xdg/table-banker.desktop" "$AUTOSTART" 0644 root
    fi
}

put_journal_settings() {
    put_file "$SOURCE/deploy/journald/$LOGS.conf" "$JOURNALD" 0644 root
}

systemctl_here() {
    if [ -n "$ROOT" ]; then systemctl --root="$ROOT" "$@"; else systemctl "$@"; fi
}

choose_edition() {
    if [ "$EDITION" = lite ] && [ ! -L "$(at "$WANTS")" ]; then
        change "start the kiosk at boot (enable table-banker.service)" systemctl_here enable table-banker.service
    elif [ "$EDITION" = desktop ] && [ -L "$(at "$WANTS")" ]; then
        change "stop starting the kiosk at boot (disable table-banker.service): the desktop edition is chosen" \
            systemctl_here disable table-banker.service
    fi
}

record_choices() {
    local tmp
    tmp=$(mktemp)
    {
        echo "# Written by deploy/install.sh: the choices a re-run and update.sh keep."
        echo "EDITION=$EDITION"
        echo "DESKTOP_USER=$DESKTOP_USER"
        echo "LOGS=$LOGS"
        echo "GPIO=$GPIO"
        echo "SOURCE=$RECORD_SOURCE"
    } >"$tmp"
    put_file "$tmp" "$CONF" 0644 root
    rm -f "$tmp"
}

# What is owed to the running system, by this run or by an earlier one that did not finish.
tell_the_system() {
    [ -z "$ROOT" ] || return 0
    if owed daemon-reload; then on_host systemctl daemon-reload; paid daemon-reload; fi
    if owed udev-reload; then on_host udevadm control --reload; paid udev-reload; fi
    if owed journald-restart; then on_host systemctl restart systemd-journald; paid journald-restart; fi
    if owed restart; then
        # try-restart: a running bank comes back with the new code; one that is not running stays so.
        if [ "$EDITION" = lite ]; then
            on_host --tolerant systemctl try-restart table-banker.service
        elif [ -d "/run/user/$(uid_of "$DESKTOP_USER")" ]; then
            on_host --tolerant systemctl --user -M "$DESKTOP_USER@" try-restart table-banker-desktop.service
        fi
        paid restart
    fi
    if [ "$START" = 1 ] && [ "$EDITION" = lite ]; then
        on_host systemctl start table-banker.service
    fi
}

install_all() {
    load_choices
    check_system
    say "Table Banker: installing the $EDITION edition from $SOURCE${ROOT:+ into $ROOT}"
    [ "$DRY_RUN" = 0 ] || say "(dry run: printing every change, making none)"
    install_packages
    make_user
    make_folders
    install_code
    make_environment
    write_kivy_configs
    install_units
    choose_edition
    record_choices
    tell_the_system
    if [ "$CHANGES" = 0 ]; then
        say "Table Banker is installed and up to date: nothing to change."
    elif [ "$DRY_RUN" = 1 ]; then
        say "$CHANGES changes would be made; nothing was changed."
    else
        say "Done: $CHANGES changes."
        if [ -z "$ROOT" ] && [ "$START" = 0 ] && [ "$EDITION" = lite ] && \
            [ "$(systemctl is-active table-banker.service 2>/dev/null || true)" != active ]; then
            say "Restart the Pi (sudo reboot): the bank will be on the screen."
        elif [ "$EDITION" = desktop ]; then
            say "Log $DESKTOP_USER in to the desktop (or restart the Pi): the bank opens full screen."
        fi
    fi
}

# -- taking it away ----------------------------------------------------------------------------------------
uninstall_all() {
    local opts=() before games
    mapfile -t opts < <(account_opts)
    say "Table Banker: removing everything but the games${ROOT:+ from $ROOT}"
    if [ -L "$(at "$WANTS")" ]; then
        change "stop starting the kiosk at boot (disable table-banker.service)" systemctl_here disable table-banker.service
    fi
    if [ -z "$ROOT" ] && [ "$(systemctl is-active table-banker.service 2>/dev/null || true)" = active ]; then
        on_host systemctl stop table-banker.service
    fi
    before=$CHANGES
    for path in "$UNIT" "$USER_UNIT" "$AUTOSTART" "$PAM" "$UDEV_RULE" "$JOURNALD" "$DEFAULTS" "$ETC" "$PREFIX"; do
        drop "$path"
    done
    if [ -d "$(at "$STICKS")" ] && [ -z "$(ls -A "$(at "$STICKS")")" ]; then
        change "remove $STICKS" rmdir "$(at "$STICKS")"
    fi
    if [ "$CHANGES" != "$before" ] && [ -z "$ROOT" ]; then
        on_host systemctl daemon-reload
        on_host udevadm control --reload
        on_host systemctl restart systemd-journald
    fi
    if user_exists "$NAME"; then change "remove the user $NAME" userdel "${opts[@]}" "$NAME"; fi
    if group_exists "$NAME"; then change "remove the group $NAME" groupdel "${opts[@]}" "$NAME"; fi
    games=$( (find "$(at "$DATA")" -maxdepth 1 -name '*.game' 2>/dev/null || true) | wc -l)
    if [ "$CHANGES" = 0 ]; then
        say "Table Banker is not installed: nothing to remove."
    elif [ "$DRY_RUN" = 1 ]; then
        say "$CHANGES changes would be made; nothing was changed."
    else
        say "Done: $CHANGES changes."
    fi
    say "The games stay in $DATA ($games game files); delete that folder to remove them too."
}

parse_args "$@"
if [ "$UNINSTALL" = 1 ]; then uninstall_all; else install_all; fi
if [ "$WARNINGS" -gt 0 ]; then say "($WARNINGS warnings above)"; fi
