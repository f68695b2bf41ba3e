"""bench/frames.py's probes: what the slow frames spent their time on (`--why-slow`: cProfile, `--sample`: a stack
sampler that leaves the timing nearly as it is), tap -> drawn wall times, and old against new in one run (`--old REV`:
the same bench on another checkout, side by side)."""

from __future__ import annotations

import contextlib
import cProfile
import json
import os
import pstats
import resource
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WHY_SLOW = 0.0  # --why-slow: profile every frame, keep the profiles of those over this much UI-thread CPU (s)
PROFILES: list[tuple[float, str, str]] = []  # (UI-thread CPU s, what the frame did, its top functions)
WALL: dict[str, list[float]] = {}  # wall s of the guests' taps and actions: tap (or action) -> the frame drawn
ISSUED = [0.0]  # perf_counter when the frame's drawing was issued (its on_flip, before GL finishes drawing it)
SAMPLE = 0.0  # --sample: keep the stack samples of the frames over this much UI-thread CPU (s)
SAMPLES: list[tuple[float, str, str]] = []  # (UI-thread CPU s, what the frame did, where its samples were)
RUSAGE: list[Any] = [None]  # the UI thread's resource usage at the frame's start (--sample)
LOG: list[Any] = []  # --log: the open file every named frame is written to (time, CPU ms, wall ms, what)
SLOW_AT: list[tuple[float, float, str, str]] = []  # frames over 25 ms: (start, end: time.monotonic, kind, what)


DRAWN: dict[int, int] = {}  # this frame's texts drawn: id(label) -> times
TWICE = {"frames": 0, "texts": 0}  # guests' frames that drew a text more than once, and how many such texts
TWICE_BY: dict[str, int] = {}  # such texts by what the frame did
GUESTS = ("tap", "action", "opening")  # the kinds of frame a guest waits for


def watch_texts() -> None:
    """Count each label's texture drawings per frame: a text drawn twice in one frame was laid out at one width and
    then another (a widget made at Kivy's default 100x100 and sized after: #43's opening frames)."""
    from kivy.uix.label import Label

    real = Label.texture_update

    def texture_update(self: Any, *args: Any) -> None:  # named as Kivy's weak methods look it up
        DRAWN[id(self)] = DRAWN.get(id(self), 0) + 1
        real(self, *args)

    Label.texture_update = texture_update


def note_texts(what: str) -> None:
    """At a frame's end: a guest's frame's texts drawn more than once, counted."""
    kind = what.split(": ", 1)[1].split()[0].rstrip(",") if ": " in what else ""
    twice = sum(1 for n in DRAWN.values() if n > 1)
    DRAWN.clear()
    if kind in GUESTS and twice:
        TWICE["frames"] += 1
        TWICE["texts"] += twice
        TWICE_BY[what] = TWICE_BY.get(what, 0) + twice


def print_twice(n: int) -> None:
    print(f"  texts drawn twice in one guest's frame: {TWICE['texts']} in {TWICE['frames']} frames; most: " + "; ".join(
        f"{k} {v}" for k, v in sorted(TWICE_BY.items(), key=lambda kv: -kv[1])[:n]))


def watch_flips() -> None:
    """Note when each frame's drawing is issued: bound after kiosk.gl_frames' glFinish, so called before it (Kivy
    calls the last bound first). Tap -> issued is the kiosk's own work; tap -> drawn adds llvmpipe's drawing, which
    a tablet's GPU does."""
    from kivy.core.window import Window

    Window.bind(on_flip=lambda *_: ISSUED.__setitem__(0, time.perf_counter()))


def profiled(run: Any) -> Any:
    """`run()` under cProfile when --why-slow is on (its CPU then includes the profiler's own cost, ~1.5-2x)."""
    if not WHY_SLOW:
        return run(), None
    prof = cProfile.Profile(time.thread_time)  # CPU, not waiting for llvmpipe (glFinish) or a core
    prof.enable()
    try:
        out = run()
    finally:
        prof.disable()
    return out, prof


