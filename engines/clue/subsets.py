"""Exact counting for small problems: a dynamic programme over owners, not cards.

The same problem as engines.clue.layers (every deal consistent with the marks, the open numbered marks and
the hand sizes), counted another way that costs far less Python per problem when few cards are unknown:

- owners (each player with room, one envelope slot per open category) are split into two chains (fewest
  possible hands first, alternating); along a chain a state is the set of unknown cards its owners hold
  so far (a bitmask), and the chains meet in the middle: a full deal is a set from one chain's end whose
  complement is a set from the other's;
- an owner's possible hands ("picks") are listed once: its capacity's worth of the cards it may hold,
  keeping only those that meet every numbered mark on it (so no mark needs a bit in the state);
- a card no later owner (of either chain) may hold must be handed out by then (states that miss it go);
- each chain's forward pass counts ways to reach its sets, but for one chain's last owner (the larger
  last step): that step is passed once, in the backward pass, making the join as it goes (its sets are
  looked up as complements of the other chain's end); a backward pass along each chain gives the ways
  to finish; the products, summed per pick, give each (card, owner) count;
- but for a few owners that share no card (the join's first): a card's counts over its owners add up to
  the total (each deal gives it one owner), so theirs are found by difference, and the join lists only
  its owner's hands among the cards left (`_hands`: the subsets of a bitmask, a bounded
  table shared across problems, as are the picks).

`estimate` bounds the work from the pick counts before anything is built; the counter uses this
programme only below LIMIT (about where the two cost the same on bench/clue_counting.py), and the
layered one above it. Both give the same exact counts (tests/engines/clue/test_counting_props.py).
"""

from __future__ import annotations

import random
from functools import lru_cache
from itertools import combinations
from math import comb

from engines.clue.layers import BudgetExceeded
from engines.clue.problem import Problem

LIMIT = 15_000  # estimated state × pick steps above which the layered programme is used instead


