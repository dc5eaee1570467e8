# shellcheck shell=bash
# Shared by install.sh and update.sh: every change to the machine goes through these functions, so that
# --dry-run prints each one instead of making it, --root DIR makes it inside another file system tree,
# and a second run that finds everything in place changes nothing and says so.
#
# The caller sets ROOT ("" for this machine), DRY_RUN (0/1) and sources this file.

CHANGES=0
WARNINGS=0

say() { printf '%s\n' "$*"; }
warn() { WARNINGS=$((WARNINGS + 1)); printf 'warning: %s\n' "$*" >&2; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

# The path of a file of the target system: /etc/x becomes $ROOT/etc/x.
at() { printf '%s%s' "$ROOT" "$1"; }

# change DESCRIPTION COMMAND...: make one change (or, with --dry-run, say it would be made).
change() {
    local what=$1
    shift
    CHANGES=$((CHANGES + 1))
    if [ "$DRY_RUN" = 1 ]; then
        say "would $what"
    else
        say "$what"
        "$@"
    fi
}

# in_target COMMAND...: run a program of the target system (apt-get, its python) there.
in_target() {
    if [ -n "$ROOT" ]; then
        chroot "$ROOT" "$@"
    else
        "$@"
    fi
}

# on_host [--tolerant] COMMAND...: run a command that acts on the running system (daemon-reload,
# restarts). Only when the target is this machine: inside --root there is no running system to tell.
# With --tolerant a failure is reported and the script carries on.
on_host() {
    local tolerant=0
    if [ "$1" = --tolerant ]; then tolerant=1; shift; fi
    [ -z "$ROOT" ] || return 0
    if [ "$tolerant" = 1 ]; then
        change "run: $*" tolerate "$@"
    else
        change "run: $*" "$@"
    fi
}
tolerate() { "$@" || warn "'$*' did not succeed; carrying on"; }

# What the running system still has to be told (a daemon-reload after a unit changed, a udev reload
# after a rule changed...) is a debt of the machine, not of one run: it is written down in OWED_DIR
# before the change is made and crossed out once paid, so a run that dies in between leaves it to
# the next run. OWED_DIR is on /run: a reboot, which loads everything afresh, empties it. Inside
# --root, or with --dry-run, nothing is written down (there is no running system to tell).
OWED_DIR=/run/table-banker-install
OWED=" "
owe() {
    case $OWED in *" $1 "*) ;; *) OWED="$OWED$1 " ;; esac
    if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ]; then mkdir -p "$OWED_DIR" && : >"$OWED_DIR/$1"; fi
}
owed() {
    case $OWED in *" $1 "*) return 0 ;; esac
    [ -z "$ROOT" ] && [ -e "$OWED_DIR/$1" ]
}
paid() {
    if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ]; then rm -f "$OWED_DIR/$1"; fi
}

# would_change STEP...: STEP (put_file, drop... or a function of them) would change something now.
would_change() {
    (
        local before=$CHANGES
        DRY_RUN=1
        "$@" >/dev/null
        [ "$CHANGES" != "$before" ]
    )
}

# uid_of NAME / gid_of NAME: numeric ids from the target's own passwd and group files.
uid_of() { awk -F: -v n="$1" '$1 == n { print $3; exit }' "$(at /etc/passwd)" 2>/dev/null; }
gid_of() { awk -F: -v n="$1" '$1 == n { print $3; exit }' "$(at /etc/group)" 2>/dev/null; }
user_exists() { [ -n "$(uid_of "$1")" ]; }
group_exists() { [ -n "$(gid_of "$1")" ]; }
# in_group USER GROUP: USER is a supplementary member of GROUP (or has it as primary group).
in_group() {
    local primary
    primary=$(awk -F: -v n="$1" '$1 == n { print $4; exit }' "$(at /etc/passwd)" 2>/dev/null)
    [ -n "$primary" ] && [ "$primary" = "$(gid_of "$2")" ] && return 0
    awk -F: -v g="$2" -v u="$1" '$1 == g { n = split($4, m, ","); for (i = 1; i <= n; i++) if (m[i] == u) found = 1 }
        END { exit !found }' "$(at /etc/group)" 2>/dev/null
}

# owner_ids OWNER: "root" or a user name -> "uid:gid" (the user's own group) from the target.
owner_ids() {
    if [ "$1" = root ]; then
        printf '0:0'
    else
        printf '%s:%s' "$(uid_of "$1")" "$(gid_of "$1")"
    fi
}

# octal MODE: a mode as stat prints it (0755 -> 755).
octal() { printf '%o' "$((8#$1))"; }

