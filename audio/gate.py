"""The narration gate: a segment marked secret (a solution, a location card) can only be spoken after
an explicit reveal. The narrator checks it before any text goes to synthesis, the cache or captions."""

from __future__ import annotations

import threading

from audio.segments import Segment


class NarrationGate:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._revealed: set[str] = set()

    def reveal(self, segment_id: str) -> None:
        """The explicit reveal action (e.g. the table pressed "정답 공개")."""
        with self._lock:
            self._revealed.add(segment_id)

    def allows(self, segment: Segment) -> bool:
        if not segment.secret:
            return True
        with self._lock:
            return segment.id in self._revealed

    def reset(self) -> None:
        """A new game: every secret is locked again."""
        with self._lock:
            self._revealed.clear()
