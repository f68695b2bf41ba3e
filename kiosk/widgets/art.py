"""Our own drawings (no image files, nothing from a publisher): each one a function of a few shapes in theme
colours, drawn into any box at any size. A drawing returns a list of Kivy canvas instructions, so a widget's
canvas, the splash (drawn before any widget exists) and tests can all use it.

- `game_mark(game_id, cx, cy, r)`: a game's mark on a round badge (library tiles, the game page);
- `game_scene(game_id, x, y, w, h)`: a small illustration per game (the game page);
- `icon(name, cx, cy, r)`: the host bar's icons (back, phones, help, undo, end);
- `notebook_sign(section, cx, cy, r)`: Clue's notebook section signs (suspects, weapons, rooms);
- `table_mark(cx, cy, r)`: TableHost's own mark (the splash, the attract screen).
`Art` and `IconButton` put them on the screen."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

from kivy.graphics import (
    Color,
    Ellipse,
    Instruction,
    Line,
    Mesh,
    PopMatrix,
    PushMatrix,
    Rectangle,
    Rotate,
    RoundedRectangle,
)
from kivy.metrics import dp
from kivy.properties import StringProperty
from kivy.uix.widget import Widget

from kiosk.widgets import theme as t

RGBA = Sequence[float]

# a hue per game: the badge and the scene's sky (dark surfaces; the drawing on them is in light theme colours)
GAME_HUE: dict[str, RGBA] = {
    "watson_holmes": (0.30, 0.17, 0.15, 1),   # a Baker Street brick red
    "spyfall": (0.14, 0.22, 0.30, 1),         # night blue
    "mr_jack_ny": (0.13, 0.20, 0.17, 1),      # gaslight green
    "clue": (0.26, 0.16, 0.27, 1),            # mansion purple
}
PAPER = (0.93, 0.89, 0.80, 1)    # cards and envelopes
INK = (0.20, 0.16, 0.13, 1)      # lines drawn on paper
RED = (0.75, 0.24, 0.22, 1)      # a wax seal, a lamp's flame
GLOW = (0.98, 0.85, 0.50, 1)


class Pen:
    """Draws in unit coordinates: (0, 0) is the centre, 1 is the radius `r` (x right, y up)."""

    def __init__(self, cx: float, cy: float, r: float) -> None:
        self.cx, self.cy, self.r = cx, cy, r
        self.out: list[Instruction] = []

    def p(self, x: float, y: float) -> tuple[float, float]:
        return self.cx + x * self.r, self.cy + y * self.r

    def color(self, rgba: RGBA, alpha: float | None = None) -> Pen:
        self.out.append(Color(*rgba[:3], rgba[3] if alpha is None else alpha))
        return self

    def disc(self, x: float, y: float, rad: float, rx: float | None = None) -> None:
        px, py = self.p(x, y)
        w, h = 2 * (rx if rx is not None else rad) * self.r, 2 * rad * self.r
        self.out.append(Ellipse(pos=(px - w / 2, py - h / 2), size=(w, h)))

    def ring(self, x: float, y: float, rad: float, width: float, start: float = 0, end: float = 360) -> None:
        px, py = self.p(x, y)
        self.out.append(Line(circle=(px, py, rad * self.r, start, end), width=max(1.0, width * self.r)))

    def line(self, pts: Sequence[float], width: float, close: bool = False) -> None:
        flat: list[float] = []
        for i in range(0, len(pts), 2):
            flat += self.p(pts[i], pts[i + 1])
        self.out.append(Line(points=flat, width=max(1.0, width * self.r), cap="round", joint="round", close=close))

    def poly(self, pts: Sequence[float]) -> None:
        """A filled convex polygon."""
        verts: list[float] = []
        for i in range(0, len(pts), 2):
            verts += [*self.p(pts[i], pts[i + 1]), 0, 0]
        n = len(pts) // 2
        self.out.append(Mesh(vertices=verts, indices=list(range(n)), mode="triangle_fan"))

    def rect(self, x: float, y: float, w: float, h: float, radius: float = 0) -> None:
        px, py = self.p(x, y)
        size = (w * self.r, h * self.r)
        if radius:
            self.out.append(RoundedRectangle(pos=(px, py), size=size, radius=[radius * self.r]))
        else:
            self.out.append(Rectangle(pos=(px, py), size=size))

    def star(self, x: float, y: float, outer: float, inner: float) -> None:
        pts: list[float] = []
        for k in range(10):
            a = math.pi / 2 + k * math.pi / 5
            rr = outer if k % 2 == 0 else inner
            pts += [x + rr * math.cos(a), y + rr * math.sin(a)]
        cx, cy = self.p(x, y)
        verts = [cx, cy, 0, 0]
        for i in range(0, 22, 2):
            verts += [*self.p(pts[i % 20], pts[(i + 1) % 20]), 0, 0]
        self.out.append(Mesh(vertices=verts, indices=list(range(12)), mode="triangle_fan"))

    def turned(self, degrees: float, x: float, y: float, draw: Callable[[], None]) -> None:
        """Whatever `draw` adds, turned about (x, y)."""
        self.out.append(PushMatrix())
        self.out.append(Rotate(angle=degrees, origin=self.p(x, y)))
        draw()
        self.out.append(PopMatrix())


# ------------------------------------------------------------------ marks (unit circle)
def table_mark(cx: float, cy: float, r: float) -> list[Instruction]:
    """TableHost: a round table seen from above, four seats and a star (the host) in the middle."""
    pen = Pen(cx, cy, r)
    pen.color(t.PANEL_HI).disc(0, 0, 1)
    pen.color(t.ACCENT_DARK).ring(0, 0, 1, 0.03)
    for k in range(4):
        a = math.pi / 4 + k * math.pi / 2
        pen.disc(1.35 * math.cos(a), 1.35 * math.sin(a), 0.22)
    pen.color(t.ACCENT).star(0, 0, 0.55, 0.22)
    return pen.out


def _magnifier(pen: Pen) -> None:
    pen.color(t.TEXT).line([0.18, -0.18, 0.62, -0.62], 0.16)
    pen.color(GLOW, 0.25).disc(-0.14, 0.14, 0.42)
    pen.color(t.ACCENT).ring(-0.14, 0.14, 0.42, 0.11)
    pen.color(t.TEXT, 0.8).ring(-0.14, 0.14, 0.26, 0.04, 290, 350)


def _eye(pen: Pen) -> None:
    top = [(-0.7 + 1.4 * i / 12, 0.42 * math.sin(math.pi * i / 12)) for i in range(13)]
    pts = [c for xy in top for c in xy] + [c for x, y in reversed(top[1:-1]) for c in (x, -y)]
    pen.color(PAPER).poly(pts)
    pen.color(t.ACCENT).disc(0, 0, 0.3)
    pen.color(t.BG).disc(0, 0, 0.14)
    pen.color(PAPER).disc(0.08, 0.08, 0.05)
    pen.color(t.TEXT).line(pts + pts[:2], 0.04)


def _top_hat(pen: Pen) -> None:
    pen.color(GLOW).disc(0.5, 0.52, 0.17)                    # the moon over the city
    pen.color(GAME_HUE["mr_jack_ny"]).disc(0.58, 0.58, 0.14)  # … a crescent
    pen.color(t.TEXT).rect(-0.72, -0.52, 1.3, 0.14, 0.06)    # brim
    pen.rect(-0.46, -0.42, 0.78, 0.8, 0.05)                  # crown
    pen.color(RED).rect(-0.46, -0.34, 0.78, 0.14)            # band


def _envelope(pen: Pen) -> None:
    pen.color(PAPER).rect(-0.66, -0.44, 1.32, 0.88, 0.05)
    pen.color(INK).line([-0.62, 0.4, 0, -0.06, 0.62, 0.4], 0.05)
    pen.color(RED).disc(0, -0.08, 0.17)
    pen.color(GLOW, 0.9).star(0, -0.08, 0.11, 0.045)


_MARKS: dict[str, Callable[[Pen], None]] = {
    "watson_holmes": _magnifier, "spyfall": _eye, "mr_jack_ny": _top_hat, "clue": _envelope,
}


def game_mark(game_id: str, cx: float, cy: float, r: float) -> list[Instruction]:
    """A game's mark on its round badge; a game without one gets TableHost's star on a plain badge."""
    pen = Pen(cx, cy, r)
    pen.color(GAME_HUE.get(game_id, t.PANEL_HI)).disc(0, 0, 1)
    pen.color(t.ACCENT_DARK).ring(0, 0, 0.97, 0.04)
    draw = _MARKS.get(game_id)
    if draw is None:
        pen.color(t.ACCENT).star(0, 0, 0.55, 0.22)
    else:
        draw(pen)
    return pen.out


# ------------------------------------------------------------------ scenes (a box, about 2:1)
def _skyline(pen: Pen, w: float, base: float, heights: Sequence[float], colour: RGBA) -> None:
    pen.color(colour)
    step = 2 * w / len(heights)
    for i, h in enumerate(heights):
        pen.rect(-w + i * step, base, step * 0.92, h)


def _scene_watson_holmes(pen: Pen, w: float) -> None:
    _skyline(pen, w, -1, [0.5, 0.8, 0.6, 1.0, 0.45, 0.7, 0.9, 0.55, 0.75, 0.5], (0.20, 0.11, 0.10, 1))
    pen.color((0.20, 0.11, 0.10, 1)).rect(-1.2, -1, 0.3, 1.6)  # the clock tower
    pen.poly([-1.22, 0.6, -0.88, 0.6, -1.05, 0.9])
    pen.color(PAPER).disc(-1.05, 0.35, 0.1)
    for i in range(5):  # footsteps towards the magnifier
        x = -0.4 + i * 0.3
        pen.color(t.MUTED, 0.5).disc(x, -0.78 + (0.08 if i % 2 else 0), 0.04, 0.07)
    sub = Pen(*pen.p(1.0, 0.05), pen.r * 0.85)
    _magnifier(sub)
    pen.out += sub.out


def _card(pen: Pen, x: float, y: float, angle: float, face: Callable[[Pen], None] | None) -> None:
    def draw() -> None:
        pen.color((0, 0, 0, 0.35)).rect(x - 0.36, y - 0.52, 0.76, 1.06, 0.08)
        pen.color(PAPER if face else t.ACCENT_DARK).rect(x - 0.38, y - 0.5, 0.76, 1.06, 0.08)
        if face is not None:
            sub = Pen(*pen.p(x, y + 0.03), pen.r * 0.4)
            face(sub)
            pen.out += sub.out
        else:
            pen.color(t.ACCENT).ring(x, y + 0.03, 0.22, 0.04)
    pen.turned(angle, x, y, draw)


def _pin(pen: Pen) -> None:
    pen.color(RED).disc(0, 0.2, 0.45)
    pen.poly([-0.4, 0.0, 0.4, 0.0, 0, -0.7])
    pen.color(PAPER).disc(0, 0.2, 0.18)


def _scene_spyfall(pen: Pen, w: float) -> None:
    pen.color(t.TEXT, 0.12)
    for i in range(-4, 5):  # a map's grid
        pen.line([i / 4 * w * 0.9, -1, i / 4 * w * 0.9 + 0.2, 1], 0.01)
    _card(pen, -0.9, -0.05, 14, _pin)
    _card(pen, 0.0, 0.05, 0, None)     # the spy's card: face down
    _card(pen, 0.9, -0.05, -14, _pin)
    sub = Pen(*pen.p(0.0, 0.08), pen.r * 0.45)
    _eye(sub)
    pen.out += sub.out


def _scene_mr_jack_ny(pen: Pen, w: float) -> None:
    _skyline(pen, w, -1, [0.9, 1.3, 0.7, 1.5, 1.1, 0.6, 1.2, 0.8, 1.4, 0.75], (0.08, 0.13, 0.11, 1))
    pen.color(GLOW, 0.9)
    for i in range(14):  # lit windows
        pen.rect(-w + 0.15 + (i * 0.37) % (2 * w - 0.3), -0.8 + (i * 0.29) % 1.0, 0.07, 0.1)
    pen.color(GLOW).disc(1.3, 0.65, 0.22)
    pen.color(GAME_HUE["mr_jack_ny"]).disc(1.4, 0.72, 0.18)
    pen.color(GLOW, 0.12).disc(-0.6, 0.35, 0.55)  # the lamp's glow
    pen.color(GLOW, 0.2).disc(-0.6, 0.35, 0.32)
    pen.color(t.TEXT).line([-0.6, -1, -0.6, 0.2], 0.05)
    pen.poly([-0.75, 0.2, -0.45, 0.2, -0.38, 0.5, -0.82, 0.5])
    pen.color(GLOW).poly([-0.7, 0.25, -0.5, 0.25, -0.46, 0.45, -0.74, 0.45])
    sub = Pen(*pen.p(-0.05, -0.4), pen.r * 0.66)  # a figure in a top hat, walking away
    sub.color((0.02, 0.02, 0.02, 1)).rect(-0.25, -0.9, 0.5, 0.95, 0.15)
    sub.disc(0, 0.2, 0.2)
    sub.rect(-0.32, 0.32, 0.64, 0.08)
    sub.rect(-0.2, 0.38, 0.4, 0.36, 0.03)
    pen.out += sub.out


def _person(pen: Pen) -> None:
    pen.color(INK).disc(0, 0.3, 0.3)
    pen.poly([-0.55, -0.75, 0.55, -0.75, 0.4, -0.1, -0.4, -0.1])


def _candlestick(pen: Pen) -> None:
    pen.color(INK).line([0, -0.7, 0, 0.35], 0.1)
    pen.rect(-0.35, -0.78, 0.7, 0.14, 0.05)
    pen.color(RED).disc(0, 0.55, 0.14, 0.09)


def _door(pen: Pen) -> None:
    pen.color(INK).line([-0.4, -0.8, -0.4, 0.7, 0.4, 0.7, 0.4, -0.8], 0.08)
    pen.disc(0.22, -0.05, 0.08)


def _scene_clue(pen: Pen, w: float) -> None:
    pen.color(t.TEXT, 0.10)
    for i in range(-4, 5):  # the floor's boards, in perspective
        pen.line([i / 4 * w * 0.9, -1, i / 4 * w * 0.55, -0.2], 0.012)
    _card(pen, -1.15, 0.1, 10, _person)
    _card(pen, 1.15, 0.1, -10, _candlestick)
    _card(pen, 0.0, 0.35, 0, _door)
    sub = Pen(*pen.p(0.0, -0.45), pen.r * 0.75)
    _envelope(sub)
    pen.out += sub.out


def notebook_sign(section: str, cx: float, cy: float, r: float) -> list[Instruction]:
    """A detective notebook section's sign on a small card: "suspects", "weapons" or "rooms"."""
    draw = {"suspects": _person, "weapons": _candlestick, "rooms": _door}.get(section)
    if draw is None:
        return []
    pen = Pen(cx, cy, r)
    pen.color(PAPER).rect(-0.75, -1, 1.5, 2, 0.15)
    sub = Pen(cx, cy, r * 0.85)
    draw(sub)
    return pen.out + sub.out


