"""Clue exact counting: engines.clue.counting against today's algorithm (bench/clue_baseline.py, the counter
as it was before the rework), side by side on the same notebooks, in the same run.

    python -m bench.clue_counting                  # 40 seeded games at 6 players, measured twice
    python -m bench.clue_counting --players 4 6 --games 20 --full

The notebooks are those bench/clue_solver.py times: player 0's, after the deal and after every suggestion
until exact counting makes them certain of the envelope (`--full`: every turn of the first 60). For each
notebook today's counter and the new one run (order rotating, so load on the shared machine hits all alike);
the new one twice: from scratch (its memory of earlier updates dropped first) and in sequence (remembering
the last few problems, as during a game: an update that taught counting nothing is not counted again).
Their counts must be equal to today's (every card × owner, and the total; the script exits non-zero
otherwise), and CPU time per update is recorded (time.process_time). Printed: median, p90, p99, worst and
total for each, and the ratios today / new, for each run (`--runs`, default 2: the machine's load varies).
Run it with `nice -n 5` on a shared machine.
"""

from __future__ import annotations

import argparse
import gc
import os
import random
import time

from bench import clue_baseline
from engines.clue import counting
from engines.clue.content import CLASSIC
from engines.clue.knowledge import Knowledge
from engines.clue.notation import Notebook, propagate
from engines.clue.simulate import deal, play
from engines.clue.solver import analyse

CATS = tuple(CLASSIC.ids(k) for k in range(3))


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def notebooks(n: int, games: int, full: bool) -> list[Notebook]:
    out = []
    for g in range(games):
        rng = random.Random(f"clue-bench:{n}:{g}")
        d = deal(CATS, n, rng)
        kn: Knowledge
        for _turn, kn in play(d, rng, 60 if full else 200):
            out.append(propagate(kn))
            if not full and analyse(kn).solved():
                break
    return out


def measure(nbs: list[Notebook]) -> tuple[list[float], list[float], list[float], int, int]:
    """CPU seconds per update: today's algorithm, the new counter from scratch (its memory of earlier
    updates dropped first), the new counter in sequence (remembering the previous updates, as in a game).
    Returns the three lists, updates whose counts differ from today's, approximate answers."""
    old_t: list[float] = []
    cold_t: list[float] = []
    warm_t: list[float] = []
    differ = approx = 0
    counting.forget()
    for i, nb in enumerate(nbs):
        # rotate the order (load on the shared machine hits all alike); "in sequence" runs before "from
        # scratch", so it never finds this very notebook remembered
        runs = [("old", old_t), ("warm", warm_t), ("cold", cold_t)]
        runs = runs[i % 3:] + runs[:i % 3]
        if [r[0] for r in runs].index("cold") < [r[0] for r in runs].index("warm"):
            runs = [r for r in runs if r[0] != "cold"] + [r for r in runs if r[0] == "cold"]
        res = {}
        for name, times in runs:
            fn = clue_baseline.probabilities if name == "old" else counting.probabilities
            if name == "cold":
                counting.forget()
            t = time.process_time()
            res[name] = fn(nb)
            times.append(time.process_time() - t)
        a = res["old"]
        for b in (res["warm"], res["cold"]):
            differ += (a.exact, a.total, a.counts) != (b.exact, b.total, b.counts)
        approx += not res["cold"].exact
    return old_t, cold_t, warm_t, differ, approx


def table(title: str, old_t: list[float], new_t: list[float]) -> None:
    print(f"  {title}")
    print(f"  {'':<8} {'today':>10} {'new':>10} {'ratio':>7}")
    for name, q in (("median", .5), ("p90", .9), ("p99", .99), ("worst", 1.0)):
        o, w = pct(old_t, q), pct(new_t, q)
        print(f"  {name:<8} {o * 1e3:>7.2f} ms {w * 1e3:>7.2f} ms {o / max(w, 1e-9):>6.2f}×")
    print(f"  {'total':<8} {sum(old_t):>8.2f} s {sum(new_t):>8.2f} s {sum(old_t) / max(sum(new_t), 1e-9):>6.2f}×")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[6])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--runs", type=int, default=2, help="measure the same notebooks this many times")
    ap.add_argument("--full", action="store_true", help="every turn of the first 60, not only until solved")
    args = ap.parse_args(argv)
    load = os.getloadavg()[0]
    print(f"Clue exact counting, today's algorithm vs new (CPU ms per update); load average {load:.1f} "
          f"on {os.cpu_count()} cores")
    differ_all = 0
    for n in args.players:
        nbs = notebooks(n, args.games, args.full)
        gc.collect()
        gc.freeze()  # the thousands of notebooks kept here would make a full collection land in one update
        same = sum(1 for a, b in zip(nbs, nbs[1:], strict=False) if _problem(a) == _problem(b))
        for run in range(1, args.runs + 1):
            old_t, cold_t, warm_t, differ, approx = measure(nbs)
            differ_all += differ
            print(f"\n{n} players, run {run} of {args.runs} — {len(nbs)} updates from {args.games} games; counts "
                  f"differ in {differ}; approximate {approx}")
            table("from scratch (every update counted anew):", old_t, cold_t)
            table(f"in sequence (the last few problems remembered; {same} of {len(nbs)} updates left the counted "
                  "problem unchanged):", old_t, warm_t)
    gc.unfreeze()
    if differ_all:
        raise SystemExit(f"counts differ from today's algorithm in {differ_all} updates")


def _problem(nb: Notebook) -> tuple[object, ...]:
    """What the count depends on besides hand sizes: every mark and the open numbered marks."""
    return tuple(map(tuple, nb.marks.values())), tuple(tuple(v) for v in nb.numbers.values())


if __name__ == "__main__":
    main()
