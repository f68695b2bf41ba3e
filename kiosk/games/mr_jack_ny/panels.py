"""Small parts of the Mr. Jack board-side screen: round-track rows, suspect tiles, private cards."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from kivy.graphics import Color, Ellipse, InstructionGroup, Line
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ColorProperty, ListProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label

from kiosk.widgets.handover import secret_text
from kiosk.widgets.theme import BODY, HEADLINE, LEAD, MUTED, PANEL_HI, TLabel

YELLOW = (0.93, 0.78, 0.22, 1)
BLACK = (0.05, 0.05, 0.05, 1)
GREY = (0.26, 0.25, 0.24, 1)  # a cleared suspect (MUTED text on it: 5:1)
# One colour per character marker (colour side = suspect), in roster order.
MARKER_COLOURS = (
    (0.86, 0.45, 0.40, 1), (0.50, 0.72, 0.90, 1), (0.60, 0.82, 0.50, 1), (0.95, 0.75, 0.35, 1),
    (0.78, 0.60, 0.88, 1), (0.45, 0.80, 0.78, 1), (0.92, 0.62, 0.75, 1), (0.80, 0.78, 0.55, 1),
)


class MjTrackRow(BoxLayout):
    """One round on the track: its numbered round token on the track's line, then the round's turn tokens
    (`pips`: yellow = detective, black = Jack), drawn on the row's canvas: a widget per token made the track
    56 widgets, ~40 ms of UI-thread CPU to build when a game starts."""

    label = StringProperty("")
    current = BooleanProperty(False)
    done = BooleanProperty(False)
    pips = ListProperty([])

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._tokens = InstructionGroup()
        self.canvas.after.add(self._tokens)
        self.bind(pos=self._draw, size=self._draw, pips=self._draw)
        self._draw()

    def _draw(self, *_: Any) -> None:
        size, gap = dp(22), dp(6)
        x = self.x + dp(4) + dp(44) + gap  # after the padding and the round's number
        y = self.center_y - size / 2
        self._tokens.clear()
        for fill in self.pips:
            for part in (Color(*fill), Ellipse(pos=(x, y), size=(size, size), segments=40), Color(*MUTED),
                         Line(circle=(x + size / 2, y + size / 2, size / 2, 0, 360, 40), width=1.2, joint="none")):
                self._tokens.add(part)
            x += size + gap


class MjSuspect(Label):
    """A character marker: its colour while a suspect, grey once cleared."""

    bg = ColorProperty(PANEL_HI)
    innocent = BooleanProperty(False)
    test_id = StringProperty("")


class MjTitle(Label):
    pass


def track_row(round_no: int, colours: Sequence[str], current: bool, done: bool) -> MjTrackRow:
    return MjTrackRow(label=str(round_no), current=current, done=done,
                      pips=[YELLOW if colour == "yellow" else BLACK for colour in colours])


def private_card(title: str, big: str, lines: list[str]) -> BoxLayout:
    """What one player sees on the pass-the-tablet screen."""
    box = BoxLayout(orientation="vertical", spacing=dp(16))
    head = TLabel(text=title, font_size=LEAD, halign="center")
    box.add_widget(head)
    box.add_widget(secret_text(big, HEADLINE))
    for line in lines:
        box.add_widget(TLabel(text=line, font_size=BODY, halign="center", color=MUTED))
    return box


def room_for_cards(scroll: Any, grid: Any, base: float) -> None:
    """The table (in `scroll`) keeps the height the offered cards' texts (in `grid`) need: lines above them (the
    tablet's moves, three at most) or a narrow window (1024x600) took that room from the cards, and a card's text
    (217 px) overflowed its 176 px box. The table grows by what is missing, and scrolls (FitScroll); back to its
    designed height (`base`) when the cards need no more."""
    if scroll is None or not scroll.children:
        return
    form = scroll.children[0]
    cards = [b for b in grid.children if hasattr(b, "texture_size")] if grid is not None else []
    if grid is None or grid.parent is None or not cards:  # (no cards, or not made yet: their places kept)
        scroll.set_min_height(base)
        return
    rows = (len(grid.children) + grid.cols - 1) // grid.cols
    need = rows * max(b.texture_size[1] + dp(8) for b in cards) + grid.spacing[1] * (rows - 1)
    missing, now = need - grid.height, scroll.min_height
    scroll.set_min_height(form.height + missing if missing > 0.5 else max(base, min(now, form.height) + missing))


Builder.load_file(str(Path(__file__).with_suffix(".kv")))
