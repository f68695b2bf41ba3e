#!/usr/bin/env bash
# Set up the café floor on one always-on box (or a staff PC) running Debian 12: the mosquitto broker with a
# password per tablet and per-tablet ACLs, listening on the café LAN address only, and the floor page.
#   sudo deploy/floor/install.sh --address 192.168.0.10 --tables 12 --pin 4321
#   deploy/floor/install.sh --root DIR ...   write every file under DIR and only print the system commands
#   (--root always implies --dry-run: nothing outside DIR is touched)
# Options: --port (broker, 1883), --web-port (floor page, 8080), --tables N (t01 … tNN) or --table ID (repeat).
# Passwords: /etc/tablehost/floor-tables.txt (root only); kept when run again, new tables get new ones.
# The floor page's PIN (4-8 digits) has no default: --pin is needed the first time, kept when run again.
# A chain of cafés (deploy/floor/bridge.conf, head.conf):
#   a branch:      --branch gangnam --bridge-to HEAD_ADDRESS[:8883] --bridge-password PASS --head-ca CA.crt
#   the head office: --head-office --tls-cert CERT --tls-key KEY --tls-ca CA.crt [--tls-port 8883]
#                    [--wan-address ADDR] --bridge-user gangnam --bridge-user hongdae …
set -euo pipefail

ROOT=""
DRY=0
ADDRESS=""
PORT=1883
WEB_PORT=8080
PIN=""
TABLES=()
BRANCH=""
BRIDGE_TO=""
BRIDGE_PASS=""
HEAD_CA=""
HEAD=0
TLS_CERT=""
TLS_KEY=""
TLS_CA=""
TLS_PORT=8883
WAN=""
BRIDGES=()
while [ $# -gt 0 ]; do
  case "$1" in
    --root) ROOT="${2:?--root needs a folder}"; shift 2 ;;
    --dry-run) DRY=1; shift ;;
    --address) ADDRESS="${2:?--address needs the café LAN address}"; shift 2 ;;
    --port) PORT="${2:?}"; shift 2 ;;
    --web-port) WEB_PORT="${2:?}"; shift 2 ;;
    --pin) PIN="${2:?--pin needs digits}"; shift 2 ;;
    --tables)
      n="${2:?--tables needs a number}"; shift 2
      for i in $(seq 1 "$n"); do TABLES+=("$(printf 't%02d' "$i")"); done ;;
    --table) TABLES+=("${2:?--table needs an id}"); shift 2 ;;
    --branch) BRANCH="${2:?--branch needs an id}"; shift 2 ;;
    --bridge-to) BRIDGE_TO="${2:?--bridge-to needs the head office address}"; shift 2 ;;
    --bridge-password) BRIDGE_PASS="${2:?}"; shift 2 ;;
    --head-ca) HEAD_CA="${2:?}"; shift 2 ;;
    --head-office) HEAD=1; shift ;;
    --tls-cert) TLS_CERT="${2:?}"; shift 2 ;;
    --tls-key) TLS_KEY="${2:?}"; shift 2 ;;
    --tls-ca) TLS_CA="${2:?}"; shift 2 ;;
    --tls-port) TLS_PORT="${2:?}"; shift 2 ;;
    --wan-address) WAN="${2:?}"; shift 2 ;;
    --bridge-user) BRIDGES+=("${2:?--bridge-user needs a branch id}"); shift 2 ;;
    -h|--help) sed -n '2,13p' "$0"; exit 0 ;;
    *) echo "unknown option: $1" >&2; exit 2 ;;
  esac
done

if [ -z "$ADDRESS" ]; then
  echo "Give the café LAN address of this box: --address 192.168.0.10 (see: ip -4 addr)" >&2
  exit 2
fi
case "$ADDRESS" in
  0.0.0.0|::|"*") echo "Listen on the café LAN address only, not on every network ($ADDRESS)" >&2; exit 2 ;;