_SCENES: dict[str, Callable[[Pen, float], None]] = {
    "watson_holmes": _scene_watson_holmes, "spyfall": _scene_spyfall, "mr_jack_ny": _scene_mr_jack_ny,
    "clue": _scene_clue,
}


def game_scene(game_id: str, x: float, y: float, w: float, h: float) -> list[Instruction]:
    """A game's illustration filling the box (x, y, w, h) on its hue; the drawing keeps its proportions."""
    out: list[Instruction] = [Color(*GAME_HUE.get(game_id, t.PANEL_HI)),
                              RoundedRectangle(pos=(x, y), size=(w, h), radius=[dp(14)])]
    r = h / 2 * 0.9
    pen = Pen(x + w / 2, y + h / 2, r)
    draw = _SCENES.get(game_id)
    if draw is None:
        return out + game_mark(game_id, x + w / 2, y + h / 2, r * 0.8)
    draw(pen, min(w / 2 / r, 2.4))
    return out + pen.out


# ------------------------------------------------------------------ icons (unit circle, one colour)
def _back(pen: Pen) -> None:
    pen.line([0.7, 0, -0.6, 0], 0.16)
    pen.line([-0.1, 0.55, -0.65, 0, -0.1, -0.55], 0.16)


def _phone(pen: Pen) -> None:
    pen.line([-0.4, -0.85, 0.4, -0.85, 0.4, 0.85, -0.4, 0.85], 0.11, close=True)
    pen.line([-0.12, 0.62, 0.12, 0.62], 0.08)
    pen.disc(0, -0.6, 0.1)


