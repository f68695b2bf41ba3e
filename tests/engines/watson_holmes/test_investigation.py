"""The investigation phase: Watson's reading, private reading, symbols and grants, lockpicks, police."""

from __future__ import annotations

import json

from engines.core import Event
from engines.watson_holmes import ENGINE
from engines.watson_holmes.actions import DoneReading, TakeWatson, Visit, WatsonPass, WatsonRead
from engines.watson_holmes.content import TokenCounts
from tests.engines.watson_holmes.helpers import BANK_CASE, new_game, play, refused, set_player, with_rules


def _texts(tree: object) -> str:
    return json.dumps(tree, ensure_ascii=False)


def test_each_reader_sees_only_their_own_card() -> None:
    """Covers WH-06, WH-69, WH-05."""
    state, events = play(new_game(3), Visit(0, "1"), Visit(1, "3"), Visit(2, "5"))
    assert "은행 단서" in _texts(ENGINE.view(state, 0)) and "박물관 단서" not in _texts(ENGINE.view(state, 0))
    assert "박물관 단서" in _texts(ENGINE.view(state, 1)) and "은행 단서" not in _texts(ENGINE.view(state, 1))
    assert not any(s in _texts(ENGINE.view(state, None)) for s in ("은행 단서", "박물관 단서", "술집 단서"))
    reads = [e for e in events if e.kind == "card_read"]
    assert {tuple(e.to or ()) for e in reads} == {(0,), (1,), (2,)}
    # nobody saw any text before the investigation phase
    fresh = new_game(3)
    assert "단서" not in _texts([ENGINE.view(fresh, s) for s in (0, 1, 2, None)])


def test_notes_stay_with_the_reader_for_the_rest_of_the_game() -> None:
    """Covers WH-69."""
    state, _ = play(new_game(2), Visit(0, "1"), Visit(1, "3"), DoneReading(0), DoneReading(1))
    assert state.round == 2
    assert [n["number"] for n in ENGINE.view(state, 0)["me"]["notes"]] == [1]
    assert "은행 단서" not in _texts(ENGINE.view(state, 1))


def test_watson_has_another_players_card_read_to_the_table() -> None:
    """Covers WH-66, WH-67."""
    state, _ = play(new_game(4), TakeWatson(0), Visit(0, "cab"), Visit(1, "1"), Visit(2, "3"), Visit(3, "221b"))
    assert state.phase == "watson" and ENGINE.to_move(state) >= {0}
    legal = [a for a in ENGINE.legal_actions(state, 0) if isinstance(a, WatsonRead)]
    assert [a.target for a in legal] == [1]  # not the museum (no-Watson), not 221B, not the cab stop
    refused(state, WatsonRead(0, 2), "watson_target")
    refused(state, WatsonRead(0, 3), "watson_target")
    refused(state, WatsonRead(0, 0), "watson_target")
    read, events = play(state, WatsonRead(0, 1))
    public = [e for e in events if e.kind == "watson_reading"][0]
    assert public.to is None and public.data["number"] == 1
    assert "은행 단서" in _texts(ENGINE.view(read, None))  # the table hears it
    assert "은행 단서" in _texts(ENGINE.view(read, 3))
    assert read.phase == "investigate"
    passed, _ = play(state, WatsonPass(0))
    assert "은행 단서" not in _texts(ENGINE.view(passed, None))


def test_watson_with_no_possible_target_is_skipped() -> None:
    """Covers WH-67."""
    state, _ = play(new_game(2), TakeWatson(0), Visit(0, "1"), Visit(1, "3"))
    assert state.phase == "investigate"


def test_expert_variant_has_no_watson() -> None:
    """Covers WH-90."""
    state = new_game(2, expert=True)
    refused(state, TakeWatson(0), "watson_expert")
    refused(state, Visit(0, "cab", watson=True), "watson_expert")
    assert not any(isinstance(a, TakeWatson) for a in ENGINE.legal_actions(state, 0))
    assert ENGINE.view(state, None)["watson_available"] is False


def test_lockpick_is_discarded_to_read_a_watched_card_and_the_police_stays() -> None:
    """Covers WH-70, WH-25, WH-24."""
    state = set_player(new_game(2, with_rules(BANK_CASE, police_at_start=(1,))), 0, lockpick=1)
    supply = state.supply.lockpick
    state, events = play(state, Visit(0, "1"), Visit(1, "3"))
    assert state.players[0].lockpick == 0 and state.supply.lockpick == supply + 1
    assert 1 in state.police_on and "lockpick_used" in [e.kind for e in events]
    state, _ = play(state, DoneReading(0), DoneReading(1))
    assert 1 in state.police_on  # still watched next round


