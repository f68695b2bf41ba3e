"""Text and cells drawn on one canvas instead of a widget each.

A Kivy Label is ~300 objects in reference cycles (a storage and an observer list per property, its kv
bindings); a notebook cell with its background ~475 (measured with gc.get_objects()). A 6-player Clue sheet of
216 cells was ~100,000 objects that every full collection traversed while the notebook was open (60-260 ms
pause frames in bench/frames.py) and 100 ms of UI-thread CPU to make. A `DrawnRow` is one widget whose
cells are canvas instructions (~30 objects a row plus ~6 a cell) with their text as a kept texture.

Tests see the cells as a guest does through `drawn_cells()` (kiosk/widgets/marks.py, read by kiosk/testing.py):
their text, size, colours, whether the text fits, and where to tap them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Ellipse, InstructionGroup, Line, Rectangle
from kivy.metrics import dp, sp
from kivy.uix.widget import Widget

RGBA = Sequence[float]
_TEXTURES: dict[tuple[str, int, bool], Any] = {}
PRESSED = 0.8  # a pressed cell's background, as a pressed button's (kiosk/widgets/theme.kv)


def px(size: str | float) -> float:
    """A theme size ("20sp", "12dp") or pixels, in pixels."""
    if isinstance(size, str):
        unit = size[-2:]
        return float(sp(float(size[:-2])) if unit == "sp" else dp(float(size[:-2])) if unit == "dp" else float(size))
    return float(size)


def texture(text: str, size: float, bold: bool = True) -> Any:
    """`text` rendered in white (tinted by a Color instruction), kept: the same words come back (a sheet's O and X,
    a page shown again) and laying text out is the slow part of drawing it."""
    key = (text, round(size), bold)
    tex = _TEXTURES.get(key)
    if tex is None:
        if len(_TEXTURES) > 600:
            _TEXTURES.clear()
        label = CoreLabel(text=text, font_size=round(size), bold=bold)
        label.refresh()
        tex = _TEXTURES[key] = label.texture
    return tex


@dataclass
class Cell:
    """One cell: its text (left or centred), colours, a token-colour dot before the text, a drawn sign
    (`sign(cx, cy, r)` → instructions), a margin line on its right, and what a tap on it does."""

    text: str = ""
    bg: RGBA = (0, 0, 0, 0)
    color: RGBA = (1, 1, 1, 1)
    font_size: float = 20.0  # px
    halign: str = "center"
    dot: RGBA | None = None
    sign: Callable[[float, float, float], list[Any]] | None = None
    margin_line: RGBA | None = None
    test_id: str = ""
    on_tap: Callable[[], Any] | None = None


class HoldsCells(Protocol):
    """What draws a cell (a DrawnRow, a game's board): the width its cell i has for its text."""

    def text_room(self, i: int) -> float: ...


@dataclass
class DrawnCell:
    """What a test sees of a drawn cell (kiosk/testing.py): the driver taps its centre (window coordinates)."""

    row: HoldsCells
    index: int
    test_id: str
    text: str
    font_size: float
    color: tuple[float, ...]
    bg: tuple[float, ...]
    touchable: bool
    box: tuple[float, float, float, float]  # x, y, width, height in window coordinates
    text_size: tuple[float, float]
    disabled: bool = False

    @property
    def center(self) -> tuple[float, float]:
        x, y, w, h = self.box
        return x + w / 2, y + h / 2

    @property
    def width(self) -> float:
        return self.box[2]

    @property
    def height(self) -> float:
        return self.box[3]

    @property
    def parent(self) -> HoldsCells:
        return self.row

    def to_window(self, x: float, y: float) -> tuple[float, float]:
        return x, y

    def fits(self) -> bool:
        return self.text_size[0] <= self.row.text_room(self.index) + 2 and self.text_size[1] <= self.box[3] + 2


class _Drawn:
    """A cell's instructions, kept to move and repaint them in place."""

    __slots__ = ("bg", "rect", "ink", "text", "dot", "line", "sign")

    def __init__(self, canvas: Any, cell: Cell) -> None:
        self.bg = Color(*cell.bg)
        self.rect = Rectangle()
        self.dot = self.line = self.sign = None
        canvas.add(self.bg)
        canvas.add(self.rect)
        if cell.dot is not None:
            canvas.add(Color(*cell.dot))
            self.dot = Ellipse(size=(dp(20), dp(20)))
            canvas.add(self.dot)
        if cell.margin_line is not None:
            canvas.add(Color(*cell.margin_line))
            self.line = Line(width=dp(1.2))
            canvas.add(self.line)
        if cell.sign is not None:
            self.sign = InstructionGroup()
            canvas.add(self.sign)
        self.ink = Color(*cell.color)
        self.text = Rectangle()
        canvas.add(self.ink)
        canvas.add(self.text)


class DrawnRow(Widget):
    """A row of cells on one canvas. The first column is at least `first` wide, the others share the rest;
    `gap` between cells. Cells with `on_tap` act like buttons (pressed while the finger is down, the tap on
    release inside the same cell)."""

    PAD = dp(6)
    MARK_PAD = dp(40)  # text after a dot or a sign

    def __init__(self, cells: list[Cell], first: float = 0.0, gap: float = 0.0, **kw: Any) -> None:
        super().__init__(**kw)
        self.cells, self.first, self.gap = cells, first, gap
        self._drawn = [_Drawn(self.canvas, c) for c in cells]
        self._pressed: int | None = None
        self.takes_touch = any(c.on_tap is not None for c in cells)  # a control (kiosk.widgets.marks)
        for i in range(len(cells)):
            self._set_text(i)
        self.bind(pos=self._layout, size=self._layout)

    # -- layout and paint
    def boxes(self) -> list[tuple[float, float, float, float]]:
        """Each cell's box (x, y, width, height) in the row's coordinates."""
        n = len(self.cells)
        if n == 0:
            return []
        room = self.width - self.gap * (n - 1)
        first = min(room, max(self.first, room / n))
        other = (room - first) / (n - 1) if n > 1 else 0.0
        out, x = [], self.x
        for i in range(n):
            w = first if i == 0 else other
            out.append((x, self.y, w, self.height))
            x += w + self.gap
        return out

    def text_room(self, i: int) -> float:
        """The width left for cell i's text."""
        c = self.cells[i]
        left = self.MARK_PAD if (c.dot is not None or c.sign is not None) else self.PAD
        return float(self.boxes()[i][2] - left - self.PAD)

    def _layout(self, *_: Any) -> None:
        for i, (x, y, w, h) in enumerate(self.boxes()):
            d, c = self._drawn[i], self.cells[i]
            d.rect.pos, d.rect.size = (x + dp(1), y + dp(1)), (max(w - dp(2), 0), max(h - dp(2), 0))
            if d.dot is not None:
                d.dot.pos = (x + dp(10), y + h / 2 - dp(10))
            if d.line is not None:
                d.line.points = [x + w - dp(2), y, x + w - dp(2), y + h]
            if d.sign is not None and c.sign is not None:
                d.sign.clear()
                r = min(h * 0.32, dp(16))
                for ins in c.sign(x + dp(8) + r, y + h / 2, r):
                    d.sign.add(ins)
            tw, th = d.text.size
            left = x + (self.MARK_PAD if (c.dot is not None or c.sign is not None) else self.PAD)
            tx = left if c.halign == "left" else x + (w - tw) / 2
            d.text.pos = (round(tx), round(y + (h - th) / 2))

    def _set_text(self, i: int) -> None:
        c, d = self.cells[i], self._drawn[i]
        if c.text:
            tex = texture(c.text, c.font_size)
            d.text.texture, d.text.size = tex, tex.size
        else:
            d.text.texture, d.text.size = None, (0, 0)

    def update(self, i: int, text: str | None = None, bg: RGBA | None = None, color: RGBA | None = None) -> None:
        """Repaint cell i in place."""
        c, d = self.cells[i], self._drawn[i]
        if text is not None and text != c.text:
            c.text = text
            self._set_text(i)
        if bg is not None:
            c.bg = bg
            d.bg.rgba = bg
        if color is not None:
            c.color = color
            d.ink.rgba = color
        self._layout()

    # -- touch
    def _cell_at(self, x: float) -> int | None:
        for i, (bx, _by, bw, _bh) in enumerate(self.boxes()):
            if bx <= x <= bx + bw:
                return i
        return None

    def on_touch_down(self, touch: Any) -> bool:
        if not self.collide_point(*touch.pos) or getattr(touch, "is_mouse_scrolling", False) or self in touch.ud:
            return False
        i = self._cell_at(touch.x)
        if i is None or self.cells[i].on_tap is None:
            return False
        touch.grab(self)
        touch.ud[self] = True
        self._pressed = i
        bg = self.cells[i].bg
        self._drawn[i].bg.rgba = (bg[0] * PRESSED, bg[1] * PRESSED, bg[2] * PRESSED, 1)
        return True

    def on_touch_up(self, touch: Any) -> bool:
        if touch.grab_current is not self:
            return bool(super().on_touch_up(touch))
        touch.ungrab(self)
        i, self._pressed = self._pressed, None
        if i is None:
            return True
        self._drawn[i].bg.rgba = self.cells[i].bg
        tap = self.cells[i].on_tap
        if tap is not None and self.collide_point(*touch.pos) and self._cell_at(touch.x) == i:
            tap()
        return True

    # -- what tests see
    def drawn_cells(self) -> list[DrawnCell]:
        out = []
        for i, (x, y, w, h) in enumerate(self.boxes()):
            c = self.cells[i]
            wx, wy = self.to_window(x, y)
            out.append(DrawnCell(self, i, c.test_id, c.text, c.font_size, tuple(c.color), tuple(c.bg),
                                 c.on_tap is not None, (wx, wy, w, h), tuple(self._drawn[i].text.size)))
        return out
