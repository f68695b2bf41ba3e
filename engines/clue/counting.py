"""Exact probabilities by counting every deal consistent with what one player knows.

A deal gives each card one owner: a player (hand sizes fixed) or the envelope (one card per category).
After propagation (engines.clue.notation) fixes the certain cells, the remaining cards are counted by a
layered dynamic programme over cards:

- state = remaining capacity of every owner (each player, and one envelope slot per category), plus one
  bit per open numbered mark ("player p showed one of these") recording whether p got one of its cards;
- numbered cards come first, one card per layer, in an order that closes marks early (a mark's bit is
  checked and dropped at its last card, so few bits are open at once);
- the other unknown cards are grouped by the owners they may have; a group of g interchangeable cards
  is handed out owner by owner (n of the remaining r cards in C(r, n) ways), not card by card: the
  envelope slot first, the last two owners in one step; groups go category by category, so each
  envelope slot stops varying early;
- a move depends only on a few bits of the state (its owners' capacities, r, the marks it touches): the
  moves are worked out once per distinct value of those bits and applied as plain deltas;
- a forward pass counts ways to reach each state, a backward pass the ways to finish from it; the
  product gives, for every card and owner, the number of consistent deals where that owner holds it.

Wrong accusations ("not this triple") are exact too: subtract the deals whose envelope is that triple
(distinct triples exclude each other). Every consistent deal counts once (uniform prior over deals; how a
player chooses which card to show is not modelled, as in the rulebook's notation).

Budget: if a layer would exceed `max_states`, counting stops and `approximate()` answers instead, with
`exact=False` (capacity-weighted guesses over the cells propagation left open). Measured in
bench/clue_solver.py; the classic set at 3–6 players stays well inside the default budget. Speed against
the former version of this counter (kept as bench/clue_baseline.py): bench/clue_counting.py.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb

from engines.clue.knowledge import Knowledge
from engines.clue.notation import Notebook, O, X

MAX_STATES = 200_000
CAP_BITS = 4


class BudgetExceeded(Exception):
    pass


@dataclass
class Probabilities:
    knowledge: Knowledge
    total: int  # consistent deals (0: the facts contradict each other); 0 when approximate
    counts: dict[str, list[int]]  # card → deals in which each owner (players…, envelope) holds it
    exact: bool = True
    states: int = 0  # largest DP layer (a work measure)
    approx: dict[str, list[float]] = field(default_factory=dict)

    def owner(self, card: str, owner: int) -> float:
        if not self.exact:
            return self.approx[card][owner]
        return self.counts[card][owner] / self.total if self.total else 0.0

    def exact_owner(self, card: str, owner: int) -> Fraction:
        if not self.exact:
            raise ValueError("approximate result")
        return Fraction(self.counts[card][owner], self.total)

    def envelope(self, card: str) -> float:
        return self.owner(card, self.knowledge.envelope)

    def certain_envelope(self) -> dict[int, str]:
        """Category → card whose envelope probability is exactly 1 (only when exact)."""
        out: dict[int, str] = {}
        if not self.exact or not self.total:
            return out
        env = self.knowledge.envelope
        for i, cat in enumerate(self.knowledge.categories):
            for c in cat:
                if self.counts[c][env] == self.total:
                    out[i] = c
        return out


Move = tuple[int, int, int]  # (state delta, ways, kind: single → owner index; step → n, or n·(g+1) + m)


class _Stage:
    """One layer of the programme, of one of two kinds:

    - "single": one card (a numbered one, or the only card of its group) to one of its owners; sets that
      owner's bits of the marks naming the card and drops the marks it completes (all must be set);
    - "step": one owner's share of a group of interchangeable cards (n of the r cards left in C(r, n)
      ways; r is kept in the state between the group's steps); the group's last step serves two owners,
      the second taking the r - n cards left.

    A move depends only on the state's bits under `mask` (the capacities of the stage's owners, r, the
    marks' bits), so moves are worked out once per masked key and each is a plain delta added to the state.
    `avail[i]`: cards still to come that owner i may get; its capacity may not exceed that."""

    __slots__ = ("single", "owners", "cards", "avail", "setbits", "close", "first", "last", "mask", "moves",
                 "rem_shift", "bit_shift")

    def __init__(self, single: bool, owners: tuple[int, ...], cards: tuple[str, ...], avail: tuple[int, ...],
                 rem_shift: int, setbits: tuple[int, ...] = (), close: int = 0, first: bool = False,
                 last: bool = False) -> None:
        self.single, self.owners, self.cards, self.avail = single, owners, cards, avail
        self.setbits, self.close, self.first, self.last = setbits, close, first, last
        self.rem_shift, self.bit_shift = rem_shift, rem_shift + 6
        m = (1 << CAP_BITS) - 1
        self.mask = sum(m << (CAP_BITS * o) for o in owners)
        if single:
            self.mask |= (sum(setbits) | close) << self.bit_shift
        elif not first:
            self.mask |= 63 << rem_shift
        self.moves: dict[int, list[Move]] = {}

    def compute(self, key: int) -> list[Move]:
        """The moves from any state whose masked bits are `key`."""
        m = (1 << CAP_BITS) - 1
        out: list[Move] = []
        if not self.single:
            o = self.owners[0]
            cap = (key >> (CAP_BITS * o)) & m
            g = len(self.cards)
            rem = g if self.first else (key >> self.rem_shift) & 63
            before = 0 if self.first else rem << self.rem_shift
            if len(self.owners) == 2:  # the group's last two owners: n cards to the first, the rest to the other
                o2 = self.owners[1]
                cap2 = (key >> (CAP_BITS * o2)) & m
                for n in range(max(0, rem - cap2), min(cap, rem) + 1):
                    if cap - n <= self.avail[0] and cap2 - (rem - n) <= self.avail[1]:
                        delta = -before - (n << (CAP_BITS * o)) - ((rem - n) << (CAP_BITS * o2))
                        out.append((delta, comb(rem, n), n * (g + 1) + rem - n))
                return out
            for n in range(rem if self.last else 0, min(cap, rem) + 1):
                if cap - n <= self.avail[0]:
                    after = 0 if self.last else (rem - n) << self.rem_shift
                    out.append((after - before - (n << (CAP_BITS * o)), comb(rem, n), n))
            return out
        caps = [(key >> (CAP_BITS * o)) & m for o in self.owners]
        over = [i for i, (c, a) in enumerate(zip(caps, self.avail, strict=True)) if c > a]
        if len(over) > 1 or (over and caps[over[0]] - 1 > self.avail[over[0]]):
            return out  # the card can relieve one owner by one card at most
        old = key >> self.bit_shift
        for i in over or range(len(caps)):
            if caps[i]:
                new = old | self.setbits[i]
                if new & self.close == self.close:
                    new &= ~self.close
                    out.append((((new - old) << self.bit_shift) - (1 << (CAP_BITS * self.owners[i])), 1, i))
        return out


class _Model:
    """The layered counting problem for fixed marks; forward/backward passes, marginals, sampling."""

    def __init__(self, kn: Knowledge, marks: dict[str, list[int | None]],
                 clauses: list[tuple[int, tuple[str, ...]]], max_states: int) -> None:
        self.kn = kn
        P, K = kn.players, len(kn.categories)
        self.W = P + K
        self.rem_shift = CAP_BITS * self.W
        self.max_states = max_states
        self.fixed: dict[str, int] = {}
        caps = list(kn.hand_sizes) + [1] * K
        allowed: dict[str, tuple[int, ...]] = {}
        for k, cat in enumerate(kn.categories):
            for c in cat:
                row = marks[c]
                if O in row:
                    o = row.index(O)
                    owner = P + k if o == P else o
                    self.fixed[c] = o
                    caps[owner] -= 1
                else:
                    allowed[c] = tuple(p for p in range(P) if row[p] is None) + (
                        (P + k,) if row[P] is None else ())
        self.ok = all(cap >= 0 for cap in caps) and all(allowed.values())
        if any(cap >= 1 << CAP_BITS for cap in caps):
            raise BudgetExceeded(0)  # a hand too big for the state encoding: approximate instead
        self.start = sum(cap << (CAP_BITS * o) for o, cap in enumerate(caps) if cap > 0)
        self.ok = self.ok and sum(caps) == len(allowed)
        # clauses over unknown cards, minimal per player
        cl: list[tuple[int, frozenset[str]]] = []
        for p, cards in clauses:
            s = frozenset(c for c in cards if c in allowed and p in allowed[c])
            if not s:
                self.ok = False
            cl.append((p, s))
        cl = sorted(set(cl), key=lambda t: (len(t[1]), t[0], sorted(t[1])))
        minimal: list[tuple[int, frozenset[str]]] = []
        for p, s in cl:
            if not any(q == p and t <= s for q, t in minimal):
                minimal.append((p, s))
        self.stages = self._plan(allowed, minimal)
        self.layers: list[dict[int, int]] = []
        self.back: list[dict[int, int]] = []

    @staticmethod
    def _order(clauses: list[tuple[int, frozenset[str]]]) -> list[str]:
        """Numbered cards in an order that keeps few marks open: greedily the card after which the fewest
        marks are open (opened by a placed card, not yet complete)."""
        cards = sorted({c for _, s in clauses for c in s})
        idx = {c: i for i, c in enumerate(cards)}
        members = [sum(1 << idx[c] for c in s) for _, s in clauses]
        of_card = {c: [j for j, (_, s) in enumerate(clauses) if c in s] for c in cards}
        order: list[str] = []
        placed = 0
        open_: set[int] = set()
        todo = list(cards)
        while todo:
            best: tuple[int, str] | None = None
            for c in todo:
                after = placed | (1 << idx[c])
                opened = open_.union(of_card[c])
                cost = sum(1 for j in opened if members[j] & ~after)
                if best is None or (cost, c) < best:
                    best = (cost, c)
            assert best is not None
            c = best[1]
            order.append(c)
            todo.remove(c)
            placed |= 1 << idx[c]
            open_ = {j for j in open_.union(of_card[c]) if members[j] & ~placed}
        return order

    def _plan(self, allowed: dict[str, tuple[int, ...]],
              clauses: list[tuple[int, frozenset[str]]]) -> list[_Stage]:
        order = self._order(clauses)
        clause_cards = set(order)
        groups: dict[tuple[int, ...], list[str]] = {}
        for c in allowed:
            if c not in clause_cards:
                groups.setdefault(allowed[c], []).append(c)
        # numbered cards first; then the groups category by category, so that each envelope slot's
        # capacity stops varying early (fewer states)
        cat_of = {c: k for k, cat in enumerate(self.kn.categories) for c in cat}
        items: list[tuple[str, ...]] = [(c,) for c in order] + [
            tuple(v) for _, v in sorted(groups.items(), key=lambda kv: (cat_of[kv[1][0]], kv[0]))]
        # cards still to come for each owner after item i
        after_avail: list[dict[int, int]] = []
        running: dict[int, int] = {}
        for it in reversed(items):
            after_avail.append(dict(running))
            for o in allowed[it[0]]:
                running[o] = running.get(o, 0) + len(it)
        after_avail.reverse()
        of_card: dict[str, list[int]] = {}
        for j, (_, s) in enumerate(clauses):
            for c in s:
                of_card.setdefault(c, []).append(j)
        stages: list[_Stage] = []
        seen: set[str] = set()
        for i, it in enumerate(items):
            owners = allowed[it[0]]
            avail = tuple(after_avail[i].get(o, 0) for o in owners)
            c = it[0]
            if c in clause_cards:
                seen.add(c)
                mine = of_card[c]
                setbits = tuple(sum(1 << j for j in mine if clauses[j][0] == o) for o in owners)
                close = sum(1 << j for j in mine if clauses[j][1] <= seen)
                stages.append(_Stage(True, owners, it, avail, self.rem_shift, setbits, close))
            elif len(it) == 1:
                stages.append(_Stage(True, owners, it, avail, self.rem_shift, (0,) * len(owners)))
            else:
                # the envelope slot (capacity 0 or 1, last in `owners`) first: fewer states between steps;
                # the last two owners in one step (the last one takes what is left)
                seq = [len(owners) - 1, *range(len(owners) - 1)]
                for n, j in enumerate(seq[:-2]):
                    stages.append(_Stage(False, (owners[j],), it, (avail[j],), self.rem_shift, first=n == 0))
                a, b = seq[-2:]
                stages.append(_Stage(False, (owners[a], owners[b]), it, (avail[a], avail[b]), self.rem_shift,
                                     first=len(seq) == 2, last=True))
        return stages

    def forward(self) -> None:
        layer = {self.start: 1}
        self.layers = [layer]
        for st in self.stages:
            nxt: dict[int, int] = {}
            get = nxt.get
            moves, mask, compute = st.moves, st.mask, st.compute
            for s, w in layer.items():
                key = s & mask
                mv = moves.get(key)
                if mv is None:
                    mv = moves[key] = compute(key)
                for delta, ways, _v in mv:
                    t = s + delta
                    nxt[t] = get(t, 0) + w * ways
            if len(nxt) > self.max_states:
                raise BudgetExceeded(len(nxt))
            layer = nxt
            self.layers.append(layer)

    def backward(self, counts: dict[str, list[int]]) -> int:
        """Backward pass; adds per-card, per-owner deal counts into `counts`; returns the total."""
        P = self.kn.players
        nxt_b: dict[int, int] = {0: 1} if 0 in self.layers[-1] else {}
        self.back = [nxt_b]
        for k in range(len(self.stages) - 1, -1, -1):
            st = self.stages[k]
            cur_b: dict[int, int] = {}
            per = [0] * (len(st.owners) if st.single else (len(st.cards) + 1) ** len(st.owners))  # by move kind
            moves, mask, get = st.moves, st.mask, nxt_b.get
            for s, f in self.layers[k].items():
                acc = 0
                for delta, ways, v in moves[s & mask]:
                    b = get(s + delta)
                    if b:
                        x = ways * b
                        acc += x
                        per[v] += f * x
                if acc:
                    cur_b[s] = acc
            if st.single:
                for o, v in zip(st.owners, per, strict=True):
                    counts[st.cards[0]][P if o >= P else o] += v
            else:
                g = len(st.cards)
                for i, o in enumerate(st.owners):
                    # v = n (one owner) or n·(g+1) + m (two owners: n and m cards)
                    got = sum((v // (g + 1) if i == 0 else v % (g + 1)) * x if len(st.owners) == 2 else v * x
                              for v, x in enumerate(per) if x)
                    share = got // g
                    for c in st.cards:
                        counts[c][P if o >= P else o] += share
            nxt_b = cur_b
            self.back.append(cur_b)
        self.back.reverse()
        total = nxt_b.get(self.start, 0)
        for c, o in self.fixed.items():
            counts[c][o] += total
        return total

    def sample(self, rng: random.Random) -> dict[str, int]:
        """One consistent deal drawn uniformly (card → owner), after forward/backward."""
        P = self.kn.players
        deal = dict(self.fixed)
        s = self.start
        for k, st in enumerate(self.stages):
            nb = self.back[k + 1]
            moves = [(ways * nb.get(s + delta, 0), delta, v) for delta, ways, v in st.moves[s & st.mask]]
            r = rng.randrange(sum(m[0] for m in moves))
            pick = moves[-1]
            for mv in moves:
                if r < mv[0]:
                    pick = mv
                    break
                r -= mv[0]
            _w, delta, v = pick
            if st.single:
                o = st.owners[v]
                deal[st.cards[0]] = P if o >= P else o
            else:
                g = len(st.cards)
                shares = [v // (g + 1), v % (g + 1)] if len(st.owners) == 2 else [v]
                free = [c for c in st.cards if c not in deal]
                for o, n in zip(st.owners, shares, strict=True):
                    for c in rng.sample(free, n):
                        deal[c] = P if o >= P else o
                        free.remove(c)
            s += delta
        return deal


def _clauses(kn: Knowledge, marks: dict[str, list[int | None]]) -> list[tuple[int, tuple[str, ...]]]:
    out = []
    for f in kn.facts:
        if f.kind == "one_of" and not any(marks[c][f.player] == O for c in f.cards):
            out.append((f.player, f.cards))
    return out


def _with_envelope(nb: Notebook, triple: tuple[str, ...]) -> dict[str, list[int | None]] | None:
    env = nb.knowledge.envelope
    marks = {c: list(row) for c, row in nb.marks.items()}
    for c in triple:
        if marks[c][env] == X:
            return None
        marks[c] = [X] * len(marks[c])
        marks[c][env] = O
    cat_of = {c: i for i, cat in enumerate(nb.knowledge.categories) for c in cat}
    for c in triple:
        for d in nb.knowledge.categories[cat_of[c]]:
            if d != c:
                if marks[d][env] == O:
                    return None
                marks[d][env] = X
    return marks


class Counter:
    """Exact counts for one notebook; keeps the model for sampling (suggestion advice)."""

    def __init__(self, nb: Notebook, max_states: int = MAX_STATES) -> None:
        self.nb = nb
        kn = nb.knowledge
        self.models: list[_Model] = []
        counts = {c: [0] * (kn.players + 1) for c in kn.cards}
        self.result: Probabilities
        if nb.contradiction is not None:
            self.result = Probabilities(kn, 0, counts)
            return
        triples = sorted({tuple(sorted(f.cards)) for f in kn.facts if f.kind == "not_triple"})
        base = _Model(kn, nb.marks, _clauses(kn, nb.marks), max_states)
        if not base.ok:
            self.result = Probabilities(kn, 0, counts)
            return
        base.forward()
        total = base.backward(counts)
        states = max(len(layer) for layer in base.layers)
        self.models.append(base)
        self.excluded: list[tuple[str, ...]] = []
        for t in triples:
            marks = _with_envelope(nb, t)
            if marks is None:
                continue
            sub = _Model(kn, marks, _clauses(kn, marks), max_states)
            if not sub.ok:
                continue
            sub.forward()
            sub_counts = {c: [0] * (kn.players + 1) for c in kn.cards}
            n = sub.backward(sub_counts)
            if n:
                total -= n
                for c in counts:
                    for o in range(kn.players + 1):
                        counts[c][o] -= sub_counts[c][o]
                self.excluded.append(t)
            states = max(states, max(len(layer) for layer in sub.layers))
        self.result = Probabilities(kn, total, counts, True, states)

    def sample(self, rng: random.Random, tries: int = 1000) -> dict[str, int] | None:
        if not self.models or not self.result.total:
            return None
        env = self.nb.knowledge.envelope
        for _ in range(tries):
            deal = self.models[0].sample(rng)
            inside = tuple(sorted(c for c, o in deal.items() if o == env))
            if inside not in self.excluded:
                return deal
        return None


def approximate(nb: Notebook) -> Probabilities:
    """The fallback past the budget: each open cell gets its owner's share of remaining capacity.
    Certain cells (O/X from propagation) stay exact; everything else is a guess, flagged exact=False."""
    kn = nb.knowledge
    P = kn.players
    caps = [kn.hand_sizes[p] - sum(1 for c in kn.cards if nb.marks[c][p] == O) for p in range(P)]
    env_open = [0 if any(nb.marks[c][P] == O for c in cat) else 1 for cat in kn.categories]
    approx: dict[str, list[float]] = {}
    for k, cat in enumerate(kn.categories):
        env_slots = sum(1 for c in cat if nb.marks[c][P] is None and O not in nb.marks[c])
        for c in cat:
            row = nb.marks[c]
            if O in row:
                approx[c] = [1.0 if m == O else 0.0 for m in row]
                continue
            env_p = env_open[k] / max(env_slots, 1) if row[P] is None else 0.0
            w = [float(max(caps[p], 0)) if row[p] is None else 0.0 for p in range(P)]
            s = sum(w)
            if s == 0:
                approx[c] = [0.0] * P + [1.0 if row[P] is None else 0.0]
            else:
                approx[c] = [(1.0 - env_p) * v / s for v in w] + [env_p]
    return Probabilities(kn, 0, {c: [0] * (P + 1) for c in kn.cards}, False, 0, approx)


def probabilities(nb: Notebook, max_states: int = MAX_STATES) -> Probabilities:
    """Exact counts, or the flagged approximation if the budget is exceeded."""
    try:
        return Counter(nb, max_states).result
    except BudgetExceeded:
        return approximate(nb)
