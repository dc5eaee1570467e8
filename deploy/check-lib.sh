# Table Banker: what the two arm64 checks share (deploy/pi-check.sh and deploy/pi-vm-check.sh):
# their messages, their stages and the stages' times, and a root's mounts for a chroot. Sourced by
# them; the caller sets CHECK (its name, for the messages) first. Kept apart from deploy/lib.sh,
# the installer's own library, whose hash keys the installed roots the checks cache.
# shellcheck shell=bash

STARTED=$(date +%s)
TIMES=()
CURRENT=""

say() { printf '%s\n' "$*"; }
die() { printf '%s: FAILED: %s\n' "$CHECK" "$*" >&2; exit 1; }

# stage NAME FUNCTION [ARGS...]: run one stage and print how long it took.
stage() {
    local name=$1 began took
    shift
    say "== $name"
    CURRENT=$name
    began=$(date +%s)
    "$@"
    took=$(($(date +%s) - began))
    say "== $name: ${took} s"
    TIMES+=("$(printf '%-10s %4d s' "$name" "$took")")
}

# tell_where_it_failed STATUS: from the caller's EXIT trap, which stage failed (nothing when STATUS is 0).
tell_where_it_failed() {
    [ "$1" = 0 ] || printf '%s: FAILED in the stage "%s" (exit %s)\n' "$CHECK" "$CURRENT" "$1" >&2
}

# in_root_mounts ROOT COMMAND...: run COMMAND in a private mount namespace where ROOT has /proc,
# /dev and /sys, as a chroot needs them for apt and pip; nothing leaks to this machine's mounts.
in_root_mounts() {
    # shellcheck disable=SC2016 # expanded by the inner bash
    unshare --mount --fork -- bash -c '
        set -e
        root=$1; shift
        mount --make-rprivate /
        mount -t proc proc "$root/proc"
        mount --rbind /dev "$root/dev"
        mount --rbind /sys "$root/sys"
        exec "$@"' in-root "$@"
}

# print_times: each stage's time, and the whole run's.
print_times() {
    say "== times"
    printf '  %s\n' "${TIMES[@]}"
    say "  total      $(printf '%4d' $(($(date +%s) - STARTED))) s"
}
