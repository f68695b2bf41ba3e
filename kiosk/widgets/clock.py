"""A game clock readable across the table: draws an engine Clock view (deadline / remaining) with the
wall clock; turns red under a minute; calls `on_threshold` once when 60 s and 0 s are reached."""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from typing import Any

from kivy.clock import Clock
from kivy.properties import NumericProperty
from kivy.uix.label import Label

from kiosk.widgets.theme import CLOCK, DANGER_TEXT, TEXT


def remaining_from_view(view: Mapping[str, Any], now: float) -> float:
    if view.get("running") and view.get("deadline") is not None:
        return max(0.0, float(view["deadline"]) - now)
    rem = view.get("remaining_paused")
    return float(rem) if rem is not None else float(view.get("duration", 0.0))


def format_mmss(seconds: float) -> str:
    s = int(seconds + 0.999)
    return f"{s // 60:d}:{s % 60:02d}"


class GameClock(Label):
    remaining = NumericProperty(0.0)

    def __init__(self, now: Callable[[], float] = time.time, **kw: Any) -> None:
        kw.setdefault("font_size", CLOCK)
        kw.setdefault("bold", True)
        super().__init__(**kw)
        self._now = now
        self._view: Mapping[str, Any] = {}
        self._fired: set[int] = set()
        self.on_threshold: Callable[[int], None] | None = None
        self._ev: Any = None
        self.bind(parent=self._on_parent)

    def _on_parent(self, _w: Any, parent: Any) -> None:
        """Tick only while on screen: a clock removed with its screen leaves nothing scheduled."""
        if parent is None:
            self.stop()
        elif self._ev is None:
            self._ev = Clock.schedule_interval(self._tick, 0.25)

    def show(self, view: Mapping[str, Any]) -> None:
        self._view = view
        self._tick(0)

    def _tick(self, _dt: float) -> None:
        if not self._view:
            return
        self.remaining = remaining_from_view(self._view, self._now())
        self.text = format_mmss(self.remaining)
        self.color = DANGER_TEXT if self.remaining <= 60 else TEXT
        if self._view.get("running"):
            for mark in (60, 0):
                if self.remaining <= mark and mark not in self._fired:
                    self._fired.add(mark)
                    if self.on_threshold is not None:
                        self.on_threshold(mark)

    def new_clock(self) -> None:
        """A different clock is shown from now on: its warnings may sound again."""
        self._fired = set()

    def stop(self) -> None:
        if self._ev is not None:
            self._ev.cancel()
            self._ev = None
