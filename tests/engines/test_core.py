"""The shared engine pieces: clock, votes, serial round-trips, errors and action parsing."""

from __future__ import annotations

import dataclasses
import enum
import json
from collections.abc import Mapping
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core import IllegalActionError, RuleError, UnknownActionError, stamp
from engines.serial import SchemaError, from_jsonable, to_jsonable
from engines.timers import Clock
from engines.votes import NO, YES, Vote, VoteKind, decide
from tests.engines.reference import ENGINE, Take, TimeUp


# ---------------------------------------------------------------- clock
def test_clock_runs_pauses_resumes_and_keeps_remaining_time() -> None:
    c = Clock(480.0).start(1000.0)
    assert c.running and c.deadline == 1480.0
    assert c.remaining(1100.0) == 380.0
    c = c.pause(1100.0)
    assert not c.running and c.remaining(5000.0) == 380.0  # paused time does not run
    c = c.resume(6000.0)
    assert c.deadline == 6380.0
    assert not c.expired(6379.0) and c.expired(6380.0)


def test_clock_add_time_running_and_paused() -> None:
    c = Clock(60.0).start(0.0).add(30.0)
    assert c.remaining(0.0) == 90.0
    p = c.pause(10.0).add(-100.0)
    assert p.remaining(10.0) == 0.0


def test_clock_restores_deadline_after_json_roundtrip() -> None:
    c = Clock(480.0).start(1000.0).pause(1200.0).resume(1300.0)
    back = from_jsonable(Clock, json.loads(json.dumps(to_jsonable(c))))
    assert back == c and back.remaining(1400.0) == c.remaining(1400.0) == 180.0


@pytest.mark.parametrize("bad", ["pause_idle", "resume_running", "start_twice", "resume_idle"])
def test_clock_misuse_raises_rule_error_in_korean(bad: str) -> None:
    idle = Clock(10.0)
    with pytest.raises(IllegalActionError) as err:
        if bad == "pause_idle":
            idle.pause(0)
        elif bad == "resume_running":
            idle.start(0).resume(1)
        elif bad == "start_twice":
            idle.start(0).start(1)
        else:
            idle.resume(0)
    assert any("\uac00" <= ch <= "\ud7a3" for ch in err.value.ko)


@given(st.lists(st.tuples(st.sampled_from(["pause", "resume", "add"]), st.floats(0, 100)), max_size=20))
@settings(max_examples=200, deadline=None)
def test_clock_remaining_never_negative_and_pauses_freeze(ops: list[tuple[str, float]]) -> None:
    c, now = Clock(300.0).start(0.0), 0.0
    for op, x in ops:
        now += x
        try:
            if op == "pause":
                c = c.pause(now)
            elif op == "resume":
                c = c.resume(now)
            else:
                c = c.add(x - 50)
        except RuleError:
            pass
        assert c.remaining(now) >= 0.0
        if not c.running:
            assert c.remaining(now) == c.remaining(now + 1000)


# ---------------------------------------------------------------- votes
def test_unanimous_vote_excludes_the_accused_and_needs_everyone() -> None:
    v = Vote.yes_no(VoteKind.UNANIMOUS, eligible=(0, 1, 3))  # seat 2 accused, not eligible
    with pytest.raises(IllegalActionError) as err:
        v.cast(2, YES)
    assert err.value.code == "not_a_voter"
    v = v.cast(0, YES).cast(1, YES)
    assert not v.complete and v.waiting == {3}
    assert v.cast(3, YES).result().decided
    assert not v.cast(3, NO).result().decided


def test_vote_cannot_be_changed() -> None:
    v = Vote.yes_no(VoteKind.MAJORITY, eligible=(0, 1)).cast(0, YES)
    with pytest.raises(IllegalActionError) as err:
        v.cast(0, NO)
    assert err.value.code == "already_voted"


def test_plurality_tie_convicts_no_one() -> None:
    v = Vote.pointing(eligible=(0, 1, 2, 3), candidates=(0, 1, 2, 3))
    v = v.cast(0, 1).cast(1, 0).cast(2, 1).cast(3, 0)
    r = v.result()
    assert not r.decided and r.winner is None
    v2 = Vote.pointing(eligible=(0, 1, 2), candidates=(0, 1, 2)).cast(0, 2).cast(1, 2).cast(2, 0)
    assert v2.result().winner == 2


def test_majority_needs_more_for_than_against() -> None:
    assert decide(VoteKind.MAJORITY, {YES: 3, NO: 2}, 5).decided
    assert not decide(VoteKind.MAJORITY, {YES: 2, NO: 2}, 4).decided
    with pytest.raises(IllegalActionError):
        decide(VoteKind.MAJORITY, {YES: 3, NO: 3}, 5)


