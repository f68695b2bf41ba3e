"""Tablet seats' strength and speed (engines/clue/bots.py, engines/mr_jack_ny/bots.py), in seeded simulated
games through engines.bots.play: every seat a bot, chance by the engine, the table by a coarse board model
(Clue: engines.clue.board.Walks; Mr. Jack: engines.mr_jack_ny.streets.Streets).

    nice -n 10 python -m bench.bots                     # the default run: a few minutes
    nice -n 10 python -m bench.bots --clue-games 400 --jack-games 4000
    nice -n 10 python -m bench.bots --tune              # the gamble's calibration, on the tuning seeds
    nice -n 10 python -m bench.bots --h2h eval --players 3 4 6 --clue-games 200   # 어려움 vs 보통 alone
    nice -n 10 python -m bench.bots --h2h eval --players 3 --first 600 --clue-games 1200  # a part of a long run
    nice -n 10 python -m bench.bots --h2h tune --variant before    # a candidate of VARIANTS in 어려움's seats
    nice -n 10 python -m bench.bots --only clue --baselines --players 3 6 --clue-games 200  # 보통's matchups

Clue (digital mode, classic set), at each `--players` count, the bot under test in a seat that rotates game
by game (so no seat order favours it):
- 보통 against random-suggestion players (exact notes and certain accusations, suggestions and rooms at
  random: what the suggestion policy adds), against propagation-only players (the usual paper notebook:
  suggests cards not yet placed) and against 쉬움: its win rate beside the even share 1/n, and turns to
  accuse (its own turns until its accusation, in games it accused) beside the others';
- 어려움 against 보통 head to head (seats alternate): 어려움's share of the wins (even: 50 %).
Mr. Jack: each side at each level against a random legal player and against the other side's levels:
the detective's win rate (Jack's is the rest), and how the games ended.
CPU time per decision (time.process_time of the bot call alone), per level: median, p95, worst, and at
the largest player count apart (the issue's goal: p95 <= 1 s at 6 players).

Seeds: figures come from the held-out seeds ("eval"); `--tune` sweeps 어려움's gamble and `--h2h tune
--variant` tries 어려움's candidate styles (VARIANTS; BEFORE: 어려움 before it looked past the die) on the
tuning seeds ("tune") only, never on the ones reported. Seeds are strings per split, so the two never meet.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import os
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.bots import Bot, play, random_bot
from engines.clue import ENGINE as CLUE
from engines.clue import bots as clue_bots
from engines.clue.board import Walks
from engines.clue.reach import Plan
from engines.core import Action
from engines.mr_jack_ny import ENGINE as JACK
from engines.mr_jack_ny import bots as jack_bots
from engines.mr_jack_ny.state import DETECTIVE
from engines.mr_jack_ny.streets import Streets
from tests.packs import pack_for

CLUE_PACK = pack_for("clue")
JACK_PACK = pack_for("mr_jack_ny")


@dataclass
class Clock:
    """CPU seconds per decision, by label."""

    times: dict[str, list[float]] = field(default_factory=dict)

    def wrap(self, label: str, bot: Bot) -> Bot:
        spent = self.times.setdefault(label, [])

        def timed(view: Any, legal: Sequence[Action], rng: Any) -> Action:
            t = time.process_time()
            out = bot(view, legal, rng)
            spent.append(time.process_time() - t)
            return out
        return timed


def pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))] if s else 0.0


def seed_of(split: str, *parts: object) -> int:
    """A game's seed: the split's name is part of it, so tuning and reported games never share one."""
    import zlib
    return zlib.crc32(":".join([split, *map(str, parts)]).encode())


# ---------------------------------------------------------------- Clue


# 어려움 as it was before the look past the die (engines.clue.reach), and the candidates tried on the tuning
# seeds (`--h2h tune --variant NAME`); the level's own style is chosen from these, reported on "eval".
BEFORE = clue_bots.Style(counting=True, choice="info", leak_least=True, gamble=clue_bots.Gamble(), here=0.2,
                         passage_bonus=1.0, aim=0.25)
VARIANTS: dict[str, clue_bots.Style] = {
    "before": BEFORE,
    "plan": dataclasses.replace(BEFORE, passage_bonus=0.0, plan=Plan()),
    "plan.f4": dataclasses.replace(BEFORE, passage_bonus=0.0, plan=Plan(future=0.4)),
    "plan.f8": dataclasses.replace(BEFORE, passage_bonus=0.0, plan=Plan(future=0.8)),
    "plan.t1": dataclasses.replace(BEFORE, passage_bonus=0.0, plan=Plan(turns=1)),
    "plan.gift": dataclasses.replace(BEFORE, passage_bonus=0.0, plan=Plan(), gift=0.15),
    "gift": dataclasses.replace(BEFORE, gift=0.15),
    "hard": clue_bots.HARD,
}


def clue_bot(name: str, gamble: clue_bots.Gamble | None = None) -> Bot:
    if name in VARIANTS:
        return clue_bots.make(VARIANTS[name])
    if name == "random":
        return clue_bots.make(clue_bots.RANDOM)
    if name == "notebook":
        return clue_bots.make(clue_bots.NOTEBOOK)
    if name == "hard" and gamble is not None:
        return clue_bots.make(dataclasses.replace(clue_bots.HARD, gamble=gamble))
    return clue_bots.LEVELS[name].bot


@dataclass
class ClueTally:
    games: int = 0
    wins: dict[str, int] = field(default_factory=dict)  # by label ("none": everyone out)
    turns: dict[str, list[int]] = field(default_factory=dict)  # own turns until one's accusation, by label
    wrong: dict[str, int] = field(default_factory=dict)  # wrong accusations, by label


class TurnWalks(Walks):
    """The board model, counting each seat's turns as they begin."""

    def __init__(self, n: int, first: int) -> None:
        super().__init__()
        self.turns = [0] * n
        self.turns[first] = 1

    def after(self, state: Any, action: Action, new: Any) -> None:
        super().after(state, action, new)
        if new.phase == "start" and (state.phase != "start" or new.turn != state.turn):
            self.turns[new.turn] += 1


