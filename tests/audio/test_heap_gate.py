"""The heap is given back to the system only when the kiosk's gate says the guests have paused, or once resident
memory has grown: what a trim gives back the next frames fault in again, page by page (audio/heap.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from audio import heap


@pytest.fixture
def trims(monkeypatch: Any) -> Iterator[list[int]]:
    """malloc_trim replaced by a counter, the rate limit's clock and the gate reset."""
    calls: list[int] = []
    monkeypatch.setattr(heap, "_libc", lambda pad: calls.append(pad))
    monkeypatch.setattr(heap, "_last", -heap.MIN_INTERVAL)
    monkeypatch.setattr(heap, "_after_mb", 0.0)
    yield calls
    heap.gate(None)


def test_a_shut_gate_holds_trims_until_memory_grows(trims: list[int], monkeypatch: Any) -> None:
    resident = [400.0]
    monkeypatch.setattr(heap, "resident_mb", lambda: resident[0])
    busy = [True]
    heap.gate(lambda: not busy[0])
    assert heap.release(force=True) is True and len(trims) == 1  # forced: the gate does not hold it
    monkeypatch.setattr(heap, "_last", -heap.MIN_INTERVAL)
    resident[0] += heap.GROWTH_MB - 1
    assert heap.release() is False and len(trims) == 1  # guests busy, memory grew a little: held
    resident[0] += 2
    assert heap.release() is True and len(trims) == 2  # grew GROWTH_MB since the last trim: runs all the same
    monkeypatch.setattr(heap, "_last", -heap.MIN_INTERVAL)
    resident[0] += 1
    assert heap.release() is False  # measured again after that trim
    busy[0] = False
    assert heap.release() is True and len(trims) == 3  # the guests paused
    assert heap.release() is False  # and the rate limit still holds


def test_without_a_gate_trims_run_as_before(trims: list[int]) -> None:
    heap.gate(None)
    assert heap.release() is True and heap.release() is False and len(trims) == 1


def test_resident_memory_is_read_from_the_system() -> None:
    assert 1 < heap.resident_mb() < 100_000
