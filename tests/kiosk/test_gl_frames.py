"""Headless, every frame is drawn to its end as on a display: software GL (llvmpipe) keeps no backlog of
frames holding what they drew (memory over an hour of play, bench/memory.py)."""

from __future__ import annotations

import gc
from typing import Any

import pytest

pytestmark = [pytest.mark.ui, pytest.mark.alone]  # the heap it reads is the app's, not the suite's


def _heap_mb() -> float:
    from audio import heap
    from bench.memory import mallinfo

    gc.collect()
    heap.release(force=True)
    return mallinfo()["used"]


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


def test_the_finish_lets_other_threads_run(driver: Any) -> None:
    """The wait goes through ctypes, which releases the GIL (Kivy's glFinish wrapper holds it: the voice and
    the tutor threads stood still while the UI thread waited for the rasterizer)."""
    import ctypes

    from kiosk import gl_frames

    assert gl_frames.finish_headless_frames()
    assert isinstance(gl_frames._finish, ctypes.CFUNCTYPE(None))
