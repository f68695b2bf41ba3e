"""A deadline clock that lives in engine state. Time is an input: every call takes the moment `at`
(epoch seconds, supplied by the session); the clock stores a deadline while running and the remaining
seconds while paused, so a replay after a restart restores the same deadline."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from engines.core import IllegalActionError


def _err(code: str, ko: str, en: str) -> IllegalActionError:
    return IllegalActionError(code, ko, en)


@dataclass(frozen=True)
class Clock:
    """`duration` in seconds. States: idle (never started) → running ⇄ paused; expired when run out."""

    duration: float
    remaining_s: float = -1.0  # remaining while idle/paused; -1 means "the full duration"
    deadline: float | None = None  # epoch seconds while running
    started: bool = False

    @property
    def running(self) -> bool:
        return self.deadline is not None

    def _left(self) -> float:
        return self.duration if self.remaining_s < 0 else self.remaining_s

    def remaining(self, at: float) -> float:
        if self.deadline is not None:
            return max(0.0, self.deadline - at)
        return max(0.0, self._left())

    def expired(self, at: float) -> bool:
        return self.started and self.remaining(at) <= 0.0

    def start(self, at: float) -> Clock:
        if self.started:
            raise _err("clock_started", "시계가 이미 시작됐어요.", "The clock has already started.")
        return dataclasses.replace(self, started=True, deadline=at + self._left(), remaining_s=-1.0)

    def pause(self, at: float) -> Clock:
        if self.deadline is None:
            raise _err("clock_not_running", "시계가 멈춰 있어요.", "The clock is not running.")
        return dataclasses.replace(self, deadline=None, remaining_s=max(0.0, self.deadline - at))

    def resume(self, at: float) -> Clock:
        if not self.started:
            raise _err("clock_not_started", "시계가 아직 시작되지 않았어요.", "The clock has not started yet.")
        if self.deadline is not None:
            raise _err("clock_running", "시계가 이미 가고 있어요.", "The clock is already running.")
        return dataclasses.replace(self, deadline=at + self._left(), remaining_s=-1.0)

    def add(self, seconds: float) -> Clock:
        """Add (or, negative, remove) time; never below zero remaining."""
        if self.deadline is not None:
            return dataclasses.replace(self, deadline=self.deadline + seconds)
        return dataclasses.replace(self, remaining_s=max(0.0, self._left() + seconds))

    def stop(self, at: float) -> Clock:
        """End the clock for good: paused with nothing left."""
        return dataclasses.replace(self, started=True, deadline=None, remaining_s=0.0)

    def to_view(self) -> dict[str, float | bool | None]:
        """What a screen needs to draw the clock with its own wall time."""
        return {"duration": self.duration, "running": self.running, "deadline": self.deadline,
                "remaining_paused": None if self.running else self._left(), "started": self.started}