def test_scotland_yard_grants_police_and_withdraw_at_reading() -> None:
    """Covers WH-14, WH-15, WH-16, WH-21, WH-22, WH-18, WH-19."""
    state = set_player(new_game(2, with_rules(BANK_CASE, starting_police=False)), 0, withdraw=0)
    state, _ = play(state, Visit(0, "2"), Visit(1, "3"))
    assert state.players[0].police == 1 and state.players[0].withdraw == 1
    # WH-22 (reading A): the police token gained can be placed at once — but not on Scotland Yard? It may.
    placed, _ = play(state, DoneReading(0, police=True))
    assert 2 in placed.police_on and placed.players[0].police == 0
    # limits: holding one of each, a second visit grants nothing of those kinds
    again = set_player(new_game(2), 0, police=1, withdraw=1)
    supply = again.supply
    again, events = play(again, Visit(0, "2"), Visit(1, "3"))
    assert again.players[0].police == 1 and again.players[0].withdraw == 1
    assert (again.supply.police, again.supply.withdraw) == (supply.police, supply.withdraw)
    grants = [e.data for e in events if e.kind == "granted"]
    assert {g["kind"]: g["given"] for g in grants} == {"police": 0, "withdraw": 0}


def test_lockpick_and_carriage_symbols() -> None:
    """Covers WH-12, WH-13, WH-17, WH-20."""
    state, _ = play(new_game(2), Visit(0, "6"), Visit(1, "5"))
    assert state.players[0].lockpick == 1
    assert state.players[1].carriages == 12  # the pub's card gives 2 (a per-card number, WH-13)
    state, _ = play(state, DoneReading(0), DoneReading(1))
    assert state.turn == 1  # seat 1 placed last
    supply = state.supply.lockpick
    state, events = play(state, Visit(1, "3"), Visit(0, "6"))
    assert state.players[0].lockpick == 1 and state.supply.lockpick == supply  # not a second one
    assert [e.data["given"] for e in events if e.kind == "granted" and e.data["kind"] == "lockpick"] == [0]


def test_an_empty_supply_grants_nothing() -> None:
    """Covers WH-10, WH-32."""
    state = new_game(2, tokens=TokenCounts(carriages=20, police=2, withdraw=0, lockpick=0))
    assert state.supply.carriages == 0 and state.supply.police == 0
    state, events = play(state, Visit(0, "6"), Visit(1, "5"))
    assert state.players[0].lockpick == 0 and state.players[1].carriages == 10
    assert [e.data["given"] for e in events if e.kind == "granted"] == [0, 0]
    state, _ = play(state, DoneReading(0), DoneReading(1))
    cab, _ = play(state, Visit(state.turn, "cab"), Visit(1 - state.turn, "cab"))
    assert [p.carriages for p in cab.players] == [10, 10]


def test_police_goes_only_on_the_card_just_left_and_never_on_forbidden_cards() -> None:
    """Covers WH-73, WH-74."""
    state, _ = play(new_game(4), Visit(0, "1"), Visit(1, "3"), Visit(2, "cab"), Visit(3, "221b"))
    legal0 = ENGINE.legal_actions(state, 0)
    assert DoneReading(0, police=True) in legal0
    assert DoneReading(1, police=True) not in ENGINE.legal_actions(state, 1)  # museum: no-police symbol
    refused(state, DoneReading(1, police=True), "police_here")
    refused(state, DoneReading(2), "not_your_turn")  # the cab stop has nothing to read
    state, events = play(state, DoneReading(0, police=True))
    assert state.police_on == {1} and state.players[0].police == 0
    watched = set_player(new_game(2, with_rules(BANK_CASE, police_at_start=(1,))), 0, lockpick=1)
    watched, _ = play(watched, Visit(0, "1"), Visit(1, "5"))
    refused(watched, DoneReading(0, police=True), "police_here")  # already has a police token
    nopolice = set_player(watched, 1, police=0)
    refused(nopolice, DoneReading(1, police=True), "no_police_token")


def test_cards_return_and_pieces_come_back_for_the_next_round() -> None:
    """Covers WH-72, WH-68."""
    state, _ = play(new_game(2), Visit(0, "1", 3), Visit(1, "3"))
    assert state.players[0].carriages == 7
    state, _ = play(state, DoneReading(0), DoneReading(1))
    assert state.placements == () and state.phase == "visit"
    view = ENGINE.view(state, None)
    assert all(loc["occupant"] is None for loc in view["locations"])
    assert state.players[0].carriages == 7  # spent carriages went to the supply


def test_zones_follow_the_last_card_read() -> None:
    """Covers WH-08."""
    state, _ = play(new_game(2), Visit(0, "7"), Visit(1, "1"))
    assert state.players[0].zone == 2 and state.players[1].zone == 1
    assert ENGINE.view(state, None)["players"][0]["zone"] == 2


def test_events_never_carry_an_unread_text_to_the_table() -> None:
    """Covers WH-06."""
    state, events = play(new_game(3), Visit(0, "1"), Visit(1, "3"), Visit(2, "5"))
    for e in events:
        if e.to is None:
            assert "단서" not in _texts(Event(e.kind, e.data).to_dict())
