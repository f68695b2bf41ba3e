#!/usr/bin/env bash
# Install TableHost as a kiosk on Debian 12 / Raspberry Pi OS (bookworm).
#   sudo deploy/install.sh                 install from this checkout into /opt/tablehost and start it
#   deploy/install.sh --root DIR --dry-run write every file under DIR, print the commands it would run
# Creates the service user, installs the Debian packages, copies the app, builds its virtualenv, installs the
# systemd unit (restart always, watchdog), log rotation, autologin-free kiosk session (cage on tty1), and
# turns screen blanking off.
set -euo pipefail

ROOT=""
DRY=0
PIN=""
while [ $# -gt 0 ]; do
  case "$1" in
    --root) ROOT="${2:?--root needs a folder}"; shift 2 ;;
    --dry-run) DRY=1; shift ;;
    --pin) PIN="${2:?--pin needs digits}"; shift 2 ;;
    -h|--help) sed -n '2,8p' "$0"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done

SRC="$(cd "$(dirname "$0")/.." && pwd)"
APP="$ROOT/opt/tablehost"
UNIT_DIR="$ROOT/etc/systemd/system"
DATA="$ROOT/var/lib/tablehost"
# xwayland: Debian's cage (0.1.4) starts an XWayland server and exits when /usr/bin/Xwayland is missing, and
# the package only recommends it (installed here without recommends).
PKGS=(cage xwayland python3 python3-venv python3-pip libgl1 libegl1 libmtdev1 libespeak-ng1 espeak-ng
      libportaudio2 fonts-nanum alsa-utils rsync)

run() {
  # Commands that change the system: printed in a dry run, executed otherwise.
  if [ "$DRY" -eq 1 ]; then
    printf 'would run:'; printf ' %q' "$@"; printf '\n'
  else
    "$@"
  fi
}

if [ "$DRY" -eq 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
  echo "Run as root (sudo), or use --root DIR --dry-run to try it out." >&2
  exit 1
fi

echo "==> Debian packages"
run apt-get update -qq
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${PKGS[@]}"

echo "==> Service user"
if ! getent passwd tablehost >/dev/null; then
  run useradd --system --create-home --home-dir /var/lib/tablehost --shell /usr/sbin/nologin \
      --groups audio,video,input,render tablehost
fi

echo "==> Application in $APP"
mkdir -p "$APP" "$UNIT_DIR" "$DATA" "$ROOT/etc/logrotate.d" "$ROOT/usr/local/bin"
# no caches (a clone's test runs leave them; one vanishing mid-copy failed the copy)
rsync -a --delete --exclude .git --exclude .venv --exclude test-artifacts --exclude '__pycache__' \
  --exclude .hypothesis --exclude '.*_cache' "$SRC/" "$APP/"
run python3 -m venv /opt/tablehost/.venv
run /opt/tablehost/.venv/bin/pip install -q --upgrade pip
run /opt/tablehost/.venv/bin/pip install -q "/opt/tablehost[kiosk,voice-model]"

echo "==> systemd unit, log rotation, update command"
install -m 0644 "$SRC/deploy/tablehost.service" "$UNIT_DIR/tablehost.service"
install -m 0644 "$SRC/deploy/tablehost.logrotate" "$ROOT/etc/logrotate.d/tablehost"
install -m 0755 "$SRC/deploy/update.sh" "$ROOT/usr/local/bin/tablehost-update"
if [ -n "$PIN" ]; then
  printf '{"pin_hash": "", "branch": ""}\n' > "$DATA/settings.json"
  mkdir -p "$ROOT/etc/systemd/system/tablehost.service.d"
  printf '[Service]\nEnvironment=TABLEHOST_PIN=%s\n' "$PIN" > "$ROOT/etc/systemd/system/tablehost.service.d/pin.conf"
fi

echo "==> Screen blanking off (console and kernel)"
mkdir -p "$ROOT/etc/kbd"
printf 'BLANK_TIME=0\nPOWERDOWN_TIME=0\n' > "$ROOT/etc/kbd/config.tablehost"
if [ -f "$ROOT/boot/firmware/cmdline.txt" ] && ! grep -q consoleblank=0 "$ROOT/boot/firmware/cmdline.txt"; then
  sed -i 's/$/ consoleblank=0/' "$ROOT/boot/firmware/cmdline.txt"
fi

run chown -R tablehost:tablehost /var/lib/tablehost
run systemctl daemon-reload
run systemctl disable getty@tty1.service
run systemctl enable tablehost.service
run systemctl set-default graphical.target
run systemctl restart tablehost.service
echo "==> Done. Staff PIN: ${PIN:-0000 (change it in staff mode)}"
