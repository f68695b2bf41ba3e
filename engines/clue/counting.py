"""Exact probabilities by counting every deal consistent with what one player knows.

A deal gives each card one owner: a player (hand sizes fixed) or the envelope (one card per category).
After propagation (engines.clue.notation) fixes the certain cells and finds the open numbered marks, the
problem is decoded once (engines.clue.problem) and the remaining cards are counted by one of two exact
dynamic programmes, chosen per problem by an estimate of its work:

- small problems (the usual case from mid-game on: a handful of unknown cards): owner by owner over
  sets of cards (engines.clue.subsets), little Python per problem;
- larger ones: card by card over owners' remaining capacities (engines.clue.layers).

Both count the same deals, so their counts are equal (tests/engines/clue/test_counting_props.py).

Incremental across updates: the last few counted problems are remembered (engines.clue.memory), so an
update that changed nothing counting depends on is answered without counting again.

Wrong accusations ("not this triple") are exact too: subtract the deals whose envelope is that triple
(distinct triples exclude each other). Every consistent deal counts once (uniform prior over deals; how a
player chooses which card to show is not modelled, as in the rulebook's notation).

Budget: if a layer would exceed `max_states`, counting stops and `approximate()` answers instead, with
`exact=False` (capacity-weighted guesses over the cells propagation left open). Measured in
bench/clue_solver.py; the classic set at 3–6 players stays well inside the default budget. Speed against
the former version of this counter (kept as bench/clue_baseline.py): bench/clue_counting.py (6 players,
40 games, CPU time per update, six runs under load 2-6: from scratch median 4.05-4.58×, p90 4.70-4.94×;
in sequence median 7.1-7.6×, p90 4.8-5.1×).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from fractions import Fraction

from engines.clue import memory, subsets
from engines.clue.knowledge import Knowledge
from engines.clue.layers import BudgetExceeded, LayeredModel
from engines.clue.notation import Notebook, O, X
from engines.clue.problem import Problem
from engines.clue.subsets import SubsetModel

__all__ = ["MAX_STATES", "BudgetExceeded", "Counter", "Probabilities", "approximate", "forget", "probabilities"]

MAX_STATES = 200_000


@dataclass
class Probabilities:
    knowledge: Knowledge
    total: int  # consistent deals (0: the facts contradict each other); 0 when approximate
    counts: dict[str, list[int]]  # card → deals in which each owner (players…, envelope) holds it (read only)
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


def _facts(kn: Knowledge, marks: dict[str, list[int | None]]) -> tuple[list[tuple[int, tuple[str, ...]]],
                                                                     list[tuple[str, ...]]]:
    """The open numbered marks (player, cards) and the wrong accusations (sorted triples, sorted)."""
    clauses = []
    triples = set()
    for f in kn.facts:
        kind = f.kind
        if kind == "one_of":
            p = f.player
            for c in f.cards:
                if marks[c][p] == O:
                    break
            else:
                clauses.append((p, f.cards))
        elif kind == "not_triple":
            triples.add(tuple(sorted(f.cards)))
    return clauses, sorted(triples)


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


Model = SubsetModel | LayeredModel
_Memo = tuple[list[Model], list[tuple[str, ...]], int, dict[str, list[int]], int]
_MEMORY: memory.Memory[_Memo] = memory.Memory()


def forget() -> None:
    """Drop every remembered problem (bench/clue_counting.py times each update from scratch this way)."""
    _MEMORY.clear()


def _model(kn: Knowledge, marks: dict[str, list[int | None]], pb: Problem, max_states: int) -> Model:
    """The owner-by-owner programme when its estimated work is small, else the card-by-card one."""
    small = SubsetModel(pb, max_states)
    if small.estimate <= subsets.LIMIT or not small.ok:
        return small
    return LayeredModel(kn, marks, _facts(kn, marks)[0], max_states)


class Counter:
    """Exact counts for one notebook; keeps the model for sampling (suggestion advice).

    Incremental across updates: the counted problem (marks, open numbered marks, wrong accusations, hand
    sizes) is remembered for the last few notebooks, so an update that taught nothing new for counting (a
    pass on cards already crossed out, a card shown to someone else that was already placed) is answered
    from memory instead of counted again. Same key, same problem: the answer is the same exact count."""

    def __init__(self, nb: Notebook, max_states: int = MAX_STATES) -> None:
        self.nb = nb
        kn = nb.knowledge
        self.models: list[Model] = []
        self.excluded: list[tuple[str, ...]] = []
        self.result: Probabilities
        if nb.contradiction is not None:
            self.result = Probabilities(kn, 0, {c: [0] * (kn.players + 1) for c in kn.cards})
            return
        marks = nb.marks
        if nb.numbers:  # propagation found the open numbered marks and the wrong accusations
            pb, triples = Problem(kn, marks, numbers=nb.numbers), nb.triples
        else:
            clauses, triples = _facts(kn, marks)
            pb = Problem(kn, marks, clauses)
        key = (kn.categories, kn.hand_sizes, max_states, pb.key, tuple(triples))
        hit = _MEMORY.get(key)
        if hit is None:  # counted now: these counts are handed out once, the memory's copies afterwards
            hit = self._count(nb, pb, triples, max_states)
            self.models, self.excluded, total, counts, states = hit
            if sum(sum(map(len, m.back)) for m in hit[0]) <= memory.STATES:
                _MEMORY.put(key, hit)
        else:
            self.models, self.excluded, total, counts, states = hit
            counts = {c: row[:] for c, row in counts.items()}
        self.result = Probabilities(kn, total, counts, True, states)

    @staticmethod
    def _count(nb: Notebook, pb: Problem, triples: list[tuple[str, ...]], max_states: int) -> _Memo:
        kn = nb.knowledge
        row = [0] * (len(kn.hand_sizes) + 1)
        counts = {c: row[:] for cat in kn.categories for c in cat}
        base = _model(kn, nb.marks, pb, max_states)
        if not base.ok:
            return [], [], 0, counts, 0
        base.forward()
        total = base.backward(counts)
        states = max(map(len, base.layers))
        excluded: list[tuple[str, ...]] = []
        for t in triples:
            marks = _with_envelope(nb, t)
            if marks is None:
                continue
            sub = _model(kn, marks, Problem(kn, marks, _facts(kn, marks)[0]), max_states)
            if not sub.ok:
                continue
            sub.forward()
            sub_counts = {c: row[:] for c in counts}
            n = sub.backward(sub_counts)
            if n:
                total -= n
                for c in counts:
                    for o in range(kn.players + 1):
                        counts[c][o] -= sub_counts[c][o]
                excluded.append(t)
            states = max(states, *map(len, sub.layers))
        base.layers = []  # the sampler needs only the backward layers
        return [base], excluded, total, counts, states

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
