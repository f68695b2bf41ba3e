"""Giving freed memory back to the system.

glibc keeps freed heap in each thread's arena: after the voice model loads (its word list is read through
~500,000 short-lived strings) and after every burst of perturbed decodes on the worker threads, tens of MB
stay resident though unused. `release()` (malloc_trim) returns them; called after such bursts, at most once
every `MIN_INTERVAL` seconds. Measured in bench/frames.py. A no-op where libc has no malloc_trim.
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
