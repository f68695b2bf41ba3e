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
- each chain's forward pass counts ways to reach its sets; from the join, a backward pass along each
  chain gives the ways to finish; the products, summed per pick, give each (card, owner) count.

`estimate` bounds the work from the pick counts before anything is built; the counter uses this
programme only below LIMIT (about where the two cost the same on bench/clue_counting.py), and the
layered one above it. Both give the same exact counts (tests/engines/clue/test_counting_props.py).
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

from engines.clue.knowledge import Knowledge
from engines.clue.layers import BudgetExceeded, clause_mask
from engines.clue.notation import O

LIMIT = 6000  # estimated state × pick steps above which the layered programme is used instead


class SubsetModel:
    """Owner-by-owner counting for fixed marks: forward/backward passes, marginals, sampling.

    Built in two steps so that the counter can give up cheaply: the constructor decodes the marks and
    sets `estimate` (an upper bound on the work) without listing any pick; `forward()` does the rest."""

    def __init__(self, kn: Knowledge, marks: dict[str, list[int | None]],
                 clauses: list[tuple[int, tuple[str, ...]]], max_states: int) -> None:
        self.kn = kn
        self.max_states = max_states
        P = len(kn.hand_sizes)
        K = len(kn.categories)
        caps = [*kn.hand_sizes, *([1] * K)]
        allowed = [0] * (P + K)
        fixed: dict[str, int] = {}
        unknown: list[str] = []
        bit = 1
        players = range(P)
        for k, cat in enumerate(kn.categories):
            ek = P + k
            for c in cat:
                row = marks[c]
                if O in row:
                    o = row.index(O)
                    fixed[c] = o
                    caps[ek if o == P else o] -= 1
                    continue
                for p in players:
                    if row[p] is None:
                        allowed[p] |= bit
                if row[P] is None:
                    allowed[ek] |= bit
                unknown.append(c)
                bit <<= 1
        self.fixed, self.unknown, self.allowed, self.caps = fixed, unknown, allowed, caps
        self.full = bit - 1
        mine: dict[int, set[int]] = {}
        index = {c: 1 << i for i, c in enumerate(unknown)}
        ok = min(caps) >= 0 and sum(caps) == len(unknown)
        for p, cards in clauses:
            s = clause_mask(cards, p, index, marks)
            if not s:
                ok = False
            mine.setdefault(p, set()).add(s)
        self.mine = mine
        sizes: list[tuple[int, int]] = []  # (hands it may get, owner)
        for o, cap in enumerate(caps):
            if cap > 0:
                sizes.append((comb(allowed[o].bit_count(), cap), o))
            elif o in mine:
                ok = False  # a numbered mark on a full hand (no propagation in a sub-count)
        sizes.sort()
        self.ok = ok
        # two chains from both ends, met in the middle: owners alternate between them, fewest hands first
        self.chains = ([o for _, o in sizes[0::2]], [o for _, o in sizes[1::2]])
        n_cards = len(unknown)
        est = 0
        for chain in self.chains:
            width, placed = 1, 0
            for o in chain:
                n = comb(allowed[o].bit_count(), caps[o])
                est += width * n
                placed += caps[o]
                width = min(width * n, comb(n_cards, placed))  # distinct sets of `placed` cards
            est += width  # the join
        self.estimate = est
        self.layers: list[dict[int, int]] = []  # the forward layers of both chains (freed after counting)
        self.back: list[dict[int, int]] = []  # the same, kept for sampling
        self.runs: tuple[list[dict[int, int]], list[dict[int, int]]] = ([], [])
        self.picks: tuple[list[list[int]], list[list[int]]] = ([], [])

    def _picks(self, o: int) -> list[int]:
        a, cap = self.allowed[o], self.caps[o]
        bits = []
        while a:
            low = a & -a
            bits.append(low)
            a ^= low
        if cap == len(bits):
            out = [self.allowed[o]]
        elif cap == 1:
            out = bits
        else:
            out = [sum(t) for t in combinations(bits, cap)]
        need = self.mine.get(o)
        if need:
            out = [s for s in out if all(s & t for t in need)]
        return out

    def forward(self) -> None:
        """Each chain's layers: the sets of cards its first k owners may hold, with their numbers of ways."""
        full = self.full
        self.picks = ([self._picks(o) for o in self.chains[0]], [self._picks(o) for o in self.chains[1]])
        reach = [0, 0]  # cards some owner of each chain may hold
        for i in (0, 1):
            for o in self.chains[i]:
                reach[i] |= self.allowed[o]
        runs: list[list[dict[int, int]]] = []
        for i in (0, 1):
            chain, picks = self.chains[i], self.picks[i]
            later = reach[1 - i]
            needs = [0] * len(chain)
            for k in range(len(chain) - 1, -1, -1):  # cards no later owner may hold: handed out by then
                needs[k] = full & ~later
                later |= self.allowed[chain[k]]
            layer = {0: 1} if later == full and all(self.picks[0]) and all(self.picks[1]) else {}
            run = [layer]
            for k in range(len(chain)):
                nxt: dict[int, int] = {}
                get = nxt.get
                need = needs[k]
                for m, w in layer.items():
                    for s in picks[k]:
                        if not s & m:
                            t = m | s
                            if t & need == need:
                                nxt[t] = get(t, 0) + w
                if len(nxt) > self.max_states:
                    raise BudgetExceeded(len(nxt))
                layer = nxt
                run.append(layer)
            runs.append(run)
        self.runs = (runs[0], runs[1])
        self.layers = self.back = runs[0] + runs[1]

    def backward(self, counts: dict[str, list[int]]) -> int:
        """Join the chains; pass back along each; adds per-card, per-owner deal counts into `counts`; returns
        the total."""
        P = len(self.kn.hand_sizes)
        full, unknown = self.full, self.unknown
        ends = (self.runs[0][-1], self.runs[1][-1])
        total = 0
        for m, f in ends[0].items():
            g = ends[1].get(full ^ m)
            if g:
                total += f * g
        for i in (0, 1):
            run, picks, other = self.runs[i], self.picks[i], ends[1 - i]
            back = {m: g for m in run[-1] if (g := other.get(full ^ m, 0))}
            for k in range(len(picks) - 1, -1, -1):
                cur: dict[int, int] = {}
                pw: dict[int, int] = {}  # pick → deals in which this owner holds exactly it
                get = back.get
                for m, f in run[k].items():
                    acc = 0
                    for s in picks[k]:
                        if not s & m:
                            b = get(m | s)
                            if b:
                                acc += b
                                pw[s] = pw.get(s, 0) + f * b
                    if acc:
                        cur[m] = acc
                back = cur
                o = self.chains[i][k]
                col = P if o >= P else o
                for s, v in pw.items():
                    while s:
                        low = s & -s
                        counts[unknown[low.bit_length() - 1]][col] += v
                        s ^= low
        for c, o in self.fixed.items():
            counts[c][o] += total
        return total

    def sample(self, rng: random.Random) -> dict[str, int]:
        """One consistent deal drawn uniformly (card → owner), after forward/backward: the join drawn by its
        number of deals, then each chain walked back from it by the forward counts."""
        P = len(self.kn.hand_sizes)
        full = self.full
        n0 = len(self.chains[0]) + 1
        runs = (self.back[:n0], self.back[n0:])
        other = runs[1][-1]
        m = _draw(rng, [(f * other.get(full ^ m, 0), m) for m, f in runs[0][-1].items()])
        deal = dict(self.fixed)
        for i, held in ((0, m), (1, full ^ m)):
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


def _draw(rng: random.Random, options: list[tuple[int, int]]) -> int:
    """One option's value, drawn with probability proportional to its weight."""
    r = rng.randrange(sum(w for w, _ in options))
    for w, v in options:
        if r < w:
            return v
        r -= w
    return options[-1][1]
