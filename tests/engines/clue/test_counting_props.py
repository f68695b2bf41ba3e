"""Property test: the counter equals the former algorithm (bench/clue_baseline.py) exactly on random
consistent histories, wrong accusations included."""

from __future__ import annotations

import random

from hypothesis import example, given, settings
from hypothesis import strategies as st

from bench import clue_baseline
from engines.clue.content import CLASSIC
from engines.clue.counting import probabilities
from engines.clue.knowledge import Fact
from engines.clue.notation import propagate
from engines.clue.simulate import deal, play

CATS = tuple(CLASSIC.ids(k) for k in range(3))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(3, 6), turns=st.integers(0, 45),
       wrong=st.integers(0, 3))
def test_counts_equal_the_former_algorithm_on_random_histories(seed: int, n: int, turns: int,
                                                               wrong: int) -> None:
    """Covers CLUE-58: every card × owner count and the total are equal to the former counter's (so every
    probability is exactly equal), after every update of a random game, with up to three wrong
    accusations (true facts: each names a triple that is not the envelope). Updates run in sequence, so
    answers remembered from earlier updates are checked too."""
    rng = random.Random(seed)
    d = deal(CATS, n, rng)
    bad: list[Fact] = []
    while len(bad) < wrong:
        t = tuple(rng.choice(cat) for cat in CATS)
        if t != d.envelope:
            bad.append(Fact("not_triple", -1, t))
    for turn, kn in play(d, rng, turns):
        if turn >= turns // 2:
            kn = kn.add(*bad)
        nb = propagate(kn)
        a, b = probabilities(nb), clue_baseline.probabilities(nb)
        assert (a.exact, a.total, a.counts) == (b.exact, b.total, b.counts), (seed, n, turn)
        assert a.total > 0  # the real deal is consistent


def test_wrong_accusation_with_a_one_owner_group_is_counted() -> None:
    """Covers CLUE-58: a wrong accusation's sub-count (the envelope set to that triple, without propagation)
    can leave several cards with one possible owner; counting handles them (it raised ValueError)."""
    rng = random.Random(1)
    d = deal(CATS, 3, rng)
    t = next(t for t in iter(lambda: tuple(rng.choice(cat) for cat in CATS), None) if t != d.envelope)
    kn = [k for _, k in play(d, rng, 2)][-1].add(Fact("not_triple", -1, t))
    nb = propagate(kn)
    a, b = probabilities(nb), clue_baseline.probabilities(nb)
    assert a.exact and a.total == b.total == 12012 and a.counts == b.counts


def test_an_update_that_teaches_counting_nothing_is_answered_from_memory() -> None:
    """Covers CLUE-58: a pass on cards already crossed out leaves the counted problem unchanged: the second
    count is the remembered one (same model), equal to a count from scratch; a new fact is counted anew."""
    from engines.clue.counting import Counter, forget

    rng = random.Random(4)
    d = deal(CATS, 4, rng)
    kn = [k for _, k in play(d, rng, 8)][-1]
    nb = propagate(kn)
    first = Counter(nb)
    p = next(p for p in range(1, 4) if any(nb.marks[c][p] == 0 for c in kn.cards))
    crossed = tuple(c for c in kn.cards if nb.marks[c][p] == 0)[:3]
    nb2 = propagate(kn.add(Fact("lacks", p, crossed)))
    again = Counter(nb2)
    assert again.models[0] is first.models[0] and again.result.knowledge is nb2.knowledge
    forget()
    fresh = Counter(nb2)
    assert fresh.models[0] is not first.models[0]
    assert (fresh.result.total, fresh.result.counts) == (again.result.total, again.result.counts)
    assert (again.result.total, again.result.counts) == (first.result.total, first.result.counts)
    open_ = next(c for c in kn.cards if nb.marks[c][p] is None)
    nb3 = propagate(kn.add(Fact("lacks", p, (open_,))))
    assert Counter(nb3).models[0] is not first.models[0]
    assert probabilities(nb3).counts == clue_baseline.probabilities(nb3).counts


PLAY_ON = 60  # turns a deal is played for at most until one of its notebooks is small enough to count both ways


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(3, 6), turns=st.integers(0, 45))
@example(seed=0, n=6, turns=20)  # nothing small enough in its first 20 turns (the first at turn 21): the old guard failed
def test_both_programmes_count_the_same_deals(seed: int, n: int, turns: int) -> None:
    """Covers CLUE-58: the owner-by-owner programme (engines.clue.subsets, used for small problems) and the
    card-by-card one (engines.clue.layers) give the former counter's counts on the same notebooks, whichever
    the counter would choose; a deal sampled from the owner-by-owner one respects every mark, every open
    numbered mark and every hand size."""
    from engines.clue.counting import MAX_STATES, _facts
    from engines.clue.layers import LayeredModel
    from engines.clue.notation import O, X
    from engines.clue.problem import Problem
    from engines.clue.subsets import SubsetModel

    rng = random.Random(seed)
    d = deal(CATS, n, rng)
    checked = 0
    for i, (_turn, kn) in enumerate(play(d, rng, max(turns, PLAY_ON))):
        if i >= turns and checked:  # past `turns`, played on only until one notebook is small enough to count
            break
        nb = propagate(kn)
        clauses = _facts(kn, nb.marks)[0]
        small = SubsetModel(Problem(kn, nb.marks, numbers=nb.numbers), MAX_STATES)
        if small.estimate > 20_000:
            continue
        want = clue_baseline.probabilities(nb)
        for model in (small, LayeredModel(kn, nb.marks, clauses, MAX_STATES)):
            counts = {c: [0] * (n + 1) for c in kn.cards}
            model.forward()
            assert (model.backward(counts), counts) == (want.total, want.counts), (seed, n, _turn)
        dealt = small.sample(rng)
        for c in kn.cards:
            assert nb.marks[c][dealt[c]] != X and all(m != O for o, m in enumerate(nb.marks[c]) if o != dealt[c])
        for p in range(n):
            assert sum(1 for o in dealt.values() if o == p) == kn.hand_sizes[p]
        assert all(sum(1 for c in cat if dealt[c] == n) == 1 for cat in CATS)
        for p, cards in clauses:
            assert any(dealt[c] == p for c in cards)
        checked += 1
    assert checked  # (1,600 deals of 3-6 players: the first small enough by turn 34 at the latest)
