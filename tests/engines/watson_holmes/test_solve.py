"""221B: answers, order, failure, the Holmes card, the end of the game and play-on."""

from __future__ import annotations

import json

from engines.core import TABLE
from engines.watson_holmes import ENGINE
from engines.watson_holmes.actions import CheckAnswer, ConsultAnswers, DoneReading, EndGame, SubmitAnswers, Visit
from engines.watson_holmes.content import Question, Text, answer_is_right, normalise
from tests.engines.watson_holmes.helpers import new_game, play, refused, set_player

RIGHT = ("존 스미스", "금괴를 훔쳤다")
ONE_RIGHT = ("존 스미스", "다이아몬드")
NONE_RIGHT = ("정원사", "다이아몬드")


def _dump(tree: object) -> str:
    return json.dumps(tree, ensure_ascii=False)


def _at_221b(n: int = 3, seats: tuple[int, ...] = (0, 1), **config):
    state = new_game(n, **config)
    actions = [Visit(s, "221b") if s in seats else Visit(s, str(1 + s)) for s in range(n)]
    state, _ = play(state, *actions)
    if state.phase == "investigate":
        for s in sorted(state.pending):
            state, _ = play(state, DoneReading(s))
    assert state.phase == "solve"
    return state


def test_rulebook_full_name_example() -> None:
    """Covers WH-109, WH-78."""
    q = Question(1, Text("범인은?"), person=True, accepted=("존 스미스", "John Smith"))
    assert answer_is_right(q, "존 스미스") and answer_is_right(q, "존  스미스") and answer_is_right(q, "john smith")
    assert not answer_is_right(q, "정원사")
    assert not answer_is_right(q, "마르타의 남편")
    assert not answer_is_right(q, "스미스") and not answer_is_right(q, "")
    assert normalise(" 존 스미스. ") == "존스미스"


def test_keyword_questions_need_every_group() -> None:
    """Covers WH-76, WH-77."""
    q = Question(2, Text("어떻게?"), keywords=(("독", "poison"), ("토닉", "tonic")))
    assert answer_is_right(q, "토닉 병에 독을 넣었다") and answer_is_right(q, "Poison in the TONIC")
    assert not answer_is_right(q, "찻잔에 독을 넣었다")


def test_every_question_must_be_answered_before_the_check() -> None:
    """Covers WH-75."""
    state = _at_221b()
    refused(state, SubmitAnswers(0, ("존 스미스",)), "answer_count")
    refused(state, SubmitAnswers(0, ("존 스미스", " ")), "answer_empty")
    locked, events = play(state, SubmitAnswers(0, RIGHT))
    assert locked.phase == "solve" and locked.pending == {1}
    refused(locked, SubmitAnswers(0, NONE_RIGHT), "not_your_turn")  # answers are locked
    assert all("존 스미스" not in _dump(e.to_dict()) for e in events)


def test_all_right_wins_and_the_solution_is_read() -> None:
    """Covers WH-76, WH-97, WH-98, WH-02, WH-36."""
    state = _at_221b(seats=(0,))
    assert "존 스미스가 금괴를" not in _dump(ENGINE.view(state, 0))  # the solution is hidden until the end
    state, events = play(state, SubmitAnswers(0, RIGHT))
    outcome = ENGINE.outcome(state)
    assert outcome is not None and outcome.winners == (0,) and outcome.reason == "solved"
    table = ENGINE.view(state, None)
    assert table["solution"]["solution"]["ko"] == "존 스미스가 금괴를 훔쳤다"
    assert table["solution"]["submitted"] == [{"answers": {"seat": 0, "list": list(RIGHT)}}]
    assert "game_over" in [e.kind for e in events]
    refused(state, Visit(1, "1"), "game_over")


def test_failure_tells_how_many_and_the_player_becomes_holmes_voice() -> None:
    """Covers WH-79, WH-80, WH-84, WH-45, WH-31."""
    state = _at_221b(seats=(0,))
    assert state.holmes_up is False  # the Holmes card starts face down
    state, events = play(state, SubmitAnswers(0, ONE_RIGHT))
    failed = [e for e in events if e.kind == "attempt_failed"][0]
    assert failed.to is None and failed.data == {"seat": 0, "right": 1, "of": 2}
    assert "다이아몬드" not in _dump([e.to_dict() for e in events])  # nothing more is told
    assert state.players[0].status == "failed" and state.holmes_up
    assert state.phase == "visit" and state.turn != 0
    for _ in range(2):
        assert 0 not in ENGINE.to_move(state)
        state, _ = play(state, Visit(state.turn, "cab"))
    assert state.placement_of(0) is None


