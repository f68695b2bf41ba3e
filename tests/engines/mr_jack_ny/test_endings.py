"""Endings: arrest (right / wrong), escape (and refused claims), eight rounds without arrest.
Each is a full scripted game from set-up."""

from __future__ import annotations

import pytest

from engines.core import CHANCE, TABLE, RuleError
from engines.mr_jack_ny import __doc__ as package_doc
from engines.mr_jack_ny.actions import Arrest, CallWitness, EndTurn, Escape, Pick, Shuffle, UseAbility, VisitSpy
from tests.engines.mr_jack_ny.helpers import CONFIG, ENGINE, PACK, D, J, act, as_json, finish_round, others, step, turn


def start(seed: int):  # type: ignore[no-untyped-def]
    state = ENGINE.setup(CONFIG, PACK, seed)
    jack = state.jack
    rest = [c for c in state.roster if c != jack]
    # Jack's character is offered in round 1 (third card), the rest around it.
    order = (rest[0], rest[1], jack, rest[2], *rest[3:])
    return act(state, Shuffle(CHANCE, order)), jack, rest


def test_full_game_detective_arrests_jack_and_wins() -> None:
    """Covers JACK-47, JACK-48, JACK-03: a scripted game to the right arrest."""
    state, jack, rest = start(101)
    state = act(state, Pick(D, rest[0]), VisitSpy(D), EndTurn(D))  # detective draws an alibi
    state = turn(state, rest[1])
    state = turn(state, jack)
    state = turn(state, rest[2])
    state = act(state, CallWitness(TABLE, frozenset({jack, rest[0], rest[1]})))  # Jack seen
    assert state.round == 2 and state.witness_lit
    assert set(ENGINE.view(state, D)["suspects"]) == {jack, rest[0], rest[1]}
    # Round 2: J → D → D → J
    state = turn(state)
    seat = state.mover()
    assert seat == D
    mover = state.remaining()[0]
    state = act(state, Pick(D, mover))
    suspect = jack if mover != jack else rest[0]
    out = step(state, Arrest(D, suspect))
    end = ENGINE.outcome(out.state)
    assert end is not None and end.winners == (D,) and end.reason == "arrest_right"
    assert end.detail["jack"] == jack
    revealed = ENGINE.view(out.state, D)
    assert revealed["jack"] == jack and revealed["winner"] == "detective"
    assert ENGINE.view(out.state, None)["jack"] == jack  # the winner screen reveals Jack
    assert {"kind": "jack_revealed", "data": {"jack": jack}, "to": None} in [e.to_dict() for e in out.events]
    with pytest.raises(RuleError) as info:
        step(out.state, EndTurn(D))
    assert info.value.code == "game_over"


def test_full_game_wrong_arrest_gives_jack_the_win() -> None:
    """Covers JACK-47, JACK-48."""
    state, jack, rest = start(202)
    state = act(state, Pick(D, rest[0]))
    out = step(state, Arrest(D, rest[1]))
    end = ENGINE.outcome(out.state)
    assert end is not None and end.winners == (J,) and end.reason == "arrest_wrong"
    assert [e.data for e in out.events if e.kind == "arrest"] == [{"suspect": rest[1], "right": False}]


def test_arrest_only_by_the_detective_on_his_turn_and_not_of_the_mover_itself() -> None:
    """Covers JACK-47."""
    state, jack, rest = start(303)
    state = act(state, Pick(D, rest[0]))
    with pytest.raises(RuleError) as info:
        step(state, Arrest(D, rest[0]))
    assert info.value.code == "arrest_self"
    with pytest.raises(RuleError) as info:
        step(state, Arrest(D, "nobody"))
    assert info.value.code == "bad_value"  # not a character: its declaration refuses it
    state = act(state, EndTurn(D), Pick(J, state.remaining()[0]))
    with pytest.raises(RuleError) as info:
        step(state, Arrest(J, rest[2]))
    assert info.value.code == "detective_only"
    assert not any(isinstance(a, Arrest) for a in ENGINE.legal_actions(state, J))
    with pytest.raises(RuleError) as info:
        step(state, Arrest(D, rest[2]))
    assert info.value.code == "not_your_turn"


def test_full_game_jack_escapes_while_unseen() -> None:
    """Covers JACK-45, JACK-46 (decision: on Jack's turn, the culprit he played, witness card dark)."""
    assert "JACK-46" in (package_doc or "")
    state, jack, rest = start(404)
    state = finish_round(state, visible=rest[:3])  # round 1: Jack unseen → card dark
    assert not state.witness_lit
    # Round 2 (J first) offers the other four; make Jack's card available in round 3 instead.
    state = finish_round(state, visible=rest[:1], order=(rest[3], jack, rest[4], rest[5], *rest[:3], rest[6]))
    assert state.round == 3 and not state.witness_lit and jack in state.remaining()
    state = turn(state, rest[3])  # D
    state = act(state, Pick(J, jack))
    assert Escape(J) in ENGINE.legal_actions(state, J)
    out = step(state, Escape(J))
    end = ENGINE.outcome(out.state)
    assert end is not None and end.winners == (J,) and end.reason == "escape"
    assert ENGINE.view(out.state, D)["jack"] == jack