def keep_profile(prof: Any, cpu: float, what: str) -> None:
    if prof is None or cpu < WHY_SLOW:
        return
    stats = pstats.Stats(prof)
    rows = []
    for (path, line, name), (_cc, _nc, tt, ct, _callers) in stats.stats.items():  # type: ignore[attr-defined]
        short = path.split("site-packages/")[-1].replace(str(ROOT) + "/", "")
        rows.append((ct, tt, f"{short}:{line}({name})"))
    rows.sort(reverse=True)
    ours = [r for r in rows if not r[2].startswith(("kivy/base.py", "kivy/clock", "kivy/_clock", "bench/", "~", "<"))]
    top = "; ".join(f"{ct * 1e3:.1f}/{tt * 1e3:.1f} {where}" for ct, tt, where in ours[:14])
    PROFILES.append((cpu, what, top))


class Sampler:
    """Samples the UI thread's Python stack about every millisecond while a frame runs (sys._current_frames from a
    thread: the frame's own timing changes little, unlike cProfile's 1.5-2x), with the UI thread's CPU clock: the CPU
    since the last sample is put on the stack sampled, per function, inclusive, the loop's own frames left out. The
    sampler waits for the GIL, so a stretch of Python can be put on the line where it let the GIL go (every 5 ms at
    most), and time in C that holds the GIL (drawing) on the line that called it."""

    def __init__(self) -> None:
        self.ui = threading.get_ident()
        self.on = threading.Event()
        self.stacks: list[tuple[float, tuple[tuple[str, int, str], ...]]] = []  # (UI-thread CPU since the last, stack)
        threading.Thread(target=self._run, name="frame-sampler", daemon=True).start()

    def _run(self) -> None:
        clock = time.pthread_getcpuclockid(self.ui)
        last = time.clock_gettime(clock)
        while True:
            self.on.wait()
            frame = sys._current_frames().get(self.ui)
            now = time.clock_gettime(clock)
            stack = []
            while frame is not None:
                code = frame.f_code
                stack.append((code.co_filename, frame.f_lineno, code.co_name))
                frame = frame.f_back
            self.stacks.append((now - last, tuple(stack)))
            last = now
            time.sleep(0.001)

    def start(self) -> None:
        self.stacks = []
        self.on.set()
        time.sleep(0)  # the sampler's first sample: the CPU before the frame is not counted in it

    def stop(self, cpu: float, what: str, extra: str = "") -> None:
        self.on.clear()
        if cpu < SAMPLE or not self.stacks:
            return
        counts: dict[str, float] = {}
        for cpu_in, stack in self.stacks[1:]:
            seen = set()
            for path, line, name in stack:
                short = path.split("site-packages/")[-1].replace(str(ROOT) + "/", "")
                if short.startswith(("kivy/base.py", "kivy/clock", "kivy/_clock", "bench/", "<")):
                    continue
                key = f"{short}:{line}({name})"
                if key not in seen:
                    seen.add(key)
                    counts[key] = counts.get(key, 0.0) + cpu_in
        n = len(self.stacks)
        top = sorted(counts.items(), key=lambda kv: -kv[1])[:14]
        SAMPLES.append((cpu, what, f"{n} samples{extra}: " + "; ".join(f"{c * 1e3:.1f} {k}" for k, c in top)))


SAMPLER: list[Sampler] = []


def print_samples(n: int) -> None:
    _print_slow(SAMPLES, f"  slow frames sampled (--sample {SAMPLE * 1e3:.0f} ms; UI-thread CPU ms per function, "
                "inclusive, by stack samples; user/system CPU and page faults of the UI thread):", n)


