"""Turns: moving by die or secret passage, entering rooms, and the suggestion rules."""

from __future__ import annotations

from dataclasses import replace

import pytest

from engines.clue import ENGINE
from engines.clue.actions import DieRoll, EndTurn, EnterRoom, RollDie, StayOut, Suggest, Trapped, UsePassage
from engines.core import CHANCE, RuleError
from tests.engines.clue.helpers import ENVELOPE, HANDS4, do, enter, events, game


def fixed() -> object:
    return game(4, hands=HANDS4, envelope=ENVELOPE)


def refuse(state: object, action: object, code: str) -> None:
    before = ENGINE.state_to_dict(state)
    with pytest.raises(RuleError) as err:
        ENGINE.apply(state, action)  # type: ignore[arg-type]
    assert err.value.code == code and err.value.ko
    assert ENGINE.state_to_dict(state) == before


def finish_refute(state):  # type: ignore[no-untyped-def]
    while state.phase == "refute":
        state = do(state, ENGINE.legal_actions(state, state.asking)[0])
    return state


def test_a_turn_must_move_by_die_or_passage() -> None:
    """Covers CLUE-18, CLUE-29: at the start of a turn the player rolls (or takes a passage); ending the
    turn or suggesting in place is refused."""
    state = fixed()
    names = {a.NAME for a in ENGINE.legal_actions(state, 0)}
    assert "roll_die" in names and "end_turn" not in names and "suggest" not in names
    refuse(state, EndTurn(0), "wrong_phase")
    # in a room at the start of a later turn, not moved by anyone: still must move
    state = do(enter(state, "hall"), EndTurn(0))
    for seat in (1, 2, 3):
        state = do(state, RollDie(seat), DieRoll(CHANCE, 2), StayOut(seat), EndTurn(seat))
    assert state.turn == 0 and state.token_of(0) == "hall"
    refuse(state, Suggest(0, "plum", "rope"), "must_move")


def test_die_is_a_chance_step_one_to_six() -> None:
    """Covers CLUE-19: the kiosk rolls the die (chance seat), 1–6; counting squares stays at the table."""
    state = do(fixed(), RollDie(0))
    assert ENGINE.to_move(state) == frozenset({CHANCE})
    assert [a.value for a in ENGINE.legal_actions(state, CHANCE)] == [1, 2, 3, 4, 5, 6]
    refuse(state, DieRoll(CHANCE, 7), "bad_die")
    state, ev = events(state, DieRoll(CHANCE, 5))
    assert state.die == 5 and ev[0].data["value"] == 5


def test_squares_doors_and_blocking_stay_at_the_table() -> None:
    """Covers CLUE-06 (AMBIGUOUS, reading B), CLUE-20, CLUE-21, CLUE-22, CLUE-24, CLUE-25: the engine
    models rooms only — after any roll the player says which room they reached (any room but the one
    they left), or that they stayed in the corridors; squares, diagonals and blocked doors are checked
    by the players at the table."""
    state = do(fixed(), RollDie(0), DieRoll(CHANCE, 1))
    rooms = {a.room for a in ENGINE.legal_actions(state, 0) if isinstance(a, EnterRoom)}
    assert len(rooms) == 9
    assert any(isinstance(a, StayOut) for a in ENGINE.legal_actions(state, 0))
    assert do(state, StayOut(0)).token_of(0) == ""


def test_secret_passage_moves_to_the_opposite_corner() -> None:
    """Covers CLUE-23: starting a turn in a corner room, the player may take the passage instead of
    rolling; from a room without a passage it is refused."""
    state = do(enter(fixed(), "kitchen"), EndTurn(0))
    for seat in (1, 2, 3):
        state = do(state, RollDie(seat), DieRoll(CHANCE, 2), StayOut(seat), EndTurn(seat))
    assert any(isinstance(a, UsePassage) for a in ENGINE.legal_actions(state, 0))
    state, ev = events(state, UsePassage(0))
    assert state.token_of(0) == "study" and state.phase == "in_room" and ev[0].data["from"] == "kitchen"
    hall = do(enter(fixed(), "hall"), EndTurn(0))
    for seat in (1, 2, 3):
        hall = do(hall, RollDie(seat), DieRoll(CHANCE, 2), StayOut(seat), EndTurn(seat))
    refuse(hall, UsePassage(0), "no_passage")


def test_entering_a_room_ends_the_move_and_allows_a_suggestion() -> None:
    """Covers CLUE-26, CLUE-30: entering stops the move (no second room this turn); the player may
    then suggest about that room."""
    state = enter(fixed(), "lounge", die=6)
    assert state.phase == "in_room" and state.token_of(0) == "lounge"
    refuse(state, EnterRoom(0, "hall"), "wrong_phase")
    assert any(isinstance(a, Suggest) for a in ENGINE.legal_actions(state, 0))


def test_cannot_reenter_the_room_left_this_turn() -> None:
    """Covers CLUE-27: a player who starts the turn in a room may not come back into it this turn."""
    state = do(enter(fixed(), "hall"), EndTurn(0))
    for seat in (1, 2, 3):
        state = do(state, RollDie(seat), DieRoll(CHANCE, 2), StayOut(seat), EndTurn(seat))
    state = do(state, RollDie(0), DieRoll(CHANCE, 3))
    refuse(state, EnterRoom(0, "hall"), "same_room")
    assert do(state, EnterRoom(0, "lounge")).token_of(0) == "lounge"


