"""Clue deduction benchmark: elimination only vs propagation only vs ours (propagation + exact counting).

    python -m bench.clue_solver                 # 1,000 seeded games, 250 each at 3, 4, 5, 6 players
    python -m bench.clue_solver --games 100 --advice-games 20

Each simulated game (engines.clue.simulate): a random classic deal; every turn the player to move makes a
random suggestion (rooms unconstrained: no board), disproval goes clockwise, the first holder shows a
random named card. Player 0 is the observer; after every suggestion each method updates on the same facts:

- elimination: a card is out when I hold it or was shown it (what most notepad apps do);
- propagation: the notation's local rules to a fixed point (one owner per card, hand sizes, one envelope
  card per category, passes, "showed one of these" down to its last card) — effect-clue style;
- ours: full propagation (plus the cross-mark hand-size rule) and exact counting of consistent deals;
  certain when an envelope card's probability is exactly 1.
  Updates run in game order, so one that changed nothing counting depends on is answered from the
  counter's memory (engines.clue.counting.Counter); bench/clue_counting.py times both ways.

Printed per player count: turns (game turns, all players) until the observer is certain of the whole
envelope — mean, median, games not solved within the cap — and the time per update (median, p99, max),
with ratios. Times are CPU time of this process (time.process_time), so other work on a shared machine
does not inflate them; wall time per player count is printed too. "ours + advice" replays games where the observer picks suggestions by expected information.
Any update that exceeded the counting budget is counted and listed (it then answers approximately).
Figures only; nothing here asserts on time.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from engines.clue.content import CLASSIC
from engines.clue.knowledge import Knowledge
from engines.clue.notation import elimination
from engines.clue.simulate import deal, play
from engines.clue.solver import advise, analyse, propagation_only

CATS = tuple(CLASSIC.ids(k) for k in range(3))


@dataclass
class Tally:
    turns: list[int] = field(default_factory=list)
    unsolved: int = 0
    times: list[float] = field(default_factory=list)

    def add_turn(self, turn: int | None, cap: int) -> None:
        if turn is None:
            self.unsolved += 1
            self.turns.append(cap)
        else:
            self.turns.append(turn)


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def run_game(n: int, seed: int, cap: int, tallies: dict[str, Tally], stats: dict[str, int],
             chooser: Callable[[Knowledge, int, random.Random], tuple[str, str, str]] | None = None) -> None:
    rng = random.Random(f"clue-bench:{n}:{seed}")
    d = deal(CATS, n, rng)
    first: dict[str, int | None] = {"elimination": None, "propagation": None, "ours": None}
    for turn, kn in play(d, rng, cap, chooser=chooser):
        t0 = time.process_time()
        elim = elimination(kn)
        t1 = time.process_time()
        prop = propagation_only(kn)
        t2 = time.process_time()
        tallies["elimination"].times.append(t1 - t0)
        tallies["propagation"].times.append(t2 - t1)
        if first["elimination"] is None and len(elim) == 3:
            first["elimination"] = turn
        if first["propagation"] is None and len(prop) == 3:
            first["propagation"] = turn
        if first["ours"] is None:
            t3 = time.process_time()
            a = analyse(kn)
            tallies["ours"].times.append(time.process_time() - t3)
            stats["max_states"] = max(stats["max_states"], a.probs.states)
            if not a.probs.exact:
                stats["approximate"] += 1
            if a.contradiction:
                stats["contradictions"] += 1
            if a.solved():
                first["ours"] = turn
                if tuple(a.envelope()[k] for k in range(3)) != d.envelope:
                    stats["wrong"] += 1
        if all(v is not None for v in first.values()):
            break
    for k, v in first.items():
        tallies[k].add_turn(v, cap)


def advice_chooser(kn: Knowledge, seat: int, rng: random.Random) -> tuple[str, str, str]:
    a = analyse(kn)
    best = advise(a, samples=48, seed=rng.randrange(1 << 30), top=1)
    if not best:
        return (rng.choice(CATS[0]), rng.choice(CATS[1]), rng.choice(CATS[2]))
    return (best[0].suspect, best[0].weapon, best[0].room)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="total games, split evenly over player counts")
    ap.add_argument("--players", type=int, nargs="+", default=[3, 4, 5, 6])
    ap.add_argument("--cap", type=int, default=200, help="turn cap per game")
    ap.add_argument("--advice-games", type=int, default=0, help="games per player count with advice")
    args = ap.parse_args(argv)
    per = max(1, args.games // len(args.players))
    print(f"Clue solver benchmark: {per * len(args.players)} games ({per} per player count), cap {args.cap} turns")
    for n in args.players:
        tallies = {k: Tally() for k in ("elimination", "propagation", "ours")}
        stats = {"max_states": 0, "approximate": 0, "contradictions": 0, "wrong": 0}
        start, cpu = time.perf_counter(), time.process_time()
        for g in range(per):
            run_game(n, g, args.cap, tallies, stats)
        wall, cpu = time.perf_counter() - start, time.process_time() - cpu
        print(f"\n{n} players — {per} games in {wall:.1f} s wall, {cpu:.1f} s CPU")
        print(f"  {'method':<12} {'turns mean':>10} {'median':>7} {'unsolved':>8}   "
              f"{'update median':>13} {'p99':>9} {'max':>9}")
        for k, t in tallies.items():
            print(f"  {k:<12} {statistics.mean(t.turns):>10.2f} {statistics.median(t.turns):>7.1f} "
                  f"{t.unsolved:>8}   {pct(t.times, .5) * 1e3:>10.3f} ms {pct(t.times, .99) * 1e3:>6.2f} ms "
                  f"{max(t.times) * 1e3:>6.2f} ms")
        o, p, e = (statistics.mean(tallies[k].turns) for k in ("ours", "propagation", "elimination"))
        fewer = sum(1 for a, b in zip(tallies["ours"].turns, tallies["propagation"].turns, strict=True) if a < b)
        print(f"  turns ratio propagation/ours {p / o:.3f}, elimination/ours {e / o:.3f}; "
              f"ours strictly earlier than propagation in {fewer}/{per} games")
        print(f"  ours: largest DP layer {stats['max_states']} states; updates over budget (approximate) "
              f"{stats['approximate']}; contradictions {stats['contradictions']}; wrong envelopes {stats['wrong']}")
        if args.advice_games:
            adv = {k: Tally() for k in ("elimination", "propagation", "ours")}
            st2 = {"max_states": 0, "approximate": 0, "contradictions": 0, "wrong": 0}
            for g in range(args.advice_games):
                run_game(n, g, args.cap, adv, st2, chooser=advice_chooser)
            base = statistics.mean(tallies["ours"].turns[: args.advice_games])
            with_adv = statistics.mean(adv["ours"].turns)
            print(f"  ours + advice ({args.advice_games} games): turns mean {with_adv:.2f} vs {base:.2f} "
                  f"with random suggestions (ratio {base / with_adv:.3f})")


if __name__ == "__main__":
    main()
