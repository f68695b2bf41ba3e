"""Spyfall DC host screens (kiosk/HOSTING.md)."""

from kiosk.games.spyfall.host import SpyfallHost

HOST = SpyfallHost

__all__ = ["HOST", "SpyfallHost"]