def _print_slow(rows: list[tuple[float, str, str]], heading: str, n: int) -> None:
    if rows:
        print(heading)
    for cpu, what, top in sorted(rows, reverse=True)[:n]:
        print(f"    {cpu * 1e3:.0f} ms {what}: {top}")


# ---------------------------------------------------------------- GL shaders compiled for the first time
def shader_cache() -> Path:
    """Mesa's on-disk shader cache: llvmpipe compiles a shader variant (a drawing state it has not met) with LLVM on
    the drawing thread, 50-90 ms of UI-thread CPU here, and keeps it there; later runs load it (~0)."""
    if os.environ.get("MESA_SHADER_CACHE_DIR"):
        return Path(os.environ["MESA_SHADER_CACHE_DIR"])
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mesa_shader_cache"


def shader_entries() -> dict[str, float]:
    """The cache's entries: path -> when written (time.time)."""
    out = {}
    root = shader_cache()
    if root.is_dir():
        for p in root.rglob("*"):
            if p.is_file() and p.name != "index":
                with contextlib.suppress(OSError):
                    out[str(p)] = p.stat().st_mtime
    return out


def play_starts() -> dict[str, Any]:
    """What the run's play is measured against: Mesa's cache entries and the heap's trim counts before it."""
    from audio import heap

    return {"shaders": shader_entries(), "trims": dict(heap.COUNTS)}


def trims(before: dict[str, Any]) -> str:
    from audio import heap

    now, then = heap.COUNTS, before["trims"]
    return (f"heap trims during play {now['trims'] - then['trims']} ({now['overdue'] - then['overdue']} of them with "
            f"the guests busy, the last {heap.HELD_MAX_S:.0f} s old), held while they were busy "
            f"{now['held'] - then['held']}")


def shader_compiles(before: dict[str, Any]) -> tuple[dict[str, int], str]:
    """The cache's entries new since `before` (play_starts), put on the frames over 25 ms (SLOW_AT) that ran as each was written (the
    write lands just after the compile): how many such frames, by "guests" and "pauses", and the line saying so."""
    offset = time.time() - time.monotonic()
    when = [t - offset for p, t in shader_entries().items() if p not in before["shaders"]]
    compiled = {"guests": 0, "pauses": 0}
    frames = []
    for start, end, kind, what in SLOW_AT:
        side = "guests" if kind in GUESTS else "pauses" if kind == "pause" else ""
        if side and any(start - 0.01 <= t <= end + 0.25 for t in when):
            compiled[side] += 1
            frames.append(what)
    return compiled, (f"  GL shader variants compiled for the first time on this machine (llvmpipe, LLVM on the UI "
                      f"thread; kept in Mesa's disk cache, {shader_cache()}): {len(when)}; in the frames over 25 ms "
                      f"above: guests' {compiled['guests']}, pauses' {compiled['pauses']}"
                      + (f" ({', '.join(frames)})" if frames else ""))


def add_arguments(ap: Any) -> None:
    """The probes' options of bench/frames.py."""
    ap.add_argument("--why-slow", type=float, default=0.0, metavar="MS",
                    help="cProfile every frame; print what the frames over MS ms of UI-thread CPU spent it on")
    ap.add_argument("--log", help="write every named frame to this file: monotonic time, UI-thread CPU ms, wall ms, what")
    ap.add_argument("--sample", type=float, default=0.0, metavar="MS",
                    help="sample the UI thread's stack every ms; print where the frames over MS ms of its CPU were")


def configure(args: Any) -> None:
    global WHY_SLOW, SAMPLE
    WHY_SLOW = args.why_slow / 1e3
    if args.log:
        LOG.append(open(args.log, "w", buffering=1, encoding="utf-8"))  # noqa: SIM115  (open for the whole run)
    if args.sample:
        SAMPLE = args.sample / 1e3
        SAMPLER.append(Sampler())


def frame_starts() -> None:
    if SAMPLER:
        RUSAGE[0] = resource.getrusage(resource.RUSAGE_THREAD)
        SAMPLER[0].start()


