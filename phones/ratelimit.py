"""Token buckets for the phones' inputs and for failed joins (guessing a short code)."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable


class Bucket:
    """`burst` events at once, refilled at `rate` per second."""

    def __init__(self, burst: float, rate: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self.level = burst
        self.at = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.level = min(self.burst, self.level + (now - self.at) * self.rate)
        self.at = now

    def ready(self) -> bool:
        """Would one more event pass (without spending it)?"""
        self._refill()
        return self.level >= 1.0

    def take(self, n: float = 1.0) -> bool:
        self._refill()
        if self.level >= n:
            self.level -= n
            return True
        return False


class Limiter:
    """One bucket per key (a seat, a remote address), created on first use; at most `max_keys` kept."""

    def __init__(self, burst: float, rate: float, clock: Callable[[], float] = time.monotonic,
                 max_keys: int = 1024) -> None:
        self.burst, self.rate, self.clock, self.max_keys = burst, rate, clock, max_keys
        self.buckets: dict[Hashable, Bucket] = {}

    def _bucket(self, key: Hashable) -> Bucket:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.max_keys:
                self.buckets.pop(next(iter(self.buckets)))
            bucket = self.buckets[key] = Bucket(self.burst, self.rate, self.clock)
        return bucket

    def allow(self, key: Hashable, n: float = 1.0) -> bool:
        return self._bucket(key).take(n)

    def ready(self, key: Hashable) -> bool:
        return self._bucket(key).ready()
