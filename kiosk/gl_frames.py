"""Without a display, every drawn frame is finished, as a display's buffer swap does.

On a display, software GL (llvmpipe) copies each frame out at the swap, so the frame is drawn to its end
there. Headless (SDL's offscreen driver: the test suite, the benches, CI) the swap does nothing: llvmpipe's
rasterizer threads draw frames in the background while the UI thread goes on, and when they fall behind
(a loaded machine) it starts another scene, up to dozens, each keeping the last frame it drew — its bins and
every texture and buffer that frame used, deleted ones too — for the rest of the process. bench/memory.py
then measured that (the kiosk's heap +260 MB after the first game at load ~10, and more the busier the
machine). `glFinish` after each headless frame leaves one scene, as on a display.
"""

from __future__ import annotations

import ctypes
from typing import Any

_bound = False


def video_driver() -> str:
    """The SDL video driver of this process ("offscreen", "wayland", "x11", "kmsdrm"), "" when unknown."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            path = next((line.split()[-1] for line in f if "libSDL2-2" in line), "")
        if not path:
            return ""
        fn = ctypes.CDLL(path).SDL_GetCurrentVideoDriver
    except (OSError, AttributeError):
        return ""
    fn.restype = ctypes.c_char_p
    name = fn()
    return name.decode("ascii", "replace") if name else ""


def _finish(*_: Any) -> None:
    from kivy.graphics.opengl import glFinish

    glFinish()


def finish_headless_frames() -> bool:
    """With SDL's offscreen driver, finish GL after each frame (Window's on_flip; once per process).
    True when bound."""
    global _bound
    if not _bound and video_driver() == "offscreen":
        from kivy.core.window import Window

        Window.bind(on_flip=_finish)
        _bound = True
    return _bound