def clue_games(n: int, labels: Callable[[int], list[str]], bots: dict[str, Bot], games: int, split: str,
               tally: ClueTally, clock: Clock | None, first: int = 0) -> None:
    """Games `first`..`games - 1`; `labels(g)`: the label of each seat in game g; `bots`: label → bot."""
    for g in range(first, games):
        seat_labels = labels(g)
        seed = seed_of(split, "clue", n, g)
        state = CLUE.setup({"players": [f"p{i}" for i in range(n)], "mode": "digital"}, CLUE_PACK, seed)
        seats = {i: clock.wrap(f"{lb}@{n}", bots[lb]) if clock else bots[lb] for i, lb in enumerate(seat_labels)}
        board = TurnWalks(n, state.first)
        done = play(CLUE, state, seats, seed, board).state
        tally.games += 1
        winner = seat_labels[done.winner] if done.winner >= 0 else "none"
        tally.wins[winner] = tally.wins.get(winner, 0) + 1
        for acc in done.accusations:
            lb = seat_labels[acc.seat]
            tally.turns.setdefault(lb, []).append(board.turns[acc.seat])
            if not acc.correct:
                tally.wrong[lb] = tally.wrong.get(lb, 0) + 1


def rotate(test: str, others: str, n: int) -> Callable[[int], list[str]]:
    """The bot under test in seat g % n, the others around it."""
    return lambda g: [test if i == g % n else others for i in range(n)]


def alternate(a: str, b: str, n: int) -> Callable[[int], list[str]]:
    """Head to head: seats alternate a/b, and who sits first swaps game by game (odd n: even shares)."""
    return lambda g: [(a, b)[(i + g) % 2] for i in range(n)]


