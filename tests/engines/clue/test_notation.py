"""The rulebook's deduction method ("필승 표기법"): O / X / numbered marks, and its A-B-C-D example."""

from __future__ import annotations

from engines.clue import ENGINE
from engines.clue.actions import DieRoll, EndTurn, EnterRoom, RollDie, Show, Suggest
from engines.clue.content import sets_in
from engines.clue.knowledge import Fact, Knowledge
from engines.clue.notation import O, X, propagate
from engines.clue.solver import analyse, notebook_rows, reason
from engines.clue.views import knowledge_for
from engines.core import CHANCE
from tests.engines.clue.helpers import PACK, do, game

A, B, C, D = 0, 1, 2, 3
SET = sets_in(PACK)["notation_example"]
CATS = tuple(SET.ids(k) for k in range(3))
A_HAND = ("plum", "rope", "kitchen", "hall")


def a_view() -> Knowledge:
    """A's notes before the example starts: A holds 4 cards, B, C and D hold 5 each."""
    return Knowledge(CATS, (4, 5, 5, 5), me=A).with_hand(A, A_HAND)


def step1() -> Knowledge:
    # A: (Scarlet, knife, Ballroom); B passes; C shows A Scarlet.
    return a_view().add(Fact("lacks", B, ("scarlet", "knife", "ballroom")), Fact("has", C, ("scarlet",)))


def step2() -> Knowledge:
    # B: (Mustard, poison, Billiard Room); C passes; D shows B something A does not see.
    return step1().add(Fact("lacks", C, ("mustard", "poison", "billiard_room"))).numbered(
        D, ("mustard", "poison", "billiard_room"))


def step3() -> Knowledge:
    # C: (White, wrench, Billiard Room); D shows nothing.
    return step2().add(Fact("lacks", D, ("white", "wrench", "billiard_room")))


def test_step1_pass_is_x_shown_is_o_and_x_for_the_others() -> None:
    """Covers CLUE-64, CLUE-59, CLUE-60: B: X Scarlet, X knife, X Ballroom; C: O Scarlet; D: X Scarlet."""
    nb = propagate(step1())
    m = nb.marks
    assert (m["scarlet"][B], m["knife"][B], m["ballroom"][B]) == (X, X, X)
    assert m["scarlet"][C] == O and m["scarlet"][D] == X and m["scarlet"][A] == X
    assert m["scarlet"][4] == X, "a card in a hand is not in the envelope"
    rules = {(d.card, d.owner): d.rule for d in nb.deductions}
    assert rules[("knife", B)] == "pass" and rules[("scarlet", C)] == "shown"
    assert rules[("scarlet", D)] == "one_owner"


def test_step2_numbered_marks_in_the_showers_column() -> None:
    """Covers CLUE-65, CLUE-61, CLUE-69 (AMBIGUOUS, reading A): C passes → X on all three; D showed B an
    unseen card → "1" on Mustard, poison, Billiard Room in D's column (not B's)."""
    nb = propagate(step2())
    assert all(nb.marks[c][C] == X for c in ("mustard", "poison", "billiard_room"))
    for c in ("mustard", "poison", "billiard_room"):
        assert nb.numbers[c][D] == (1,)
        assert nb.numbers[c][B] == ()


def test_step3_numbered_set_shrinks_to_two() -> None:
    """Covers CLUE-66: D passes on (White, wrench, Billiard Room) → X on those; D's "1" is left on
    Mustard and poison only: D holds one of the two."""
    nb = propagate(step3())
    assert all(nb.marks[c][D] == X for c in ("white", "wrench", "billiard_room"))
    ones = [c for c in SET.ids(0) + SET.ids(1) + SET.ids(2) if 1 in nb.numbers[c][D]]
    assert ones == ["mustard", "poison"]
    assert nb.marks["mustard"][D] is None and nb.marks["poison"][D] is None


