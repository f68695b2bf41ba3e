"""The rulebook's worked examples, each a test (round example + seven scoring examples), with the votes
entered open (counts by the table) and sealed (per-seat ballots)."""

from __future__ import annotations

import pytest

from engines.core import TABLE
from engines.spyfall import actions as A
from engines.spyfall.questions import check_question, next_asker
from tests.engines.spyfall.helpers import ANN, ISAAC, JUAN, MARIA, Table

MODES = ["open", "sealed"]


def watchtower(votes: str) -> Table:
    """Ann, Juan, Maria, Isaac; Ann holds the Joker, the others the Justice League Watchtower."""
    t = Table(votes=votes)
    t.start(deck="watchtower", joker=ANN, dealer=MARIA)
    t.wait(60)
    return t


def test_round_example_watchtower_question_chain() -> None:
    """Covers SPY-51, SPY-22, SPY-25. Maria (dealer) asks Isaac, Isaac asks Juan, Juan asks Ann: all legal;
    asking back the player who just asked is flagged."""
    t = watchtower("open")
    f = t.r.facts
    assert f is not None and f.cards == ("joker", "watchtower", "watchtower", "watchtower")
    chain: list[tuple[int, int]] = []
    for asker, target in [(MARIA, ISAAC), (ISAAC, JUAN), (JUAN, ANN)]:
        assert next_asker(chain, dealer=MARIA) == asker
        check_question(chain, asker, target, 4, dealer=MARIA)
        chain.append((asker, target))
    from engines.core import RuleError
    with pytest.raises(RuleError) as info:
        check_question(chain, ANN, JUAN, 4, dealer=MARIA)  # Juan just asked Ann
    assert info.value.code == "no_ask_back"
    with pytest.raises(RuleError) as info:
        check_question(chain, ANN, ANN, 4, dealer=MARIA)
    assert info.value.code == "self_question"


@pytest.mark.parametrize("votes", MODES)
def test_example_1_mid_round_conviction(votes: str) -> None:
    """Covers SPY-52, SPY-37, SPY-47, SPY-48. Isaac stops the clock and accuses Ann; 3-0 → Ann is the
    Joker → Isaac 2, Maria 1, Juan 1, Ann 0."""
    t = watchtower(votes)
    t.accuse(ISAAC, ANN)
    assert t.r.phase == "accusation" and not t.r.clock.running
    t.vote_hands({JUAN, MARIA, ISAAC})
    assert t.r.phase == "round_over" and t.r.verdict.ending == "accusation" and t.r.verdict.convicted == ANN
    assert t.points_of_round() == (0, 1, 1, 2)


@pytest.mark.parametrize("votes", MODES)
def test_example_2_conviction_after_time(votes: str) -> None:
    """Covers SPY-53, SPY-29, SPY-31, SPY-47. Time up; Ann 2, Isaac 1, Maria 1 → Ann convicted, Joker →
    each hero 1."""
    t = watchtower(votes)
    t.time_up()
    assert t.r.phase == "discussion"
    t.discuss_then_point()
    t.vote_points({ANN: ISAAC, JUAN: MARIA, MARIA: ANN, ISAAC: ANN})
    assert t.r.verdict.ending == "final_vote" and t.r.verdict.convicted == ANN
    assert t.points_of_round() == (0, 1, 1, 1)


@pytest.mark.parametrize("votes", MODES)
def test_example_3_failed_mid_round_then_success(votes: str) -> None:
    """Covers SPY-54, SPY-38, SPY-49, SPY-50. Isaac accuses Ann, Maria votes no → the clock restarts;
    at time up Ann gets 3 fingers and is the Joker → Isaac 2, Maria 1, Juan 1, Ann 0."""
    t = watchtower(votes)
    t.accuse(ISAAC, ANN)
    t.vote_hands({JUAN, ISAAC})
    assert t.r.phase == "play" and t.r.clock.running
    t.wait(100)
    t.time_up()
    t.discuss_then_point()
    t.vote_points({ANN: JUAN, JUAN: ANN, MARIA: ANN, ISAAC: ANN})
    assert t.r.verdict.convicted == ANN
    assert t.points_of_round() == (0, 1, 1, 2)


@pytest.mark.parametrize("votes", MODES)
def test_example_4_nobody_convicted(votes: str) -> None:
    """Covers SPY-55, SPY-32, SPY-44. Ann 2, Juan 2 → tie, nobody convicted → Ann (Joker) 2."""
    t = watchtower(votes)
    t.time_up()
    t.discuss_then_point()
    t.vote_points({ANN: JUAN, JUAN: ANN, MARIA: ANN, ISAAC: JUAN})
    assert t.r.verdict.ending == "no_conviction" and t.r.verdict.convicted is None
    assert t.points_of_round() == (2, 0, 0, 0)


@pytest.mark.parametrize("votes", MODES)
def test_example_5_hero_convicted(votes: str) -> None:
    """Covers SPY-56, SPY-31, SPY-45. One finger on Ann, three on Juan → Juan convicted, a location card
    → Ann 4."""
    t = watchtower(votes)
    t.time_up()
    t.discuss_then_point()
    t.vote_points({ANN: JUAN, JUAN: ANN, MARIA: JUAN, ISAAC: JUAN})
    assert t.r.verdict.convicted == JUAN
    assert t.points_of_round() == (4, 0, 0, 0)


def test_example_6_joker_guesses_right() -> None:
    """Covers SPY-57, SPY-43, SPY-46. Ann reveals and says "Watchtower" → Ann 4."""
    t = watchtower("open")
    t.do(A.RevealJoker(ANN, t.at()))
    assert t.r.phase == "guess" and not t.r.clock.running
    t.do(A.GuessLocation(ANN, "watchtower", t.at()))
    assert t.r.joker.correct is True
    assert t.points_of_round() == (4, 0, 0, 0)


def test_example_7_joker_guesses_wrong() -> None:
    """Covers SPY-58, SPY-43, SPY-47. Ann reveals and says "Warworld" → each hero 1."""
    t = watchtower("open")
    t.do(A.RevealJoker(ANN, t.at()))
    t.do(A.GuessLocation(ANN, "warworld", t.at()))
    assert t.r.joker.correct is False
    assert t.points_of_round() == (0, 1, 1, 1)
    assert t.state.totals == (0, 1, 1, 1)
    t.do(A.NextRound(TABLE))
    assert t.r.dealer == ANN  # the Joker deals next


def test_no_follow_up_questions() -> None:
    """Covers SPY-24, SPY-21. The dealer asks first; one question at a time: the asker cannot ask again
    (a follow-up) — the player who answered asks next."""
    from engines.core import RuleError
    with pytest.raises(RuleError) as info:
        check_question([], ISAAC, ANN, 4, dealer=MARIA)
    assert info.value.code == "dealer_asks_first"
    chain = [(MARIA, ISAAC)]
    with pytest.raises(RuleError) as info:
        check_question(chain, MARIA, ISAAC, 4, dealer=MARIA)
    assert info.value.code == "answerer_asks"
    check_question(chain, ISAAC, ANN, 4, dealer=MARIA)
