"""The kiosk's typeface: registered before the first label is drawn (the splash, the test driver)."""

from __future__ import annotations

from pathlib import Path

FONT_DIR = Path(__file__).resolve().parent / "fonts"


def register_fonts() -> None:
    """Our bundled OFL Korean font replaces Roboto as the default (Roboto draws Hangul as tofu)."""
    from kivy.core.text import LabelBase

    regular, bold = str(FONT_DIR / "NanumGothic.ttf"), str(FONT_DIR / "NanumGothicBold.ttf")
    for name in ("Roboto", "NanumGothic"):
        LabelBase.register(name, fn_regular=regular, fn_bold=bold, fn_italic=regular, fn_bolditalic=bold)