class SubsetModel:
    """Owner-by-owner counting for fixed marks: forward/backward passes, marginals, sampling.

    Built in two steps so that the counter can give up cheaply: the constructor sets `estimate` (an upper
    bound on the work) from the decoded problem without listing any pick; `forward()` does the rest."""

    def __init__(self, pb: Problem, max_states: int) -> None:
        self.P = pb.P
        self.max_states = max_states
        self.fixed, self.unknown, self.allowed, self.caps, self.mine = pb.fixed, pb.unknown, pb.allowed, pb.caps, pb.mine
        self.full = pb.full
        self.ok = pb.ok
        allowed, caps, unknown = pb.allowed, pb.caps, pb.unknown
        sizes: list[tuple[int, int, int]] = []  # (hands it may get, owner, capacity)
        for o, cap in enumerate(caps):
            if cap > 0:
                sizes.append((comb(allowed[o].bit_count(), cap), o, cap))
        sizes.sort()
        # two chains from both ends, met in the middle: owners alternate between them, fewest hands first
        self.chains = ([t[1] for t in sizes[0::2]], [t[1] for t in sizes[1::2]])
        n_cards = len(unknown)
        est = 0
        # with 6 cards or fewer the work stays below LIMIT whatever the owners (at most 2^6 sets × C(6, 3)
        # hands × 9 owners): left at 0
        for part in (sizes[0::2], sizes[1::2]) if n_cards > 6 else ():
            width, placed = 1, 0
            for n, _o, cap in part:
                est += width * n
                placed += cap
                width = min(width * n, comb(n_cards, placed))  # distinct sets of `placed` cards
            est += width  # the join
        self.estimate = est
        self.layers: list[dict[int, int]] = []  # the forward layers of both chains (freed after counting)
        self.back: list[dict[int, int]] = []  # the same and the join, kept for sampling
        self.runs: tuple[list[dict[int, int]], list[dict[int, int]]] = ([], [])
        self.picks: tuple[list[tuple[int, ...]], list[tuple[int, ...]]] = ([], [])
        self.join: dict[int, int] = {}

    def _picks(self, o: int) -> tuple[int, ...]:
        """Owner o's possible hands: its capacity's worth of the cards it may hold, meeting its marks."""
        return _hands(self.allowed[o], self.caps[o], tuple(self.mine.get(o, ())))

    def forward(self) -> None:
        """Each chain's forward layers (the sets of cards its first k owners may hold, with their numbers of
        ways), the second chain's last owner included, the first's left for the join in `backward`."""
        full, allowed = self.full, self.allowed
        chains = self.chains
        picks = ([self._picks(o) for o in chains[0]], [self._picks(o) for o in chains[1]])
        reach = [0, 0]  # cards some owner of each chain may hold
        for i in (0, 1):
            for o in chains[i]:
                reach[i] |= allowed[o]
        needs: list[list[int]] = [[], []]
        for i in (0, 1):
            later = reach[1 - i]
            need = needs[i] = [0] * len(chains[i])
            for k in range(len(chains[i]) - 1, -1, -1):  # cards no later owner may hold: handed out by then
                need[k] = full & ~later
                later |= allowed[chains[i][k]]
        alive = reach[0] | reach[1] == full and all(picks[0]) and all(picks[1])
        runs = ([{0: 1} if alive else {}], [{0: 1} if alive else {}])
        for i in (0, 1):
            self._extend(runs[i], picks[i], needs[i], len(chains[i]) - 1)
        # the join is made while passing the last owner of one chain: the chain whose last step is the
        # larger (its forward step is never made on its own); the other chain is finished here
        if chains[1] and len(runs[1][-1]) * len(picks[1][-1]) > len(runs[0][-1]) * len(picks[0][-1]):
            chains, picks, runs, needs = chains[::-1], picks[::-1], runs[::-1], needs[::-1]
        if chains[1]:
            self._extend(runs[1], picks[1], needs[1], len(chains[1]))
        self.chains, self.picks, self.runs = chains, picks, runs
        self.layers = self.back = runs[0] + runs[1]

    def _extend(self, run: list[dict[int, int]], picks: list[tuple[int, ...]], needs: list[int], upto: int) -> None:
        """Append forward layers to `run` until it holds `upto` + 1 layers."""
        layer = run[-1]
        for k in range(len(run) - 1, upto):
            nxt: dict[int, int] = {}
            need = needs[k]
            if not k and not need:  # the first owner, from the empty set: each pick once (picks differ)
                if layer:
                    nxt = dict.fromkeys(picks[0], 1)
            elif need:
                for m, w in layer.items():
                    for s in picks[k]:
                        if s & m:
                            continue
                        t = m | s
                        if t & need != need:
                            continue
                        if t in nxt:
                            nxt[t] += w
                        else:
                            nxt[t] = w
            else:
                for m, w in layer.items():
                    for s in picks[k]:
                        if s & m:
                            continue
                        t = m | s
                        if t in nxt:
                            nxt[t] += w
                        else:
                            nxt[t] = w
            if len(nxt) > self.max_states:
                raise BudgetExceeded(len(nxt))
            layer = nxt
            run.append(layer)

    def backward(self, counts: dict[str, list[int]]) -> int:
        """Join the chains while passing the first chain's last owner; pass back along each chain; adds
        per-card, per-owner deal counts into `counts`; returns the total."""
        P = self.P
        full = self.full
        rows = [counts[c] for c in self.unknown]
        start = [sum(row) for row in rows]
        chains, runs = self.chains, self.runs
        total = 0
        join: dict[int, int] = {}  # second chain's set → ways the first chain holds the rest
        if chains[0]:
            k = len(chains[0]) - 1
            end = runs[1][-1]
            skip = self._skipped()
            back: dict[int, int] = {}
            o = chains[0][k]  # the join's owner (skipped: its counts are found by difference)
            a, cap, need = self.allowed[o], self.caps[o], tuple(self.mine.get(o, ()))
            for m, f in runs[0][k].items():
                acc = 0
                rest = full ^ m
                for s in _hands(a & rest, cap, need):  # its hands among the cards left
                    u = rest ^ s
                    if u in end:
                        acc += end[u]
                        if u in join:
                            join[u] += f
                        else:
                            join[u] = f
                if acc:
                    back[m] = acc
                    total += f * acc
            self._back(0, k - 1, back, rows, P, skip)
            self._back(1, len(chains[1]) - 1, join, rows, P, skip)
            # the skipped owners' counts: every deal gives a card to exactly one owner
            allowed = self.allowed
            for o in skip:
                col = P if o >= P else o
                a = allowed[o]
                while a:
                    low = a & -a
                    row = rows[low.bit_length() - 1]
                    row[col] += total - sum(row) + start[low.bit_length() - 1]
                    a ^= low
        elif full == 0 and runs[0][0]:
            total = 1
        self.join = join
        self.back = self.back + [join]
        for c, o in self.fixed.items():
            counts[c][o] += total
        return total

    def _skipped(self) -> list[int]:
        """Owners whose counts are left out of the passes and found afterwards by difference (a card's counts
        over its owners add up to the total): no two may hold the same card. Greedily, the join's owner,
        then each chain's from its last (the larger layers) to its first."""
        chains, allowed = self.chains, self.allowed
        skip = []
        taken = 0
        for o in (*chains[0][::-1], *chains[1][::-1]):
            if not allowed[o] & taken:
                skip.append(o)
                taken |= allowed[o]
        return skip

    def _back(self, i: int, top: int, back: dict[int, int], rows: list[list[int]], P: int,
              skip: list[int]) -> None:
        """The backward pass along chain i from its owner `top` down, `back` giving the ways to finish from
        each set after that owner; per-card counts added into `rows` (but for the owners in `skip`)."""
        run, picks, chain = self.runs[i], self.picks[i], self.chains[i]
        for k in range(top, 0, -1):
            cur: dict[int, int] = {}
            pw = dict.fromkeys(picks[k], 0)
            for m, f in run[k].items():
                acc = 0
                for s in picks[k]:
                    if s & m:
                        continue
                    t = m | s
                    if t in back:
                        b = back[t]
                        acc += b
                        pw[s] += f * b
                if acc:
                    cur[m] = acc
            back = cur
            if chain[k] not in skip:  # (rare in the middle of a chain)
                _spread(pw, rows, P if chain[k] >= P else chain[k])
        if top >= 0 and chain[0] not in skip:  # the first owner: from the empty set, so a pick's deals are
            col = P if chain[0] >= P else chain[0]  # the ways to finish after it
            for s in picks[0]:
                if s in back:
                    v = back[s]
                    while s:
                        low = s & -s
                        rows[low.bit_length() - 1][col] += v
                        s ^= low

    def sample(self, rng: random.Random) -> dict[str, int]:
        """One consistent deal drawn uniformly (card → owner), after forward/backward: the join drawn by its
        number of deals, then each chain walked back from it by the forward counts."""
        P = self.P
        full = self.full
        runs = self.runs
        end = runs[1][-1]
        u = _draw(rng, [(w * end[u], u) for u, w in self.join.items()]) if self.chains[0] else 0
        deal = dict(self.fixed)
        for i, held in ((0, full ^ u), (1, u)):
            run, picks = runs[i], self.picks[i]
            for k in range(len(picks) - 1, -1, -1):
                get = run[k].get
                s = _draw(rng, [(get(held ^ s, 0), s) for s in picks[k] if s & held == s])
                held ^= s
                o = self.chains[i][k]
                col = P if o >= P else o
                while s:
                    low = s & -s
                    deal[self.unknown[low.bit_length() - 1]] = col
                    s ^= low
        return deal


