"""The Kivy side of the café floor: the call button and settings, the case form (the rest is `floor/`)."""