def _undo(pen: Pen) -> None:
    pen.ring(0.05, -0.05, 0.6, 0.14, 300, 600)
    pen.poly([-0.95, 0.3, -0.35, 0.4, -0.7, -0.15])


def _end(pen: Pen) -> None:
    pen.line([-0.55, -0.9, -0.55, 0.85], 0.12)
    pen.poly([-0.55, 0.85, 0.7, 0.5, -0.55, 0.1])


def _help(pen: Pen) -> None:
    pen.ring(0, 0.35, 0.38, 0.15, 270, 540)
    pen.line([0.37, 0.33, 0.05, 0.0, 0, -0.3], 0.15)
    pen.disc(0, -0.72, 0.13)


_ICONS: dict[str, Callable[[Pen], None]] = {
    "back": _back, "phone": _phone, "undo": _undo, "end": _end, "help": _help,
}
ICONS = tuple(_ICONS)


def icon(name: str, cx: float, cy: float, r: float, rgba: RGBA = t.TEXT) -> list[Instruction]:
    pen = Pen(cx, cy, r)
    pen.color(rgba)
    _ICONS[name](pen)
    return pen.out


# ------------------------------------------------------------------ signs on Watson & Holmes location cards
POLICE_BLUE = (0.20, 0.32, 0.62, 1)


