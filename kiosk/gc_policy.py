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
What the first visits would make and keep anyway (the game screens' modules and kv rules, the library, game
page and host frame: ~30,000 objects) is made first, one step per frame (`settle_after`), so it is frozen
too: made after the freeze, every full collection traversed it again (a full collection during play
14-40 → 3-14 ms of UI-thread CPU here, after visiting each game's screen).
"""

from __future__ import annotations

import gc
import logging
from collections.abc import Callable, Iterable
from typing import Any

from audio import heap

log = logging.getLogger(__name__)

THRESHOLDS = (700, 2, 1)


def settle() -> int:
    """Collect, freeze and set the thresholds; returns how many objects were frozen."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    heap.keep_trimming()
    return gc.get_freeze_count()


def settle_after(steps: Iterable[Callable[[], Any]], done: Callable[[int], Any] | None = None) -> None:
    """Run `steps` on the UI thread, one per frame (a failing step is logged and skipped), then `settle()`;
    `done(frozen)` after it."""
    from kivy.clock import Clock

    todo = iter(steps)

    def step(_dt: float) -> None:
        for fn in todo:
            try:
                fn()
            except Exception:
                log.exception("warm-up step %r failed", fn)
            Clock.schedule_once(step, 0)
            return
        frozen = settle()
        if done is not None:
            done(frozen)

    Clock.schedule_once(step, 0)
