"""Cold start: the kiosk vs a bare Kivy app showing one Label, alternated in one run.

Each run is a fresh process (offscreen, no display). The child reports the wall time from just before the
parent spawned it to (1) its first buffer flip — the kiosk's splash — and (2) "ready": the kiosk's first
flip with the attract screen up and the app started (touches go to it), the bare app's first flip; the
process's CPU time (all threads) at both; its RSS at ready; and for the kiosk (3) "content": the first flip
with the content library in (loaded in the background after ready) and the games' tiles on the attract screen. Prints medians and each as a ratio to the bare app's first
frame (wall and CPU; CPU time does not count waiting for a core on a shared machine).

Python modules run from their bytecode as in the installed kiosk (pip compiles them at install): the children
write and reuse it in a cache folder of their own, even under PYTHONDONTWRITEBYTECODE.
Usage: python bench/startup.py [runs=5] [--slow 4]   (--slow: pinned to one core at a quarter of it, bench/slowcpu.py)
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
from typing import Any

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

marks = {}

def tiles_drawn(*_):
    # each flip after ready: the first with the content in and the games' tiles on the attract screen
    app = App.get_running_app()
    if not getattr(app, "library_ready", lambda: True)():  # (a kiosk that loads content before ready has none)
        return
    if app.sm.current == "attract" and not app.sm.current_screen.ids.marks.children:
        return  # the games' tiles not made yet
    Window.unbind(on_flip=tiles_drawn)
    marks["content_s"] = time.time() - t_spawn
    marks["content_cpu_s"] = time.process_time()
    import threading
    marks["threads_at_content"] = sorted(t.name for t in threading.enumerate())
    print(json.dumps(marks), flush=True)
    Clock.schedule_once(lambda dt: app.stop(), 0)

def on_flip(*_):
    now = time.time() - t_spawn
    if "first_frame_s" not in marks:
        marks["first_frame_s"] = now
        marks["first_frame_cpu_s"] = time.process_time()
        if os.environ.get("SPLASH_SHOT"):  # tests: a picture of the first frame
            Window.screenshot(name=os.environ["SPLASH_SHOT"])
    app = App.get_running_app()
    ready = mode == "bare" or (app is not None and getattr(app, "splash", 1) is None
                               and getattr(app, "sm", None) is not None and app.sm.current == "attract")
    if ready and app is not None:
        Window.unbind(on_flip=on_flip)
        marks["ready_s"] = now
        marks["ready_cpu_s"] = time.process_time()
        marks["rss_mb"] = rss_mb()
        if mode == "bare":
            print(json.dumps(marks), flush=True)
            Clock.schedule_once(lambda dt: app.stop(), 0)
        else:
            marks["screens_at_ready"] = list(app.sm.screen_names)
            marks["content_at_ready"] = getattr(app, "library_ready", lambda: True)()
            Window.bind(on_flip=tiles_drawn)

Window.bind(on_flip=on_flip)
if mode == "bare":
    from kivy.uix.label import Label
    class Bare(App):
        def build(self):
            return Label(text="Hello")
    Bare().run()
else:
    from pathlib import Path
    from kiosk.splash import start_kiosk
    start_kiosk(Path(os.environ["TABLEHOST_DATA"])).run()
"""


def one(mode: str, data: str) -> dict[str, Any]:
    env = {**os.environ, "TABLEHOST_DATA": data, "PYTHONPATH": str(ROOT),
           "PYTHONPYCACHEPREFIX": str(Path(data) / "pycache")}
    env.setdefault("TABLEHOST_PIN", "0000")  # as an install sets it: else the kiosk starts on the PIN's screen
    env.pop("DISPLAY", None)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
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
    import argparse

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", type=int, nargs="?", default=5, help="runs per app (alternated)")
    ap.add_argument("--slow", type=float, default=0.0, metavar="FACTOR",
                    help="the runs pinned to one core under a CPU quota of 1/FACTOR of it (bench/slowcpu.py; root)")
    ap.add_argument("--core", type=int, help="with --slow: the core (default the last)")
    args = ap.parse_args()
    runs = args.runs
    if args.slow:
        sys.path.insert(0, str(ROOT))
        from bench.slowcpu import slow_down

        print(f"slowed CPU (the children inherit it): {slow_down(args.slow, args.core)}", flush=True)
    data = tempfile.mkdtemp(prefix="tablehost-bench-")
    one("kiosk", data)  # warm the OS file cache and Kivy's home once; not counted
    results: dict[str, list[dict[str, Any]]] = {"bare": [], "kiosk": []}
    for _ in range(runs):
        for mode in ("bare", "kiosk"):
            results[mode].append(one(mode, data))
    def med(mode: str, key: str) -> float:
        return statistics.median(r[key] for r in results[mode])

    print(f"runs per app: {runs} (alternated); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    for m in ("bare", "kiosk"):
        first = ", ".join(f"{r['first_frame_s']:.3f}" for r in results[m])
        ready = ", ".join(f"{r['ready_s']:.3f}" for r in results[m])
        print(f"{m:6s} first frame median {med(m, 'first_frame_s'):.3f} s [{first}] (CPU {med(m, 'first_frame_cpu_s'):.3f} s); "
              f"ready median {med(m, 'ready_s'):.3f} s [{ready}] (CPU {med(m, 'ready_cpu_s'):.3f} s); "
              f"RSS median {med(m, 'rss_mb'):.1f} MB")
    print(f"kiosk content in (background, after ready): median {med('kiosk', 'content_s'):.3f} s "
          f"(CPU {med('kiosk', 'content_cpu_s'):.3f} s)")
    for label, key in (("wall", "_s"), ("CPU", "_cpu_s")):
        bare = med("bare", "first_frame" + key)
        print(f"kiosk/bare ({label}): first frame (splash) {med('kiosk', 'first_frame' + key) / bare:.2f}x (goal <= 1.3x), "
              f"ready (attract screen) {med('kiosk', 'ready' + key) / bare:.2f}x (goal <= 2.0x)")
        print(f"kiosk/bare ({label}): the library usable (content in, the games' tiles drawn) "
              f"{med('kiosk', 'content' + key) / bare:.2f}x (goal <= 2.5x)")
    print(f"RSS at ready kiosk/bare {med('kiosk', 'rss_mb') / med('bare', 'rss_mb'):.2f}x")

if __name__ == "__main__":
    main()
