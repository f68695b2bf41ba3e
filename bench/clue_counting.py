"""Clue exact counting: engines.clue.counting against today's algorithm (bench/clue_baseline.py, the counter
as it was before the rework), side by side on the same notebooks, in the same run.

    python -m bench.clue_counting                  # 40 seeded games at 6 players
    python -m bench.clue_counting --players 4 6 --games 20 --full

The notebooks are those bench/clue_solver.py times: player 0's, after the deal and after every suggestion
until exact counting makes them certain of the envelope (`--full`: every turn of the first 60). For each
notebook both counters run (alternating, so load on the shared machine hits both alike), their counts must
be equal (every card × owner, and the total), and CPU time per update is recorded (time.process_time).
Printed: median, p90, p99 and worst for both, and the ratios today / new. Figures only; nothing asserts.
"""

from __future__ import annotations

import argparse
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


def measure(nbs: list[Notebook]) -> tuple[list[float], list[float], int, int]:
    old_t: list[float] = []
    new_t: list[float] = []
    differ = approx = 0
    for i, nb in enumerate(nbs):
        runs = [(clue_baseline.probabilities, old_t), (counting.probabilities, new_t)]
        if i % 2:
            runs.reverse()
        res = []
        for fn, times in runs:
            t = time.process_time()
            res.append(fn(nb))
            times.append(time.process_time() - t)
        a, b = res
        differ += (a.exact, a.total, a.counts) != (b.exact, b.total, b.counts)
        approx += not b.exact
    return old_t, new_t, differ, approx


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[6])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--full", action="store_true", help="every turn of the first 60, not only until solved")
    args = ap.parse_args(argv)
    load = os.getloadavg()[0]
    print(f"Clue exact counting, today's algorithm vs new (CPU ms per update); load average {load:.1f} "
          f"on {os.cpu_count()} cores")
    for n in args.players:
        nbs = notebooks(n, args.games, args.full)
        old_t, new_t, differ, approx = measure(nbs)
        print(f"\n{n} players — {len(nbs)} updates from {args.games} games; counts differ in {differ}; "
              f"approximate {approx}")
        print(f"  {'':<8} {'today':>10} {'new':>10} {'ratio':>7}")
        for name, q in (("median", .5), ("p90", .9), ("p99", .99), ("worst", 1.0)):
            o, w = pct(old_t, q), pct(new_t, q)
            print(f"  {name:<8} {o * 1e3:>7.2f} ms {w * 1e3:>7.2f} ms {o / max(w, 1e-9):>6.2f}×")
        print(f"  {'total':<8} {sum(old_t):>8.2f} s {sum(new_t):>8.2f} s {sum(old_t) / max(sum(new_t), 1e-9):>6.2f}×")


if __name__ == "__main__":
    main()
