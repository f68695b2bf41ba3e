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
from collections.abc import Callable

_finish: Callable[[], None] | None = None


def _sdl() -> ctypes.CDLL | None:
    """Kivy's SDL2 library, as loaded in this process."""
    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            path = next((line.split()[-1] for line in f if "libSDL2-2" in line), "")
        return ctypes.CDLL(path) if path else None
    except OSError:
        return None


def video_driver() -> str:
    """The SDL video driver of this process ("offscreen", "wayland", "x11", "kmsdrm"), "" when unknown."""
    sdl = _sdl()
    fn = getattr(sdl, "SDL_GetCurrentVideoDriver", None)
    if fn is None:
        return ""
    fn.restype = ctypes.c_char_p
    name = fn()
    return name.decode("ascii", "replace") if name else ""


def _gl_finish() -> Callable[[], None] | None:
    """glFinish through ctypes, which lets go of the GIL while it waits (Kivy's wrapper keeps it: the voice
    and tutor threads stood still while the UI thread waited for the rasterizer)."""
    sdl = _sdl()
    get = getattr(sdl, "SDL_GL_GetProcAddress", None)
    if get is None:
        return None
    get.restype = ctypes.c_void_p
    get.argtypes = [ctypes.c_char_p]
    addr = get(b"glFinish")
    return ctypes.CFUNCTYPE(None)(addr) if addr else None


def _flipped(*_: object) -> None:
    if _finish is not None:
        _finish()


def finish_headless_frames() -> bool:
    """With SDL's offscreen driver, finish GL after each frame (Window's on_flip; once per process).
    True when bound."""
    global _finish
    if _finish is None and video_driver() == "offscreen":
        from kivy.core.window import Window
        from kivy.graphics.opengl import glFinish

        _finish = _gl_finish() or glFinish
        Window.bind(on_flip=_flipped)
    return _finish is not None
