#!/usr/bin/env bash
# Update an installed TableHost from a folder or git checkout of a newer version, keeping data and settings.
#   sudo tablehost-update /path/to/new/tablehost
set -euo pipefail
SRC="${1:?usage: tablehost-update /path/to/new/checkout}"
APP=/opt/tablehost
[ -f "$SRC/pyproject.toml" ] || { echo "$SRC is not a TableHost checkout" >&2; exit 1; }
if [ -d "$SRC/.git" ]; then
  git -C "$SRC" pull --ff-only || echo "git pull failed; installing the checkout as it is" >&2
fi
rsync -a --delete --exclude .git --exclude .venv --exclude test-artifacts --exclude '__pycache__' "$SRC/" "$APP/"
"$APP/.venv/bin/pip" install -q "${APP}[kiosk,voice-model]"
"$APP/.venv/bin/tablehost" content check || echo "content has problems (shown above); the kiosk still starts" >&2
systemctl restart tablehost.service
echo "updated; the table's unfinished game resumes from its journal"
