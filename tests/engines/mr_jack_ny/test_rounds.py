"""Rounds, pick order and the character-card draft."""

from __future__ import annotations

import pytest

from engines.core import CHANCE, TABLE, RuleError
from engines.mr_jack_ny import __doc__ as package_doc
from engines.mr_jack_ny.actions import CallWitness, EndTurn, Pick, Shuffle, UseAbility
from tests.engines.mr_jack_ny.helpers import CONFIG, ENGINE, PACK, D, J, act, finish_round, new_game, step, turn

ORDER = ("beach", "smith", "grant", "eastman", "latimer", "callahan", "swapper", "cloud_rider")


def movers_of_round(state):  # type: ignore[no-untyped-def]
    seats = []
    for _ in range(4):
        seats.append(state.mover())
        assert ENGINE.to_move(state) == frozenset({state.mover()})
        state = turn(state)
    return seats, state


def test_round_track_colours_yellow_detective_black_jack() -> None:
    """Covers JACK-10."""
    track = ENGINE.view(new_game(), None)["track"]
    assert len(track) == 8
    assert track[0]["colours"] == ["yellow", "black", "black", "yellow"]
    assert track[1]["colours"] == ["black", "yellow", "yellow", "black"]
    assert track[0]["order"] == ["detective", "jack", "jack", "detective"]
    assert [r["done"] for r in track] == [False] * 8


def test_pick_order_by_round_parity() -> None:
    """Covers JACK-11, JACK-12 (decision A: odd/even ROUNDS, round 1 is D→J→J→D)."""
    assert "JACK-12" in (package_doc or "")
    state = new_game()
    for round_no in range(1, 9):
        assert state.round == round_no
        seats, state = movers_of_round(state)
        assert seats == ([D, J, J, D] if round_no % 2 else [J, D, D, J]), round_no
        if round_no < 8:
            state = finish_round(state)


def test_odd_rounds_reveal_the_first_four_even_rounds_the_other_four() -> None:
    """Covers JACK-13, JACK-14."""
    state = new_game(order=ORDER)
    assert ENGINE.view(state, None)["offer"] == list(ORDER[:4])
    state = finish_round(state)  # round 1 → round 2: no shuffle, the four not used in round 1
    assert state.round == 2 and state.phase == "pick"
    assert ENGINE.view(state, None)["offer"] == list(ORDER[4:])
    state = finish_round(state, order=None)  # round 2 → round 3
    assert state.round == 3
    state = finish_round(new_game(order=ORDER))
    for _ in range(4):
        state = turn(state)
    state = act(state, CallWitness(TABLE, frozenset()))
    assert state.round == 3 and state.phase == "shuffle"  # CHANCE shuffles all eight again
    assert ENGINE.to_move(state) == frozenset({CHANCE})
    state = act(state, Shuffle(CHANCE, tuple(reversed(ORDER))))
    assert ENGINE.view(state, None)["offer"] == list(reversed(ORDER))[:4]


def test_shuffle_must_hold_each_card_once() -> None:
    """Covers JACK-13."""
    state = ENGINE.setup(CONFIG, PACK, 7)
    for bad in (ORDER[:7], ORDER[:7] + ("beach",), ORDER + ("spy",)):
        with pytest.raises(RuleError) as info:
            step(state, Shuffle(CHANCE, bad))
        assert info.value.code == "bad_shuffle"


def test_each_turn_picks_one_remaining_card_the_last_turn_gets_the_last_card() -> None:
    """Covers JACK-15: either player may play any character on offer; taken cards leave the offer."""
    state = new_game(order=ORDER)
    assert [p.character for p in ENGINE.legal_actions(state, D)] == list(ORDER[:4])  # type: ignore[attr-defined]
    with pytest.raises(RuleError) as info:
        step(state, Pick(D, "latimer"))  # in the other half
    assert info.value.code == "not_offered" and "래티머" in info.value.ko
    state = turn(state, "grant")
    assert state.remaining() == ("beach", "smith", "eastman")
    with pytest.raises(RuleError):
        step(state, Pick(J, "grant"))  # already taken
    state = turn(turn(state, "smith"), "beach")
    assert [a.character for a in ENGINE.legal_actions(state, D)] == ["eastman"]  # type: ignore[attr-defined]
    state = act(state, Pick(D, "eastman"))
    assert [(p.seat, p.character) for p in state.plays] == [(D, "grant"), (J, "smith"), (J, "beach")]
    assert state.current is not None and state.current.character == "eastman"
    with pytest.raises(RuleError) as info:
        step(state, Pick(D, "beach"))
    assert info.value.code == "not_pick_time"


def test_round_end_advances_the_marker_and_the_game_has_eight_rounds() -> None:
    """Covers JACK-18."""
    state = new_game()
    for _ in range(3):
        state = turn(state)
    state = act(state, Pick(D, state.remaining()[0]))
    state = act(state, EndTurn(D))
    assert state.phase == "witness" and ENGINE.to_move(state) == frozenset({TABLE})
    with pytest.raises(RuleError) as info:
        step(state, Pick(J, "beach"))
    assert info.value.code in ("not_your_turn", "witness_time")
    state = act(state, CallWitness(TABLE, frozenset()))
    assert state.round == 2 and state.turn == 0
    assert ENGINE.view(state, None)["track"][0]["done"]
    for _ in range(6):
        state = finish_round(state)
    assert state.round == 8
    assert ENGINE.view(state, None)["rounds"] == 8


def test_rulebook_example_round_one() -> None:
    """Covers JACK-15, JACK-33, JACK-35, JACK-11: the rulebook's walk-through. The detective picks first and
    plays the swapper (swapping a neighbour, here the spy); Jack then plays the builder (Cloud Rider), who
    must place a new building before or after moving; Jack picks again, the detective takes the last card."""
    order = ("swapper", "cloud_rider", "beach", "smith", "latimer", "grant", "callahan", "eastman")
    state = new_game(order=order)
    state = act(state, Pick(D, "swapper"), UseAbility(D, target="spy", other="grant"), EndTurn(D))
    assert state.mover() == J
    state = act(state, Pick(J, "cloud_rider"), UseAbility(J), EndTurn(J))
    assert state.tiles.count("board", "building") == 1 and state.tiles.count("supply", "building") == 6
    state = turn(state, "smith")
    assert state.mover() == D and state.remaining() == ("beach",)
    state = turn(state, "beach")
    assert [(p.seat, p.character, p.ability_used) for p in state.plays] == [
        (D, "swapper", True), (J, "cloud_rider", True), (J, "smith", False), (D, "beach", False)]
    assert state.phase == "witness"
