"""A café's physical box: real cards are read at the table; the kiosk referees tokens, order and verdicts."""

from __future__ import annotations

from engines.core import TABLE
from engines.watson_holmes import ENGINE
from engines.watson_holmes.actions import CheckAnswer, CheckReply, DoneReading, SubmitAnswers, Verdict, Visit
from tests.engines.watson_holmes.helpers import play, real_game, refused


def test_the_cafe_box_is_physical_and_the_reader_reports_the_symbols() -> None:
    """Covers WH-03, WH-12, WH-22, WH-77."""
    state = real_game("cafe_box_example", 3)
    assert not state.case.digital
    state, _ = play(state, Visit(0, "2"), Visit(1, "3"), Visit(2, "cab"))
    assert ENGINE.view(state, 0)["me"]["reading"] == 2
    state, events = play(state, DoneReading(0, gain_carriages=2, gain_lockpick=True))
    assert state.players[0].carriages == 12 and state.players[0].lockpick == 1
    digital = real_game("case_01", 2)
    digital, _ = play(digital, Visit(0, "2"), Visit(1, "3"))
    refused(digital, DoneReading(0, gain_carriages=2), "gains_digital")


def test_the_table_judges_a_physical_attempt() -> None:
    """Covers WH-77, WH-76, WH-79."""
    state = real_game("cafe_box_example", 3)
    state, _ = play(state, Visit(0, "221b"), Visit(1, "221b"), Visit(2, "5"), DoneReading(2))
    state, _ = play(state, SubmitAnswers(0, ()), SubmitAnswers(1, ("a", "b", "c")))
    assert state.phase == "judge" and ENGINE.to_move(state) == {TABLE}
    assert state.judging == (0, 1)  # tied on carriages: judged together
    refused(state, Verdict(TABLE, 2, 3), "not_judged")
    refused(state, Verdict(TABLE, 0, 4), "bad_right")
    state, _ = play(state, Verdict(TABLE, 0, 2))
    state, events = play(state, Verdict(TABLE, 1, 3))
    outcome = ENGINE.outcome(state)
    assert outcome.winners == (1,)
    assert [e.data for e in events if e.kind == "attempt_failed"] == [{"seat": 0, "right": 2, "of": 3}]


def test_a_failed_player_answers_a_check_through_the_table() -> None:
    """Covers WH-87, WH-80."""
    state = real_game("cafe_box_example", 3)
    state, _ = play(state, Visit(0, "221b"), Visit(1, "1"), Visit(2, "5"), DoneReading(1), DoneReading(2),
                    SubmitAnswers(0, ()), Verdict(TABLE, 0, 1))
    assert state.holmes_up and state.phase == "visit"
    state, _ = play(state, CheckAnswer(1, 2, "서재에서"))
    assert state.pending_check is not None and ENGINE.to_move(state) == {TABLE}
    assert "서재에서" not in str(ENGINE.view(state, None))
    state, events = play(state, CheckReply(TABLE, True))
    assert [e.data for e in events if e.kind == "answer_checked"] == [{"seat": 1, "question": 2, "right": True}]
    refused(state, CheckReply(TABLE, True), "not_your_turn")
