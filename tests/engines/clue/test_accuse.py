"""Accusations: once per game, any room, right wins, wrong is out but still disproves."""

from __future__ import annotations

import pytest

from engines.clue import ENGINE
from engines.clue.actions import Accuse, DieRoll, EndTurn, RollDie, Show, StayOut, Suggest
from engines.core import CHANCE, RuleError
from tests.engines.clue.helpers import ENVELOPE, HANDS4, do, enter, events, game


def fixed():  # type: ignore[no-untyped-def]
    return game(4, hands=HANDS4, envelope=ENVELOPE)


def test_accuse_any_room_on_your_turn_right_wins_and_cards_shown() -> None:
    """Covers CLUE-47, CLUE-48, CLUE-51, CLUE-01: from the corridors (no room) the player accuses
    (plum, rope, study) → wins; the envelope is shown to everyone."""
    state = do(fixed(), RollDie(0), DieRoll(CHANCE, 2), StayOut(0))
    state, ev = events(state, Accuse(0, "plum", "rope", "study"))
    out = ENGINE.outcome(state)
    assert out is not None and out.winners == (0,) and out.reason == "accusation"
    assert ev[-1].kind == "accusation_right" and ev[-1].to is None
    assert ev[-1].data["cards"] == ["plum", "rope", "study"]
    for seat in (None, 1, 2, 3):
        assert ENGINE.view(state, seat)["envelope"] == ["plum", "rope", "study"]


def test_wrong_accusation_is_out_sees_envelope_privately() -> None:
    """Covers CLUE-52, CLUE-53, CLUE-47: a wrong accuser looks in the envelope alone (only their view
    shows it), takes no more turns and cannot win."""
    state, ev = events(fixed(), Accuse(0, "plum", "knife", "study"))
    assert 0 in state.eliminated and ENGINE.outcome(state) is None
    seen = [e for e in ev if e.kind == "envelope_seen"]
    assert seen and seen[0].to == frozenset({0})
    assert ENGINE.view(state, 0)["envelope"] == list(ENVELOPE)
    for seat in (None, 1, 2, 3):
        assert "envelope" not in ENGINE.view(state, seat)
    assert state.turn == 1
    for seat in (1, 2, 3):
        state = do(state, RollDie(seat), DieRoll(CHANCE, 2), StayOut(seat), EndTurn(seat))
    assert state.turn == 1, "seat 0 is skipped"


def test_only_one_accusation_per_game() -> None:
    """Covers CLUE-49: after accusing, that seat's accusation is no longer offered, and refused."""
    state = do(fixed(), Accuse(0, "plum", "knife", "study"))
    from dataclasses import replace
    back = replace(state, turn=0, phase="start")
    assert not any(isinstance(a, Accuse) for a in ENGINE.legal_actions(back, 0))
    with pytest.raises(RuleError) as err:
        ENGINE.apply(back, Accuse(0, "plum", "rope", "study"))
    assert err.value.code == "already_accused" and "한 번" in err.value.ko


def test_wrong_accuser_still_disproves_and_can_be_moved() -> None:
    """Covers CLUE-54, CLUE-55: seat 1 accused wrongly; when seat 2 suggests (mustard, …), seat 3 passes
    around to seat 0, … and seat 1 must still show; Mustard's token is pulled into the room."""
    state = do(fixed(), RollDie(0), DieRoll(CHANCE, 2), StayOut(0), EndTurn(0))
    state = do(state, Accuse(1, "plum", "knife", "study"))
    assert state.turn == 2
    state = do(enter(state, "billiard_room"), Suggest(2, "mustard", "rope"))
    assert state.history[-1].passed == (3, 0) and state.asking == 1
    assert ENGINE.view(state, None)["tokens"]["mustard"] == "billiard_room"
    state = do(state, Show(1, "mustard"))
    assert state.history[-1].shown_by == 1


def test_wrong_accuser_in_the_corridor_is_told_to_clear_the_door() -> None:
    """Covers CLUE-56: a wrong accuser whose token is in the corridors gets a prompt to move it into the
    room it may block (the board is at the table); one already in a room gets none."""
    state = do(fixed(), RollDie(0), DieRoll(CHANCE, 2), StayOut(0))
    _, ev = events(state, Accuse(0, "plum", "knife", "study"))
    assert any(e.kind == "clear_the_door" for e in ev)
    in_room = enter(fixed(), "hall")
    _, ev = events(in_room, Accuse(0, "plum", "knife", "study"))
    assert not any(e.kind == "clear_the_door" for e in ev)


def test_everyone_wrong_means_nobody_wins_and_envelope_revealed() -> None:
    """Covers CLUE-57 (AMBIGUOUS, reading A): when every player has accused wrongly the game ends with
    no winner and the envelope is shown to all — even the last player standing does not win."""
    state = fixed()
    for seat in range(4):
        assert state.turn == seat
        state = do(state, Accuse(seat, "white", "knife", "hall"))
    out = ENGINE.outcome(state)
    assert out is not None and out.winners == () and out.reason == "everyone_out"
    assert ENGINE.view(state, None)["envelope"] == list(ENVELOPE)