def test_several_visitors_attempt_by_carriages_left() -> None:
    """Covers WH-81."""
    state = _at_221b(seats=(0, 1))
    state = set_player(state, 1, carriages=12)
    state, events = play(state, SubmitAnswers(0, RIGHT), SubmitAnswers(1, RIGHT))
    assert [e.data for e in events if e.kind == "solve_order"] == [{"groups": [[1], [0]]}]
    assert ENGINE.outcome(state).winners == (1,)  # the first one succeeded: seat 0 never attempts
    assert state.players[0].status == "active"
    state = _at_221b(seats=(0, 1))
    state = set_player(state, 1, carriages=12)
    state, _ = play(state, SubmitAnswers(0, RIGHT), SubmitAnswers(1, NONE_RIGHT))
    assert ENGINE.outcome(state).winners == (0,) and state.players[1].status == "failed"


def test_tied_visitors_attempt_at_once_and_can_all_win() -> None:
    """Covers WH-82, WH-02."""
    state = _at_221b(seats=(0, 1))
    state, events = play(state, SubmitAnswers(1, RIGHT), SubmitAnswers(0, RIGHT))
    assert [e.data for e in events if e.kind == "solve_order"] == [{"groups": [[0, 1]]}]
    assert ENGINE.outcome(state).winners == (0, 1)


def _one_failed(n: int = 4):
    state = _at_221b(n, seats=(n - 1,))
    state, _ = play(state, SubmitAnswers(n - 1, ONE_RIGHT))
    assert state.holmes_up and state.phase == "visit"
    return state


def test_consulting_a_failed_players_answers_costs_three() -> None:
    """Covers WH-85, WH-86, WH-89."""
    refused(new_game(2), ConsultAnswers(0, 1), "holmes_down")
    state = _one_failed()
    assert 0 in ENGINE.to_move(state) and 1 in ENGINE.to_move(state)  # at any time
    supply = state.supply.carriages
    state, events = play(state, ConsultAnswers(1, 3))
    assert state.players[1].carriages == 7 and state.supply.carriages == supply + 3
    assert {"answers": {"seat": 3, "list": list(ONE_RIGHT)}} in ENGINE.view(state, 1)["me"]["consulted"]
    assert "다이아몬드" not in _dump(ENGINE.view(state, 0)) and "다이아몬드" not in _dump(ENGINE.view(state, None))
    private = [e for e in events if e.kind == "consulted_answers"][0]
    assert private.to == {1}
    refused(state, ConsultAnswers(1, 3), "consulted")
    refused(state, ConsultAnswers(1, 0), "not_failed")
    refused(set_player(state, 2, carriages=2), ConsultAnswers(2, 3), "not_your_turn")  # nothing to do with 2
    refused(state, ConsultAnswers(3, 3), "not_your_turn")  # the failed player takes no Holmes action (WH-80)


def test_checking_one_answer_once_per_game() -> None:
    """Covers WH-87, WH-88, WH-89."""
    state = _one_failed()
    state, events = play(state, CheckAnswer(1, 1, "John  Smith"))
    told = [e for e in events if e.kind == "answer_checked"][0]
    assert told.to is None and told.data == {"seat": 1, "question": 1, "right": True}
    assert state.players[1].carriages == 7
    refused(state, CheckAnswer(1, 2, "금괴"), "checked")
    state, _ = play(state, ConsultAnswers(1, 3))  # consulting is not limited to once (WH-89 reading A)
    state, events = play(state, CheckAnswer(2, 2, "다이아몬드"))
    assert [e.data["right"] for e in events if e.kind == "answer_checked"] == [False]
    refused(state, CheckAnswer(0, 9, "x"), "bad_question")


