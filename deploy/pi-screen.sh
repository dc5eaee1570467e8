# shellcheck shell=bash
# Shared by pi-kiosk.sh and pi-boot.sh: the Pi's 7-inch touchscreen played by a private Xvfb of
# 800x480, and the wait for the bank's first screen on it. The caller runs in a mount namespace of
# its own, defines say and die, and sources this file.

# private_screen_folders: the X sockets' folder private to this mount namespace (what the Pi root is
# shown of it holds only our screen), and SCRATCH, a folder for this run's own files.
SCRATCH=""
private_screen_folders() {
    mount --make-rprivate /
    [ -d /tmp/.X11-unix ] || mkdir -m 1777 /tmp/.X11-unix
    mount -t tmpfs -o mode=1777 tmpfs /tmp/.X11-unix
    SCRATCH=$(mktemp -d /tmp/pi-check-screen.XXXXXX)
}

SCREEN=""
XVFB=""
# forget_the_screen: Xvfb stopped, SCRATCH gone (for the caller's EXIT trap).
forget_the_screen() {
    [ "$BASHPID" = "$$" ] || return 0  # only the script itself, never a subshell it started
    if [ -n "$XVFB" ]; then kill "$XVFB" 2>/dev/null || true; wait "$XVFB" 2>/dev/null || true; fi
    if [ -n "$SCRATCH" ]; then rm -rf "$SCRATCH"; fi
}

# start_screen: Xvfb on the first free display; SCREEN is its name (":0").
start_screen() {
    local number="$SCRATCH/display"
    Xvfb -displayfd 3 -screen 0 800x480x24 -nolisten tcp 3>"$number" 2>"$SCRATCH/xvfb.log" &
    XVFB=$!
    while [ ! -s "$number" ]; do
        kill -0 "$XVFB" 2>/dev/null || { cat "$SCRATCH/xvfb.log" >&2; die "Xvfb did not start"; }
        sleep 0.2
    done
    SCREEN=":$(head -n 1 "$number")"
    say "Xvfb $SCREEN, 800x480"
}

# screen_signature FILE: save the screen in FILE and print its pixels' checksum ("blank" when the
# screen is one colour, "none" when it cannot be read).
screen_signature() {
    import -display "$SCREEN" -window root "$1" 2>/dev/null || { echo none; return; }
    if [ "$(identify -format '%k' "$1")" -le 1 ]; then echo blank; return; fi
    identify -format '%#' "$1"
}

# wait_for_the_first_screen BEGAN LIMIT SHOT ALIVE...: wait until the bank's window is on the screen
# and the screen, no longer blank, is the same at two looks in a row; save it as SHOT and print
# the seconds since BEGAN. Fails when the command ALIVE fails (the app or the machine is gone) or
# after LIMIT seconds.
wait_for_the_first_screen() {
    local began=$1 limit=$2 shot=$3 previous=none now elapsed
    shift 3
    while :; do
        elapsed=$(($(date +%s) - began))
        "$@" || return 1
        [ "$elapsed" -lt "$limit" ] || { say "no first screen in $limit s" >&2; return 1; }
        if xwininfo -display "$SCREEN" -root -children 2>/dev/null | grep '"Table Banker"' >/dev/null; then
            now=$(screen_signature "$SCRATCH/look.png")
            if [ "$now" != blank ] && [ "$now" != none ] && [ "$now" = "$previous" ]; then
                cp "$SCRATCH/look.png" "$shot"
                printf '%s\n' "$elapsed"
                return 0
            fi
            previous=$now
        fi
        sleep 1  # the next look at the screen
    done
}
