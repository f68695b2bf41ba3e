"""Nothing moves under a finger: a strip under the screens (the toast lane, the caption bar) that would give the
screen its room back waits while a touch is down, and a moment after the last one lifted (a scroll view that can
scroll dispatches a tap's release to its children once more 0.2 s later). Closed between a press and its release, the screen grew, the button
pressed moved from under the finger and the tap was lost."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock

RETRY = 0.1  # seconds between looks while a finger is down
SETTLE = 0.3  # seconds after the last touch lifted: a scroll view's second release (0.2 s) has landed
_LAST_UP = [0.0]
_WATCHING: list[bool] = []


def watch() -> None:
    """Note when touches lift (once per process; called by the strips when they are made, the window up)."""
    if _WATCHING:
        return
    from kivy.core.window import Window

    def lifted(*_: Any) -> None:
        _LAST_UP[0] = time.monotonic()

    Window.fbind("on_touch_up", lifted)
    _WATCHING.append(True)


def when_lifted(fn: Callable[..., Any]) -> bool:
    """True when no touch is down nor just lifted (go ahead now); else `fn` is called again in RETRY seconds and
    False."""
    from kivy.base import EventLoop

    watch()
    if EventLoop.touches or time.monotonic() - _LAST_UP[0] < SETTLE:
        Clock.unschedule(fn)
        Clock.schedule_once(fn, RETRY)
        return False
    return True
