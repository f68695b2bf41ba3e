"""Memory of the kiosk after a compressed hour of mixed play, against bare Kivy and the kiosk without the voice
model, each measured in its own process in the same run.

    python -m bench.memory                  # bare Kivy, kiosk without model, kiosk with model
    python -m bench.memory --only model     # one of them (bare, plain, model)
    python -m bench.memory --detail 12      # also the 12 widget classes / object types grown most

The hour (`--rounds` of it): every game in turn, as a table does — attract, library, the game's page, its
teaching screen, the host screen; a session from the engine's example config played by random legal actions
and random taps on whatever is on screen (bench/frames.py's play: hand-overs, dialogs, notebooks, tabs), a
language switch, then table turnover (the kiosk's own `new_table`), and the attract screen left untouched until
the next game (REST_IDLE_S + 2 s, nobody speaking: where the kiosk takes closed screens apart and thaws; the play
itself has no guests' pauses). In the background, as in bench/frames.py:
push-to-talk utterances into the kiosk's own voice controller (five times real time, 1 s apart, each once
the last one's vote is decided) and the Clue notebook's tutor on 6-player notebooks every 0.5 s. An hour at
a table is about 300 voice commands, 30 notebook views and a few hundred taps.

After each game (turnover done, a full collection) it prints RSS and its parts (anon = heap, file = mapped
files: the voice graph, libraries), glibc's own account (mallinfo2: in use, and free inside its arenas,
which the kiosk's trimming gives back to the system, so mostly not resident), Python's arenas and the
objects in them, the rest of the heap (anon - in use - Python arenas: resident free memory, stacks, JIT
code), live Kivy widgets, textures and their pixels (software GL keeps them in the process's heap), Kivy's
Cache entries and gc-tracked objects.

Headless, software GL (llvmpipe) drew frames in the background and, when its threads fell behind, kept a
backlog of scenes each holding what its frame drew, for good: most of the growth these runs measured, and
why they depended on the machine's load, until kiosk/gl_frames.py finished every headless frame as a
display's swap does. Same run, 1 round, no model, load 11-15, after three games: 503 → 275 MB. With the
finish, 2 rounds, load 20-30: bare Kivy 159; no model 200 → 281 (1.77× bare; peak 293); with the
model 504 → 604 (3.80× bare; peak 613, 3.86×; the 700 MB goal is 4.40×), though with only 170 utterances and 353 tutor
runs: that finish held the GIL (a8feace). Without the GIL: 504 → 613 (3.86×; peak 616, 3.88×; goal 4.41×) with
912 utterances and 1,799 tutor runs, 1,567 s. Kept panels and instant screens (f52cfab, 9dcb9c8),
with the finish on both sides, same run: 301 → 268 MB after one round (peak 325 → 281): lower, not higher.
glibc: 16 arenas (8 per core) once the voice threads run, but the heap's resident free memory ("rest")
stays ~10-17 MB with the kiosk's trimming, which bounds what fewer arenas could save.
Where the heap goes (heaptrack, before the finish, one round, no model): software GL ~134 MB (its context ~42,
what draws leave ~60, textures ~22), Python ~57 MB of arenas + ~10 MB of larger blocks, SDL and fonts ~9 MB.
The model (its peak): the graph's lookahead add-on 88 MB, acoustic model and i-vector extractor matrices
67 MB, word table 59 MB.
"""

from __future__ import annotations

import argparse
import atexit
import ctypes
import gc
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
GAMES = ("spyfall", "watson_holmes", "mr_jack_ny", "clue")


