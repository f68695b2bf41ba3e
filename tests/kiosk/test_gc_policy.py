"""kiosk.gc_policy.IdleCollector: full collections in the guests' pauses, never under a finger, and bounded."""

from __future__ import annotations

import gc
import weakref
from typing import Any

from kiosk import gc_policy
from kiosk.gc_policy import BOUND, CALM_CPU, CALM_FRAMES, IDLE_S, MIN_YOUNGER, QUIET_S, IdleCollector


class Fake:
    """A frame at a time: the clock, the UI thread's CPU, the input and the collector's generation counts."""

    def __init__(self) -> None:
        self.now, self.cpu, self.pending, self.younger, self.runs, self.moving = 100.0, 0.0, False, 0, 0, False

    def collector(self) -> IdleCollector:
        def collect() -> None:
            self.runs += 1
            self.younger = 0

        return IdleCollector(clock=lambda: self.now, pending=lambda: self.pending, cpu=lambda: self.cpu,
                             counts=lambda: (0, 0, self.younger), collect=collect, moving=lambda: self.moving)

    def frames(self, c: IdleCollector, seconds: float, cpu: float = 0.0005) -> list[str]:
        """Frames at 60 a second for `seconds`, each costing `cpu`: what the collector did in each."""
        out = []
        for _ in range(round(seconds * 60)):
            self.now += 1 / 60
            self.cpu += cpu
            out.append(c.tick())
        return out


def test_collects_once_the_guests_pause_and_only_when_there_is_something_new() -> None:
    f = Fake()
    c = f.collector()
    f.younger = MIN_YOUNGER
    assert set(f.frames(c, IDLE_S - 0.05)) == {""} and f.runs == 0  # touched less than IDLE_S ago
    assert "idle" in f.frames(c, 0.1) and f.runs == 1
    assert set(f.frames(c, 10)) == {""} and f.runs == 1  # nothing allocated since: no collection every second
    f.younger = MIN_YOUNGER - 1
    assert set(f.frames(c, 10)) == {""}  # too little new to be worth traversing the heap in a pause
    f.younger = MIN_YOUNGER
    c.note_input()
    assert set(f.frames(c, 0.5)) == {""}
    assert "idle" in f.frames(c, 0.6) and f.runs == 2


def test_not_while_the_screen_is_still_busy_after_the_tap() -> None:
    """A tap whose screen takes long to settle (slow frames after it, on a slow or loaded tablet): the pause
    starts once CALM_FRAMES light frames in a row were drawn."""
    f = Fake()
    c = f.collector()
    f.younger = BOUND - 1
    c.note_input()
    assert set(f.frames(c, IDLE_S + 1, cpu=CALM_CPU * 2)) == {""}  # 2 s of busy frames, untouched
    whys = f.frames(c, 0.2)
    assert whys.index("idle") == CALM_FRAMES - 1  # the CALM_FRAMES-th light frame in a row
    f.younger, f.moving = MIN_YOUNGER, True  # a screen sliding in, a dialog opening: light frames, but moving
    assert set(f.frames(c, 2)) == {""}
    f.moving = False
    assert f.frames(c, 1 / 60) == ["idle"]


def test_never_with_input_pending_even_past_the_bound() -> None:
    f = Fake()
    c = f.collector()
    f.younger, f.pending = BOUND * 3, True  # a finger held down (a hand-over) or a touch queued
    assert set(f.frames(c, 60)) == {""} and f.runs == 0
    f.pending = False
    assert f.frames(c, 1 / 60) == ["idle"] and f.runs == 1


def test_bounded_while_the_guests_keep_tapping() -> None:
    """Taps every 0.4 s, never a pause: once the garbage reaches the bound, the next quiet moment (QUIET_S after
    a tap, nothing pending) collects."""
    f = Fake()
    c = f.collector()
    whys = []
    for _ in range(200):
        c.note_input()
        f.younger += 1
        whys += f.frames(c, 0.4)
        assert f.younger <= BOUND
    assert whys.count("bound") == f.runs >= 200 // BOUND - 1 and "idle" not in whys
    f.younger = BOUND
    c.note_input()
    assert set(f.frames(c, QUIET_S - 0.05)) == {""}  # not in the frames right after a tap, though past the bound


def _cycle() -> Any:
    a: dict[str, Any] = {}
    a["self"] = a
    return a


class Cycle:
    def __init__(self) -> None:
        self.me = self


def test_in_the_kiosk_a_held_finger_defers_the_full_collection_to_the_pause(driver: Any) -> None:
    """The collector hears the Window's touches; Python's own full collections wait for the backstop; with a
    finger down past the bound nothing collects; lifted, the next quiet moment does. Fails on the code before
    (Python's thresholds (700, 2, 1): full collections in whichever frame crossed them)."""
    from kivy.tests.common import UnitTestTouch

    full: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 2:
            full.append(info["collected"])

    thresholds = gc.get_threshold()
    collector = IdleCollector(idle_s=30.0).install()
    gc.callbacks.append(watch)
    touch = None
    try:
        assert gc.get_threshold() == gc_policy.THRESHOLDS and gc_policy.THRESHOLDS[2] == gc_policy.BACKSTOP
        gc.collect()
        full.clear()
        touch = UnitTestTouch(2, 2)
        touch.touch_down()
        survivor = Cycle()
        kept = [survivor]  # alive through a generation-1 collection, so it reaches generation 2
        while gc.get_count()[2] < BOUND + 2:
            kept.append([_cycle() for _ in range(300)])
            driver.pump(1)
        gone = weakref.ref(survivor)
        del kept, survivor
        driver.wait(QUIET_S + 0.5)
        assert full == [] and gone() is not None  # the finger is still down
        touch.touch_up()
        touch = None
        driver.wait_for(lambda: bool(full), timeout=QUIET_S + 2.0)
        assert gone() is None and collector.collected["bound"] == 1
    finally:
        if touch is not None:
            touch.touch_up()
        gc.callbacks.remove(watch)
        collector.uninstall()
    assert gc.get_threshold() == thresholds