def _police(pen: Pen) -> None:
    pen.color(POLICE_BLUE).disc(0, 0, 0.9)
    pen.color(PAPER).star(0, 0, 0.6, 0.25)


def _slash(pen: Pen) -> None:
    pen.color(RED).line([-0.75, -0.75, 0.75, 0.75], 0.16)


def _no_police(pen: Pen) -> None:
    _police(pen)
    _slash(pen)


def _padlock(pen: Pen) -> None:
    pen.color(INK).ring(0, 0.2, 0.38, 0.13, 270, 450)
    pen.rect(-0.6, -0.85, 1.2, 0.95, 0.12)
    pen.color(GLOW).disc(0, -0.4, 0.13)


def _no_watson(pen: Pen) -> None:
    sub = Pen(*pen.p(0, 0), pen.r * 1.1)
    sub.color(INK).line([0.18, -0.18, 0.62, -0.62], 0.16)
    sub.ring(-0.14, 0.14, 0.42, 0.12)
    pen.out += sub.out
    _slash(pen)


def _wheel(pen: Pen) -> None:
    pen.color(INK).ring(0, 0, 0.8, 0.12)
    for k in range(6):
        a = k * math.pi / 3
        pen.line([0, 0, 0.8 * math.cos(a), 0.8 * math.sin(a)], 0.07)
    pen.color(RED).disc(0, 0, 0.2)


