"""Mr. Jack in New York host screens: the kiosk as neutral referee of the physical board."""

from kiosk.games.mr_jack_ny.host import MrJackHost

HOST = MrJackHost

__all__ = ["HOST", "MrJackHost"]