def clue_report(title: str, tally: ClueTally, test: str, others: str, n: int) -> None:
    seats_test = 1 if test != others and tally.games else 0
    wins = tally.wins.get(test, 0)
    print(f"  {title}: {tally.games} games")
    if seats_test:
        print(f"    {test} wins {wins / tally.games:6.1%} (even share {1 / n:.1%}); others {tally.wins.get(others, 0)}"
              f", nobody {tally.wins.get('none', 0)}")
    for lb in (test, others):
        t = tally.turns.get(lb, [])
        if t:
            print(f"    {lb:>7}: own turns to accuse mean {statistics.mean(t):5.1f}, median {statistics.median(t):4.1f} "
                  f"({len(t)} accusations, {tally.wrong.get(lb, 0)} wrong)")


def head_to_head(title: str, tally: ClueTally, a: str, b: str) -> None:
    wa, wb = tally.wins.get(a, 0), tally.wins.get(b, 0)
    share = wa / max(1, wa + wb)
    se = (share * (1 - share) / max(1, wa + wb)) ** 0.5
    print(f"  {title}: {tally.games} games; {a} {wa}, {b} {wb}, nobody {tally.wins.get('none', 0)}: "
          f"{a}'s share {share:.1%} ± {se:.1%} (even 50%)")
    for lb in (a, b):
        t = tally.turns.get(lb, [])
        if t:
            print(f"    {lb:>7}: own turns to accuse mean {statistics.mean(t):5.1f} ({len(t)} accusations, "
                  f"{tally.wrong.get(lb, 0)} wrong)")


def clue(players: list[int], games: int, clock: Clock, with_h2h: bool = True) -> None:
    bots = {name: clue_bot(name) for name in ("random", "notebook", "easy", "normal", "hard")}
    for n in players:
        print(f"\nClue, {n} players (board model: engines.clue.board.Walks)")
        for others, title in (("random", "보통 vs random-suggestion players"),
                              ("notebook", "보통 vs propagation-only players (the usual notebook strategy)"),
                              ("easy", "보통 vs 쉬움 players")):
            t = ClueTally()
            clue_games(n, rotate("normal", others, n), bots, games, "eval", t, clock)
            clue_report(title, t, "normal", others, n)
        if not with_h2h:
            continue
        t = ClueTally()
        clue_games(n, alternate("hard", "normal", n), bots, games, "eval", t, clock)
        head_to_head("어려움 vs 보통, seats alternating", t, "hard", "normal")


def h2h(players: list[int], games: int, clock: Clock, split: str = "eval", hard: str = "hard",
        jobs: int = 1, first: int = 0) -> None:
    """어려움 (or a candidate of `VARIANTS`) against 보통 alone (seats alternating), on `split`'s seeds; the
    games shared among `jobs` processes (the same games and figures as one process)."""
    for n in players:
        print(f"\nClue, {n} players, {split} seeds (games {first}-{games - 1}), {hard} vs normal")
        t = ClueTally()
        step = 10 * jobs
        for start in range(first, games, step):  # a line every `step` games (a run cut short still says something)
            parts = [(n, hard, lo, min(games, lo + 10), split) for lo in range(start, min(games, start + step), 10)]
            if jobs > 1:
                import multiprocessing
                with multiprocessing.get_context("fork").Pool(jobs) as pool:
                    done = pool.map(_h2h_part, parts)
            else:
                done = [_h2h_part(p) for p in parts]
            for part, times in done:
                t.games += part.games
                for k, v in part.wins.items():
                    t.wins[k] = t.wins.get(k, 0) + v
                for k, xs in part.turns.items():
                    t.turns.setdefault(k, []).extend(xs)
                for k, v in part.wrong.items():
                    t.wrong[k] = t.wrong.get(k, 0) + v
                for k, xs in times.items():
                    clock.times.setdefault(k.replace(hard, "hard"), []).extend(xs)
            head_to_head("어려움 vs 보통, seats alternating", t, "hard", "normal")
            timing(clock)  # with every line: a run cut short still has them


