"""Our own drawings (kiosk.widgets.art): every game on the shelf has its own mark and scene, each drawing stays
inside the box it is given at any size, and the host bar's icons are drawn, not typed."""

from __future__ import annotations

from typing import Any

import pytest

from content.loader import load_library


def _extent(drawing: list[Any]) -> tuple[float, float, float, float]:
    """The bounding box of a drawing's shapes (before any rotation)."""
    from kivy.graphics import Ellipse, Line, Mesh, Rectangle, RoundedRectangle

    xs: list[float] = []
    ys: list[float] = []
    for ins in drawing:
        if isinstance(ins, (Ellipse, Rectangle, RoundedRectangle)):
            xs += [ins.pos[0], ins.pos[0] + ins.size[0]]
            ys += [ins.pos[1], ins.pos[1] + ins.size[1]]
        elif isinstance(ins, Line):
            if ins.circle:
                cx, cy, r = ins.circle[:3]
                xs += [cx - r, cx + r]
                ys += [cy - r, cy + r]
            xs += list(ins.points[0::2])
            ys += list(ins.points[1::2])
        elif isinstance(ins, Mesh):
            xs += list(ins.vertices[0::4])
            ys += list(ins.vertices[1::4])
    return min(xs), min(ys), max(xs), max(ys)


def _inside(drawing: list[Any], x: float, y: float, w: float, h: float, slack: float) -> bool:
    x0, y0, x1, y1 = _extent(drawing)
    return x0 >= x - slack and y0 >= y - slack and x1 <= x + w + slack and y1 <= y + h + slack


@pytest.mark.parametrize("size", [48, 120, 300])
def test_every_game_has_its_own_mark_inside_its_badge(size: int) -> None:
    from kiosk.widgets import art

    games = list(load_library().games)
    assert games
    fallback = len(art.game_mark("no_such_game", 0, 0, 1))
    for gid in games:
        drawing = art.game_mark(gid, 500, 400, size / 2)
        assert len(drawing) > fallback, f"{gid} has no mark of its own"
        assert _inside(drawing, 500 - size / 2, 400 - size / 2, size, size, slack=size * 0.02), gid


@pytest.mark.parametrize("box", [(0, 0, 600, 250), (100, 50, 320, 200), (10, 10, 900, 300)])
def test_every_game_scene_fills_its_box_and_stays_in_it(box: tuple[int, int, int, int]) -> None:
    from kiosk.widgets import art

    for gid in load_library().games:
        drawing = art.game_scene(gid, *box)
        assert len(drawing) > 20, f"{gid} has no scene of its own"
        # rotated cards may lean out by a few pixels; nothing else may leave the box
        assert _inside(drawing, *box, slack=box[3] * 0.05), (gid, _extent(drawing))


def test_host_bar_icons_are_drawn() -> None:
    from kiosk.widgets import art

    for name in ("back", "phone", "undo", "end", "help"):
        drawing = art.icon(name, 100, 100, 13)
        assert len(drawing) >= 3
        assert _inside(drawing, 87, 87, 26, 26, slack=4), name