def frame_ends(out: tuple[float, float], what: str) -> None:
    """A frame's (wall s, UI-thread CPU s): to the sampler with the thread's user/system CPU and page faults, and to
    --log's file."""
    if SAMPLER:
        r0, r1 = RUSAGE[0], resource.getrusage(resource.RUSAGE_THREAD)
        SAMPLER[0].stop(out[1], what, f", user {(r1.ru_utime - r0.ru_utime) * 1e3:.0f} ms, system "
                        f"{(r1.ru_stime - r0.ru_stime) * 1e3:.0f} ms, {r1.ru_minflt - r0.ru_minflt} page faults")
    if LOG and what:
        LOG[0].write(f"{time.monotonic():.3f} {out[1] * 1e3:.1f} {out[0] * 1e3:.1f} {what}\n")
    if what.endswith(("opening, frame 0", "opening, frame 1")):
        OPENINGS.append((what.endswith("0"), out[1]))


OPENINGS: list[tuple[bool, float]] = []  # (frame 0, UI-thread CPU s) of each opening's first two frames


def openings(pct: Any) -> dict[str, float]:
    """The tap that opens a game's screen (its frame 0) and the two first frames together: median and worst."""
    firsts = [c for zero, c in OPENINGS if zero]
    pairs = [c + OPENINGS[i + 1][1] for i, (zero, c) in enumerate(OPENINGS[:-1]) if zero and not OPENINGS[i + 1][0]]
    if not firsts or not pairs:
        return {}
    return {"n": len(firsts), "p50": pct(firsts, .5), "worst": max(firsts), "two_p50": pct(pairs, .5),
            "two_worst": max(pairs)}


def print_openings(pct: Any) -> None:
    o = openings(pct)
    if o:
        print(f"  a game's screen opened ({o['n']:.0f} times): the tap's frame median {o['p50'] * 1e3:.1f} ms, worst "
              f"{o['worst'] * 1e3:.1f} ms; with the frame after, median {o['two_p50'] * 1e3:.1f} ms, worst "
              f"{o['two_worst'] * 1e3:.1f} ms of UI-thread CPU")


def note_wall(what: str, wall: float, start: float) -> None:
    kind = what.split(": ", 1)[1].split()[0] if ": " in what else ""
    if kind in ("tap", "action"):
        WALL.setdefault("tap", []).append(wall)
        WALL.setdefault("issued", []).append(ISSUED[0] - start if ISSUED[0] > start else wall)


def print_profiles(n: int) -> None:
    _print_slow(PROFILES, f"  slow frames profiled (--why-slow {WHY_SLOW * 1e3:.0f} ms; CPU with the profiler's cost; "
                "per function cumulative/own ms, the loop's own frames left out):", n)


def tap_drawn(pct: Any) -> dict[str, float]:
    walls, issued = WALL.get("tap", []), WALL.get("issued", [])
    if not walls:
        return {}
    return {"n": len(walls), "p50": pct(walls, .5), "p95": pct(walls, .95), "worst": max(walls),
            "issued_p50": pct(issued, .5), "issued_p95": pct(issued, .95)}


# ---------------------------------------------------------------- old against new in one run
def start_old(rev: str, argv: list[str]) -> tuple[subprocess.Popen[str], Path, Path]:
    """The same bench (this file's bench/ folder) on `rev`'s code, in a child process started now: (process, its
    JSON result, its output)."""
    tree = Path(tempfile.mkdtemp(prefix="bench-frames-old-"))
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    for f in (ROOT / "bench").glob("*.py"):  # the bench as it is now: the old code measured the same way
        shutil.copy(f, tree / "bench" / f.name)
    out, log = tree / "result.json", tree / "output.txt"
    env = {**os.environ, "PYTHONPATH": str(tree)}
    proc = subprocess.Popen([sys.executable, "-m", "bench.frames", *argv, "--json", str(out)], cwd=tree, env=env,
                            stdout=log.open("w"), stderr=subprocess.STDOUT, text=True)
    return proc, out, log


