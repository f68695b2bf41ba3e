"""The counter's memory of the last few counted problems (engines.clue.counting.Counter).

An update that taught counting nothing (a pass on cards already crossed out, a card shown to someone else
that was already placed) is answered from here instead of being counted again. The key is the whole
counted problem (every mark, the open numbered marks, the wrong accusations, hand sizes, budget): same
key, same exact answer. Thread-safe (the tutor counts on worker threads)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Generic, TypeVar

SIZE = 8  # counted problems remembered (one per seat at a table)
STATES = 20_000  # problems with more states (the sampler's layers) are not remembered (memory)

T = TypeVar("T")


class Memory(Generic[T]):
    def __init__(self, size: int = SIZE) -> None:
        self.size = size
        self._items: OrderedDict[tuple[object, ...], T] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: tuple[object, ...]) -> T | None:
        with self._lock:
            hit = self._items.get(key)
            if hit is not None:
                self._items.move_to_end(key)
            return hit

    def put(self, key: tuple[object, ...], value: T) -> None:
        with self._lock:
            self._items[key] = value
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()