def _h2h_part(args: tuple[int, str, int, int, str]) -> tuple[ClueTally, dict[str, list[float]]]:
    n, hard, lo, hi, split = args
    t, clock = ClueTally(), Clock()
    bots = {"hard": clue_bot(hard), "normal": clue_bot("normal")}
    clue_games(n, alternate("hard", "normal", n), bots, hi, split, t, clock, lo)
    return t, clock.times


def tune(players: list[int], games: int) -> None:
    """어려움's gamble on the tuning seeds: its share against 보통 for a few thresholds."""
    base = clue_bot("normal")
    grid = [clue_bots.Gamble(9.0, 0.0, 1.0),  # never short of certainty: 보통 itself (the reference)
            clue_bots.Gamble(), clue_bots.Gamble(2.4, 0.03, 0.3), clue_bots.Gamble(1.4, 0.03, 0.15)]
    for n in players:
        print(f"\nTuning 어려움's gamble, {n} players, {games} games each (tuning seeds)")
        for g in grid:
            t = ClueTally()
            clue_games(n, alternate("hard", "normal", n), {"hard": clue_bot("hard", g), "normal": base}, games,
                       "tune", t, None)
            head_to_head(f"share {g.share}, per round {g.per_round}, floor {g.floor}", t, "hard", "normal")


# ---------------------------------------------------------------- Mr. Jack


def jack(games: int, clock: Clock) -> None:
    def bot(side: str, level: str) -> Bot:
        if level == "random":
            return random_bot
        return clock.wrap(f"{side} {level}", jack_bots.LEVELS[level].bot)

    board = Streets(0)
    print(f"\nMr. Jack in New York (board model: engines.mr_jack_ny.streets.Streets: visible {board.visible}, "
          f"reach {board.reach}, escape {board.escape}); {games} games per pairing; detective's win rate")
    levels = ["random", "easy", "hard"]
    print(f"  {'detective / Jack':<18}" + "".join(f"{lv:>10}" for lv in levels))
    endings: dict[tuple[str, str], dict[str, int]] = {}
    for d in levels:
        row = []
        for j in levels:
            won = 0
            ends: dict[str, int] = {}
            for g in range(games):
                seed = seed_of("eval", "jack", g)
                state = JACK.setup({"players": ["탐정", "잭"]}, JACK_PACK, seed)
                done = play(JACK, state, {0: bot("detective", d), 1: bot("jack", j)}, seed, Streets(seed)).state
                won += done.winner == DETECTIVE
                ends[done.reason] = ends.get(done.reason, 0) + 1
            endings[(d, j)] = ends
            row.append(won / games)
        print(f"  {d:<18}" + "".join(f"{x:>10.1%}" for x in row))
    print("  endings (arrest right / arrest wrong / escape / rounds over):")
    for (d, j), ends in endings.items():
        print(f"    D {d:<6} J {j:<6} " + " / ".join(str(ends.get(k, 0)) for k in
                                                    ("arrest_right", "arrest_wrong", "escape", "rounds_over")))


# ---------------------------------------------------------------- main