def test_sealed_vote_view_hides_ballots_but_shows_own() -> None:
    v = Vote.pointing(eligible=(0, 1, 2), candidates=(0, 1, 2), sealed=True).cast(0, 2).cast(1, 0)
    table = v.to_view(None)
    assert "ballots" not in table and table["voted"] == [0, 1]
    assert v.to_view(0)["my_ballot"] == 2 and "my_ballot" not in v.to_view(2)
    assert v.to_view(1)["my_ballot"] == 0
    opened = dataclasses.replace(v, sealed=False).to_view(None)
    assert opened["ballots"] == {"0": 2, "1": 0}


# ---------------------------------------------------------------- serial
class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Inner:
    colour: Colour
    tags: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Outer:
    name: str
    items: tuple[Inner, ...]
    scores: Mapping[int, int]
    maybe: int | None = None


def test_serial_roundtrip_of_nested_types() -> None:
    value = Outer("가", (Inner(Colour.RED, frozenset({"b", "a"})),), {3: 4, 1: 2}, None)
    data = json.loads(json.dumps(to_jsonable(value)))
    assert data["items"][0]["tags"] == ["a", "b"]
    assert from_jsonable(Outer, data) == value


def test_serial_errors_name_the_path() -> None:
    with pytest.raises(SchemaError) as err:
        from_jsonable(Outer, {"name": "x", "items": [{"colour": "green"}], "scores": {}})
    assert err.value.path == ("items", 0, "colour") and "green" in err.value.problem
    with pytest.raises(SchemaError) as err:
        from_jsonable(Outer, {"name": "x", "items": [], "scores": {"a": 1}})
    assert "whole number" in err.value.problem


# ---------------------------------------------------------------- actions and errors
def test_action_from_dict_rejects_unknown_and_malformed_actions_in_korean() -> None:
    with pytest.raises(UnknownActionError) as err:
        ENGINE.action_from_dict({"name": "fly", "seat": 0})
    assert err.value.code == "unknown_action" and err.value.params["name"] == "fly"
    assert "fly" not in err.value.ko and "fly" not in str(err.value)  # guests never see action codes
    with pytest.raises(UnknownActionError) as err:
        ENGINE.action_from_dict({"name": "take", "seat": "zero"})
    assert err.value.code == "bad_action"
    assert ENGINE.action_from_dict({"name": "take", "seat": 1, "n": 2}) == Take(1, 2)


def test_stamp_fills_only_missing_moments() -> None:
    assert stamp(Take(0, 1), 5.0) == Take(0, 1, at=5.0)
    assert stamp(TimeUp(-1, at=3.0), 5.0).at == 3.0


def test_describe_actions_lists_names_fields_and_docs() -> None:
    names = {a["name"]: a for a in ENGINE.describe_actions()}
    assert set(names) == {"roll", "take", "time_up"}
    assert names["take"]["fields"] == {"n": {"type": "int", "kind": "number", "lo": 1, "hi": 3},
                                       "at": {"type": "float", "kind": "moment"}}
    assert names["take"]["doc"].startswith("Take 1 to 3")
    assert (names["take"]["by"], names["time_up"]["by"], names["roll"]["by"]) == ("player", "table", "chance")


def test_apply_order_game_over_then_seat_then_legality() -> None:
    state = ENGINE.setup({"players": ["a", "b"], "pile": 1}, {}, 1)
    state = ENGINE.apply(state, ENGINE.sample_chance(state, __import__("random").Random(1))).state
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, Take(1, 9))  # wrong seat is reported before the illegal count
    assert err.value.code == "not_your_turn"
    state = ENGINE.apply(state, Take(0, 1, at=1.0)).state
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, Take(1, 9))
    assert err.value.code == "game_over"


def test_apply_checks_declared_values_after_the_seat_and_before_the_rules() -> None:
    """Parse, then apply: a count outside `number(1, 3)` is refused by its declaration (bad_value, naming the
    field), after the seat check and before the rules module sees it."""
    state = ENGINE.setup({"players": ["a", "b"], "pile": 5}, {}, 1)
    state = ENGINE.apply(state, ENGINE.sample_chance(state, __import__("random").Random(1))).state
    with pytest.raises(UnknownActionError) as err:
        ENGINE.apply(state, Take(0, 9))
    assert err.value.code == "bad_value" and err.value.params["field"] == "n" and "1부터 3까지" in err.value.ko
