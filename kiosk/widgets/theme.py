"""Design tokens (type scale, colours, spacing, sizes) and the themed base widgets (loaded from theme.kv).

Every screen takes its sizes and colours from here. The type scale is for a 10" 1280×800 tablet read at arm's
length from across a table: nothing a guest must read is below SMALL; running text is BODY.
"""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.metrics import dp, sp
from kivy.properties import BooleanProperty, ColorProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

# Every widget has a `test_id` (what the tests and the toast find it by: kiosk.widgets.marks), declared on Widget
# itself. Else the first kv rule giving one to a stock class's child (`TextInput:` in a rule) made it a property of
# that stock class there and then, and every instance given an id in Python before that lost it (the property
# shadows the attribute): which ids a test could find depended on the order screens were first built.
Widget().create_property("test_id", "", default_value=True)

# -- type scale (sp; at this tablet's density 1 sp = 1 px)
SMALL = "20sp"    # secondary text: hints, stats, captions under a title — the floor for anything a guest reads
BODY = "24sp"     # running text, buttons, lists, abilities, instructions
LEAD = "28sp"     # emphasised lines, sub-headings, big buttons
TITLE = "34sp"    # screen and panel titles
HEADLINE = "44sp"  # a game's name on its page, hand-over names, results
DISPLAY = "64sp"  # one word that must be seen from across the table (a winner, a timer)
HERO = "84sp"     # the attract screen's mark
CLOCK = "104sp"   # a game clock read from across the room
TEXT_MIN_PX = sp(20)  # the sweep fails any visible text smaller than this

# -- colours (contrast checked in tests/kiosk/test_theme.py: text ≥ 4.5:1 on every surface it is drawn on)
BG = (0.118, 0.102, 0.090, 1)
PANEL = (0.173, 0.149, 0.133, 1)
PANEL_HI = (0.235, 0.204, 0.180, 1)
FIELD = (0.086, 0.075, 0.067, 1)  # text fields: darker than the panel they sit on
ACCENT = (0.878, 0.643, 0.345, 1)
ACCENT_DARK = (0.55, 0.36, 0.14, 1)  # a selected button, under TEXT
TEXT = (0.961, 0.937, 0.902, 1)
MUTED = (0.74, 0.70, 0.64, 1)
DANGER = (0.72, 0.22, 0.20, 1)  # danger as a surface (buttons) under TEXT
DANGER_TEXT = (0.96, 0.50, 0.46, 1)  # danger as text colour (on dark surfaces)
OK = (0.45, 0.76, 0.50, 1)  # right/success as text colour (on dark surfaces)
OK_BG = (0.18, 0.42, 0.24, 1)  # right/success as a surface (a notebook cell) under TEXT
SHADE = (0, 0, 0, 0.6)  # behind dialogs

# -- spacing and sizes
GAP = dp(12)
PAD = dp(20)
RADIUS = dp(14)
TOUCH_MIN = dp(56)  # comfortably above the 48 dp minimum; the sweep fails smaller targets
BUTTON_H = dp(64)
BUTTON_BIG_H = dp(84)
# a game's set-up form (kiosk/games/*): its rows this far apart and from the top and bottom of its scroll. Every form
# fits the 672 px under the host bar at 1280x800 without scrolling (tests/kiosk/games/test_forms_fit.py); Mr. Jack's
# 18 dp apart and Clue's 12 needed 683 and 682.
FORM_GAP = dp(10)
FORM_PAD_Y = dp(12)
# Kivy draws a ScrollView's bar over its content's right edge: a scrolling list's rows keep BAR_CLEAR free on that
# side (padding; a FitScroll does it itself while it scrolls), wider than any bar the kiosk draws (at most SCROLL_BAR).
# The sweep fails a control under a bar (kiosk.layout_check.under_scroll_bars).
SCROLL_BAR = dp(10)
BAR_CLEAR = SCROLL_BAR + dp(4)
PHONES_BUTTON = 140  # dp: the host bar's 휴대폰 button (host.kv, and shown again by kiosk/screens/host.py)


def luminance(rgb: tuple[float, ...]) -> float:
    """WCAG relative luminance of an sRGB colour (0..1 components)."""
    def lin(c: float) -> float:
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


class TButton(ButtonBehavior, Label):
    """A flat, rounded, finger-sized button. `kind`: "primary", "normal", "danger", "ghost"."""

    kind = StringProperty("normal")
    bg = ColorProperty(PANEL_HI)
    selected = BooleanProperty(False)
    test_id = StringProperty("")
    why = StringProperty("")  # shown on the screen while the button is greyed: why, and how to go on
    # kiosk.widgets.keep: a kept button changes these in place (selected and kind only when its colours are
    # the rule's, not given; test_id: a button kept by its place, not its id)
    KEEP_IN_PLACE = {"text": (), "disabled": (), "why": (), "selected": ("color", "bg"), "kind": ("color", "bg"),
                     "test_id": ()}


class FitGrid(GridLayout):
    """A grid as tall as its rows."""


class TLabel(Label):
    """A label that wraps inside its width (text_size bound to width)."""


class Panel(BoxLayout):
    bg = ColorProperty(PANEL)


Builder.load_file(str(Path(__file__).with_name("theme.kv")))