def timing(clock: Clock) -> None:
    print("\nCPU time per decision (the bot call alone), ms: median / p95 / worst (decisions)")
    for label, xs in sorted(clock.times.items()):
        print(f"  {label:<16} {pct(xs, .5) * 1e3:8.2f} {pct(xs, .95) * 1e3:8.2f} {max(xs) * 1e3:8.2f}  ({len(xs)})")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, nargs="+", default=[6])
    ap.add_argument("--clue-games", type=int, default=16, help="per matchup and player count")
    ap.add_argument("--jack-games", type=int, default=1000, help="per pairing")
    ap.add_argument("--tune", action="store_true", help="sweep 어려움's gamble on the tuning seeds instead")
    ap.add_argument("--calibrate", action="store_true", help="the data the gamble is set from (tuning seeds)")
    ap.add_argument("--only", choices=["clue", "jack"], default=None)
    ap.add_argument("--baselines", action="store_true", help="Clue: 보통 against the baselines only (no h2h)")
    ap.add_argument("--variant", default="hard", help="--h2h: this style of VARIANTS in 어려움's seats")
    ap.add_argument("--first", type=int, default=0, help="--h2h: from this game on (a run in parts)")
    ap.add_argument("--jobs", type=int, default=1, help="--h2h: processes (the machine is shared: 1 or 2)")
    ap.add_argument("--h2h", choices=["tune", "eval"], default=None,
                    help="only 어려움 vs 보통 at Clue, on these seeds (with CPU time per decision)")
    args = ap.parse_args(argv)
    print(f"Tablet seats, seeded simulated games; load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    t0 = time.time()
    if args.tune:
        tune(args.players, args.clue_games)
        return
    if args.calibrate:
        calibrate(args.players, args.clue_games)
        return
    clock = Clock()
    if args.h2h:
        h2h(args.players, args.clue_games, clock, args.h2h, args.variant, args.jobs, args.first)
        timing(clock)
        print(f"\nwall time {time.time() - t0:.0f} s; load average now {os.getloadavg()[0]:.1f}")
        return
    if args.only != "clue":
        jack(args.jack_games, clock)
    if args.only != "jack":
        clue(args.players, args.clue_games, clock, not args.baselines)
    timing(clock)
    print(f"\nwall time {time.time() - t0:.0f} s; load average now {os.getloadavg()[0]:.1f}")


def calibrate(players: list[int], games: int) -> None:
    """The data 어려움's gamble is set from, on the tuning seeds: games of 보통 only; at the start of each
    turn of a seat not yet certain, the likeliest envelope's exact probability p and how far the game has
    gone; then whether that seat went on to win without gambling. Gambling is worth it where p exceeds the
    chance of winning by waiting: printed per (rounds, p) bucket."""
    base = clue_bot("normal")
    p_edges = (0.0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.75, 1.0)
    r_edges = (0, 3, 5, 7, 9, 12, 99)
    for n in players:
        records: list[tuple[int, float, float, int]] = []  # game, rounds, p, seat

        def wrap(g: int, records: list[tuple[int, float, float, int]] = records) -> Bot:
            def bot(view: Any, legal: Sequence[Action], rng: Any) -> Action:
                if view.phase == "start" and any(a.NAME == "accuse" for a in legal):
                    n_ = clue_bots.notes(view, True)
                    if n_.solved() is None:
                        found = clue_bots.likeliest(n_)
                        if found is not None:
                            records.append((g, clue_bots.rounds(n_.game), found[1], n_.me))
                return base(view, legal, rng)
            return bot

        winners: dict[int, int] = {}
        for g in range(games):
            seed = seed_of("tune", "clue", n, g)
            state = CLUE.setup({"players": [f"p{i}" for i in range(n)], "mode": "digital"}, CLUE_PACK, seed)
            done = play(CLUE, state, {i: wrap(g) for i in range(n)}, seed, Walks()).state
            winners[g] = done.winner
        print(f"\nCalibration, {n} players, {games} games of 보통 (tuning seeds), {len(records)} turn starts: "
              "P(win by waiting) [turns] by rounds (rows) and the likeliest envelope's p (columns)")
        print(f"  {'rounds':<8}" + "".join(f"{f'{lo:.2f}-{hi:.2f}':>12}" for lo, hi in itertools.pairwise(p_edges)))
        for r_lo, r_hi in itertools.pairwise(r_edges):
            cells = []
            for lo, hi in itertools.pairwise(p_edges):
                got = [winners[g] == seat for g, r, p, seat in records if r_lo <= r < r_hi and lo <= p < hi]
                cells.append(f"{sum(got) / len(got):.2f} [{len(got):>4}]" if got else f"{'-':>11}")
            print(f"  {f'{r_lo}-{r_hi}':<8}" + "".join(f"{c:>12}" for c in cells))


if __name__ == "__main__":
    main()
