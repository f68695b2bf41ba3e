"""Per-game host screens: kiosk/games/<game>/ exposes HOST, a GameHost subclass (see kiosk/HOSTING.md)."""
