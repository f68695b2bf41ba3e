"""Giving freed memory back to the system.

glibc keeps freed heap in each thread's arena: after the voice model loads (its word list is read through
~500,000 short-lived strings) and after every burst of perturbed decodes on the worker threads, tens of MB
stay resident though unused. `release()` (malloc_trim) returns them; called after such bursts, at most once
every `MIN_INTERVAL` seconds. Measured in bench/frames.py. A no-op where libc has no malloc_trim.
The kiosk's UI leaves the same behind as it redraws (widgets, labels' textures and surfaces, freed in small
pieces between live ones): `keep_trimming()` releases every few seconds from a thread of its own (~10 ms of
CPU for 180 MB, outside the GIL); without it the heap grew by ~150 MB per hour-equivalent of play.
What a trim gives back is zeroed by the kernel when it is used again (a page fault per 4 kB): the UI thread paid
that in the frames after each trim, building a screen's widgets and drawing its texts. So the kiosk shuts a gate
while guests touch the screen (`gate()`: kiosk/gc_policy.py): then a trim waits for them to pause, or until the last
is `HELD_MAX_S` old. bench/frames.py, one seed, alone: trims during play 23 -> 3 in ~2.5 minutes; guests' frames over
12.5 ms of UI-thread CPU 26-42 on the code before, 10-26 after (no trims at all: 10, RSS 699 MB against 650);
bench/memory.py peak 647 -> 651 MB. Frames that draw a new screen still fault in 600-1,900 pages in some runs.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable
from typing import Any

MIN_INTERVAL = 2.0
HELD_MAX_S = 60.0  # with the gate shut, a trim runs all the same once the last is this old

_lock = threading.Lock()
_last = -MIN_INTERVAL
_libc: Any = None
_gate: Callable[[], bool] | None = None  # True: a trim may run now (None: always)
COUNTS = {"trims": 0, "held": 0, "overdue": 0}  # trims run; held by the gate; run with it shut (the last too old)


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


def gate(may_trim: Callable[[], bool] | None) -> None:
    """`may_trim()` (called from any thread) says whether a trim may run now; None: always."""
    global _gate
    _gate = may_trim


def release(force: bool = False) -> bool:
    """malloc_trim(0) unless it ran less than MIN_INTERVAL s ago, or the gate is shut and it ran less than HELD_MAX_S
    ago; True when it ran."""
    global _last
    now = time.monotonic()
    with _lock:
        if not force and now - _last < MIN_INTERVAL:
            return False
        if not force and _gate is not None and not _gate():
            if now - _last < HELD_MAX_S:
                COUNTS["held"] += 1
                return False
            COUNTS["overdue"] += 1
        _last = now
    trim = _trim()
    if not trim:
        return False
    trim(0)
    COUNTS["trims"] += 1
    return True
