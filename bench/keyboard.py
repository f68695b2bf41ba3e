"""On-screen keyboard latency: a tap on a key → the glyph on screen (the first buffer flip after the field's
text changed), in the real kiosk, offscreen, at its 30 fps cap.

Two fields: a Spyfall seat name (nothing else reacts) and the rule look-up ("?"), which searches all rule
pieces (in the frame after the change). Taps come 0.2 s apart, each at a random moment within a frame, as
a finger does; the figure
includes the wait for the next frame (up to 33 ms at 30 fps). Also printed: the key handler alone (the
composition and the field's text change) and the process CPU time per tap (the handler plus drawing the
frame; offscreen SDL draws with Mesa's software renderer here, a tablet's GPU does it in hardware), and the
load average, since the wall-clock figures stretch with whatever else the machine runs.
Usage: python bench/keyboard.py [taps per field=60]
"""

from __future__ import annotations

import os
import platform
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

WORD = "배트케이브 경찰 토큰 "  # cycled through: initials, vowels, finals that move, spaces
GAP = 0.2  # s between taps: about five keys a second, a quick tablet typist


def measure(driver: Any, field: Any, taps: int) -> tuple[list[float], list[float], list[float]]:
    from kivy.base import EventLoop
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    from kiosk.hangul import keystrokes

    keys = [("space" if k == " " else k) for k in keystrokes(WORD)]
    total: list[float] = []
    cpu: list[float] = []
    handler: list[float] = []
    flips = [0]
    Window.bind(on_flip=lambda *_: flips.__setitem__(0, flips[0] + 1))
    host = driver.app.keyboard
    press = host.press

    def timed_press(name: str) -> None:
        start = time.perf_counter()
        press(name)
        handler.append((time.perf_counter() - start) * 1000)

    host.press = timed_press
    host.widget.on_key = timed_press
    i = 0
    while len(total) < taps:
        key = keys[i % len(keys)]
        i += 1
        if len(field.text) > 40:
            field.text = ""
            driver.pump(2)
        button = driver.find(f"kb_{key}")
        x, y = button.to_window(*button.center)
        time.sleep(random.uniform(0, 1 / 30))  # a finger is not in step with the frames
        before = field.text
        touch = UnitTestTouch(x, y)
        t0, c0 = time.perf_counter(), time.process_time()
        EventLoop._dispatch_input("begin", touch)  # queued like an SDL touch, read by the next frame
        while True:
            seen = flips[0]
            EventLoop.idle()
            if field.text != before and flips[0] > seen:
                break
        total.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.process_time() - c0) * 1000)
        EventLoop._dispatch_input("end", touch)
        driver.wait(GAP)  # the finger moves on to the next key; work deferred to later frames runs here
    host.press = press
    host.widget.on_key = press
    return total, handler[-len(total):], cpu


def report(name: str, total: list[float], handler: list[float], cpu: list[float]) -> None:
    def p95(xs: list[float]) -> float:
        return sorted(xs)[max(0, int(len(xs) * 0.95) - 1)]

    print(f"{name:<22} {len(total):>4} taps  tap→glyph median {statistics.median(total):6.1f} ms  "
          f"p95 {p95(total):6.1f} ms  |  handler median {statistics.median(handler):5.1f} p95 {p95(handler):5.1f} ms"
          f"  |  CPU per tap median {statistics.median(cpu):5.1f} p95 {p95(cpu):5.1f} ms")


def main() -> None:
    taps = int(sys.argv[1]) if len(sys.argv) > 1 else 60
    random.seed(7)
    from kiosk.testing import Driver, start_app

    app = start_app(Path(tempfile.mkdtemp(prefix="tablehost-bench-kb-")))
    driver = Driver(app)
    app.host("spyfall")
    driver.wait_screen("host")
    field = driver.find("spy_name_0")
    driver.tap(field)
    report("Spyfall seat name", *measure(driver, field, taps))
    driver.tap("kb_done")
    driver.wait_for(lambda: not app.keyboard.visible)
    from kiosk.teach.lookup import index

    index()  # built once, on the first query after start (≈1 s of YAML): not part of a keystroke
    driver.tap("help")
    field = driver.find("lookup_input")
    driver.tap(field)
    report("rule look-up (search)", *measure(driver, field, taps))
    print(f"machine: {platform.machine()}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, "
          "offscreen SDL (software GL), 30 fps cap")


if __name__ == "__main__":
    main()
