"""Building a screen in pieces, one per drawn frame, instead of all in the frame of the tap.

A Kivy widget costs about a millisecond of UI-thread CPU to make here (a text field ~5-10 ms: its kv rules,
bindings, canvas and cursor), several on a tablet. A screen that makes dozens in the frame of the tap that
opened it shows that frame late (Spyfall's set-up form: eight name fields). `Pieces` runs what the first
frame does not need in the frames after it, one piece per frame that was drawn (never two in one frame), and
`finish()` runs what is left at once when something needs it now (a tap on a control the rest depends on).
"""

from __future__ import annotations

import weakref
from collections import deque
from collections.abc import Callable
from typing import Any

from kivy.clock import Clock

_BUILDING: weakref.WeakSet[Pieces] = weakref.WeakSet()  # those with a piece waiting for its frame
_RAN = [-1]  # Clock.frames_displayed when a piece (of any screen) last ran


def building() -> bool:
    """A screen is being built in pieces: its frames carry a piece each (kiosk/gc_policy.py collects in none of
    them: a Mr. Jack opening's frame with both was 61 ms of UI-thread CPU in bench/frames.py)."""
    return any(p._event is not None for p in _BUILDING)


def ran_in_this_frame() -> bool:
    """A piece (of any screen) ran in this frame already: another piece of work waits for the next one."""
    return bool(_RAN[0] == Clock.frames_displayed)


class Pieces:
    def __init__(self) -> None:
        self._todo: deque[Callable[[], Any]] = deque()
        self._drawn = -1  # Clock.frames_displayed when the last piece ran or the first was asked for
        self._event: Any = None

    def __len__(self) -> int:
        return len(self._todo)

    def add(self, fn: Callable[[], Any]) -> None:
        """Run `fn` in a later frame, after the pieces added before it."""
        self._todo.append(fn)
        if self._event is None:
            self._drawn = Clock.frames_displayed
            self._event = Clock.schedule_once(self._next, 0)
            _BUILDING.add(self)

    def _next(self, _dt: float) -> None:
        self._event = None
        if not self._todo:
            return
        if Clock.frames_displayed != self._drawn:  # not in the frame that asked or ran the last piece
            self._todo.popleft()()
            self._drawn = _RAN[0] = Clock.frames_displayed
        if not self._todo:
            _BUILDING.discard(self)
        elif self._event is None:  # (a piece that added one scheduled it already)
            self._event = Clock.schedule_once(self._next, 0)

    def finish(self) -> None:
        """Run every piece left, now."""
        self.cancel_event()
        while self._todo:
            self._todo.popleft()()

    def cancel(self) -> None:
        """Drop what is left (the screen is gone)."""
        self.cancel_event()
        self._todo.clear()

    def cancel_event(self) -> None:
        if self._event is not None:
            self._event.cancel()
            self._event = None
        _BUILDING.discard(self)
