"""The deduction solver: soundness over simulated games, exactness against brute force, contradictions,
the budget fallback, advice and tutor grading."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction

import pytest

from engines.clue.content import CLASSIC
from engines.clue.counting import approximate, probabilities
from engines.clue.knowledge import Fact, Knowledge
from engines.clue.notation import O, X, elimination, propagate
from engines.clue.simulate import Deal, deal, play
from engines.clue.solver import advise, analyse, grade, propagation_only, reason

CLASSIC_CATS = tuple(CLASSIC.ids(k) for k in range(3))
SMALL = (("s1", "s2", "s3"), ("w1", "w2", "w3"), ("r1", "r2", "r3", "r4"))


def consistent(kn: Knowledge, env: tuple[str, ...], hands: tuple[tuple[str, ...], ...]) -> bool:
    own = {c: len(hands) for c in env}
    for p, h in enumerate(hands):
        for c in h:
            own[c] = p
    for f in kn.facts:
        if f.kind == "has" and own[f.cards[0]] != f.player:
            return False
        if f.kind == "lacks" and any(own[c] == f.player for c in f.cards):
            return False
        if f.kind == "one_of" and not any(own[c] == f.player for c in f.cards):
            return False
        if f.kind == "envelope" and own[f.cards[0]] != len(hands):
            return False
        if f.kind == "not_triple" and set(f.cards) == set(env):
            return False
    return True


def brute_force(kn: Knowledge) -> tuple[int, dict[str, list[int]]]:
    """Enumerate every deal (envelope × hands of the given sizes) and count the consistent ones."""
    P = kn.players
    counts = {c: [0] * (P + 1) for c in kn.cards}
    total = 0

    def rec(i: int, left: list[str], env: tuple[str, ...], hands: list[tuple[str, ...]]) -> None:
        nonlocal total
        if i == P:
            if consistent(kn, env, tuple(hands)):
                total += 1
                for c in env:
                    counts[c][P] += 1
                for p, h in enumerate(hands):
                    for c in h:
                        counts[c][p] += 1
            return
        for h in itertools.combinations(left, kn.hand_sizes[i]):
            rec(i + 1, [c for c in left if c not in h], env, hands + [h])

    for env in itertools.product(*kn.categories):
        rec(0, [c for c in kn.cards if c not in env], env, [])
    return total, counts


@pytest.mark.parametrize("seed", range(12))
def test_exact_probabilities_equal_brute_force(seed: int) -> None:
    """Covers CLUE-58: on a 10-card set the counted deals (and every card × owner count) equal a full
    enumeration, along a simulated game, including wrong accusations."""
    rng = random.Random(seed)
    d = deal(SMALL, 3 + seed % 2, rng)
    for turn, kn in play(d, rng, 12):
        if turn % 4:
            continue
        if seed % 3 == 0 and turn == 8:
            kn = kn.add(Fact("not_triple", -1, ("s1", "w1", "r1")), Fact("not_triple", -1, ("s2", "w2", "r2")))
        pr = probabilities(propagate(kn))
        total, counts = brute_force(kn)
        assert pr.exact and pr.total == total and pr.counts == counts
        c = kn.cards[seed % len(kn.cards)]
        assert pr.exact_owner(c, kn.envelope) == Fraction(counts[c][kn.envelope], total)


def test_soundness_over_hundreds_of_simulated_games() -> None:
    """Covers CLUE-58, CLUE-60, CLUE-61, CLUE-62: over 200 simulated classic games at 3–6 players, no
    deduction (propagation or exact certainty) ever contradicts the true deal, no contradiction is
    reported, and the true deal always has positive probability (thousands more in bench/clue_solver.py)."""
    checked = 0
    for g in range(200):
        rng = random.Random(1000 + g)
        n = 3 + g % 4
        d = deal(CLASSIC_CATS, n, rng)
        for turn, kn in play(d, rng, 30):
            if turn % 6:
                continue
            a = analyse(kn)
            assert not a.contradiction
            for c in kn.cards:
                true = d.owner(c)
                for o in range(n + 1):
                    cell = a.cell(c, o)
                    if cell is not None:
                        assert cell == (O if o == true else X), (g, turn, c, o)
                assert a.probs.counts[c][true] > 0
            checked += 1
    assert checked > 900


def test_exact_counting_beats_propagation_and_elimination() -> None:
    """Covers CLUE-58, CLUE-63: over simulated games the exact solver is certain of the envelope no later
    than propagation, which is no later than elimination — and strictly earlier in some games."""
    earlier = 0
    for g in (*range(10), 21):  # seed 5021: exact certainty at turn 25, propagation at 29
        rng = random.Random(5000 + g)
        d = deal(CLASSIC_CATS, 4, rng)
        first = {"elim": 999, "prop": 999, "ours": 999}
        for turn, kn in play(d, rng, 120):
            if first["elim"] == 999 and len(elimination(kn)) == 3:
                first["elim"] = turn
            if first["prop"] == 999 and len(propagation_only(kn)) == 3:
                first["prop"] = turn
            if first["ours"] == 999:
                a = analyse(kn)
                if a.solved():
                    first["ours"] = turn
                    assert tuple(a.envelope()[k] for k in range(3)) == d.envelope
            if first["prop"] < 999 and first["ours"] < 999:
                break
        assert first["ours"] <= first["prop"]
        assert first["prop"] <= first["elim"] or first["elim"] == 999
        earlier += first["ours"] < first["prop"]
    assert earlier > 0


def test_contradiction_is_reported_not_raised() -> None:
    """Covers CLUE-60: bad input at the table (a player "passed" on a card they showed) is reported as a
    contradiction with the rule that found it; counting says 0 deals."""
    kn = Knowledge(CLASSIC_CATS, (6, 6, 6), me=0).with_hand(0, CLASSIC_CATS[0][:2] + CLASSIC_CATS[1][:2]
                                                              + CLASSIC_CATS[2][:2])
    kn = kn.add(Fact("has", 1, ("plum",)), Fact("lacks", 1, ("plum", "rope", "hall")))
    a = analyse(kn)
    assert a.contradiction and a.notebook.contradiction is not None
    assert a.probs.total == 0
    # one only counting finds: players 0 and 1 (2 cards each) hold no weapon and no room, so both
    # hands come from the 3 suspects — 4 cards from 3 (and none left for the envelope)
    kn2 = Knowledge(SMALL, (2, 2, 3)).add(Fact("lacks", 0, SMALL[1] + SMALL[2]), Fact("lacks", 1, SMALL[1] + SMALL[2]))
    a2 = analyse(kn2)
    assert a2.notebook.contradiction is None and a2.contradiction and a2.probs.total == 0


def test_budget_fallback_is_flagged_approximate() -> None:
    """Covers CLUE-58: past the state budget, counting stops and an approximation flagged exact=False is
    returned; its probabilities still sum to 1 per card and keep the certain cells."""
    rng = random.Random(7)
    d = deal(CLASSIC_CATS, 3, rng)
    kn = [k for _, k in play(d, rng, 6)][-1]
    nb = propagate(kn)
    assert probabilities(nb).exact
    approx = probabilities(nb, max_states=5)
    assert not approx.exact and approx.total == 0
    for c in kn.cards:
        assert abs(sum(approx.owner(c, o) for o in range(4)) - 1.0) < 1e-9
        for o in range(4):
            if nb.marks[c][o] == O:
                assert approx.owner(c, o) == 1.0
            if nb.marks[c][o] == X:
                assert approx.owner(c, o) == 0.0
    a = analyse(kn, max_states=5)
    assert not a.probs.exact and a.counter is None
    assert advise(a, room="hall")  # falls back to the rulebook hint
    assert approximate(nb).exact is False


def test_advice_prefers_informative_suggestions() -> None:
    """Covers CLUE-63: advice ranks by expected information; naming only my own cards yields 0 bits."""
    rng = random.Random(3)
    d = deal(CLASSIC_CATS, 4, rng)
    kn = [k for _, k in play(d, rng, 4)][-1]
    a = analyse(kn)
    best = advise(a, room="hall", samples=80)
    assert best and best[0].room == "hall" and best[0].bits > 0.5
    assert best == sorted(best, key=lambda x: -x.bits)
    mine = d.hands[0]
    s = next(c for c in mine if c in CLASSIC_CATS[0]) if any(c in CLASSIC_CATS[0] for c in mine) else None
    w = next(c for c in mine if c in CLASSIC_CATS[1]) if any(c in CLASSIC_CATS[1] for c in mine) else None
    r = next(c for c in mine if c in CLASSIC_CATS[2]) if any(c in CLASSIC_CATS[2] for c in mine) else None
    if s and w and r:
        all_ = advise(a, room=r, samples=80, top=400)
        own = next(x for x in all_ if (x.suspect, x.weapon) == (s, w))
        assert own.bits == 0.0 and own.no_answer == 1.0


def test_tutor_grades_marks_right_wrong_or_not_yet() -> None:
    """Covers CLUE-59, CLUE-61: the tutor grades a player's own O/X marks against what their information
    proves: right, wrong, or not yet deducible."""
    kn = Knowledge(SMALL, (3, 2, 2), me=0).with_hand(0, ("s1", "w1", "r1"))
    kn = kn.add(Fact("has", 1, ("s2",)), Fact("lacks", 2, ("s3", "w2", "r2")))
    a = analyse(kn)
    assert grade(a, "s2", 1, "O") == "right"
    assert grade(a, "s2", 2, "O") == "wrong"
    assert grade(a, "w2", 2, "X") == "right"
    assert grade(a, "w3", 1, "O") == "not_yet"
    # s3: not s1 (mine), not s2 (player 1), not player 2 → player 1 or envelope
    assert grade(a, "s3", 2, "X") == "right"


def test_every_reason_renders_in_korean_and_english() -> None:
    """Covers CLUE-60, CLUE-61, CLUE-62: each deduction has a one-line reason in both languages."""
    rng = random.Random(11)
    d = deal(CLASSIC_CATS, 3, rng)
    kn = [k for _, k in play(d, rng, 40)][-1]
    nb = propagate(kn)
    seen = set()
    for ded in nb.deductions:
        ko = reason(ded, lambda c: CLASSIC.card(c).ko, lambda p: f"{p + 1}번")
        en = reason(ded, lambda c: CLASSIC.card(c).en, lambda p: f"P{p + 1}", "en")
        assert ko and en and ko != en and "\n" not in ko
        seen.add(ded.rule)
    assert {"hand", "pass", "one_owner", "full_hand"} <= seen


def test_deal_owner_helper() -> None:
    """Covers CLUE-12: the simulated deal gives every card one owner and uneven hands differ by ≤ 1."""
    d: Deal = deal(CLASSIC_CATS, 4, random.Random(0))
    sizes = sorted(map(len, d.hands))
    assert sizes[-1] - sizes[0] <= 1 and sum(sizes) == 18
    assert all(d.owner(c) == 4 for c in d.envelope)


def test_counting_equals_todays_algorithm_and_brute_force_at_six_players() -> None:
    """Covers CLUE-58: the reworked counter gives the same counts as the former one (bench/clue_baseline.py)
    on 6-player classic games, and equals brute force on a 12-card set at 4 players (groups of several
    cards: the envelope-first order and the two-owner last step of a group checked exactly)."""
    from bench import clue_baseline

    for g in range(6):
        rng = random.Random(7000 + g)
        d = deal(CLASSIC_CATS, 6, rng)
        for turn, kn in play(d, rng, 40):
            if turn % 3:
                continue
            nb = propagate(kn)
            a, b = probabilities(nb), clue_baseline.probabilities(nb)
            assert (a.exact, a.total, a.counts) == (b.exact, b.total, b.counts)
    big = (("s1", "s2", "s3", "s4"), ("w1", "w2", "w3"), ("r1", "r2", "r3", "r4", "r5"))
    for seed in range(3):
        rng = random.Random(seed)
        d = deal(big, 4, rng)
        for turn, kn in play(d, rng, 10):
            if turn % 5 == 0:
                pr = probabilities(propagate(kn))
                total, counts = brute_force(kn)
                assert pr.exact and pr.total == total and pr.counts == counts
