"""Python's cycle collector, tuned for a UI that rebuilds widgets.

Kivy widgets live in reference cycles (parent ↔ children, bindings), so a screen's discarded widgets are
freed only by a full (generation-2) collection. With the default thresholds one ran every ~15 refreshes
and traversed every object of the process (~220,000: content, catalogs, screens): 180-280 ms of UI-thread
CPU in one frame (measured with gc.callbacks while refreshing game screens). `settle()`, once the kiosk is
up: one collection, then `gc.freeze()` moves what exists into the permanent generation (never traversed
again; what is in it is still freed by reference counting), and full collections run after every second
generation-1 one: each then frees about one refresh's garbage, 5-25 ms.
A frozen object that later becomes cyclic garbage stays: only the start-up screens are frozen, once.
What the collector frees stays in glibc's heap unless given back: `settle()` also starts
`audio.heap.keep_trimming()`.
"""

from __future__ import annotations

import gc

from audio import heap

THRESHOLDS = (700, 2, 1)


def settle() -> int:
    """Collect, freeze and set the thresholds; returns how many objects were frozen."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    heap.keep_trimming()
    return gc.get_freeze_count()
