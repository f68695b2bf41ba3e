"""Run tests as if this machine were FACTOR times faster (CI's is faster than these): every clock of the test process
runs FACTOR times slower (time.time, time.monotonic, time.perf_counter and Kivy's Clock; time.sleep sleeps FACTOR
times longer), so work takes 1/FACTOR of its time here on the process's own clocks, while frames stay capped at 30
fps on them. A test that needs work to take long enough (a teaching run of at least a second, a timer that fires
within N frames) fails here as it would on the faster machine: at 3 the navigation test of test_teach_ui.py before
b23d999 fails as on CI (KeyError 'spyfall'). The slow side: bench/slowcpu.py. Not made faster: child processes,
C-level waits (threading.Event.wait's timeout), `from time import ...` bound before the patch (Kivy's touch times).

    cd <worktree> && /work/main/.venv/bin/python tests/fastclock.py 3 -q -p no:cacheprovider -n 0 tests/kiosk/x.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any


def dilate(factor: float) -> None:
    """Slow the time module's clocks by `factor` (before anything imports the project or Kivy)."""
    mono, wall, perf, sleep = time.monotonic, time.time, time.perf_counter, time.sleep
    m0, t0, p0 = mono(), wall(), perf()
    time.monotonic = lambda: m0 + (mono() - m0) / factor
    time.time = lambda: t0 + (wall() - t0) / factor
    time.perf_counter = lambda: p0 + (perf() - p0) / factor
    time.sleep = lambda s: sleep(max(0.0, s) * factor)


class KivyClock:
    """Kivy's Clock reads its own time function: slowed before each test (once it exists)."""

    def __init__(self, factor: float) -> None:
        self.factor = factor

    def pytest_runtest_setup(self, item: Any) -> None:
        from kivy.clock import Clock

        if getattr(Clock, "_dilated", False):
            return
        real = Clock.time  # (Clock is a proxy: attributes set go to the real clock)
        c0 = real()
        Clock.time = lambda: c0 + (real() - c0) / self.factor
        Clock._dilated = True


def main(argv: list[str]) -> int:
    factor = float(argv[0])
    dilate(factor)
    sys.path.insert(0, str(Path.cwd()))
    import pytest

    return int(pytest.main(argv[1:], plugins=[KivyClock(factor)]))


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
