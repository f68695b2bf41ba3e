"""The step illustrations, drawn with Kivy canvas instructions from the content's shapes (no images)."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle, Triangle
from kivy.properties import ListProperty, StringProperty
from kivy.uix.widget import Widget

from kiosk.teach.model import Shape
from kiosk.widgets.drawn import texture

PALETTE = {
    "accent": (0.878, 0.643, 0.345, 1), "text": (0.961, 0.937, 0.902, 1), "muted": (0.70, 0.66, 0.60, 1),
    "panel": (0.30, 0.27, 0.24, 1), "red": (0.80, 0.25, 0.22, 1), "yellow": (0.90, 0.78, 0.25, 1),
    "purple": (0.52, 0.32, 0.66, 1), "green": (0.33, 0.62, 0.36, 1), "white": (0.93, 0.92, 0.88, 1),
    "blue": (0.27, 0.46, 0.75, 1), "grey": (0.52, 0.52, 0.52, 1), "black": (0.12, 0.12, 0.12, 1),
    "brown": (0.55, 0.38, 0.22, 1), "ok": (0.40, 0.70, 0.45, 1), "danger": (0.85, 0.33, 0.30, 1),
}
DARK_TEXT = (0.10, 0.09, 0.08, 1)
LIGHT_TEXT = (0.98, 0.97, 0.95, 1)


def _ink(rgba: Sequence[float]) -> tuple[float, ...]:
    """Readable text colour on a fill."""
    luminance = 0.299 * rgba[0] + 0.587 * rgba[1] + 0.114 * rgba[2]
    return DARK_TEXT if luminance > 0.55 else LIGHT_TEXT


class Illustration(Widget):
    """Draws `shapes` (model.Shape) in its box; `lang` picks the label language."""

    shapes = ListProperty([])
    lang = StringProperty("ko")

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.bind(pos=self.redraw, size=self.redraw, shapes=self.redraw, lang=self.redraw)
        self.drawn = 0  # shapes drawn in the last redraw (tests)

    def redraw(self, *_args: Any) -> None:
        self.canvas.clear()
        self.drawn = 0
        if self.width < 10 or self.height < 10:
            return
        with self.canvas:
            for shape in self.shapes:
                getattr(self, f"_draw_{shape.kind}")(shape)
                self.drawn += 1

    # -- geometry helpers
    def _box(self, s: Shape) -> tuple[float, float, float, float]:
        w, h = s.w * self.width, s.h * self.height
        return self.x + s.x * self.width - w / 2, self.y + s.y * self.height - h / 2, w, h

    def _centre(self, s: Shape) -> tuple[float, float]:
        return self.x + s.x * self.width, self.y + s.y * self.height

    def _text(self, text: str, cx: float, cy: float, size: float, rgba: Sequence[float], max_w: float) -> None:
        if not text:
            return
        tex = texture(text, round(size))
        while tex.width > max_w and size > 10:
            size -= 2
            tex = texture(text, round(size))
        Color(*rgba)
        Rectangle(texture=tex, pos=(cx - tex.width / 2, cy - tex.height / 2), size=tex.size)

    def _font(self) -> float:
        return max(13.0, float(min(self.width, self.height)) * 0.05)

    def _label(self, s: Shape) -> str:
        return s.label.get(self.lang) if s.label is not None else ""

    # -- shapes
    def _draw_card(self, s: Shape) -> None:
        x, y, w, h = self._box(s)
        fill = PALETTE[s.color]
        Color(0, 0, 0, 0.35)
        RoundedRectangle(pos=(x + 4, y - 4), size=(w, h), radius=[w * 0.1])
        Color(*fill)
        RoundedRectangle(pos=(x, y), size=(w, h), radius=[w * 0.1])
        Color(*_ink(fill)[:3], 0.5)
        Line(rounded_rectangle=(x + 4, y + 4, w - 8, h - 8, w * 0.08), width=1.2)
        self._text(self._label(s), x + w / 2, y + h / 2, self._font(), _ink(fill), w - 8)

    def _draw_rect(self, s: Shape) -> None:
        x, y, w, h = self._box(s)
        fill = PALETTE[s.color]
        Color(*fill)
        Rectangle(pos=(x, y), size=(w, h))
        self._text(self._label(s), x + w / 2, y + h / 2, self._font(), _ink(fill), w - 8)

    def _disc(self, cx: float, cy: float, d: float, fill: Sequence[float]) -> None:
        Color(0, 0, 0, 0.35)
        Ellipse(pos=(cx - d / 2 + 2, cy - d / 2 - 3), size=(d, d))
        Color(*fill)
        Ellipse(pos=(cx - d / 2, cy - d / 2), size=(d, d))

    def _draw_token(self, s: Shape) -> None:
        cx, cy = self._centre(s)
        d = min(s.w * self.width, s.h * self.height) * 0.9
        fill = PALETTE[s.color]
        self._disc(cx, cy, d, fill)
        self._text(self._label(s), cx, cy - d / 2 - self._font() * 0.8, self._font() * 0.85, PALETTE["text"],
                   max(d * 1.8, 60))

    def _draw_circle(self, s: Shape) -> None:
        cx, cy = self._centre(s)
        d = min(s.w * self.width, s.h * self.height)
        self._disc(cx, cy, d, PALETTE[s.color])
        self._text(self._label(s), cx, cy, self._font(), _ink(PALETTE[s.color]), d)

    def _draw_text(self, s: Shape) -> None:
        cx, cy = self._centre(s)
        self._text(self._label(s), cx, cy, self._font() * 1.3, PALETTE[s.color], self.width * 0.9)

    def _draw_arrow(self, s: Shape) -> None:
        x1, y1 = self._centre(s)
        tx, ty = s.to if s.to is not None else (s.x + 0.1, s.y)
        x2, y2 = self.x + tx * self.width, self.y + ty * self.height
        Color(*PALETTE[s.color])
        Line(points=[x1, y1, x2, y2], width=3)
        ang = math.atan2(y2 - y1, x2 - x1)
        size = max(12.0, self._font() * 0.9)
        left = (x2 - size * math.cos(ang - 0.45), y2 - size * math.sin(ang - 0.45))
        right = (x2 - size * math.cos(ang + 0.45), y2 - size * math.sin(ang + 0.45))
        Triangle(points=[x2, y2, *left, *right])

    def _draw_grid(self, s: Shape) -> None:
        x, y, w, h = self._box(s)
        Color(*PALETTE[s.color][:3], 0.35)
        Rectangle(pos=(x, y), size=(w, h))
        Color(*PALETTE[s.color])
        for i in range(s.n + 1):
            Line(points=[x + w * i / s.n, y, x + w * i / s.n, y + h], width=1.2)
            Line(points=[x, y + h * i / s.n, x + w, y + h * i / s.n], width=1.2)

    def _draw_pile(self, s: Shape) -> None:
        cx, cy = self._centre(s)
        d = min(s.w * self.width, s.h * self.height) * 0.7
        fill = PALETTE[s.color]
        shown = min(s.n, 10)
        step = d * 0.18
        base = cy - (shown - 1) * step / 2
        for i in range(shown):
            self._disc(cx, base + i * step, d, fill)
            Color(*_ink(fill)[:3], 0.4)
            Line(circle=(cx, base + i * step, d / 2), width=1)
        self._text(self._label(s), cx, base - d / 2 - self._font() * 0.8, self._font() * 0.85, PALETTE["text"],
                   max(d * 2.2, 70))

    def _draw_person(self, s: Shape) -> None:
        cx, cy = self._centre(s)
        h = min(s.h * self.height, s.w * self.width * 1.6)
        fill = PALETTE[s.color]
        head = h * 0.36
        Color(0, 0, 0, 0.35)
        Ellipse(pos=(cx - h * 0.3 + 2, cy - h / 2 - 3), size=(h * 0.6, h * 0.2))
        Color(*fill)
        RoundedRectangle(pos=(cx - h * 0.26, cy - h / 2), size=(h * 0.52, h * 0.55), radius=[h * 0.2, h * 0.2, 4, 4])
        Ellipse(pos=(cx - head / 2, cy + h * 0.05), size=(head, head))
        self._text(self._label(s), cx, cy - h / 2 - self._font() * 0.8, self._font() * 0.85, PALETTE["text"],
                   max(h * 1.8, 70))

    def _draw_die(self, s: Shape) -> None:
        x, y, w, h = self._box(s)
        side = min(w, h)
        x, y = x + (w - side) / 2, y + (h - side) / 2
        fill = PALETTE[s.color]
        Color(*fill)
        RoundedRectangle(pos=(x, y), size=(side, side), radius=[side * 0.18])
        Color(*_ink(fill))
        pip = side * 0.16
        for px, py in ((0.28, 0.28), (0.72, 0.72), (0.28, 0.72), (0.72, 0.28)):
            Ellipse(pos=(x + px * side - pip / 2, y + py * side - pip / 2), size=(pip, pip))

    def _draw_clock(self, s: Shape) -> None:
        cx, cy = self._centre(s)
        d = min(s.w * self.width, s.h * self.height)
        fill = PALETTE[s.color]
        Color(*fill)
        Line(circle=(cx, cy, d / 2), width=3)
        Line(points=[cx, cy, cx, cy + d * 0.35], width=3)
        Line(points=[cx, cy, cx + d * 0.25, cy], width=3)

    def _draw_envelope(self, s: Shape) -> None:
        x, y, w, h = self._box(s)
        fill = PALETTE[s.color]
        Color(*fill)
        Rectangle(pos=(x, y), size=(w, h * 0.7))
        Color(*_ink(fill))
        Line(points=[x, y + h * 0.7, x + w / 2, y + h * 0.3, x + w, y + h * 0.7], width=2)
        self._text("?", x + w / 2, y + h * 0.15, self._font(), _ink(fill), w)
