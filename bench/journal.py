"""Journal appends and game starts on the UI thread (issue #21): wall and CPU time of `Journal.append`, the
journal's own thread doing the fsyncs (now) against the old mode measured in the same run (synchronous=FULL and a
checkpoint on each commit, both fsync'd on the appending thread: the mode the journal falls back to after a failure
of its thread). Appends come as a game sends them: an action and its chance step, then a pause (a tap every `--gap`
ms). Also the durability lag: from an append until `flush` says it is on disk; a game's start (the previous
journal, closed, archived and a new one made: `Session.new`), before (both fsync'd on the calling thread) and now;
a game's end (its "end" record, close and archive: the journal worker's), before (archived by opening it again) and now;
and a long game (`--long` actions, killed at the end): the -wal's size, and the time its resume takes to open and
read the journal, before (the -wal emptied only at open and close) and now (emptied by the journal's thread once
WAL_FRAMES long), in the same run.

    nice -n 5 python -m bench.journal [--appends 200] [--gap 30] [--games 10] [--long 2000] [--fsync-ms 50]

`--fsync-ms`: every fsync/fdatasync of the process made that much slower (an SD card's; a shim built with cc and
preloaded), to see what a tablet's card does to each mode.

Prints figures; asserts nothing. Goal: no append's wall time near a frame (50 ms), whatever fsync costs."""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from table.journal import Journal, archive, close_into, open_journal, replace

SHIM = r"""
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdlib.h>
#include <time.h>
static void slow(void) {
    long ms = atol(getenv("BENCH_FSYNC_MS") ? getenv("BENCH_FSYNC_MS") : "0");
    struct timespec t = {ms / 1000, (ms % 1000) * 1000000L};
    nanosleep(&t, 0);
}
int fsync(int fd) { static int (*real)(int); if (!real) real = dlsym(RTLD_NEXT, "fsync"); slow(); return real(fd); }
int fdatasync(int fd) {
    static int (*real)(int); if (!real) real = dlsym(RTLD_NEXT, "fdatasync"); slow(); return real(fd);
}
"""


def _with_slow_fsync(ms: int) -> None:
    """Run this bench again with every fsync `ms` slower (does not return)."""
    cc = shutil.which("cc")
    if cc is None:
        sys.exit("--fsync-ms needs a C compiler (cc)")
    folder = Path(tempfile.mkdtemp())
    (folder / "slow.c").write_text(SHIM)
    subprocess.run([cc, "-shared", "-fPIC", "-O2", "-o", str(folder / "slow.so"), str(folder / "slow.c"), "-ldl"],
                   check=True)
    env = {**os.environ, "LD_PRELOAD": str(folder / "slow.so"), "BENCH_FSYNC_MS": str(ms)}
    os.execve(sys.executable, [sys.executable, "-m", "bench.journal", *sys.argv[1:]], env)


def _old_mode(j: Journal) -> None:
    j._conn.execute("PRAGMA synchronous=FULL")
    j._conn.execute("PRAGMA wal_autocheckpoint=1")
    j._reported = True  # as after a failure of the thread: none is started, each commit fsync'd and checkpointed


def _run(folder: Path, name: str, appends: int, gap: float, old: bool) -> tuple[list[float], list[float]]:
    j = Journal.create(folder / f"{name}.sqlite", {"game": "bench"})
    if old:
        _old_mode(j)
    walls, cpus = [], []
    body = {"name": "take", "seat": 1, "count": 2, "at": 1_800_000_000.0, "note": "x" * 120}
    for n in range(appends):
        w0, c0 = time.perf_counter(), time.thread_time()
        j.append("action", body)
        walls.append(time.perf_counter() - w0)
        cpus.append(time.thread_time() - c0)
        if n % 2:
            time.sleep(gap)
    j.close()
    return walls, cpus


