"""Today's Clue counting algorithm, kept unchanged as the baseline for bench/clue_counting.py (ratios in
the same run). The engine's counter is engines/clue/counting.py; this copy is not used by the kiosk.

Exact probabilities by counting every deal consistent with what one player knows.

A deal gives each card one owner: a player (hand sizes fixed) or the envelope (one card per category).
After propagation (engines.clue.notation) fixes the certain cells, the remaining cards are counted by a
layered dynamic programme over cards:

- state = remaining capacity of every owner (each player, and one envelope slot per category), plus one
  bit per open numbered mark ("player p showed one of these") recording whether p got one of its cards;
- numbered cards come first, one card per layer, in an order that closes marks early (a mark's bit is
  checked and dropped at its last card, so few bits are open at once);
- the other unknown cards are grouped by the owners they may have; a group of g interchangeable cards
  is handed out owner by owner (n of the remaining r cards in C(r, n) ways), not card by card;
- a forward pass counts ways to reach each state, a backward pass the ways to finish from it; the
  product gives, for every card and owner, the number of consistent deals where that owner holds it.

Wrong accusations ("not this triple") are exact too: subtract the deals whose envelope is that triple
(distinct triples exclude each other). Every consistent deal counts once (uniform prior over deals; how a
player chooses which card to show is not modelled, as in the rulebook's notation).

Budget: if a layer would exceed `max_states`, counting stops and `approximate()` answers instead, with
`exact=False` (capacity-weighted guesses over the cells propagation left open). Measured in
bench/clue_solver.py; the classic set at 3–6 players stays well inside the default budget.
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


@dataclass
class _Stage:
    owners: tuple[int, ...]  # single: every allowed owner; group: the one owner of this step
    cards: tuple[str, ...]
    single: bool
    setbits: tuple[int, ...] = ()  # single: clause bits set per owner (aligned with owners)
    close: int = 0  # single: bits that must be set after this card, then dropped
    first: bool = False  # group: first owner step (rem starts at len(cards))
    last: bool = False  # group: last owner step (takes all remaining)
    checks: tuple[tuple[int, int], ...] = ()  # (owner, cards still available to it afterwards)


class _Model:
    """The layered counting problem for fixed marks; forward/backward passes, marginals, sampling."""

    def __init__(self, kn: Knowledge, marks: dict[str, list[int | None]],
                 clauses: list[tuple[int, tuple[str, ...]]], max_states: int) -> None:
        self.kn = kn
        P, K = kn.players, len(kn.categories)
        self.W = P + K
        self.rem_shift = CAP_BITS * self.W
        self.bit_shift = self.rem_shift + 6
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

    def _plan(self, allowed: dict[str, tuple[int, ...]],
              clauses: list[tuple[int, frozenset[str]]]) -> list[_Stage]:
        clause_cards = {c for _, s in clauses for c in s}
        order: list[str] = []
        open_: set[int] = set()
        todo = set(clause_cards)
        while todo:
            def cost(c: str, open_now: frozenset[int] = frozenset(open_)) -> tuple[int, str]:
                after = set(order) | {c}
                opened = {j for j, (_, s) in enumerate(clauses) if c in s} | open_now
                closed = {j for j in opened if clauses[j][1] <= after}
                return (len(opened - closed), c)
            c = min(todo, key=cost)
            order.append(c)
            todo.discard(c)
            open_ |= {j for j, (_, s) in enumerate(clauses) if c in s}
            open_ -= {j for j in open_ if clauses[j][1] <= set(order)}
        groups: dict[tuple[int, ...], list[str]] = {}
        for c in allowed:
            if c not in clause_cards:
                groups.setdefault(allowed[c], []).append(c)
        items: list[tuple[str, ...]] = [(c,) for c in order] + [tuple(v) for _, v in sorted(groups.items())]
        # cards still available to each owner after item i
        after_avail: list[dict[int, int]] = []
        running: dict[int, int] = {}
        for it in reversed(items):
            after_avail.append(dict(running))
            for c in it:
                for o in allowed[c]:
                    running[o] = running.get(o, 0) + 1
        after_avail.reverse()
        stages: list[_Stage] = []
        seen: set[str] = set()
        for i, it in enumerate(items):
            av = after_avail[i]
            if len(it) == 1 and it[0] in clause_cards:
                c = it[0]
                seen.add(c)
                owners = allowed[c]
                setbits = tuple(sum(1 << j for j, (p, s) in enumerate(clauses) if p == o and c in s)
                                for o in owners)
                close = sum(1 << j for j, (_, s) in enumerate(clauses) if c in s and s <= seen)
                stages.append(_Stage(owners, it, True, setbits, close,
                                     checks=tuple((o, av.get(o, 0)) for o in owners)))
            else:
                owners = allowed[it[0]]
                for j, o in enumerate(owners):
                    stages.append(_Stage((o,), it, False, first=j == 0, last=j == len(owners) - 1,
                                         checks=((o, av.get(o, 0)),)))
        return stages

    def _moves(self, st: _Stage, s: int) -> list[tuple[int, int, int, int]]:
        """(owner, cards given, ways, next state) from state s."""
        out: list[tuple[int, int, int, int]] = []
        m = (1 << CAP_BITS) - 1
        if st.single:
            for o, bits in zip(st.owners, st.setbits, strict=True):
                sh = CAP_BITS * o
                if (s >> sh) & m == 0:
                    continue
                t = (s - (1 << sh)) | (bits << self.bit_shift)
                if st.close:
                    cb = st.close << self.bit_shift
                    if t & cb != cb:
                        continue
                    t &= ~cb
                ok = True
                for q, av in st.checks:
                    if (t >> (CAP_BITS * q)) & m > av:
                        ok = False
                        break
                if ok:
                    out.append((o, 1, 1, t))
            return out
        o = st.owners[0]
        sh = CAP_BITS * o
        cap = (s >> sh) & m
        rem = len(st.cards) if st.first else (s >> self.rem_shift) & 63
        base = s & ~(63 << self.rem_shift)
        av = st.checks[0][1]
        lo = rem if st.last else 0
        for n in range(lo, min(cap, rem) + 1):
            if cap - n > av:
                continue
            t = base - (n << sh) + ((rem - n) << self.rem_shift)
            out.append((o, n, comb(rem, n), t))
        return out

    def forward(self) -> None:
        layer = {self.start: 1}
        self.layers = [layer]
        self.moves: list[dict[int, list[tuple[int, int, int, int]]]] = []
        for st in self.stages:
            nxt: dict[int, int] = {}
            cache: dict[int, list[tuple[int, int, int, int]]] = {}
            for s, w in layer.items():
                mv = cache[s] = self._moves(st, s)
                for _o, _n, ways, t in mv:
                    nxt[t] = nxt.get(t, 0) + w * ways
            self.moves.append(cache)
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
            per_owner: dict[int, int] = {}
            cache = self.moves[k]
            for s, f in self.layers[k].items():
                acc = 0
                for o, n, ways, t in cache[s]:
                    b = nxt_b.get(t)
                    if b:
                        v = ways * b
                        acc += v
                        per_owner[o] = per_owner.get(o, 0) + f * v * n
                if acc:
                    cur_b[s] = acc
            for o, v in per_owner.items():
                owner = P if o >= P else o
                share = v // len(st.cards)
                for c in st.cards:
                    counts[c][owner] += share
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
            moves = [(o, n, ways * nb.get(t, 0), t) for o, n, ways, t in self.moves[k][s]]
            r = rng.randrange(sum(m[2] for m in moves))
            pick = moves[-1]
            for mv in moves:
                if r < mv[2]:
                    pick = mv
                    break
                r -= mv[2]
            o, n, _w, t = pick
            owner = P if o >= P else o
            if st.single:
                deal[st.cards[0]] = owner
            else:
                free = [c for c in st.cards if c not in deal]
                for c in rng.sample(free, n):
                    deal[c] = owner
            s = t
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