def claim_refused(state) -> RuleError:  # type: ignore[no-untyped-def]
    before = ENGINE.state_to_dict(state)
    with pytest.raises(RuleError) as info:
        ENGINE.apply(state, Escape(J))
    assert ENGINE.state_to_dict(state) == before
    return info.value


def test_false_escape_claims_are_refused_without_saying_why() -> None:
    """Covers JACK-45, JACK-46: wrong character, lit witness card, Monk-moved culprit: one answer."""
    state, jack, rest = start(505)
    state = turn(state, rest[0])
    lit = act(state, Pick(J, jack))  # Jack's own card but the witness card is still lit (round 1)
    wrong = act(state, Pick(J, rest[1]))  # not the culprit
    errors = [claim_refused(lit), claim_refused(wrong)]
    dark = finish_round(state, visible=rest[:2])
    assert not dark.witness_lit
    other = act(dark, Pick(J, dark.remaining()[0]))  # card dark, but not the culprit's card
    assert other.current is not None and other.current.character != jack
    errors.append(claim_refused(other))
    for err in errors:
        assert err.code == "escape_refused"
        assert err.ko == "지금은 탈출할 수 없어요." and err.en == "Escape is not possible."
        assert jack not in str(err) and "witness" not in err.en.lower() and "목격" not in err.ko
    assert len({(e.code, e.ko, e.en) for e in errors}) == 1
    assert Escape(J) not in ENGINE.legal_actions(lit, J) and Escape(J) not in ENGINE.legal_actions(wrong, J)


def test_escape_refused_when_monk_eastman_moved_the_culprit() -> None:
    """Covers JACK-46, JACK-42: only the culprit moving by its own card escapes."""
    seed = next(s for s in range(500) if ENGINE.setup(CONFIG, PACK, s).jack == "eastman")
    state = ENGINE.setup(CONFIG, PACK, seed)
    order = ("beach", "eastman", "grant", "smith", "latimer", "callahan", "swapper", "cloud_rider")
    state = act(state, Shuffle(CHANCE, order))
    state = finish_round(state, visible=("beach",), order=order)  # Jack (Monk) unseen → dark
    state = finish_round(state, order=order)
    state = turn(state, "beach")
    state = act(state, Pick(J, "eastman"))
    assert Escape(J) in ENGINE.legal_actions(state, J)
    moved = act(state, UseAbility(J, target="grant"))
    err = claim_refused(moved)
    assert err.code == "escape_refused"


def test_detective_cannot_claim_an_escape() -> None:
    """Covers JACK-46."""
    state, jack, rest = start(606)
    state = act(state, Pick(D, rest[0]))
    with pytest.raises(RuleError) as info:
        step(state, Escape(D))
    assert info.value.code == "jack_only"


def test_full_game_eight_rounds_without_arrest_jack_wins() -> None:
    """Covers JACK-49, JACK-18: the last turn of round 8 ends the game."""
    state, jack, rest = start(707)
    for round_no in range(1, 8):
        assert state.round == round_no
        state = finish_round(state, visible=rest[:1])
        assert ENGINE.outcome(state) is None
    assert state.round == 8
    for _ in range(3):
        state = turn(state)
    assert ENGINE.outcome(state) is None
    assert state.phase == "pick" and state.turn == 3
    out = step(act(state, Pick(J, state.remaining()[0])), EndTurn(J))
    end = ENGINE.outcome(out.state)
    assert end is not None and end.winners == (J,) and end.reason == "rounds_over"
    assert out.state.round == 8 and len(out.state.plays) == 32
    assert len(out.state.calls) == 7  # no witness call after the last round
    assert ENGINE.to_move(out.state) == frozenset()
    assert ENGINE.view(out.state, None)["jack"] == jack and ENGINE.view(out.state, None)["winner"] == "jack"
    assert jack in as_json([e.to_dict() for e in out.events])


def test_detective_view_never_shows_jack_before_the_end() -> None:
    """Covers JACK-09, JACK-48: identity hidden all game, revealed at the end to everyone."""
    state, jack, rest = start(808)
    for _ in range(3):
        for seat in (D, None):
            assert f'"jack": "{jack}"' not in as_json(ENGINE.view(state, seat))
        state = finish_round(state, visible=others(state)[:2])
    assert ENGINE.view(state, J)["jack"] == jack
