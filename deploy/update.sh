#!/usr/bin/env bash
# Table Banker: bring the installed bank up to date and restart it. The games (/var/lib/table-banker)
# and the family's settings (/etc/default/table-banker, the touchscreen's own settings) are not touched.
#
#   sudo deploy/update.sh                the checkout the bank was installed from, as it is now
#   sudo deploy/update.sh --pull         git pull that checkout first (as the user who owns it)
#   sudo deploy/update.sh --ref REF      a tag, branch or commit of that checkout (git archive)
#   sudo deploy/update.sh --from DIR     another checkout
#   sudo deploy/update.sh --rollback     back to the code the last update replaced
#   --dry-run, --root DIR                as for install.sh: print the changes / work on another tree
#
# The new code's own install.sh does the work, with the choices kept in /etc/table-banker/install.conf;
# a bank that is running is restarted with the new code.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"

ROOT=""
DRY_RUN=0
PULL=0
REF=""
FROM=""
ROLLBACK=0
PASS=()

while [ $# -gt 0 ]; do
    case $1 in
        --pull) PULL=1 ;;
        --ref) REF=${2:?--ref needs a tag, branch or commit}; shift ;;
        --from) FROM=${2:?--from needs a folder}; shift ;;
        --rollback) ROLLBACK=1 ;;
        --dry-run) DRY_RUN=1; PASS+=(--dry-run) ;;
        --root) ROOT=${2:?--root needs a folder}; PASS+=(--root "$2"); shift ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; exit 0 ;;
        *) die "unknown option $1 (see --help)" ;;
    esac
    shift
done
if [ -n "$ROOT" ]; then ROOT=$(cd "$ROOT" && pwd); [ "$ROOT" != / ] || ROOT=""; fi
if [ -z "$ROOT" ] && [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then die "run it as root: sudo $0"; fi

CONF=$(at /etc/table-banker/install.conf)
[ -f "$CONF" ] || die "the Table Banker is not installed here (no $CONF): run deploy/install.sh first"
CHECKOUT=${FROM:-$(conf_get "$CONF" SOURCE)}
WORK=""
trap '[ -z "$WORK" ] || rm -rf "$WORK"' EXIT

git_in() { git -c safe.directory="$CHECKOUT" -C "$CHECKOUT" "$@"; }

if [ "$ROLLBACK" = 1 ]; then
    PREVIOUS=$(at /opt/table-banker/app.previous)
    [ -d "$PREVIOUS" ] || die "there is no earlier code to go back to ($PREVIOUS)"
    WORK=$(mktemp -d)
    copy_tree "$PREVIOUS" "$WORK"
    SOURCE=$WORK
    RECORD=$(conf_get "$CONF" SOURCE)
    say "Table Banker: going back to the code in $PREVIOUS"
else
    [ -d "$CHECKOUT" ] || die "the checkout $CHECKOUT is gone: give another with --from DIR"
    if [ "$PULL" = 1 ]; then
        change "pull the newest code into $CHECKOUT" \
            runuser -u "$(stat -c %U "$CHECKOUT")" -- git -C "$CHECKOUT" pull --ff-only
    fi
    SOURCE=$CHECKOUT
    if [ -n "$REF" ]; then
        WORK=$(mktemp -d)
        git_in rev-parse --verify --quiet "$REF^{commit}" >/dev/null || die "$CHECKOUT has no tag, branch or commit $REF"
        git_in archive --format=tar "$REF" | tar -x -C "$WORK"
        SOURCE=$WORK
        say "Table Banker: updating to $REF of $CHECKOUT"
    fi
    RECORD=$CHECKOUT
fi

[ -x "$SOURCE/deploy/install.sh" ] || [ -f "$SOURCE/deploy/install.sh" ] ||
    die "$SOURCE has no deploy/install.sh: not a Table Banker checkout"
bash "$SOURCE/deploy/install.sh" --source "$SOURCE" --record-source "$RECORD" "${PASS[@]}"
