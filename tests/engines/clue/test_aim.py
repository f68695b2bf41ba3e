"""어려움's suggestion scores (engines.clue.aim): what a reply teaches about the envelope, not about hands."""

from __future__ import annotations

from engines.clue import bots as clue_bots
from engines.clue.aim import envelope_advice
from engines.clue.knowledge import Fact, Knowledge
from engines.clue.solver import advise, analyse
from tests.engines.clue.helpers import game

CATS = tuple(game(4).cards.ids(k) for k in range(3))
S, W, R = CATS


def _known_suspect_and_weapon() -> Knowledge:
    """Seat 0 of four holds Scarlet, the rope and two rooms and knows Plum and the revolver are in the envelope:
    only the room is open."""
    mine = (S[0], W[0], R[0], R[1])
    return Knowledge(CATS, (5, 5, 4, 4), me=0).with_hand(0, mine).add(
        Fact("envelope", -1, (S[5],)), Fact("envelope", -1, (W[5],)))


def test_with_the_suspect_and_weapon_known_the_best_suggestion_names_cards_whose_place_is_known() -> None:
    """Naming a suspect and a weapon nobody else can show, every reply is about the room (the classic trick);
    the whole-deal score (보통's) prefers cards whose holder is open, which teaches about hands instead."""
    a = analyse(_known_suspect_and_weapon())
    assert a.envelope() == {0: S[5], 1: W[5]}
    scores = envelope_advice(a, (R[4],), samples=300, seed=1)
    top = max(scores.values())
    best = {t for t, v in scores.items() if v >= top - 1e-9}
    assert best == {(s, w, R[4]) for s in (S[0], S[5]) for w in (W[0], W[5])}
    plain = advise(a, R[4], samples=300, seed=1, top=1)[0]
    assert plain.suspect not in (S[0], S[5])


def test_a_suggestion_of_my_own_cards_teaches_nothing() -> None:
    kn = Knowledge(CATS, (5, 5, 4, 4), me=0).with_hand(0, (S[0], W[0], R[0], R[1], R[2]))
    scores = envelope_advice(analyse(kn), (R[0],), samples=200, seed=3)
    assert scores[(S[0], W[0], R[0])] == 0.0
    assert max(scores.values()) > 0.5


def test_the_hard_level_scores_by_the_envelope() -> None:
    assert clue_bots.HARD.aim is not None and clue_bots.NORMAL.aim is None
