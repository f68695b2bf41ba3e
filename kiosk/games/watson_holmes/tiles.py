"""Watson & Holmes's location tiles (the board of the table screen, kiosk/games/watson_holmes/board.py; their look:
host.kv), and the lines they sit in: each as tall as its words need."""

from __future__ import annotations

from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ListProperty, NumericProperty
from kivy.uix.boxlayout import BoxLayout

from kiosk.widgets.art import location_sign
from kiosk.widgets.theme import TOUCH_MIN, TButton

TILE_MIN_W = 160  # dp: a tile narrower would break a name's words (at 1024x600 case 3's five a row were 100 px)
SIGN_R = 15  # dp: a tile's signs' radius


class WhTile(TButton):
    """A location card on the case's layout: a paper card with a printed frame, its number and name, who stands on
    it, and its signs drawn in the right-hand column (police token, padlock, no police, no Watson; the carriage
    stop's wheel, 221B's door; said in words in the prompt once it is chosen). As tall as its words need
    (`need`): its row grows to it, and the board scrolls when the rows need more than it has (at 1024x600 its text
    box, a fixed 70 px, dropped the third line: the one saying who stood there)."""

    signs = ListProperty([])
    # the tile chosen: its own property, coloured by its own rule only (TButton's rule colours on `selected`, and a
    # `selected` changed in place would re-run it: light text on the paper), so kiosk.widgets.keep changes it in
    # place and a choose remakes no tile
    picked = BooleanProperty(False)
    need = NumericProperty(0)  # the height its words and signs take
    KEEP_IN_PLACE = {"text": (), "picked": (), "signs": ()}

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._redraw = Clock.create_trigger(self._draw_signs)
        self.bind(pos=self._redraw, size=self._redraw, signs=self._redraw)
        self.bind(width=self._measure, text=self._measure, signs=self._measure, font_size=self._measure)
        self._measure()

    def _measure(self, *_: Any) -> None:
        from kivy.core.text import Label as CoreLabel

        core = CoreLabel(text=self.text, font_size=self.font_size, font_name=self.font_name, halign="left",
                         padding=self.padding, text_size=(max(self.width, 1), None))
        high = core.render()[1] if self.text else 0
        signs = dp(SIGN_R * 2 * len(self.signs) + 6 * max(len(self.signs) - 1, 0) + 24)
        self.need = max(high, signs, TOUCH_MIN)

    def _draw_signs(self, *_: Any) -> None:
        self.canvas.after.clear()
        r = dp(SIGN_R)
        for i, name in enumerate(self.signs):
            for ins in location_sign(name, self.right - dp(12) - r, self.top - dp(12) - r - i * (2 * r + dp(6)), r):
                self.canvas.after.add(ins)


class TileLine(BoxLayout):
    """A line of tiles, at least as tall as its tallest tile needs (it stretches with the board where there is
    room)."""

    def on_children(self, *_: Any) -> None:
        for c in self.children:
            if isinstance(c, WhTile):
                c.unbind(need=self._fit)
                c.bind(need=self._fit)
        self._fit()

    def _fit(self, *_: Any) -> None:
        need = max((getattr(c, "need", TOUCH_MIN) for c in self.children), default=0)  # a Place: a finger's
        self.size_hint_min_y = need or None
        if self.size_hint_y is None:
            self.height = need


class TileRows(BoxLayout):
    """A case's row of locations in one or more lines (a row wider than the board can take at TILE_MIN_W a tile
    breaks into even lines), as tall as they need."""

    def on_minimum_height(self, _w: Any, height: float) -> None:
        self.size_hint_min_y = height or None
