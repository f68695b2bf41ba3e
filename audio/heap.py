"""Giving freed memory back to the system.

glibc keeps freed heap in each thread's arena: after the voice model loads (its word list is read through
~500,000 short-lived strings) and after every burst of perturbed decodes on the worker threads, tens of MB
stay resident though unused. `release()` (malloc_trim) returns them; called after such bursts, at most once
every `MIN_INTERVAL` seconds. Measured in bench/frames.py. A no-op where libc has no malloc_trim.
The kiosk's UI leaves the same behind as it redraws (widgets, labels' textures and surfaces, freed in small
pieces between live ones): `keep_trimming()` releases every few seconds from a thread of its own (~10 ms of
CPU for 180 MB, outside the GIL); without it the heap grew by ~150 MB per hour-equivalent of play.
"""

from __future__ import annotations

import ctypes
import threading
import time
from typing import Any

MIN_INTERVAL = 2.0

_lock = threading.Lock()
_last = -MIN_INTERVAL
_libc: Any = None


def _trim() -> Any:
    global _libc
    if _libc is None:
        try:
            _libc = ctypes.CDLL("libc.so.6").malloc_trim
        except (OSError, AttributeError):
            _libc = False
    return _libc


_trimmer: threading.Thread | None = None


def keep_trimming(interval: float = 10.0) -> None:
    """`release()` every `interval` seconds in a daemon thread (started once)."""
    global _trimmer
    if _trimmer is None:
        def loop() -> None:
            while True:
                time.sleep(interval)
                release()

        _trimmer = threading.Thread(target=loop, name="heap-trim", daemon=True)
        _trimmer.start()


def release(force: bool = False) -> bool:
    """malloc_trim(0) unless it ran less than MIN_INTERVAL s ago; True when it ran."""
    global _last
    now = time.monotonic()
    with _lock:
        if not force and now - _last < MIN_INTERVAL:
            return False
        _last = now
    trim = _trim()
    if not trim:
        return False
    trim(0)
    return True
