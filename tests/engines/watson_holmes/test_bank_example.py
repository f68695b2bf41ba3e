"""The rulebook's worked example: Suzy and Marco at the Bank (steps 1-4)."""

from __future__ import annotations

from engines.watson_holmes import ENGINE
from engines.watson_holmes.actions import Visit
from tests.engines.watson_holmes.helpers import BANK_CASE, kinds, new_game, play, set_player, with_rules

SUZY, MARCO = 0, 1
BANK, YARD = "1", "2"


def _start():
    state = new_game(2, with_rules(BANK_CASE, police_at_start=(1,)))
    state = set_player(state, SUZY, withdraw=1)
    return state


def test_step1_suzy_withdraws_the_police_then_places_one_carriage() -> None:
    """Covers WH-105, WH-54, WH-23, WH-46."""
    state = _start()
    supply = state.supply
    assert 1 in state.police_on
    state, events = play(state, Visit(SUZY, BANK, 1, withdraw=True))
    assert 1 not in state.police_on
    assert state.supply.police == supply.police + 1 and state.supply.withdraw == supply.withdraw + 1
    assert state.players[SUZY].carriages == 9 and state.players[SUZY].withdraw == 0
    assert state.occupant(BANK).seat == SUZY and state.occupant(BANK).bid == 1
    assert kinds(events)[:2] == ["police_removed", "visited"]
    assert state.turn == MARCO


def test_step2_marco_outbids_with_two_and_suzy_loses_her_carriage() -> None:
    """Covers WH-106, WH-47, WH-48."""
    state, _ = play(_start(), Visit(SUZY, BANK, 1, withdraw=True))
    supply = state.supply.carriages
    state, events = play(state, Visit(MARCO, BANK, 2))
    assert state.players[SUZY].carriages == 9
    assert state.players[MARCO].carriages == 8
    assert state.occupant(BANK).seat == MARCO and state.occupant(BANK).bid == 2
    assert state.supply.carriages == supply + 1
    displaced = [e for e in events if e.kind == "displaced"][0]
    assert displaced.data["returned"] == 0 and displaced.data["to_supply"] == 1


def test_step3_suzy_bids_three_and_marco_gets_one_back() -> None:
    """Covers WH-107, WH-48, WH-49."""
    state, _ = play(_start(), Visit(SUZY, BANK, 1, withdraw=True), Visit(MARCO, BANK, 2))
    assert state.turn == SUZY  # her turn comes round again
    supply = state.supply.carriages
    state, _ = play(state, Visit(SUZY, BANK, 3))
    assert state.players[SUZY].carriages == 6 and state.occupant(BANK).bid == 3
    assert state.players[MARCO].carriages == 9
    assert state.supply.carriages == supply + 1
    assert state.turn == MARCO and state.placement_of(MARCO) is None


def test_step4_marco_walks_to_scotland_yard_and_the_phase_ends() -> None:
    """Covers WH-108, WH-52, WH-68."""
    state = _start()
    supply0 = state.supply.carriages
    state, _ = play(state, Visit(SUZY, BANK, 1, withdraw=True), Visit(MARCO, BANK, 2), Visit(SUZY, BANK, 3))
    assert state.supply.carriages == supply0 + 2  # two carriages went to the supply in the bidding
    state, events = play(state, Visit(MARCO, YARD, 0))
    assert state.placement_of(SUZY).location == BANK and state.placement_of(MARCO).location == YARD
    assert state.start_player == MARCO  # he placed last
    assert state.phase == "investigate"
    # after the investigation phase's return: Suzy 6, Marco 9; the Bank's 3 carriages are in the supply
    assert state.players[SUZY].carriages == 6 and state.players[MARCO].carriages == 9
    assert state.supply.carriages == supply0 + 2 + 3
    assert ENGINE.view(state, SUZY)["me"]["reading"] == 1
