"""The informant (spy): talking/silent, visits and alibi draws seen only by the drawer."""

from __future__ import annotations

import dataclasses

import pytest

from engines.core import TABLE, RuleError
from engines.mr_jack_ny import __doc__ as package_doc
from engines.mr_jack_ny.actions import CallWitness, EndTurn, Pick, UseAbility, VisitSpy
from tests.engines.conformance import HANGUL
from tests.engines.mr_jack_ny.helpers import ENGINE, PACK, D, J, act, as_json, finish_round, new_game, step, turn


def test_detective_visit_draws_an_alibi_only_he_sees() -> None:
    """Covers JACK-28: the drawer alone sees the card; the detective's own suspect list greys it out."""
    state = act(new_game(5), Pick(D, "swapper"))
    top = state.deck[0]
    out = step(state, VisitSpy(D))
    nxt = out.state
    assert nxt.deck == state.deck[1:] and len(nxt.deck) == 6
    mine = ENGINE.view(nxt, D)
    assert mine["my_alibis"] == [{"alibi": top, "round": 1}]
    assert top not in mine["my_suspects"]
    assert top in ENGINE.view(nxt, None)["suspects"]  # the shared screen does not grey it
    assert top not in as_json(ENGINE.view(nxt, J)["my_alibis"]) and "my_suspects" not in ENGINE.view(nxt, J)
    assert f'"alibi": "{top}"' not in as_json(ENGINE.view(nxt, None))
    private = [e for e in out.events if e.kind == "alibi_drawn"]
    assert len(private) == 1 and private[0].to == frozenset({D}) and private[0].data["alibi"] == top
    public = [e for e in out.events if e.to is None]
    assert public and all(top not in as_json(e.to_dict()["data"]) for e in public)
    assert ENGINE.view(nxt, None)["alibi_draws"] == [{"seat": D, "round": 1}]
    assert nxt.current is not None and nxt.current.spy_visit


def test_jack_visit_draws_an_alibi_the_detective_never_sees() -> None:
    """Covers JACK-28."""
    state = turn(new_game(5))
    state = act(state, Pick(J, state.remaining()[0]))
    top = state.deck[0]
    nxt = act(state, VisitSpy(J))
    assert ENGINE.view(nxt, J)["my_alibis"] == [{"alibi": top, "round": 1}]
    assert ENGINE.view(nxt, D)["my_alibis"] == []
    assert top in ENGINE.view(nxt, D)["my_suspects"]


def test_a_visit_silences_the_spy_and_a_silent_spy_cannot_be_visited() -> None:
    """Covers JACK-29, JACK-31 (decision A: one visit per round)."""
    assert "JACK-31" in (package_doc or "")
    state = act(new_game(), Pick(D, "swapper"), VisitSpy(D))
    assert not state.spy_talking and ENGINE.view(state, None)["spy"] == "silent"
    assert VisitSpy(D) not in ENGINE.legal_actions(state, D)
    with pytest.raises(RuleError) as info:
        step(state, VisitSpy(D))
    assert info.value.code == "spy_silent" and HANGUL.search(info.value.ko)
    state = act(state, EndTurn(D), Pick(J, state.remaining()[0]))
    with pytest.raises(RuleError):
        step(state, VisitSpy(J))  # still silent for the rest of the round


def test_the_spy_talks_again_at_every_round_start() -> None:
    """Covers JACK-30."""
    state = act(new_game(), Pick(D, "swapper"), VisitSpy(D), EndTurn(D))
    for _ in range(3):
        state = turn(state)
    assert state.phase == "witness" and not state.spy_talking
    state = act(state, CallWitness(TABLE, frozenset()))
    assert state.spy_talking and ENGINE.view(state, None)["spy"] == "talking"
    state = act(state, Pick(J, state.remaining()[0]), VisitSpy(J))
    assert len(state.alibis) == 2


def test_no_visit_when_the_alibi_deck_is_empty() -> None:
    """Covers JACK-28: the drawer takes one of the cards left; none left, no draw."""
    state = act(new_game(), Pick(D, "swapper"))
    state = dataclasses.replace(state, deck=())
    assert VisitSpy(D) not in ENGINE.legal_actions(state, D)
    with pytest.raises(RuleError) as info:
        step(state, VisitSpy(D))
    assert info.value.code == "deck_empty"


def test_seven_draws_over_seven_rounds_exhaust_the_deck_without_jacks_card() -> None:
    """Covers JACK-28, JACK-30."""
    state = new_game(9)
    drawn = []
    for _ in range(7):
        seat = state.mover()
        state = act(state, Pick(seat, state.remaining()[0]), VisitSpy(seat))
        drawn.append(state.alibis[-1].card)
        state = finish_round(state)
    assert sorted(drawn) == sorted(c for c in state.roster if c != state.jack)
    assert state.deck == () and state.round == 8


def test_the_swapper_may_move_the_spy() -> None:
    """Covers JACK-32, JACK-33: the spy is a piece the swapper may exchange (the table places it on an empty
    street, subway, harbour, garden or Liberty Island space)."""
    state = act(new_game(), Pick(D, "swapper"), UseAbility(D, target="spy", other="beach"))
    assert state.current is not None and (state.current.target, state.current.other) == ("spy", "beach")
    assert "JACK-32" in {r.id for r in PACK["table"].reminders}
