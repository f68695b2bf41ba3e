"""Watson & Holmes host screens: the narrated case opening and the referee for digital cases and physical boxes."""

from kiosk.games.watson_holmes.host import WatsonHolmesHost

HOST = WatsonHolmesHost

__all__ = ["HOST", "WatsonHolmesHost"]
