"""A full scripted game of each of our cases, from setup to a correct solution at 221B."""

from __future__ import annotations

import json

import pytest

from engines.watson_holmes import ENGINE
from engines.watson_holmes.actions import DoneReading, SubmitAnswers, TakeWatson, Visit, WatsonRead
from tests.engines.watson_holmes.helpers import play, real_game, total_carriages

SCRIPTS = {
    # case: (round-1 cards for seats 0,1,2), (round-2 cards for seats 2,0), round-3 card for seat 1, answers
    "case_01": (("2", "4", "3"), ("5", "6"), "8", ("토머스 팔머", "화이트채플 벨라미 전당포 금고")),
    "case_02": (("3", "9", "6"), ("2", "1"), "4",
                ("Victor  Hale", "in the Benning & Hale workshop",
                 "Benning found out Hale sold counterfeit watches under his name")),
    "case_03": (("7", "1", "6"), ("3", "10"), "12",
                ("줄리언 마시", "찻잔이 아니라 심장 토닉 약병에 디기탈리스를 넣었다", "서명을 위조한 수표가 드러날 참이라서")),
}


@pytest.mark.parametrize("case_id", sorted(SCRIPTS))
def test_full_game_to_a_win(case_id: str) -> None:
    """Covers WH-42, WH-43, WH-52, WH-58, WH-66, WH-69, WH-71, WH-73, WH-76, WH-97, WH-98."""
    first, second, third, answers = SCRIPTS[case_id]
    state = real_game(case_id, 3)
    total = total_carriages(state)
    # round 1: seat 1 takes Watson before placing; seat 0 walks, seat 1 rides, seat 2 walks
    state, _ = play(state, Visit(0, first[0]), TakeWatson(1), Visit(1, first[1], 1), Visit(2, first[2]))
    assert state.start_player == 2
    assert state.phase == "watson"
    state, events = play(state, WatsonRead(1, 0))
    assert any(e.kind == "watson_reading" and e.to is None for e in events)
    card0 = state.case.location(int(first[0]))
    assert json.dumps(card0.clue.ko, ensure_ascii=False)[1:20] in json.dumps(ENGINE.view(state, None),
                                                                              ensure_ascii=False)
    state, _ = play(state, DoneReading(0), DoneReading(1), DoneReading(2))
    assert total_carriages(state) == total
    # round 2: the start player (seat 2) first; seat 1 waits at the carriage stop
    state, _ = play(state, Visit(2, second[0]), Visit(0, second[1]), Visit(1, "cab"))
    has_police = state.players[0].police == 1
    state, _ = play(state, DoneReading(2), DoneReading(0, police=has_police))
    assert (int(second[1]) in state.police_on) == has_police
    assert state.players[1].carriages == state.case.rules.starting_carriages - 4 - 1 + 3
    # round 3: seat 1 starts (placed last); seat 0 goes to 221B and solves
    assert state.turn == 1
    state, _ = play(state, Visit(1, third), Visit(2, "cab"), Visit(0, "221b"))
    assert state.announced == ((0, state.players[0].carriages),)
    state, _ = play(state, DoneReading(1))
    assert state.phase == "solve" and state.pending == {0}
    read = {n["number"] for n in ENGINE.view(state, 0)["me"]["notes"]}
    assert read == {int(first[0]), int(second[1])}
    assert "solution" not in ENGINE.view(state, 0)
    state, events = play(state, SubmitAnswers(0, answers))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "solved"
    final = ENGINE.view(state, None)
    assert final["solution"]["solution"] == {"ko": state.case.solution.ko, "en": state.case.solution.en}
    assert all("clue" in loc for loc in final["locations"])  # every card can be read after the game


@pytest.mark.parametrize("case_id", sorted(SCRIPTS))
def test_a_wrong_culprit_fails_the_same_game(case_id: str) -> None:
    """Covers WH-78, WH-79."""
    answers = SCRIPTS[case_id][3]
    state = real_game(case_id, 2)
    state, _ = play(state, Visit(0, "221b"), Visit(1, "cab"))
    state, events = play(state, SubmitAnswers(0, ("정원사", *answers[1:])))
    failed = [e.data for e in events if e.kind == "attempt_failed"]
    assert failed == [{"seat": 0, "right": len(answers) - 1, "of": len(answers)}]