class _Mallinfo2(ctypes.Structure):
    _fields_ = [(n, ctypes.c_size_t) for n in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def mallinfo() -> dict[str, float]:
    """glibc's heap, all arenas, MB: `used` (allocated, brk + mmapped), `free` (freed, held inside the arenas;
    resident unless trimmed), `mmap` (chunks of their own)."""
    try:
        fn = ctypes.CDLL("libc.so.6").mallinfo2
    except (OSError, AttributeError):
        return {}
    fn.restype = _Mallinfo2
    m = fn()
    mb = 1 / (1 << 20)
    return {"used": (m.uordblks + m.hblkhd) * mb, "free": m.fordblks * mb, "mmap": m.hblkhd * mb,
            "arena": m.arena * mb}


def arenas() -> dict[str, float]:
    """glibc's arenas (the main heap and one per thread that allocated while the others were busy, up to
    8 per core): how many, and the memory they span, MB (resident only where used, once trimmed)."""
    try:
        libc = ctypes.CDLL("libc.so.6")
        libc.fdopen.restype = ctypes.c_void_p
    except (OSError, AttributeError):
        return {}
    with tempfile.TemporaryFile("w+") as f:
        fp = libc.fdopen(os.dup(f.fileno()), b"w")
        libc.malloc_info(0, ctypes.c_void_p(fp))
        libc.fclose(ctypes.c_void_p(fp))
        f.seek(0)
        text = f.read()
    heaps = text.split("<heap nr=")[1:]
    spans = [int(h.split('<system type="current" size="')[1].split('"')[0]) for h in heaps]
    return {"arenas": len(heaps), "arena_span": sum(spans) / (1 << 20)}


def pymalloc() -> dict[str, float]:
    """Python's small-object allocator, MB: `py_arenas` (its 1 MiB arenas, all resident once touched) and
    `py_blocks` (objects in them); the difference is fragmentation glibc cannot trim."""
    with tempfile.TemporaryFile("w+") as f:
        sys.stderr.flush()
        saved = os.dup(2)
        os.dup2(f.fileno(), 2)
        try:
            sys._debugmallocstats()
        finally:
            os.dup2(saved, 2)
            os.close(saved)
        f.seek(0)
        text = f.read()
    out = {}
    for line in text.splitlines():
        if " arenas * " in line:
            out["py_arenas"] = int(line.split("=")[1].replace(",", "")) / (1 << 20)
        elif line.startswith("# bytes in allocated blocks"):
            out["py_blocks"] = int(line.split("=")[1].replace(",", "")) / (1 << 20)
    return out


def status() -> dict[str, float]:
    out = {}
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            key = line.split(":")[0]
            if key in ("VmRSS", "RssAnon", "RssFile"):
                out[key] = int(line.split()[1]) / 1024
    return out


def census(detail: bool) -> dict[str, Any]:
    """Live widgets (by class), textures and their pixels, Kivy Cache entries, gc objects (by type); what
    `gc.freeze()` put in the permanent generation at start (the start-up screens) is only counted."""
    from kivy.cache import Cache
    from kivy.graphics.texture import Texture
    from kivy.uix.widget import Widget

    gc.collect()
    objs = gc.get_objects()
    types = Counter(type(o).__name__ for o in objs) if detail else Counter()
    widgets = Counter(type(o).__name__ for o in objs if issubclass(type(o), Widget))
    textures = [o for o in objs if issubclass(type(o), Texture)]  # type(): dead weak proxies are skipped
    pixels = sum(t.width * t.height * 4 for t in textures) / (1 << 20)
    cache = {k: len(v) for k, v in getattr(Cache, "_objects", {}).items() if v}
    out = {"objects": len(objs), "frozen": gc.get_freeze_count(), "widgets": sum(widgets.values()), "textures": len(textures),
           "texture_mb": pixels, "cache": cache}
    if detail:
        out["widget_classes"] = dict(widgets)
        out["types"] = dict(types)
    del objs, textures
    return out


def sample(label: str, detail: bool) -> dict[str, Any]:
    from audio import heap

    c = census(detail)
    heap.release(force=True)  # what the kiosk's trimmer does every 10 s
    return {"label": label, **status(), **mallinfo(), **arenas(), **pymalloc(), **c}


# ---------------------------------------------------------------- one hour of a table (child process)
def hour_block(driver: Any, game: str, frames: int, rng: random.Random, voice: Any = None) -> None:
    """A table's game: attract → library → the game's page → teaching → play → language switch → turnover."""
    from bench.frames import play_game

    app = driver.app
    app.go("attract")
    between_tables(driver, voice)
    app.go("library")
    driver.pump(10)
    app.open_game(game)
    driver.pump(10)
    app.teach(game)
    driver.pump(20)
    play_game(driver, game, frames, rng, [])
    app.toggle_lang()
    driver.pump(10)
    app.toggle_lang()
    driver.pump(5)
    app.keeper.new_table()
    driver.pump(10)


def between_tables(driver: Any, voice: Any) -> None:
    """The attract screen untouched and nobody speaking for REST_IDLE_S and 2 s more, at 60 frames a second, as
    after a turnover before the next guests sit down: where the kiosk takes closed screens apart and thaws what
    they left frozen (kiosk/gc_policy.py; the play here has no guests' pauses)."""
    from kiosk import gc_policy

    if voice is not None:
        voice.quiet.set()
    end = time.monotonic() + gc_policy.REST_IDLE_S + 2
    while time.monotonic() < end:
        driver.pump(1)
        time.sleep(1 / 60)
    if voice is not None:
        voice.quiet.clear()


def child(mode: str, rounds: int, frames: int, detail: bool, pause: float = 0.0, streamed: bool = True) -> None:
    os.environ.pop("DISPLAY", None)
    os.environ["KIVY_NO_ARGS"] = "1"
    if mode != "model":
        os.environ["TABLEHOST_NO_VOICE"] = "1"
    from kivy.clock import Clock

    from bench.frames_load import Tutor, Voice
    from kiosk import gc_policy
    from kiosk.testing import Driver, start_app

    data = Path(tempfile.mkdtemp(prefix="bench-memory-"))
    atexit.register(shutil.rmtree, data, True)  # the voice model's grammar copy is 190 MB
    driver = Driver(start_app(data))
    app = driver.app
    app.exit_kiosk = lambda: None
    voice = None
    if mode == "model":
        deadline = time.monotonic() + 180
        while app.voice is None and time.monotonic() < deadline:
            driver.pump(1)
        system = getattr(app.voice, "system", None)
        engine = system.loader.wait(180) if system is not None else None
        if engine is None:
            raise SystemExit("the voice model did not load")
        voice = Voice(system.controller, paced=True)
        if not streamed:
            system.controller.streamed = 0  # every perturbed decode after the release
    driver.pump(5)
    gc_policy.settle()  # as `tablehost run` does 5 s after start
    emit(sample("start", detail))
    time.sleep(pause)  # time to attach a profiler (heaptrack -p PID) to what grows from here
    tutor = Tutor()
    Clock._max_fps = 0
    rng = random.Random(2026)
    cpu0, t0 = time.process_time(), time.monotonic()
    if voice is not None:
        voice.start()
    tutor.start()
    for r in range(rounds):
        for game in GAMES:
            hour_block(driver, game, frames, rng, voice)
            emit(sample(f"{game} {r + 1}", detail))
    for th in (voice, tutor):
        if th is not None:
            th.stop.set()
    driver.pump(20)
    end = sample("end", detail)
    end.update(utterances=voice.count if voice else 0, tutor=tutor.count, errors=len(app.errors),
               thaws=gc_policy.COLLECTOR.collected["thaw"] if gc_policy.COLLECTOR else 0,
               seconds=time.monotonic() - t0, cpu=time.process_time() - cpu0)
    emit(end)


def emit(s: dict[str, Any]) -> None:
    print("SAMPLE " + json.dumps(s), flush=True)


# ---------------------------------------------------------------- the run (parent)
def run_child(mode: str, args: argparse.Namespace) -> list[dict[str, Any]]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cmd = [sys.executable, "-m", "bench.memory", "--child", mode, "--rounds", str(args.rounds), "--frames",
           str(args.frames)] + (["--detail", str(args.detail)] if args.detail else []) + (
               ["--no-stream"] if args.no_stream else [])
    log = tempfile.NamedTemporaryFile("w+", prefix=f"bench-memory-{mode}-", suffix=".log", delete=False)
    proc = subprocess.Popen(cmd, env=env, cwd=ROOT, stdout=subprocess.PIPE, stderr=log, text=True)
    out = []
    assert proc.stdout is not None
    prev: dict[str, Any] | None = None
    for line in proc.stdout:
        if not line.startswith("SAMPLE "):
            continue
        s = json.loads(line[7:])
        out.append(s)
        show(mode, s, prev, args.detail)
        prev = s
    if proc.wait() != 0:
        print(f"  {mode}: the child failed (exit {proc.returncode}); its log: {log.name}", flush=True)
    return out


def rest(s: dict[str, Any]) -> float:
    """Heap RSS neither glibc nor Python's allocator holds as in use: resident free memory (fragmentation,
    what trimming cannot give back), thread stacks, JIT code (software GL)."""
    return float(s["RssAnon"] - s.get("used", 0) - s.get("py_arenas", 0))


def show(mode: str, s: dict[str, Any], prev: dict[str, Any] | None, detail: int) -> None:
    print(f"  {mode:<6} {s['label']:<16} RSS {s['VmRSS']:>5.0f} (anon {s['RssAnon']:>4.0f} + file "
          f"{s['RssFile']:>3.0f})  malloc used {s.get('used', 0):>4.0f} free {s.get('free', 0):>4.0f} "
          f"({s.get('arenas', 0)} arenas)  "
          f"py arenas {s.get('py_arenas', 0):>4.0f} objects {s.get('py_blocks', 0):>4.0f}  rest {rest(s):>3.0f}  "
          f"widgets {s['widgets']:>5}  textures {s['textures']:>5} ({s['texture_mb']:>5.1f} MB)  "
          f"gc objects {s['objects']:>7} (+{s['frozen']} frozen)  cache {sum(s['cache'].values()):>4}", flush=True)
    if detail and prev is not None:
        for key, what in (("widget_classes", "widgets"), ("types", "objects")):
            grown = Counter(s.get(key, {}))
            grown.subtract(prev.get(key, {}))
            top = [f"{k} {v:+d}" for k, v in grown.most_common(detail) if v > 0]
            if top:
                print(f"           grown {what}: " + ", ".join(top), flush=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2, help="times every game is played")
    ap.add_argument("--frames", type=int, default=120, help="frames of play per game")
    ap.add_argument("--only", choices=("bare", "plain", "model"), action="append")
    ap.add_argument("--detail", type=int, default=0)
    ap.add_argument("--no-stream", action="store_true",
                    help="push-to-talk decodes the perturbed copies after the release (controller.streamed = 0)")
    ap.add_argument("--child", choices=("plain", "model"), help="run one kiosk and print its samples")
    ap.add_argument("--pause", type=float, default=0.0, help="--child: seconds to wait after the start sample")
    args = ap.parse_args(argv)
    if args.child:
        child(args.child, args.rounds, args.frames, bool(args.detail), args.pause, not args.no_stream)
        return
    modes = args.only or ["bare", "plain", "model"]
    load = os.getloadavg()
    print(f"Memory after {args.rounds} round(s) of the four games, {args.frames} frames of play each; load "
          f"{load[0]:.1f} on {os.cpu_count()} cores", flush=True)
    bare_rss = None
    results: dict[str, list[dict[str, Any]]] = {}
    if "bare" in modes:
        from bench.frames import bare

        _times, bare_rss = bare(200)
        print(f"  bare   Kivy, one label, 200 frames: RSS {bare_rss:.0f} MB", flush=True)
    for mode in ("plain", "model"):
        if mode in modes:
            results[mode] = run_child(mode, args)
    print("Summary (MB):")
    for mode, samples in results.items():
        if not samples:
            continue
        start, end = samples[0], samples[-1]
        peak = max(s["VmRSS"] for s in samples)
        def x(mb: float) -> str:
            return f"{mb:.0f}" + (f" ({mb / bare_rss:.2f}× bare)" if bare_rss else "")

        ratio = f"; limit 700 = {700 / bare_rss:.2f}× bare" if bare_rss and mode == "model" else ""
        print(f"  {'kiosk with model' if mode == 'model' else 'kiosk, no model':<17} start {x(start['VmRSS'])}, "
              f"peak {x(peak)}, end {x(end['VmRSS'])} (anon {end['RssAnon']:.0f} + file {end['RssFile']:.0f}; "
              f"malloc used {end.get('used', 0):.0f}, free {end.get('free', 0):.0f}){ratio}; "
              f"{end.get('utterances', 0)} utterances, {end.get('tutor', 0)} tutor runs, {end.get('errors', 0)} "
              f"errors, {end.get('thaws', 0)} thaws, {end.get('seconds', 0):.0f} s, CPU {end.get('cpu', 0):.0f} s")


if __name__ == "__main__":
    main()
