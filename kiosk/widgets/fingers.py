"""Nothing moves under a finger: a strip under the screens (the toast lane, the caption bar) that would give the
screen its room back waits while a touch is down. Closed between a press and its release, the screen grew, the
button pressed moved from under the finger and the tap was lost."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.clock import Clock

RETRY = 0.1  # seconds between looks while a finger is down


def when_lifted(fn: Callable[..., Any]) -> bool:
    """True when no touch is down (go ahead now); else `fn` is called again in RETRY seconds and False."""
    from kivy.base import EventLoop

    if EventLoop.touches:
        Clock.unschedule(fn)
        Clock.schedule_once(fn, RETRY)
        return False
    return True
