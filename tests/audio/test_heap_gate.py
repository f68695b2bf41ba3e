"""The heap is given back to the system only when the kiosk's gate says the guests have paused, or once the last trim
is HELD_MAX_S old: what a trim gives back the next frames fault in again, page by page (audio/heap.py)."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from audio import heap


@pytest.fixture
def trims(monkeypatch: Any) -> Iterator[list[int]]:
    """malloc_trim replaced by a counter, the module's clock by one the test moves (`heap.time.now`)."""
    calls: list[int] = []
    import time

    clock = SimpleNamespace(now=1000.0, sleep=time.sleep)  # sleep: the trimming thread's, should it run here
    clock.monotonic = lambda: clock.now
    monkeypatch.setattr(heap, "time", clock)
    monkeypatch.setattr(heap, "_libc", lambda pad: calls.append(pad))
    monkeypatch.setattr(heap, "_last", -heap.MIN_INTERVAL)
    yield calls
    heap.gate(None)


def test_a_shut_gate_holds_trims_until_the_guests_pause_or_the_last_is_old(trims: list[int]) -> None:
    clock: Any = heap.time
    busy = [True]
    heap.gate(lambda: not busy[0])
    assert heap.release(force=True) is True and len(trims) == 1  # forced (the model's load): the gate does not hold it
    clock.now += heap.HELD_MAX_S - 1
    assert heap.release() is False and len(trims) == 1  # guests busy: held
    clock.now += 1
    assert heap.release() is True and len(trims) == 2  # the last is HELD_MAX_S old: runs all the same
    clock.now += heap.MIN_INTERVAL
    assert heap.release() is False  # held again, counted from that trim
    busy[0] = False
    assert heap.release() is True and len(trims) == 3  # the guests paused
    assert heap.release() is False  # and the rate limit still holds
    clock.now += heap.MIN_INTERVAL
    assert heap.release() is True and len(trims) == 4


def test_without_a_gate_trims_run_as_before(trims: list[int]) -> None:
    heap.gate(None)
    assert heap.release() is True and heap.release() is False and len(trims) == 1
