"""The results screen's headline, the same for every game: our drawn laurel mark and who won, big enough to read
from across the table. The winner sound plays once per game from kiosk.hosting (HostContext.celebrate)."""

from __future__ import annotations

import math
from typing import Any

from kivy.clock import Clock
from kivy.graphics import Color, Line, Mesh
from kivy.metrics import dp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from kiosk.widgets.theme import ACCENT, ACCENT_DARK, BODY, HEADLINE, MUTED


class WinMark(Widget):
    """A star in a ring with a burst of rays, drawn on the canvas (our own mark; no image files)."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self._redraw = Clock.create_trigger(self._draw)  # after layout settles, not in the middle of it
        self.bind(pos=self._redraw, size=self._redraw)

    def _draw(self, *_: Any) -> None:
        self.canvas.clear()
        cx, cy = self.center
        r = min(self.width, self.height) / 2
        with self.canvas:
            Color(*ACCENT_DARK)
            Line(circle=(cx, cy, r * 0.62), width=dp(2.5))
            for k in range(12):  # a burst of short rays around the ring
                a = k * math.pi / 6 + math.pi / 12
                Line(points=[cx + r * 0.74 * math.cos(a), cy + r * 0.74 * math.sin(a),
                             cx + r * 0.95 * math.cos(a), cy + r * 0.95 * math.sin(a)], width=dp(2), cap="round")
            Color(*ACCENT)
            pts: list[float] = []
            for k in range(10):  # a five-pointed star
                a = math.pi / 2 + k * math.pi / 5
                rr = r * (0.5 if k % 2 == 0 else 0.2)
                pts += [cx + rr * math.cos(a), cy + rr * math.sin(a), 0, 0]
            verts = [cx, cy, 0, 0, *pts, *pts[:4]]
            Mesh(vertices=verts, indices=list(range(12)), mode="triangle_fan")


class WinnerBanner(BoxLayout):
    """`text` names the winners ("지수 승리!"); `detail` says how (optional). `compact`: the mark beside the
    title (one row) where the results share the screen with a long text."""

    def __init__(self, text: str, detail: str = "", compact: bool = False, **kw: Any) -> None:
        kw.setdefault("size_hint_y", None)
        super().__init__(orientation="vertical", spacing=dp(6), **kw)
        self.test_id = "winner_banner"
        self.mark_h = dp(84) if compact else dp(110)
        mark = WinMark(size_hint=(None, None) if compact else (1, None), size=(self.mark_h, self.mark_h))
        self.title = Label(text=text, font_size=HEADLINE, bold=True, color=ACCENT, halign="left" if compact else "center",
                           valign="middle", size_hint_y=None)
        if compact:
            row = BoxLayout(size_hint_y=None, height=self.mark_h, spacing=dp(16))
            row.add_widget(mark)
            row.add_widget(self.title)
            self.title.size_hint_y = 1
            self.add_widget(row)
        else:
            self.add_widget(mark)
            self.add_widget(self.title)
        self.compact = compact
        self.detail = Label(text=detail, font_size=BODY, color=MUTED, halign="left" if compact else "center",
                            valign="top", size_hint_y=None, opacity=1 if detail else 0, height=0)
        self.add_widget(self.detail)
        for lbl in (self.title, self.detail):
            lbl.bind(width=lambda w, v: setattr(w, "text_size", (v, None)))
            lbl.bind(height=self._fit)
        self.detail.bind(texture_size=lambda w, s: setattr(w, "height", s[1]))
        if not compact:
            self.title.bind(texture_size=lambda w, s: setattr(w, "height", s[1]))
        self._fit()

    def _fit(self, *_: Any) -> None:
        title = 0 if self.compact else self.title.height
        self.height = self.mark_h + title + (self.detail.height if self.detail.text else 0) + dp(12)
