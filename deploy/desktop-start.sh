#!/bin/sh
# Table Banker, desktop edition: started at login by /etc/xdg/autostart/table-banker.desktop.
# Hands this session's display to the user's service manager and starts the bank as a user service,
# which restarts it after a crash (table-banker-desktop.service). Does nothing for a user who is not
# in the table-banker group, so other accounts on the Pi get their plain desktop.
set -eu

if ! id -Gn | tr ' ' '\n' | grep -qx table-banker; then
    echo "table-banker: $(id -un) is not in the table-banker group; the bank starts for the desktop user only"
    exit 0
fi

names=""
for name in DISPLAY WAYLAND_DISPLAY XAUTHORITY XDG_SESSION_TYPE XDG_CURRENT_DESKTOP; do
    if eval "[ -n \"\${$name:-}\" ]"; then
        names="$names $name"
    fi
done
if [ -n "$names" ]; then
    # shellcheck disable=SC2086 # one word per variable name
    systemctl --user import-environment $names
fi
exec systemctl --user start table-banker-desktop.service