def test_last_number_left_becomes_o() -> None:
    """Covers CLUE-61: when D is later seen without poison, the last "1" (Mustard) becomes O for D."""
    nb = propagate(step3().add(Fact("lacks", D, ("peacock", "poison", "lounge"))))
    assert nb.marks["mustard"][D] == O
    d = next(x for x in nb.deductions if x.card == "mustard" and x.owner == D and x.value == O)
    assert d.rule == "number" and d.ref == 1
    line = reason(d, lambda c: SET.card(c).ko, lambda p: "ABCD"[p])
    assert "D" in line and "머스타드" in line and "1" in line


def test_rule3_full_hand_makes_every_other_card_x() -> None:
    """Covers CLUE-67, CLUE-62: once C's 5 cards are known, every other card is X for C."""
    five = ("scarlet", "white", "knife", "lounge", "library")
    kn = step3().add(*(Fact("has", C, (c,)) for c in five[1:]))
    nb = propagate(kn)
    assert nb.contradiction is None
    for c in SET.ids(0) + SET.ids(1) + SET.ids(2):
        assert nb.marks[c][C] == (O if c in five else X)
    assert any(d.rule == "full_hand" and d.owner == C for d in nb.deductions)


def test_own_hand_fills_my_column() -> None:
    """Covers CLUE-58, CLUE-62: the helper uses only A's information: A's 4 cards O, everything else X
    in A's column (A's hand is fully known), and nothing about B, C, D beyond the facts."""
    nb = propagate(a_view())
    for c in SET.ids(0) + SET.ids(1) + SET.ids(2):
        assert nb.marks[c][A] == (O if c in A_HAND else X)
    assert all(nb.marks[c][B] is None for c in SET.ids(0) if c != "plum")


def test_example_through_the_engine() -> None:
    """Covers CLUE-64, CLUE-65, CLUE-66, CLUE-58: the same three suggestions played on the engine in
    digital mode; A's private notebook (built only from A's view of the game) matches the rulebook."""
    hands = (A_HAND, ("lead_pipe", "candlestick", "dining_room", "conservatory", "study"),
             ("scarlet", "white", "knife", "lounge", "library"),
             ("mustard", "green", "revolver", "poison", "ballroom"))
    state = game(4, card_set="notation_example", hands=hands, envelope=("peacock", "wrench", "billiard_room"))
    assert sorted([c for h in hands for c in h] + ["billiard_room", "peacock", "wrench"]) == sorted(
        c.id for c in SET.cards)
    seat_turn = state.turn
    assert seat_turn == A
    state = do(state, RollDie(A), DieRoll(CHANCE, 3), EnterRoom(A, "ballroom"), Suggest(A, "scarlet", "knife"))
    assert state.history[-1].passed == (B,) and state.asking == C
    state = do(state, Show(C, "scarlet"), EndTurn(A))
    state = do(state, RollDie(B), DieRoll(CHANCE, 3), EnterRoom(B, "billiard_room"),
               Suggest(B, "mustard", "poison"))
    assert state.history[-1].passed == (C,) and state.asking == D
    state = do(state, Show(D, "mustard"), EndTurn(B))
    state = do(state, RollDie(C), DieRoll(CHANCE, 3), EnterRoom(C, "billiard_room"), Suggest(C, "white", "wrench"))
    assert state.history[-1].passed == (D, A, B) and state.history[-1].shown_by == -1
    a = analyse(knowledge_for(state, A))
    nb = a.notebook
    assert nb.marks["scarlet"][C] == O and nb.marks["knife"][B] == X
    assert [c for c in ("mustard", "poison", "billiard_room") if 1 in nb.numbers[c][D]] == ["mustard", "poison"]
    rows = {r["card"]: r for r in notebook_rows(a)}
    assert rows["scarlet"]["cells"][C]["mark"] == "O"  # type: ignore[index]
    assert "mustard" not in str(ENGINE.view(state, A).get("private_cards"))