def _baker(pen: Pen) -> None:
    pen.color(INK).poly([-0.95, 0.15, 0.95, 0.15, 0, 0.95])  # 221B: a house
    pen.rect(-0.7, -0.9, 1.4, 1.1)
    pen.color(GLOW).rect(-0.2, -0.9, 0.4, 0.7)               # its lit door


_SIGNS: dict[str, Callable[[Pen], None]] = {
    "police": _police, "no_police": _no_police, "locked": _padlock, "no_watson": _no_watson, "cab": _wheel,
    "baker": _baker,
}
SIGNS = tuple(_SIGNS)


def location_sign(name: str, cx: float, cy: float, r: float) -> list[Instruction]:
    """A sign on a Watson & Holmes location card (police token, padlock, …); nothing for an unknown name."""
    draw = _SIGNS.get(name)
    if draw is None:
        return []
    pen = Pen(cx, cy, r)
    draw(pen)
    return pen.out


# ------------------------------------------------------------------ widgets
class Art(Widget):
    """A drawing filling the widget: kind "mark" (a game's badge, kept round), "scene" (a game's
    illustration) or "table" (TableHost's mark). Redrawn after layout settles."""

    kind = StringProperty("mark")
    game_id = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        from kivy.clock import Clock

        super().__init__(**kw)
        self._redraw = Clock.create_trigger(self.draw)
        self.bind(pos=self._redraw, size=self._redraw, kind=self._redraw, game_id=self._redraw)
        self._redraw()

    def draw(self, *_: Any) -> None:
        self.canvas.clear()
        if self.width < 2 or self.height < 2:
            return
        r = min(self.width, self.height) / 2
        if self.kind == "scene":
            drawing = game_scene(self.game_id, self.x, self.y, self.width, self.height)
        elif self.kind == "table":
            drawing = table_mark(self.center_x, self.center_y, r / 1.6)
        else:
            drawing = game_mark(self.game_id, self.center_x, self.center_y, r)
        for ins in drawing:
            self.canvas.add(ins)


class IconButton(t.TButton):
    """A TButton with a drawn icon before its label; icon and label centred together."""

    icon = StringProperty("")

    def __init__(self, **kw: Any) -> None:
        from kivy.clock import Clock

        super().__init__(**kw)
        self._redraw = Clock.create_trigger(self.draw_icon)
        self.bind(pos=self._redraw, size=self._redraw, icon=self._redraw, text=self._redraw,
                  font_size=self._redraw, color=self._redraw, texture_size=self._redraw)
        self._redraw()

    def icon_size(self) -> float:
        return float(min(dp(26), self.height * 0.45))

    def draw_icon(self, *_: Any) -> None:
        self.canvas.after.clear()
        if not self.icon:
            self.padding = [0.0, 0.0, 0.0, 0.0]
            return
        size, gap = self.icon_size(), dp(10) if self.text else 0
        self.padding = [size + gap, 0, 0, 0]
        text_w = self._label.get_extents(self.text)[0] if self.text else 0
        group = size + gap + text_w
        cx = self.center_x - group / 2 + size / 2
        for ins in icon(self.icon, cx, self.center_y, size / 2, self.color):
            self.canvas.after.add(ins)
