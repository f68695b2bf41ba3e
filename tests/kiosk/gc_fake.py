"""A fake frame clock, input and collector counts for kiosk.gc_policy.IdleCollector's tests."""

from __future__ import annotations

from typing import Any

from kiosk.gc_policy import MIN_YOUNGER, IdleCollector


class Fake:
    """A frame at a time: the clock, the UI thread's CPU, the input and the collector's generation counts."""

    def __init__(self) -> None:
        self.now, self.cpu, self.pending, self.younger, self.runs, self.moving = 100.0, 0.0, False, 0, 0, False
        self.young_runs = 0  # collections of the young generations only
        self.key: Any = None  # the game's screen built (a key) and whether it is on show with its game on
        self.shown = ""
        self.young, self.frozen, self.thawed = 0, 1000, 0  # objects not frozen, frozen; thaws

    def collector(self, thaw_at: int = 0, take_apart: Any = None) -> IdleCollector:
        def collect() -> None:
            self.runs += 1
            self.younger = 0

        def collect_young() -> None:
            self.young_runs += 1

        def freeze() -> None:
            self.frozen, self.young = self.frozen + self.young, 0

        def unfreeze() -> None:
            self.thawed += 1
            self.frozen, self.young = 0, self.frozen + self.young

        return IdleCollector(clock=lambda: self.now, pending=lambda: self.pending, cpu=lambda: self.cpu,
                             counts=lambda: (0, 0, self.younger), collect=collect, collect_young=collect_young,
                             moving=lambda: self.moving,
                             screen=lambda: (self.key, self.shown), freeze=freeze, unfreeze=unfreeze,
                             frozen=lambda: self.frozen, unfrozen=lambda: self.young, thaw_at=thaw_at,
                             take_apart=take_apart)

    def show(self, key: Any, shown: str = "play", objects: int = 30_000) -> None:
        """A game's screen built (`objects` of it), its game on; some collections' worth of garbage."""
        self.key, self.shown, self.young, self.younger = key, shown, self.young + objects, MIN_YOUNGER

    def frames(self, c: IdleCollector, seconds: float, cpu: float = 0.0005) -> list[str]:
        """Frames at 60 a second for `seconds`, each costing `cpu`: what the collector did in each."""
        out = []
        for _ in range(round(seconds * 60)):
            self.now += 1 / 60
            self.cpu += cpu
            out.append(c.tick())
        return out


class Named:
    def __init__(self, name: str) -> None:
        self.name = name
        self.me = self  # cyclic, as a widget is