def side_by_side(rev: str, proc: subprocess.Popen[str], out: Path, log: Path, new: dict[str, Any]) -> None:
    proc.wait()
    if not out.exists():
        print(f"old ({rev}) failed; its output: {log}")
        return
    old = json.loads(out.read_text())
    print(f"#43 goal, old ({rev}) vs new (this tree), one run side by side (old's full output: {log}):")
    for key, label in (("guests", "guests' frames"), ("pauses", "pause frames"), ("away", "away frames")):
        o, n = old.get(key, {}), new.get(key, {})
        if o and n:
            print(f"  {label:<15} over 25 ms {o['over25']:>3} -> {n['over25']:<3} over 12.5 ms {o['over12']:>4} -> "
                  f"{n['over12']:<4} worst {o['worst'] * 1e3:5.1f} -> {n['worst'] * 1e3:5.1f} ms "
                  f"(of {o['frames']} -> {n['frames']} frames; over 25 ms with a shader compiled for the first time: "
                  f"{o.get('compiled', '?')} -> {n.get('compiled', '?')})")
    o, n = old.get("tap_drawn", {}), new.get("tap_drawn", {})
    if o and n:
        print(f"  tap -> drawn (wall) p50 {o['p50'] * 1e3:.0f} -> {n['p50'] * 1e3:.0f} ms, p95 {o['p95'] * 1e3:.0f} -> "
              f"{n['p95'] * 1e3:.0f} ms, worst {o['worst'] * 1e3:.0f} -> {n['worst'] * 1e3:.0f} ms "
              f"({o['n']} -> {n['n']} taps and actions); tap -> drawing issued (without llvmpipe's drawing) p50 "
              f"{o.get('issued_p50', 0) * 1e3:.0f} -> {n['issued_p50'] * 1e3:.0f} ms, p95 "
              f"{o.get('issued_p95', 0) * 1e3:.0f} -> {n['issued_p95'] * 1e3:.0f} ms")
    o, n = old.get("openings", {}), new.get("openings", {})
    if o and n:
        print(f"  a game's screen opened: the tap's frame median {o['p50'] * 1e3:.1f} -> {n['p50'] * 1e3:.1f} ms, worst "
              f"{o['worst'] * 1e3:.1f} -> {n['worst'] * 1e3:.1f} ms; with the frame after, median "
              f"{o['two_p50'] * 1e3:.1f} -> {n['two_p50'] * 1e3:.1f} ms, worst {o['two_worst'] * 1e3:.1f} -> "
              f"{n['two_worst'] * 1e3:.1f} ms ({o['n']:.0f} -> {n['n']:.0f} openings)")
    o, n = old.get("twice", {}), new.get("twice", {})
    if o and n:
        print(f"  texts drawn twice in one guest's frame (laid out at two widths) {o['texts']} -> {n['texts']} (in "
              f"{o['frames']} -> {n['frames']} frames)")
    print(f"  load average at the end {os.getloadavg()[0]:.1f}; old: {old.get('setting', '')}")


def why_collected() -> str:
    """Who ran the full collection now starting: the kiosk's collector ("idle", "bound", "thaw") or Python's own
    automatic one ("auto": the backstop, or the default thresholds)."""
    try:
        f = sys._getframe(2)
    except ValueError:  # a collection at the bottom of a thread's stack
        return "auto"
    while f is not None:
        if f.f_code.co_filename.endswith("gc_policy.py") and f.f_code.co_name in ("tick", "thaw"):
            return "thaw" if f.f_code.co_name == "thaw" else str(f.f_locals.get("why") or "?")
        f = f.f_back  # type: ignore[assignment]
    return "auto"


