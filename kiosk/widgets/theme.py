"""Colours, sizes and the themed base widgets (loaded from theme.kv)."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

BG = (0.118, 0.102, 0.090, 1)
PANEL = (0.173, 0.149, 0.133, 1)
PANEL_HI = (0.235, 0.204, 0.180, 1)
ACCENT = (0.878, 0.643, 0.345, 1)
ACCENT_DARK = (0.62, 0.42, 0.18, 1)
TEXT = (0.961, 0.937, 0.902, 1)
MUTED = (0.70, 0.66, 0.60, 1)
DANGER = (0.85, 0.33, 0.30, 1)
OK = (0.40, 0.70, 0.45, 1)

TOUCH_MIN = dp(56)  # comfortably above the 48 dp minimum


class TButton(ButtonBehavior, Label):
    """A flat, rounded, finger-sized button. `kind`: "primary", "normal", "danger", "ghost"."""

    kind = StringProperty("normal")
    bg = ColorProperty(PANEL_HI)
    selected = BooleanProperty(False)
    test_id = StringProperty("")
    why = StringProperty("")  # shown on the screen while the button is greyed: why, and how to go on


class TLabel(Label):
    """A label that wraps inside its width (text_size bound to width)."""


class Panel(BoxLayout):
    bg = ColorProperty(PANEL)


Builder.load_file(str(Path(__file__).with_name("theme.kv")))
