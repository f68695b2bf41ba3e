"""Headless, every frame is drawn to its end as on a display: software GL (llvmpipe) keeps no backlog of
frames holding what they drew (memory over an hour of play, bench/memory.py)."""

from __future__ import annotations

import ctypes
import gc
from typing import Any

import pytest

pytestmark = pytest.mark.ui


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def _heap_mb() -> float:
    libc = ctypes.CDLL("libc.so.6")
    libc.mallinfo2.restype = _Mallinfo2
    gc.collect()
    libc.malloc_trim(0)
    m = libc.mallinfo2()
    return float(m.uordblks + m.hblkhd) / (1 << 20)


def _heavy_frames(driver: Any, frames: int) -> None:
    """Frames slow to rasterize (overdraw) and quick to describe, each with a new 4 MB texture, deleted after."""
    from kivy.core.window import Window
    from kivy.graphics import Color, Rectangle
    from kivy.graphics.texture import Texture
    from kivy.uix.widget import Widget

    size = Window.size
    for _ in range(frames):
        layer = Widget()
        texture = Texture.create(size=(1024, 1024), colorfmt="rgba")
        texture.blit_buffer(b"\x40" * (1024 * 1024 * 4), colorfmt="rgba")
        with layer.canvas:
            Color(1, 1, 1, 0.05)
            Rectangle(texture=texture, pos=(0, 0), size=size)
            for _ in range(6):
                Rectangle(pos=(0, 0), size=size)
        Window.add_widget(layer)
        driver.pump(1)
        Window.remove_widget(layer)
        del layer, texture


def test_headless_frames_leave_no_backlog(driver: Any) -> None:
    """20 heavy frames, each drawing a new texture that is deleted after: the heap keeps few of them (here
    +16 MB; fails on the old code: +200 MB, llvmpipe's scenes piled up behind the UI thread, each holding its
    frame's texture)."""
    from kiosk import gl_frames

    assert gl_frames.video_driver() == "offscreen"
    _heavy_frames(driver, 3)
    before = _heap_mb()
    _heavy_frames(driver, 20)
    driver.pump(2)
    grown = _heap_mb() - before
    assert grown < 40, f"the heap grew by {grown:.0f} MB (a frame's texture is 4 MB)"