def widgets_alive() -> dict[int, str]:
    """Every Kivy widget with a destructor (a proxy made: kv rules bound to it), by its uid: its class's name
    (--census)."""
    from kivy.uix.widget import _widget_destructors

    out = {}
    for uid, (_f, proxy) in list(_widget_destructors.items()):
        try:
            out[uid] = proxy.__class__.__name__
        except ReferenceError:
            pass
    return out


def goal_figures(guests: list[tuple[float, float]], paused: list[tuple[float, float]], pct: Any,
                 setting: str, compiled: dict[str, int], away: list[tuple[float, float]]) -> dict[str, Any]:
    """`compiled`: frames over 25 ms with a shader compiled for the first time, by "guests" and "pauses"; `away`:
    the frames on the game's page between two games (guests are there too)."""
    def fig(times: list[tuple[float, float]], key: str) -> dict[str, Any]:
        cpu = [c for _, c in times]
        return {"frames": len(cpu), "over25": sum(1 for c in cpu if c > 0.025),
                "over12": sum(1 for c in cpu if c > 0.0125), "worst": max(cpu) if cpu else 0.0,
                "compiled": compiled.get(key, 0)}

    return {"guests": fig(guests, "guests"), "pauses": fig(paused, "pauses") if paused else {},
            "away": fig(away, "away") if away else {},
            "tap_drawn": tap_drawn(pct), "twice": dict(TWICE), "setting": setting, "openings": openings(pct)}


# ---------------------------------------------------------------- bare Kivy (child process)
BARE = r"""
import json, os, sys, time
sys.path.insert(0, sys.argv[2])
from kiosk import env
env.configure(headless=True)
env.apply_config()
import kivy.core.window
from kivy.app import App
from kivy.base import EventLoop
from kivy.clock import Clock
from kivy.uix.label import Label
from bench.frames import frame, rss_mb
class Bare(App):
    def build(self):
        return Label(text="Hello")
app = Bare()
app._run_prepare()
Clock._max_fps = 0
for i in range(10):
    frame()
times = []
for i in range(int(sys.argv[1])):
    app.root.text = f"Hello {i}"  # something to draw every frame
    times.append(frame())
print(json.dumps({"times": times, "rss": rss_mb()}))
"""


def bare(frames: int) -> tuple[list[tuple[float, float]], float]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "TABLEHOST_DATA": tempfile.mkdtemp(prefix="bench-bare-")}
    env.pop("DISPLAY", None)
    script = Path(env["TABLEHOST_DATA"]) / "bare.py"  # a file: Kivy's App looks up its class's source
    script.write_text(BARE, encoding="utf-8")
    out = subprocess.run([sys.executable, str(script), str(frames), str(ROOT)], env=env, capture_output=True,
                         text=True, timeout=600)
    data = json.loads(out.stdout.strip().splitlines()[-1])
    return [tuple(t) for t in data["times"]], float(data["rss"])


@contextlib.contextmanager
def as_input(before: Any) -> Iterator[None]:
    """A frame with `before` (a tap, an action) run where Kivy dispatches a touch: after the clock's tick, which sees
    it waiting (the idle collector does nothing then), so what it schedules runs in the next frame, as a real
    touch's does. (Until session 20 it ran before the frame: the tap's follow-ups were counted in its frame.)"""
    from kivy.base import EventLoop

    from kiosk import gc_policy

    collector = gc_policy.COLLECTOR
    if before is None:
        yield
        return
    waiting: Any = collector.pending if collector is not None else None

    def dispatch() -> None:
        if collector is not None:
            collector.pending = waiting
        before()
        type(EventLoop).dispatch_input(EventLoop)

    if collector is not None:
        collector.pending = lambda: True  # the touch in the input provider's queue at the tick
    EventLoop.dispatch_input = dispatch
    try:
        yield
    finally:
        EventLoop.__dict__.pop("dispatch_input", None)
        if collector is not None:
            collector.pending = waiting