def test_holmes_action_at_221b_before_the_order_is_set() -> None:
    """Covers WH-83."""
    state = _one_failed(4)
    order = [state.turn]
    state, _ = play(state, Visit(state.turn, "221b"))
    nxt = state.turn
    order.append(nxt)
    state, _ = play(state, Visit(nxt, "221b"))
    while state.phase == "visit":
        state, _ = play(state, Visit(state.turn, "cab"))
    a, b = order
    assert state.phase == "solve" and state.pending == {a, b}
    assert state.players[a].carriages == state.players[b].carriages == 10
    state, _ = play(state, ConsultAnswers(a, 3))  # paid before answering: the order changes
    state, _ = play(state, SubmitAnswers(a, RIGHT))
    refused(state, ConsultAnswers(a, 3), "not_your_turn")  # locked in: no more Holmes actions
    state, events = play(state, SubmitAnswers(b, RIGHT))
    assert [e.data for e in events if e.kind == "solve_order"] == [{"groups": [[b], [a]]}]
    assert ENGINE.outcome(state).winners == (b,)


def test_last_player_standing_gets_min_carriages_4_extra_rounds_then_must_solve() -> None:
    """Covers WH-99, WH-100, WH-101."""
    state = _at_221b(2, seats=(0,))
    state = set_player(state, 1, carriages=2)
    state, events = play(state, SubmitAnswers(0, NONE_RIGHT))
    assert [e.data for e in events if e.kind == "last_standing"] == [{"seat": 1, "extra_rounds": 2}]
    assert state.last_standing == 1
    state, _ = play(state, Visit(1, "cab"))  # extra round 1 (carriages now 5: counted once, reading A)
    assert state.players[1].carriages == 5 and not state.must_solve
    state, _ = play(state, Visit(1, "1", 1))  # extra round 2
    state, _ = play(state, DoneReading(1))
    assert state.must_solve
    refused(state, Visit(1, "cab"), "must_solve")
    assert [a.location for a in ENGINE.legal_actions(state, 1) if isinstance(a, Visit)] == ["221b"]
    lose, _ = play(state, Visit(1, "221b"), SubmitAnswers(1, ONE_RIGHT))
    outcome = ENGINE.outcome(lose)
    assert outcome.winners == () and outcome.reason == "last_player_failed"
    win, _ = play(state, Visit(1, "221b"), SubmitAnswers(1, RIGHT))
    assert ENGINE.outcome(win).winners == (1,)


def test_last_player_extra_rounds_are_capped_at_four() -> None:
    """Covers WH-99."""
    state = _at_221b(2, seats=(0,))
    state, events = play(state, SubmitAnswers(0, NONE_RIGHT))
    assert state.extra_rounds == 4 - 1  # 10 carriages → 4 extra rounds; the first has begun


def test_everyone_failing_ends_with_no_winner() -> None:
    """Covers WH-102."""
    state = _at_221b(2, seats=(0, 1))
    state, _ = play(state, SubmitAnswers(0, ONE_RIGHT), SubmitAnswers(1, NONE_RIGHT))
    outcome = ENGINE.outcome(state)
    assert outcome.winners == () and outcome.reason == "all_failed"


def test_play_on_after_a_win_keeps_the_answers_hidden_until_the_table_ends_it() -> None:
    """Covers WH-103, WH-104."""
    state = _at_221b(3, seats=(0,), play_on=True)
    state, events = play(state, SubmitAnswers(0, RIGHT))
    assert ENGINE.outcome(state) is None and state.winners == (0,)
    assert [e.data for e in events if e.kind == "solved"] == [{"seat": 0}]
    assert "금괴를 훔쳤다" not in _dump(ENGINE.view(state, 1)) and "solution" not in ENGINE.view(state, None)
    assert TABLE in ENGINE.to_move(state) and 0 not in ENGINE.to_move(state)
    state, _ = play(state, Visit(state.turn, "221b"))
    while state.phase == "visit":
        state, _ = play(state, Visit(state.turn, "cab"))
    later = next(iter(state.pending))
    state, _ = play(state, SubmitAnswers(later, RIGHT))
    assert state.also_solved == (later,) and ENGINE.outcome(state) is None
    refused(new_game(2), EndGame(TABLE), "not_your_turn")
    state, _ = play(state, EndGame(TABLE))
    outcome = ENGINE.outcome(state)
    assert outcome.winners == (0,) and outcome.detail["also_solved"] == [later]
    assert "solution" in ENGINE.view(state, None)


def test_play_on_ends_by_itself_when_nobody_is_left() -> None:
    """Covers WH-104."""
    state = _at_221b(2, seats=(0, 1), play_on=True)
    state = set_player(state, 1, carriages=3)
    state, _ = play(state, SubmitAnswers(0, RIGHT), SubmitAnswers(1, NONE_RIGHT))
    outcome = ENGINE.outcome(state)
    assert outcome.winners == (0,) and outcome.reason == "solved"
