"""Every quiz answer is right: checked against the real engines where the engine decides it."""

from __future__ import annotations

from typing import Any

import pytest

from engines import find_engine
from engines.core import TABLE, RuleError
from kiosk.teach.model import Question
from tests.packs import pack_for
from tests.teach.helpers import fresh_run, teaching


def quiz(game: str) -> tuple[Question, ...]:
    return teaching(game).teaching.quiz


def answer(game: str, n: int) -> str:
    q = quiz(game)[n]
    return q.options[q.answer].en


def wh_position(**patch: Any) -> Any:
    """The practice bank position (Suzy seat 0, Marco seat 1, police on the Bank) with player changes."""
    run = fresh_run("watson_holmes")
    data = run.state_dict()
    for key, value in patch.items():
        data["players"][0][key] = value
    return run.engine, run.engine.state_from_dict(data)


def act(engine: Any, state: Any, *raws: dict[str, Any]) -> Any:
    for raw in raws:
        state = engine.apply(state, engine.action_from_dict(raw)).state
    return state


def test_each_game_has_three_to_five_questions_with_a_rule() -> None:
    for game in ("watson_holmes", "spyfall", "clue", "mr_jack_ny"):
        rules = {r.id for r in teaching(game).rules.rules}
        assert 3 <= len(quiz(game)) <= 5
        assert all(q.rule in rules for q in quiz(game))


def test_watson_holmes_quiz() -> None:
    """Covers WH-47, WH-48, WH-55, WH-78."""
    engine, state = wh_position()
    # q1: against a walker, 1 carriage is enough
    s = act(engine, state, {"name": "visit", "seat": 0, "location": "1", "carriages": 0, "withdraw": True},
            {"name": "visit", "seat": 1, "location": "1", "carriages": 1})
    assert s.occupant("1").seat == 1 and answer("watson_holmes", 0) == "1"
    # q2: outbid after placing 3 → 2 come back
    s = act(engine, state, {"name": "visit", "seat": 0, "location": "1", "carriages": 3, "withdraw": True},
            {"name": "visit", "seat": 1, "location": "1", "carriages": 4})
    assert s.players[0].carriages == 10 - 3 + 2 and answer("watson_holmes", 1) == "2"
    # q3: a lockpick holder may visit a police-watched place; without tokens, nobody may
    engine, picker = wh_position(withdraw=0, lockpick=1)
    s = act(engine, picker, {"name": "visit", "seat": 0, "location": "1", "carriages": 1})
    assert s.occupant("1").seat == 0 and 1 in s.police_on
    engine, bare = wh_position(withdraw=0)
    with pytest.raises(RuleError):
        act(engine, bare, {"name": "visit", "seat": 0, "location": "1", "carriages": 4})
    assert answer("watson_holmes", 2) == "A lockpick holder"
    # q4: a person needs the full name
    from engines.watson_holmes.content import Question as CaseQuestion
    from engines.watson_holmes.content import Text, answer_is_right
    who = CaseQuestion(1, Text("범인은?"), person=True, accepted=("존 스미스", "John Smith"))
    assert answer_is_right(who, "존 스미스") and not answer_is_right(who, "정원사")
    assert answer("watson_holmes", 3).startswith("No")


def test_spyfall_quiz() -> None:
    """Covers SPY-16, SPY-38, SPY-44, SPY-66."""
    from tests.engines.spyfall.helpers import ANN, ISAAC, JUAN, MARIA, Table

    six = Table(players=["a", "b", "c", "d", "e", "f"])
    six.start()
    assert len(six.r.dealt) == 6 and answer("spyfall", 0).startswith("6")
    run = fresh_run("spyfall")
    run.choose(0)
    two_of_three = run.choose(1)
    assert [e.data["passed"] for e in two_of_three.events if e.kind == "vote_result"] == [False]
    assert answer("spyfall", 1).startswith("Nothing")
    tie = Table()
    tie.start()
    tie.time_up()
    tie.discuss_then_point()
    tie.vote_points({ANN: JUAN, JUAN: ANN, MARIA: ANN, ISAAC: JUAN})
    assert tie.points_of_round() == (2, 0, 0, 0) and answer("spyfall", 2) == "The Joker, 2 points"
    engine = find_engine("spyfall")
    with pytest.raises(RuleError):
        engine.setup({"players": ["a", "b", "c", "d"], "modules": ["harley"]}, pack_for("spyfall"), 1)
    engine.setup({"players": ["a", "b", "c", "d", "e"], "modules": ["harley"]}, pack_for("spyfall"), 1)
    assert answer("spyfall", 3) == "5"


def test_clue_quiz() -> None:
    """Covers CLUE-13, CLUE-32, CLUE-41, CLUE-53."""
    engine = find_engine("clue")
    state = engine.setup({"players": ["a", "b", "c", "d"], "mode": "digital", "set": "classic"}, pack_for("clue"), 1)
    assert sorted(state.hand_sizes) == [4, 4, 5, 5] and answer("clue", 0) == "Two get 5, two get 4"
    run = fresh_run("clue")
    run.choose(0)
    assert run.state.history[-1].room == "lounge" and answer("clue", 1) == "The room my token is in"
    run.choose(0)
    assert run.state.shown[-1].card == "lounge" and run.state.phase == "after"  # one card, then done
    assert answer("clue", 2) == "Show one of your choice, secretly"
    wrong = engine.apply(run.state, engine.action_from_dict(
        {"name": "accuse", "seat": 0, "suspect": "green", "weapon": "wrench", "room": "lounge"})).state
    assert 0 in wrong.eliminated and 0 not in engine.to_move(wrong)
    assert answer("clue", 3) == "no longer move, but still show cards"


def test_mr_jack_quiz() -> None:
    """Covers JACK-11, JACK-21, JACK-24, JACK-49."""
    from engines.mr_jack_ny.actions import CallWitness
    from tests.engines.mr_jack_ny.helpers import ENGINE, D, J, finish_round, new_game, others, turn

    state = new_game()
    movers = []
    for _ in range(4):
        movers.append(state.mover())
        state = turn(state)
    assert movers == [D, J, J, D] and answer("mr_jack_ny", 0) == "Detective, Jack, Jack, detective"
    assert "정원" in teaching("mr_jack_ny").rules.rules[[r.id for r in teaching("mr_jack_ny").rules.rules].index(
        "witness")].text.ko and answer("mr_jack_ny", 1) == "Not seen"
    seen = frozenset(others(state)[:3])
    after = ENGINE.apply(state, CallWitness(TABLE, seen)).state
    assert after.innocent == seen and answer("mr_jack_ny", 2) == "Every seen character"
    game = new_game()
    while ENGINE.outcome(game) is None:
        game = finish_round(game)
    outcome = ENGINE.outcome(game)
    assert outcome is not None and outcome.winners == (J,) and answer("mr_jack_ny", 3) == "Jack"