esac
if [ ${#TABLES[@]} -eq 0 ]; then
  echo "Name the tables: --tables 12 (t01 … t12) or --table t01 --table t02 …" >&2
  exit 2
fi
for t in "${TABLES[@]}"; do
  if ! [[ "$t" =~ ^[a-z0-9][a-z0-9_-]{0,31}$ ]] || [ "$t" = floor ]; then
    echo "bad table id: $t (lower-case letters, digits, - and _; not 'floor')" >&2
    exit 2
  fi
done
for b in "$BRANCH" "${BRIDGES[@]}"; do
  if [ -n "$b" ] && ! [[ "$b" =~ ^[a-z0-9][a-z0-9_-]{0,31}$ ]]; then
    echo "bad branch id: $b (lower-case letters, digits, - and _)" >&2
    exit 2
  fi
done
if [ -n "$BRANCH$BRIDGE_TO$BRIDGE_PASS$HEAD_CA" ] && { [ -z "$BRANCH" ] || [ -z "$BRIDGE_TO" ] || \
    [ -z "$BRIDGE_PASS" ] || ! [ -f "$HEAD_CA" ]; }; then
  echo "A branch needs --branch ID --bridge-to HEAD_ADDRESS[:PORT] --bridge-password PASS --head-ca FILE" >&2
  exit 2
fi
if [ "$HEAD" -eq 1 ] && { ! [ -f "$TLS_CERT" ] || ! [ -f "$TLS_KEY" ] || ! [ -f "$TLS_CA" ]; }; then
  echo "The head office needs --tls-cert FILE --tls-key FILE --tls-ca FILE (the bridges come over TLS)" >&2
  exit 2
fi
if [ -n "$ROOT" ]; then
  DRY=1  # a trial root never touches the real system (apt, users, systemd)
fi
if [ -n "$PIN" ] && ! [[ "$PIN" =~ ^[0-9]{4,8}$ ]]; then
  echo "The floor PIN is 4 to 8 digits: --pin 4321" >&2
  exit 2
fi
if [ -z "$PIN" ] && [ -f "$ROOT/etc/tablehost/floor.env" ]; then
  PIN="$(sed -n 's/^TABLEHOST_FLOOR_PIN=//p' "$ROOT/etc/tablehost/floor.env")"
fi
if [ -z "$PIN" ]; then
  echo "Choose the floor page's PIN (4-8 digits, no default): --pin 4321" >&2
  exit 2
fi
if [ "$DRY" -eq 0 ] && [ -z "$ROOT" ] && [ "$(id -u)" -ne 0 ]; then
  echo "Run as root (sudo), or use --root DIR --dry-run to try it out." >&2
  exit 1
fi

SRC="$(cd "$(dirname "$0")/../.." && pwd)"
ETC="$ROOT/etc/mosquitto"
CONF_D="$ETC/conf.d"
TH_ETC="$ROOT/etc/tablehost"
UNIT_DIR="$ROOT/etc/systemd/system"
APP="$ROOT/opt/tablehost"

run() {
  # Commands that change the system: printed in a dry run, executed otherwise.
  if [ "$DRY" -eq 1 ]; then
    printf 'would run:'; printf ' %q' "$@"; printf '\n'
  else
    "$@"
  fi
}

newpass() { tr -dc 'a-km-z2-9' </dev/urandom | head -c 10 || true; }

echo "==> Debian packages"
run apt-get update -qq
run env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mosquitto python3 \
    python3-venv python3-pip rsync

echo "==> Service user and application in $APP"
if ! getent passwd tablehost >/dev/null; then
  run useradd --system --create-home --home-dir /var/lib/tablehost --shell /usr/sbin/nologin tablehost
fi
mkdir -p "$APP" "$CONF_D" "$TH_ETC" "$UNIT_DIR"
# no caches (a clone's test runs leave them; one vanishing mid-copy failed the copy)
rsync -a --delete --exclude .git --exclude .venv --exclude test-artifacts --exclude '__pycache__' \
  --exclude .hypothesis --exclude '.*_cache' "$SRC/" "$APP/"
run python3 -m venv /opt/tablehost/.venv
run /opt/tablehost/.venv/bin/pip install -q /opt/tablehost  # the core only: no Kivy, vosk or numpy on the floor box

echo "==> Broker: listener $ADDRESS:$PORT, passwords, ACL"
sed -e "s|@LAN_ADDRESS@|$ADDRESS|" -e "s|@PORT@|$PORT|" -e "/^\(password_file\|acl_file\) /s|/etc/mosquitto/|$ETC/|" \
  "$SRC/deploy/floor/mosquitto.conf" > "$CONF_D/tablehost.conf"
install -m 0644 "$SRC/deploy/floor/tablehost.acl" "$ETC/tablehost.acl"
LIST="$TH_ETC/floor-tables.txt"
touch "$LIST"
chmod 600 "$LIST"
grep -q '^floor ' "$LIST" || printf 'floor %s\n' "$(newpass)" >> "$LIST"
for t in "${TABLES[@]}"; do
  grep -q "^$t " "$LIST" || printf '%s %s\n' "$t" "$(newpass)" >> "$LIST"
done
: > "$ETC/tablehost.passwd"
chmod 640 "$ETC/tablehost.passwd"
if command -v mosquitto_passwd >/dev/null; then
  while read -r user pass; do
    mosquitto_passwd -b "$ETC/tablehost.passwd" "$user" "$pass"
  done < "$LIST"
else
  echo "would run: mosquitto_passwd -b $ETC/tablehost.passwd USER PASSWORD (for each line of $LIST)"
fi
run chown root:mosquitto /etc/mosquitto/tablehost.passwd

if [ -n "$BRANCH" ]; then
  echo "==> Branch $BRANCH: bridge to the head office $BRIDGE_TO over TLS"
  mkdir -p "$ETC/certs"
  install -m 0644 "$HEAD_CA" "$ETC/certs/tablehost-head-ca.crt"
  HEAD_HOST="${BRIDGE_TO%:*}"
  HEAD_PORT=8883
  [ "$HEAD_HOST" != "$BRIDGE_TO" ] && HEAD_PORT="${BRIDGE_TO##*:}"
  sed -e "s|@BRANCH@|$BRANCH|g" -e "s|@HEAD_ADDRESS@|$HEAD_HOST|" -e "s|@HEAD_PORT@|$HEAD_PORT|" \
    -e "s|@BRIDGE_PASSWORD@|$BRIDGE_PASS|" -e "s|@HEAD_CA@|$ETC/certs/tablehost-head-ca.crt|" \
    "$SRC/deploy/floor/bridge.conf" > "$CONF_D/tablehost-bridge.conf"
  chmod 640 "$CONF_D/tablehost-bridge.conf"
  run chown root:mosquitto /etc/mosquitto/conf.d/tablehost-bridge.conf
fi
if [ "$HEAD" -eq 1 ]; then
  echo "==> Head office: TLS listener ${WAN:-$ADDRESS}:$TLS_PORT for the branches' bridges"
  mkdir -p "$ETC/certs"
  install -m 0644 "$TLS_CA" "$ETC/certs/tablehost-ca.crt"
  install -m 0644 "$TLS_CERT" "$ETC/certs/tablehost.crt"
  install -m 0640 "$TLS_KEY" "$ETC/certs/tablehost.key"
  run chown root:mosquitto /etc/mosquitto/certs/tablehost.key
  sed -e "s|@WAN_ADDRESS@|${WAN:-$ADDRESS}|" -e "s|@TLS_PORT@|$TLS_PORT|" -e "s|@CA@|$ETC/certs/tablehost-ca.crt|" \
    -e "s|@CERT@|$ETC/certs/tablehost.crt|" -e "s|@KEY@|$ETC/certs/tablehost.key|" \
    "$SRC/deploy/floor/head.conf" > "$CONF_D/tablehost-head.conf"
  for b in "${BRIDGES[@]}"; do
    grep -q "^bridge-$b " "$LIST" || printf 'bridge-%s %s\n' "$b" "$(newpass)" >> "$LIST"
    printf '\nuser bridge-%s\ntopic readwrite branches/%s/#\n' "$b" "$b" >> "$ETC/tablehost.acl"
    if command -v mosquitto_passwd >/dev/null; then
      mosquitto_passwd -b "$ETC/tablehost.passwd" "bridge-$b" "$(awk -v u="bridge-$b" '$1 == u {print $2}' "$LIST")"
    fi
  done
fi

echo "==> Floor page (port $WEB_PORT)"
FLOOR_PASS="$(awk '$1 == "floor" {print $2}' "$LIST")"
{
  printf 'TABLEHOST_FLOOR_BROKER=%s\nTABLEHOST_FLOOR_PORT=%s\nTABLEHOST_FLOOR_PASSWORD=%s\n' \
    "$ADDRESS" "$PORT" "$FLOOR_PASS"
  printf 'TABLEHOST_FLOOR_WEB=%s:%s\n' "$ADDRESS" "$WEB_PORT"
  printf 'TABLEHOST_FLOOR_PIN=%s\n' "$PIN"
  [ "$HEAD" -eq 1 ] && printf 'TABLEHOST_FLOOR_CHAIN=1\n'
  true
} > "$TH_ETC/floor.env"
chmod 600 "$TH_ETC/floor.env"
install -m 0644 "$SRC/deploy/floor/tablehost-floor.service" "$UNIT_DIR/tablehost-floor.service"

run systemctl daemon-reload
run systemctl enable mosquitto.service tablehost-floor.service
run systemctl restart mosquitto.service tablehost-floor.service
echo "==> Done. Floor page: http://$ADDRESS:$WEB_PORT/ (the PIN you chose)"
echo "    Each tablet, staff mode → 카페 플로어: broker $ADDRESS, port $PORT, its table id and password:"
grep -v '^floor \|^bridge-' "$LIST" | sed 's/^/      /'
if [ "$HEAD" -eq 1 ]; then
  echo "    Each branch's bridge (install.sh --branch ID --bridge-to ${WAN:-$ADDRESS}:$TLS_PORT --bridge-password …):"
  grep '^bridge-' "$LIST" | sed 's/^/      /'
fi