# put_dir PATH MODE OWNER: the folder exists with this mode and owner.
put_dir() {
    local path mode ids
    path=$(at "$1")
    mode=$2
    ids=$(owner_ids "$3")
    if [ ! -d "$path" ]; then
        change "create $1" install -d -m "$mode" -o "${ids%:*}" -g "${ids#*:}" "$path"
        return
    fi
    if [ "$(stat -c %a "$path")" != "$(octal "$mode")" ]; then
        change "set the mode of $1 to $mode" chmod "$mode" "$path"
    fi
    if [ "$(stat -c %u:%g "$path")" != "$ids" ]; then
        change "give $1 to $3" chown "$ids" "$path"
    fi
}

# put_file SOURCE PATH MODE OWNER: the file at PATH has SOURCE's content, this mode and owner.
put_file() {
    local source=$1 path mode=$3 ids
    path=$(at "$2")
    ids=$(owner_ids "$4")
    if [ ! -f "$path" ] || ! cmp -s "$source" "$path"; then
        change "write $2" install -D -m "$mode" -o "${ids%:*}" -g "${ids#*:}" "$source" "$path"
        return
    fi
    if [ "$(stat -c %a "$path")" != "$(octal "$mode")" ]; then
        change "set the mode of $2 to $mode" chmod "$mode" "$path"
    fi
    if [ "$(stat -c %u:%g "$path")" != "$ids" ]; then
        change "give $2 to $4" chown "$ids" "$path"
    fi
}

# put_new_file SOURCE PATH MODE: like put_file, but a file that exists is the owner's: never overwritten.
put_new_file() {
    if [ ! -e "$(at "$2")" ]; then
        put_file "$1" "$2" "$3" root
    fi
}

# drop PATH: the file or folder is gone.
drop() {
    local path
    path=$(at "$1")
    if [ -e "$path" ] || [ -L "$path" ]; then
        change "remove $1" rm -rf -- "$path"
    fi
}

# same_tree A B: the two folders hold the same files with the same content, modes and links
# (build and cache leftovers aside).
same_tree() {
    [ -d "$1" ] && [ -d "$2" ] || return 1
    diff -r -q --no-dereference \
        --exclude=__pycache__ --exclude='*.egg-info' --exclude=build \
        "$1" "$2" >/dev/null 2>&1 || return 1
    [ "$(tree_modes "$1")" = "$(tree_modes "$2")" ]
}
tree_modes() {
    (cd "$1" && find . \( -name __pycache__ -o -name '*.egg-info' -o -name build \) -prune -o -printf '%p %m\n' | LC_ALL=C sort)
}

# copy_tree SOURCE DEST: a copy of a checkout for the Pi: the app, its layouts, pin map, docs and these
# scripts; no version control, environments, caches, games, tests or benchmarks.
# From a git checkout only the files git tracks go (never a benchmark's or an editor's leftovers, which
# may change while they are read); from a folder without git, everything but the list below.
COPY_EXCLUDES=(--exclude=./.git --exclude=./.venv --exclude=./venv --exclude=__pycache__ --exclude='*.pyc'
    --exclude='*.egg-info' --exclude=./build --exclude=./.pytest_cache --exclude=./.hypothesis
    --exclude=./artifacts --exclude='*.game' --exclude='*.game-wal' --exclude='*.game-shm'
    --exclude='*.game.backups' --exclude=./.ci --exclude=./tests --exclude=./benchmarks)
copy_tree() {
    mkdir -p "$2"
    if [ -e "$1/.git" ] && command -v git >/dev/null 2>&1 && git -C "$1" rev-parse --git-dir >/dev/null 2>&1; then
        git -C "$1" ls-files -z --cached | tracked_present "$1" |
            tar -C "$1" -cf - "${COPY_EXCLUDES[@]}" --null --no-recursion --verbatim-files-from -T - |
            tar -C "$2" -xf - --no-same-owner
    else
        tar -C "$1" -cf - "${COPY_EXCLUDES[@]}" . | tar -C "$2" -xf - --no-same-owner
    fi
}

# tracked_present DIR: of the NUL-separated paths on stdin, those that exist in DIR, as ./path
tracked_present() {
    local path
    while IFS= read -r -d '' path; do
        if [ -f "$1/$path" ] || [ -L "$1/$path" ]; then printf './%s\0' "$path"; fi
    done
}

# conf_get FILE KEY: a KEY=value line of a simple settings file (no shell evaluation).
conf_get() {
    [ -f "$1" ] || return 0
    sed -n "s/^$2=//p" "$1" | tail -n 1
}
