"""Disproval: clockwise from the suggester's left, the first holder shows exactly one card, privately."""

from __future__ import annotations

import pytest

from engines.clue import ENGINE
from engines.clue.actions import Accuse, EndTurn, Show, Suggest
from engines.core import RuleError
from tests.engines.clue.helpers import ENVELOPE, HANDS4, do, enter, events, game

# HANDS4: seat 1 holds mustard, lead_pipe, conservatory, dining_room, lounge;
#         seat 2 holds white, wrench, billiard_room, library; seat 3 green, peacock, candlestick, revolver.


def fixed():  # type: ignore[no-untyped-def]
    return game(4, hands=HANDS4, envelope=ENVELOPE)


def test_disproval_starts_left_and_passers_are_recorded() -> None:
    """Covers CLUE-40, CLUE-42: seat 0 suggests (green, rope, hall): seat 1 holds none and passes,
    seat 2 holds none and passes, seat 3 (green) is asked."""
    state, ev = events(enter(fixed(), "hall"), Suggest(0, "green", "rope"))
    assert [e.kind for e in ev] == ["suggested", "passed", "passed"]
    assert state.history[-1].passed == (1, 2) and state.asking == 3
    assert ENGINE.to_move(state) == frozenset({3})


def test_first_holder_shows_exactly_one_named_card_they_hold() -> None:
    """Covers CLUE-41: seat 1 holds mustard and lead_pipe of (mustard, lead_pipe, lounge…) → may show
    either, exactly one, and nothing else."""
    state = do(enter(fixed(), "lounge"), Suggest(0, "mustard", "lead_pipe"))
    assert state.asking == 1
    shows = {a.card for a in ENGINE.legal_actions(state, 1)}
    assert shows == {"mustard", "lead_pipe", "lounge"}
    assert ENGINE.view(state, 1)["can_show"] == ["mustard", "lead_pipe", "lounge"]
    for bad, code in ((Show(1, "plum"), "not_named"), (Show(1, ""), "not_named")):
        with pytest.raises(RuleError) as err:
            ENGINE.apply(state, bad)
        assert err.value.code == code
    state = do(state, Show(1, "lead_pipe"))
    assert state.shown[-1].card == "lead_pipe" and state.phase == "after"


def test_shown_card_only_to_suggester_and_shower() -> None:
    """Covers CLUE-41, CLUE-45: the card is in the suggester's and the shower's private notes, in an event
    addressed to the two of them, and nowhere in the table view or other seats' views."""
    state = do(enter(fixed(), "lounge"), Suggest(0, "green", "wrench"))
    assert state.asking == 1
    state, ev = events(state, Show(1, "lounge"))
    private = [e for e in ev if e.kind == "card_shown"]
    assert private and private[0].to == frozenset({0, 1})
    public = [e for e in ev if e.to is None]
    assert all("lounge" not in str(e.data) for e in public)
    assert ENGINE.view(state, 0)["private_cards"][0]["shown_card"] == {"n": 1, "card": "lounge"}
    assert ENGINE.view(state, 1)["private_cards"][0]["by"] == 1
    for seat in (2, 3, None):
        assert "lounge" not in str(ENGINE.view(state, seat).get("private_cards", []))
    assert ENGINE.view(state, None)["suggestions"][0]["shown_by"] == 1


def test_disproval_stops_at_the_first_card_shown() -> None:
    """Covers CLUE-43, CLUE-44 (AMBIGUOUS, reading A): after seat 1 shows, seats 2 and 3 are not asked
    even though seat 2 holds the wrench and seat 3 green."""
    state = do(enter(fixed(), "lounge"), Suggest(0, "green", "wrench"), Show(1, "lounge"))
    rec = state.history[-1]
    assert rec.done and rec.shown_by == 1 and rec.passed == ()
    assert state.phase == "after" and ENGINE.to_move(state) == frozenset({0})


def test_nobody_can_disprove_then_end_or_accuse() -> None:
    """Covers CLUE-46, CLUE-50: when nobody holds any named card, the suggester may end the turn or
    accuse in the same turn."""
    state, ev = events(enter(fixed(), "study"), Suggest(0, "plum", "rope"))
    assert ev[-1].kind == "nobody_showed" and state.history[-1].shown_by == -1
    names = {a.NAME for a in ENGINE.legal_actions(state, 0)}
    assert names == {"end_turn", "accuse"}
    won = do(state, Accuse(0, "plum", "rope", "study"))
    assert ENGINE.outcome(won) is not None and ENGINE.outcome(won).winners == (0,)  # type: ignore[union-attr]
    assert do(state, EndTurn(0)).turn == 1
