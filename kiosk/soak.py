"""Random-touch soak: thousands of touches on whatever is on screen (mostly on buttons, some anywhere,
some long holds), with the frame cap lifted. Reports events, screens visited, errors, stuck moments and
RSS over time. Used by the CI-sized test and, longer, by hand:

    python -m kiosk.soak --events 200000
"""

from __future__ import annotations

import argparse
import random
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


def rss_mb(trim: bool = True) -> float:
    """Resident memory; with `trim`, glibc first returns freed heap to the system (what is left is in use)."""
    if trim:
        try:
            import ctypes

            ctypes.CDLL("libc.so.6").malloc_trim(0)
        except (OSError, AttributeError):
            pass
    return _rss()


def _rss() -> float:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


@dataclass
class SoakReport:
    events: int = 0
    screens: Counter[str] = field(default_factory=Counter)
    errors: list[str] = field(default_factory=list)
    stuck: int = 0
    exits_blocked: int = 0
    rss: list[tuple[int, float]] = field(default_factory=list)
    seconds: float = 0.0

    def growth_mb(self) -> float:
        """RSS growth from the settled first quarter to the last quarter (medians)."""
        if len(self.rss) < 8:
            return 0.0
        values = [v for _, v in self.rss]
        q = len(values) // 4
        first = sorted(values[q: 2 * q])[q // 2]
        last = sorted(values[-q:])[q // 2]
        return last - first

    def lines(self) -> list[str]:
        out = [f"events: {self.events} in {self.seconds:.0f} s ({self.events / max(self.seconds, 1e-9):.0f}/s)",
               "screens visited: " + ", ".join(f"{k} {v}" for k, v in self.screens.most_common()),
               f"errors: {len(self.errors)}" + (f" (first: {self.errors[0]})" if self.errors else ""),
               f"stuck checks failed: {self.stuck}; exit attempts blocked: {self.exits_blocked}",
               "RSS MB over time: " + ", ".join(f"{n}:{v:.0f}" for n, v in self.rss),
               f"RSS growth (settled first quarter → last quarter): {self.growth_mb():+.1f} MB"]
        return out


def live_widgets(driver: Any, settle_s: float = 1.0) -> int:
    """Widgets alive after the table is reset and garbage collected: a leak of screens shows here first. Counted
    twice, `settle_s` of frames apart, the smaller kept: a widget held for a moment by a pending timer (a toast's
    fade, a dialog's timeout) is not a leak, one still there a second later is."""
    import gc
    import time

    from kivy.cache import Cache
    from kivy.uix.widget import Widget

    driver.app.keeper.new_table()
    counts = []
    for _ in range(2):
        end = time.monotonic() + settle_s
        driver.pump(4)
        while time.monotonic() < end:
            driver.pump(1)
        for category in list(getattr(Cache, "_categories", {})):  # what a quiet minute would expire anyway
            Cache.remove(category)
        gc.collect()
        counts.append(sum(1 for o in gc.get_objects() if issubclass(type(o), Widget)))  # type(): dead proxies skipped
    return min(counts)


def _touchables(driver: Any) -> list[Any]:
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.slider import Slider

    out = []
    for w in driver.walk():
        if isinstance(w, (ButtonBehavior, Slider)) and not w.disabled and w.opacity > 0 and w.width > 1:
            out.append(w)
    return out


def _light_pump() -> None:
    """Run the clock (scheduled callbacks, animations, layout and canvas updates) without drawing a frame."""
    from kivy.clock import Clock

    Clock.tick()
    Clock.tick_draw()


def run_soak(driver: Any, events: int, seed: int = 0, sample_every: int = 500, draw_every: int = 40) -> SoakReport:
    """`draw_every`: a real frame (GL draw) every that many events; between them the clock still runs."""
    from kivy.clock import Clock
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    app = driver.app
    rng = random.Random(seed)
    report = SoakReport()
    start_errors = len(app.errors)
    real_exit = app.exit_kiosk

    def blocked_exit() -> None:
        report.exits_blocked += 1

    app.exit_kiosk = blocked_exit
    old_fps = getattr(Clock, "_max_fps", 30)
    Clock._max_fps = 0  # no frame cap while soaking
    t0 = time.monotonic()
    targets: list[Any] = []
    try:
        for n in range(events):
            if n % 4 == 0:
                targets = _touchables(driver)
            if targets and rng.random() < 0.75:
                w = rng.choice(targets)
                x, y = w.to_window(*w.center)
                x += rng.uniform(-0.3, 0.3) * w.width
                y += rng.uniform(-0.3, 0.3) * w.height
            else:
                x, y = rng.uniform(0, Window.width), rng.uniform(0, Window.height)
            touch = UnitTestTouch(x, y)
            touch.touch_down()
            if rng.random() < 0.03:
                for _ in range(rng.randint(2, 8)):  # a long press
                    _light_pump()
            touch.touch_up()
            _light_pump()
            if n % draw_every == 0:
                driver.pump(1)
            report.screens[app.sm.current] += 1
            report.events += 1
            if n % 200 == 199 and not targets:
                report.stuck += 1
                app.keeper.new_table()
            if n % sample_every == 0:
                report.rss.append((n, rss_mb(trim=False)))
    finally:
        Clock._max_fps = old_fps
        app.exit_kiosk = real_exit
    driver.pump(5)
    report.rss.append((events, rss_mb(trim=False)))
    report.seconds = time.monotonic() - t0
    report.errors = app.errors[start_errors:]
    return report


def main() -> None:
    parser = argparse.ArgumentParser(description="random-touch soak of the kiosk (offscreen)")
    parser.add_argument("--events", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    from kiosk.testing import Driver, start_app

    driver = Driver(start_app(Path(tempfile.mkdtemp(prefix="tablehost-soak-"))))
    report = run_soak(driver, args.events, args.seed, sample_every=max(100, args.events // 40))
    print("\n".join(report.lines()))


if __name__ == "__main__":
    main()