def _lag(folder: Path, appends: int, gap: float) -> list[float]:
    j = Journal.create(folder / "lag.sqlite", {"game": "bench"})
    out = []
    for _ in range(appends // 4):
        j.append("action", {"name": "take"})
        t0 = time.perf_counter()
        j.flush(10)
        out.append(time.perf_counter() - t0)
        time.sleep(gap)
    j.close()
    return out


def _starts(folder: Path, games: int, old: bool) -> tuple[list[float], list[float]]:
    """Wall time of each game's start, and of the close of the game before it (still fsync'd: Journal.close)."""
    path, starts, closes = folder / f"start-{old}" / "current.sqlite", [], []
    for n in range(games):
        t0 = time.perf_counter()
        if old:  # Session.new before: `archive` then `Journal.create`, both fsync'd here
            archive(path, path.parent / "archive", "replaced")
            j = Journal.create(path, {"game": "bench", "n": n})
        else:
            j = replace(path, path.parent / "archive", "replaced", {"game": "bench", "n": n})
        starts.append(time.perf_counter() - t0)
        for _ in range(4):
            j.append("action", {"name": "take"})
        time.sleep(0.1)
        t0 = time.perf_counter()
        j.close()
        closes.append(time.perf_counter() - t0)
    return starts, closes


def _ends(folder: Path, games: int, old: bool) -> list[float]:
    """Wall time of a game's end on the journal worker (Session._close): its "end" record, the close, the move into
    the archive; old: `archive` opened and closed the journal a second time."""
    out = []
    for n in range(games):
        j = Journal.create(folder / f"end-{old}-{n}" / "current.sqlite", {"game": "bench"})
        for _ in range(40):
            j.append("action", {"name": "take"})
        j.flush(10)
        t0 = time.perf_counter()
        j.append("end", {"outcome": None})
        if old:
            j.close()
            archive(j.path, j.path.parent / "archive", "bench")
        else:
            close_into(j, j.path.parent / "archive", "bench")
        out.append(time.perf_counter() - t0)
    return out


LONG_GAME = """
import os, signal, sys, time
from pathlib import Path
from table import journal_sync
from table.journal import Journal
if sys.argv[3] == "old":
    journal_sync.Syncer.WAL_FRAMES = 10 ** 9  # emptied only at open and close
path = Path(sys.argv[1])
j = Journal.create(path, {"game": "bench"})
body = {"name": "take", "seat": 1, "count": 2, "at": 1_800_000_000.0, "note": "x" * 120}
largest, worst = 0, 0.0
for n in range(int(sys.argv[2])):
    t0 = time.perf_counter()
    j.append("action", body)
    worst = max(worst, time.perf_counter() - t0)
    largest = max(largest, os.path.getsize(str(path) + "-wal"))
    if n % 2:
        time.sleep(0.002)
j.flush(60)
print(largest, worst, j._sync.emptied, flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def _long_game(folder: Path, actions: int, old: bool) -> tuple[int, int, float, float, int]:
    """A game of `actions` appends killed at its end: the largest -wal, the -wal at the kill, the resume's open
    and read of the journal (s), the worst append (s), the times the -wal was emptied."""
    path = folder / f"long-{old}.sqlite"
    out = subprocess.run([sys.executable, "-c", LONG_GAME, str(path), str(actions), "old" if old else "new"],
                         capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(Path.cwd())})
    largest, worst, emptied = out.stdout.split()
    at_kill = os.path.getsize(str(path) + "-wal")
    for name in (str(path), str(path) + "-wal"):  # read from the disk, as after a power cycle, not from memory
        fd = os.open(name, os.O_RDONLY)
        os.fsync(fd)
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        os.close(fd)
    t0 = time.perf_counter()
    j = open_journal(path)
    assert j is not None and len(j.records()) == actions
    resume = time.perf_counter() - t0
    j.close()
    return int(largest), at_kill, resume, float(worst), int(emptied)


def _ms(xs: list[float]) -> str:
    xs = sorted(xs)
    return (f"median {1000 * statistics.median(xs):7.2f}  p90 {1000 * xs[int(0.9 * (len(xs) - 1))]:7.2f}  "
            f"worst {1000 * xs[-1]:7.2f} ms")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--appends", type=int, default=200)
    p.add_argument("--gap", type=float, default=30, help="ms between bursts of two appends")
    p.add_argument("--fsync-ms", type=int, default=0, help="make every fsync this much slower (needs cc)")
    p.add_argument("--games", type=int, default=10, help="game starts timed, in each mode")
    p.add_argument("--long", type=int, default=2000, help="actions in the long game killed at its end")
    args = p.parse_args()
    if args.fsync_ms and not os.environ.get("BENCH_FSYNC_MS"):
        _with_slow_fsync(args.fsync_ms)
    gap = args.gap / 1000
    with tempfile.TemporaryDirectory(dir=Path.home()) as tmp:  # a disk folder, not a tmpfs
        folder = Path(tmp)
        old_w, old_c = _run(folder, "old", args.appends, gap, old=True)
        new_w, new_c = _run(folder, "new", args.appends, gap, old=False)
        lag = _lag(folder, args.appends, gap)
        old_s, old_close = _starts(folder, args.games, old=True)
        new_s, new_close = _starts(folder, args.games, old=False)
        ends = {old: _ends(folder, args.games, old) for old in (True, False)}
        longs = {old: _long_game(folder, args.long, old) for old in (True, False)}
    slower = f", every fsync {args.fsync_ms} ms slower" if args.fsync_ms else ""
    print(f"{args.appends} appends, in pairs every {args.gap:.0f} ms{slower}; UI thread per append:")
    print(f"  wall, old (fsync'd here): {_ms(old_w)}")
    print(f"  wall, now               : {_ms(new_w)}")
    print(f"  CPU,  old               : {_ms(old_c)}")
    print(f"  CPU,  now               : {_ms(new_c)}")
    med = statistics.median
    print(f"  now / old: wall median {med(new_w) / med(old_w):.3f}, worst {max(new_w) / max(old_w):.3f}; "
          f"CPU median {med(new_c) / med(old_c):.3f}")
    print(f"durability lag (append → on disk, the journal's thread): {_ms(lag)}")
    print(f"{args.games} game starts (the previous journal closed, archived, a new one made), calling thread:")
    print(f"  wall, old (fsync'd here): {_ms(old_s)}")
    print(f"  wall, now               : {_ms(new_s)}")
    print(f"  now / old: wall median {med(new_s) / med(old_s):.3f}, worst {max(new_s) / max(old_s):.3f}")
    print(f"  the previous game's close (fsync'd here, both): {_ms(old_close + new_close)}")
    print(f"{args.games} game ends (end record, close, archive: the journal worker's, or the UI thread's for an ended "
          f"game found at start before):")
    print(f"  wall, old (archive reopens): {_ms(ends[True])}")
    print(f"  wall, now                  : {_ms(ends[False])}")
    print(f"a game of {args.long} actions killed at its end (-wal: largest, at the kill; resume: open and read, "
          f"files not in memory):")
    for old, (largest, at_kill, resume, worst, emptied) in longs.items():
        print(f"  {'old' if old else 'now'}: -wal {largest / 1e6:6.2f} MB, {at_kill / 1e6:6.2f} MB; resume "
              f"{1000 * resume:7.1f} ms; worst append {1000 * worst:5.2f} ms; -wal emptied {emptied} times")
    (o_l, o_k, o_r, _, _), (n_l, n_k, n_r, _, _) = longs[True], longs[False]
    print(f"  now / old: -wal largest {n_l / o_l:.3f}, at the kill {n_k / o_k:.3f}; resume {n_r / o_r:.3f}")


if __name__ == "__main__":
    main()
