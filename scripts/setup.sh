#!/usr/bin/env bash
# Set up everything TableHost needs on Debian 12 (or Raspberry Pi OS): Debian packages, a virtualenv in
# .venv, the Python packages. Idempotent: a second run only checks and returns in a few seconds.
# Usage: scripts/setup.sh [kiosk|test]
set -euo pipefail
cd "$(dirname "$0")/.."
MODE="${1:-kiosk}"

APT_PKGS=(python3 python3-venv python3-pip libgl1 libegl1 libmtdev1 libespeak-ng1 espeak-ng libportaudio2 fonts-nanum)
if [ "$MODE" = "test" ]; then
  APT_PKGS+=(sox shellcheck systemd cage rsync chromium fonts-noto-cjk mosquitto)
fi

missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "==> Installing Debian packages: ${missing[*]}"
  SUDO=""
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "Need root or sudo to install: ${missing[*]}" >&2; exit 1; }
    SUDO="sudo"
  fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

PY="${PYTHON:-python3}"
if [ ! -x .venv/bin/python ]; then
  echo "==> Creating .venv"
  "$PY" -m venv .venv
fi

EXTRAS="kiosk,voice-model"
[ "$MODE" = "test" ] && EXTRAS="kiosk,voice-model,test"
STAMP=".venv/.tablehost-installed-$MODE"
WANT="$(sha256sum pyproject.toml | cut -c1-16)-$EXTRAS"
if [ ! -f "$STAMP" ] || [ "$(cat "$STAMP")" != "$WANT" ]; then
  echo "==> Installing Python packages ($EXTRAS)"
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -e ".[$EXTRAS]"
  echo "$WANT" > "$STAMP"
fi
echo "==> Ready"
