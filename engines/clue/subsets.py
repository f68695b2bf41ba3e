"""Exact counting for small problems: a dynamic programme over owners, not cards.

The same problem as engines.clue.layers (every deal consistent with the marks, the open numbered marks and
the hand sizes), counted another way that costs far less Python per problem when few cards are unknown:

- owners (each player with room, one envelope slot per open category) are taken one at a time, fewest
  possible hands first; a state is the set of unknown cards handed out so far (a bitmask);
- an owner's possible hands ("picks") are listed once: its capacity's worth of the cards it may hold,
  keeping only those that meet every numbered mark on it (so no mark needs a bit in the state);
- a card no later owner may hold must be handed out by then (states that miss one are dropped);
- the last owner takes what is left, if that is one of its picks;
- a forward pass counts ways to reach each state, a backward pass the ways to finish from it; the
  product, summed per pick, gives each (card, owner) count.

`estimate()` bounds the work from the pick counts before anything is built; the counter uses this
programme only below a limit (bench/clue_counting.py: at most a few hundred state × pick steps), and the
layered one above it. Both give the same exact counts (tests/engines/clue/test_counting_props.py).
"""

from __future__ import annotations

import random
from itertools import combinations
from math import comb

from engines.clue.knowledge import Knowledge
from engines.clue.layers import BudgetExceeded
from engines.clue.notation import O

LIMIT = 3000  # estimated state × pick steps above which the layered programme is used instead


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
            s = 0
            for c in cards:
                if c in index and marks[c][p] is None:
                    s |= index[c]
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
        self.order = [o for _, o in sizes]
        est, width, placed, n_cards = 0, 1, 0, len(unknown)
        for n, o in sizes[:-1]:
            est += width * n
            placed += caps[o]
            width = min(width * n, comb(n_cards, placed))  # distinct sets of `placed` cards
        self.estimate = est
        self.layers: list[dict[int, int]] = []
        self.back: list[dict[int, int]] = []
        self.picks: list[list[int]] = []

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
        order = self.order
        full = self.full
        self.picks = picks = [self._picks(o) for o in order]
        # cards no owner after the k-th may hold: handed out by the k-th
        later = 0
        needs = [0] * len(order)
        for k in range(len(order) - 1, -1, -1):
            needs[k] = full & ~later
            later |= self.allowed[order[k]]
        layer = {0: 1} if later == full and all(picks) else {}
        self.layers = [layer]
        for k in range(len(order) - 1):
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
            self.layers.append(layer)

    def backward(self, counts: dict[str, list[int]]) -> int:
        """Backward pass; adds per-card, per-owner deal counts into `counts`; returns the total."""
        P = len(self.kn.hand_sizes)
        full, order, picks = self.full, self.order, self.picks
        m_ = len(order)
        per: list[dict[int, int]] = []  # per owner: pick → deals in which that owner holds exactly it
        if not m_:
            back = {0: 1} if not full and self.layers[0] else {}
            self.back = [back]
        else:
            last = set(picks[-1])
            back = {}
            pw: dict[int, int] = {}
            for m, f in self.layers[-1].items():
                r = full ^ m
                if r in last:
                    back[m] = 1
                    pw[r] = pw.get(r, 0) + f
            per.append(pw)
            self.back = [back]
            for k in range(m_ - 2, -1, -1):
                cur: dict[int, int] = {}
                pw = {}
                get = back.get
                for m, f in self.layers[k].items():
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
                per.append(pw)
                self.back.append(cur)
            self.back.reverse()
            per.reverse()
        unknown = self.unknown
        for o, pw in zip(order, per, strict=True):
            col = P if o >= P else o
            for s, v in pw.items():
                while s:
                    low = s & -s
                    counts[unknown[low.bit_length() - 1]][col] += v
                    s ^= low
        total = back.get(0, 0)
        for c, o in self.fixed.items():
            counts[c][o] += total
        return total

    def sample(self, rng: random.Random) -> dict[str, int]:
        """One consistent deal drawn uniformly (card → owner), after forward/backward."""
        P = len(self.kn.hand_sizes)
        deal = dict(self.fixed)
        m = 0
        order = self.order
        for k, o in enumerate(order):
            if k == len(order) - 1:
                s = self.full ^ m
            else:
                get = self.back[k + 1].get
                options = [(get(m | s, 0), s) for s in self.picks[k] if not s & m]
                r = rng.randrange(sum(w for w, _ in options))
                s = options[-1][1]
                for w, t in options:
                    if r < w:
                        s = t
                        break
                    r -= w
            m |= s
            col = P if o >= P else o
            while s:
                low = s & -s
                deal[self.unknown[low.bit_length() - 1]] = col
                s ^= low
        return deal