@lru_cache(maxsize=8192)
def _hands(a: int, cap: int, need: tuple[int, ...] = ()) -> tuple[int, ...]:
    """The subsets of `cap` bits of the bitmask `a` that meet every mask in `need` (pure combinatorics:
    shared across problems, bounded)."""
    if cap == 1:  # one card: it must be in every mask
        for t in need:
            a &= t
        need = ()
    bits = []
    while a:
        low = a & -a
        bits.append(low)
        a ^= low
    if cap == 1:
        return tuple(bits)
    if cap == len(bits):
        out = [sum(bits)]
    elif cap == 2:
        out = [x | y for x, y in combinations(bits, 2)]
    else:
        out = [sum(t) for t in combinations(bits, cap)]
    for t in need:
        out = [s for s in out if s & t]
    return tuple(out)


def _spread(pw: dict[int, int], rows: list[list[int]], col: int) -> None:
    """Add each pick's deals to the counts of its cards (rows: the unknown cards' count rows) for one owner."""
    for s, v in pw.items():
        if v:
            while s:
                low = s & -s
                rows[low.bit_length() - 1][col] += v
                s ^= low


def _draw(rng: random.Random, options: list[tuple[int, int]]) -> int:
    """One option's value, drawn with probability proportional to its weight."""
    r = rng.randrange(sum(w for w, _ in options))
    for w, v in options:
        if r < w:
            return v
        r -= w
    return options[-1][1]
