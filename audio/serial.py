"""One worker thread that runs queued calls in order: how the voice controller keeps recogniser work off
the thread that calls it (the kiosk's UI thread)."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)
_Item = tuple[Callable[..., None], tuple[Any, ...]] | None


class Serial:
    def __init__(self, name: str) -> None:
        self._queue: queue.SimpleQueue[_Item] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._stopped = False
        self._thread.start()

    def _serve(self) -> None:
        while (item := self._queue.get()) is not None:
            fn, args = item
            try:
                fn(*args)
            except Exception:  # one bad call must not end the worker
                log.exception("%s: %s failed", self._thread.name, getattr(fn, "__name__", fn))

    def post(self, fn: Callable[..., None], *args: Any) -> bool:
        """Queue `fn(*args)` and return True; False when called on the worker itself or after `stop` (the
        caller then runs it now)."""
        if self._stopped or threading.current_thread() is self._thread:
            return False
        self._queue.put((fn, args))
        return True

    def backlog(self) -> int:
        """Calls queued and not yet started (approximate)."""
        return self._queue.qsize()

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Until everything queued so far has run."""
        done = threading.Event()
        if not self.post(done.set):
            return True
        return done.wait(timeout)

    def stop(self) -> None:
        """The worker ends after what is queued."""
        if not self._stopped:
            self._stopped = True
            self._queue.put(None)
