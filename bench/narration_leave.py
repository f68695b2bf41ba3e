"""Leave → silence with the sound on (issue 16): the real kiosk offscreen, its narrator playing into the fake
device, a Watson & Holmes case opening being read; then a guest leaves the screen (뒤로), ends the game, or
the table is turned over. Measured: from the release of the tap (buttons act on release) to the moment the last audible sample has left the device
buffer. Baseline in the same run: a plain narrator stop (the stop → silence figure of bench/narration.py).

    python -m bench.narration_leave [--runs 10]

Prints figures; asserts nothing. Goal: leave → silence ≤ 50 ms median."""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any


def _until_heard(driver: Any, dev: Any, since: float) -> None:
    driver.wait_for(lambda: dev.first_audible_after(since) is not None, 20)
    driver.wait(0.3)


def _silence_after(driver: Any, narrator: Any, dev: Any, t0: float) -> float:
    driver.wait_for(lambda: not narrator.busy, 5)
    driver.wait(0.1)
    end = dev.silent_from()
    return max(0.0, (end or t0) - t0)


def _release_on(driver: Any, test_id: str) -> float:
    """Tap a button; returns the moment of the release (buttons act on release, as a finger lifts)."""
    touch = driver._touch(driver.find(test_id))
    touch.touch_down()
    driver.pump(1)
    t0 = time.perf_counter()
    touch.touch_up()
    driver.pump(2)
    return t0


def _open(driver: Any) -> None:
    driver.app.host("watson_holmes")
    driver.wait_screen("host")
    driver.tap("wh_case_case_01")
    driver.tap("wh_start")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args(argv)
    os.environ["TABLEHOST_AUDIO_DEVICE"] = "fake"
    os.environ.setdefault("TABLEHOST_NO_VOICE", "1")
    os.environ.setdefault("TABLEHOST_PHONES_HOST", "127.0.0.1")
    from kiosk.testing import Driver, start_app

    app = start_app(Path(tempfile.mkdtemp(prefix="bench-leave-")))
    driver = Driver(app)
    narrator = app.narration.narrator
    dev = narrator.mixer._device
    figures: dict[str, list[float]] = {"stop (baseline)": [], "back": [], "end game": [], "turnover": []}
    for i in range(args.runs):
        for how in figures:
            app.reset_for(Path(tempfile.mkdtemp(prefix=f"bench-leave-{i}-")))
            driver.pump(3)
            t = time.perf_counter()
            _open(driver)
            _until_heard(driver, dev, t)
            t0 = time.perf_counter()
            if how == "stop (baseline)":
                narrator.stop()
            elif how == "back":
                t0 = _release_on(driver, "host_back")
            elif how == "end game":
                driver.tap("host_end")
                t0 = _release_on(driver, "confirm_yes")  # 예 in the confirmation is the leave
            else:
                app.reset_for(Path(tempfile.mkdtemp(prefix=f"bench-turnover-{i}-")))
            figures[how].append(_silence_after(driver, narrator, dev, t0))
    base = statistics.median(figures["stop (baseline)"])
    print(f"{'leave by':<18}{'median':>10}{'max':>10}{'÷ stop':>9}   (runs: {args.runs}, fake device buffer 30 ms)")
    for how, xs in figures.items():
        med = statistics.median(xs)
        print(f"{how:<18}{med * 1000:>7.1f} ms{max(xs) * 1000:>7.1f} ms{med / base if base else 0:>9.2f}")
    print("goal: leave → silence ≤ 50 ms median")
    app.stop()


if __name__ == "__main__":
    main()