def test_trapped_player_waits_in_the_room() -> None:
    """Covers CLUE-28: a player whose doors are all blocked stays in the room, makes no suggestion, and
    the turn passes; from the corridors "trapped" is refused."""
    state = do(enter(fixed(), "hall"), EndTurn(0))
    refuse(state, Trapped(1), "not_trapped")
    for seat in (1, 2, 3):
        state = do(state, RollDie(seat), DieRoll(CHANCE, 2), StayOut(seat), EndTurn(seat))
    state = do(state, Trapped(0))
    assert state.turn == 1 and state.token_of(0) == "hall" and len(state.history) == 0


def test_scarlet_in_the_lounge_example() -> None:
    """Covers CLUE-31, CLUE-34: Scarlet enters the Lounge, moves Mr. Green and the wrench there and
    suggests (Green, wrench, Lounge)."""
    state = enter(fixed(), "lounge")
    state, ev = events(state, Suggest(0, "green", "wrench"))
    rec = state.history[-1]
    assert rec.named == ("green", "wrench", "lounge")
    assert ENGINE.view(state, None)["tokens"]["green"] == "lounge"
    assert ENGINE.view(state, None)["weapons"]["wrench"] == "lounge"
    assert ev[0].kind == "suggested" and ev[0].data["room"] == "lounge"


def test_suggestion_room_is_always_the_tokens_room() -> None:
    """Covers CLUE-32: the suggestion carries no room — it is the room the suggester's token is in."""
    state = enter(fixed(), "library")
    state = do(state, Suggest(0, "plum", "rope"))
    assert state.history[-1].room == "library"
    assert "room" not in Suggest.__dataclass_fields__


def test_any_suspect_may_be_named_including_unused_and_own() -> None:
    """Covers CLUE-33, CLUE-37: with 4 players Plum (unused) and Scarlet (own token) may be named, and
    cards from one's own hand too."""
    state = enter(fixed(), "kitchen")
    legal = {(a.suspect, a.weapon) for a in ENGINE.legal_actions(state, 0) if isinstance(a, Suggest)}
    assert ("plum", "rope") in legal and ("scarlet", "knife") in legal  # own cards
    state = do(state, Suggest(0, "scarlet", "knife"))
    assert state.token_of(0) == "kitchen"


def test_one_suggestion_per_room_entry() -> None:
    """Covers CLUE-35: after suggesting, a second suggestion in the same entry is refused; next turn the
    player must leave and enter a room again."""
    state = finish_refute(do(enter(fixed(), "hall"), Suggest(0, "plum", "rope")))
    assert state.phase == "after"
    refuse(state, Suggest(0, "white", "knife"), "wrong_phase")


def test_suspects_and_weapons_already_in_the_room_and_no_limit() -> None:
    """Covers CLUE-36, CLUE-38: naming a suspect/weapon already there leaves it there; any number of
    tokens and weapons may share a room."""
    state = game(4, hands=HANDS4, envelope=ENVELOPE)
    state = replace(state, weapons=tuple(r if r != "hall" else "study" for r in state.weapons))  # none in the hall
    state = finish_refute(do(enter(state, "hall"), Suggest(0, "plum", "rope")))
    state = do(state, EndTurn(0), RollDie(1), DieRoll(CHANCE, 4), EnterRoom(1, "hall"))
    state = finish_refute(do(state, Suggest(1, "plum", "rope")))
    view = ENGINE.view(state, None)
    assert view["tokens"]["plum"] == "hall" and view["weapons"]["rope"] == "hall"
    state = do(state, EndTurn(1), RollDie(2), DieRoll(CHANCE, 4), EnterRoom(2, "hall"))
    state = finish_refute(do(state, Suggest(2, "green", "knife")))
    view = ENGINE.view(state, None)
    in_hall = [s for s, r in view["tokens"].items() if r == "hall"]
    assert sorted(in_hall) == ["green", "mustard", "plum", "scarlet", "white"]
    assert sorted(w for w, r in view["weapons"].items() if r == "hall") == ["knife", "rope"]


def test_token_moved_by_a_suggestion_may_suggest_there_next_turn() -> None:
    """Covers CLUE-39: Mustard (seat 1) is pulled into the study by seat 0's suggestion; on their next
    turn they may suggest there without rolling — or leave normally."""
    state = finish_refute(do(enter(fixed(), "study"), Suggest(0, "mustard", "rope")))
    state = do(state, EndTurn(0))
    assert state.turn == 1 and state.token_of(1) == "study"
    state_before_suggest = state
    legal = ENGINE.legal_actions(state, 1)
    assert any(isinstance(a, Suggest) for a in legal) and any(isinstance(a, RollDie) for a in legal)
    after = do(state, Suggest(1, "plum", "knife"))
    assert after.history[-1].room == "study" and after.die == 0
    # the right lapses once that turn is over
    state = finish_refute(after)
    state = do(state, EndTurn(1))
    assert "mustard" not in state.moved
    # leaving normally is also allowed (but not back into the study this turn)
    leave = do(state_before_suggest, RollDie(1), DieRoll(CHANCE, 3))
    refuse(leave, EnterRoom(1, "study"), "same_room")
