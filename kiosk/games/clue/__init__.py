"""Clue host screens (kiosk/HOSTING.md): game master for both modes, pass-the-tablet disproval, and a
private detective notebook per player (notebook / tutor levels; probabilities and advice behind a
setting, off by default)."""

from kiosk.games.clue.host import ClueHost

HOST = ClueHost

__all__ = ["HOST", "ClueHost"]
