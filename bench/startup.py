"""Cold start to first frame: the kiosk vs a bare Kivy app showing one Label, alternated in one run.

Each run is a fresh process (offscreen, no display). The child reports the wall time from just before
the parent spawned it to the first buffer flip, and its RSS at that moment. Prints medians and ratios.
Usage: python bench/startup.py [runs=5]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = r"""
import json, os, sys, time
t_spawn = float(sys.argv[2])
mode = sys.argv[1]
sys.path.insert(0, sys.argv[3])
from kiosk import env
env.configure(headless=True)
env.apply_config()
from kivy.core.window import Window
from kivy.app import App
from kivy.clock import Clock

def rss_mb():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0

def first_flip(*_):
    Window.unbind(on_flip=first_flip)
    print(json.dumps({"first_frame_s": time.time() - t_spawn, "rss_mb": rss_mb()}), flush=True)
    Clock.schedule_once(lambda dt: App.get_running_app().stop(), 0)

Window.bind(on_flip=first_flip)
if mode == "bare":
    from kivy.uix.label import Label
    class Bare(App):
        def build(self):
            return Label(text="Hello")
    Bare().run()
else:
    from kiosk.app import TableHostApp, register_fonts
    register_fonts()
    TableHostApp().run()
"""


def one(mode: str, data: str) -> dict[str, float]:
    env = {**os.environ, "TABLEHOST_DATA": data, "PYTHONPATH": str(ROOT)}
    env.pop("DISPLAY", None)
    script = Path(data) / "child.py"
    if not script.exists():
        script.write_text(CHILD, encoding="utf-8")
    t0 = time.time()
    out = subprocess.run([sys.executable, str(script), mode, repr(t0), str(ROOT)], env=env, capture_output=True,
                         text=True, timeout=120)
    for line in out.stdout.splitlines():
        if line.startswith("{"):
            return dict(json.loads(line))
    raise RuntimeError(f"{mode} run failed:\n{out.stderr[-2000:]}")


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 5
    data = tempfile.mkdtemp(prefix="tablehost-bench-")
    one("kiosk", data)  # warm the OS file cache and Kivy's home once; not counted
    results: dict[str, list[dict[str, float]]] = {"bare": [], "kiosk": []}
    for _ in range(runs):
        for mode in ("bare", "kiosk"):
            results[mode].append(one(mode, data))
    med = {m: statistics.median(r["first_frame_s"] for r in rs) for m, rs in results.items()}
    rss = {m: statistics.median(r["rss_mb"] for r in rs) for m, rs in results.items()}
    print(f"runs per app: {runs} (alternated)")
    for m in ("bare", "kiosk"):
        times = ", ".join(f"{r['first_frame_s']:.3f}" for r in results[m])
        print(f"{m:6s} first frame median {med[m]:.3f} s  [{times}]  RSS median {rss[m]:.1f} MB")
    print(f"ratio kiosk/bare: time {med['kiosk'] / med['bare']:.2f}x, RSS {rss['kiosk'] / rss['bare']:.2f}x")


if __name__ == "__main__":
    main()
