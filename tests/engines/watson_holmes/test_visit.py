"""The visit phase: order, bidding, police, lockpicks, locks, Watson, the carriage stop and 221B."""

from __future__ import annotations

from engines.watson_holmes import ENGINE
from engines.watson_holmes.actions import DoneReading, TakeWatson, Visit
from tests.engines.watson_holmes.helpers import (
    BANK_CASE,
    new_game,
    play,
    refused,
    set_player,
    total_carriages,
    with_rules,
)


def _finish_reading(state):
    for seat in sorted(state.pending):
        state, _ = play(state, DoneReading(seat))
    return state


def test_a_round_is_a_visit_phase_then_an_investigation_phase_in_clockwise_order() -> None:
    """Covers WH-42, WH-43, WH-27, WH-51."""
    state = new_game(3, start_player=1)
    assert state.phase == "visit" and state.turn == 1
    assert ENGINE.to_move(state) == {1}
    state, _ = play(state, Visit(1, "1"))
    assert state.turn == 2
    state, _ = play(state, Visit(2, "3"))
    assert state.turn == 0
    refused(state, Visit(1, "5"), "not_your_turn")  # a placed player takes no further turn
    state, _ = play(state, Visit(0, "5"))
    assert state.phase == "investigate"
    assert state.start_player == 0  # WH-27/52: the start-player token went to whoever placed last


def test_a_new_round_starts_with_the_start_player_token_holder() -> None:
    """Covers WH-44, WH-52."""
    state = new_game(3, start_player=0)
    state, _ = play(state, Visit(0, "1"), Visit(1, "3"), Visit(2, "5"))
    state = _finish_reading(state)
    assert state.phase == "visit" and state.round == 2
    assert state.start_player == 2 and state.turn == 2


def test_empty_card_on_foot_or_by_carriage() -> None:
    """Covers WH-46."""
    state = new_game(2)
    walked, _ = play(state, Visit(0, "1", 0))
    assert walked.occupant("1").bid == 0 and walked.players[0].carriages == 10
    rode, _ = play(state, Visit(0, "1", 4))
    assert rode.occupant("1").bid == 4 and rode.players[0].carriages == 6
    refused(state, Visit(0, "1", -1), "bad_value")  # its declaration (number 0..99) refuses it before the rules


def test_outbidding_needs_more_carriages_and_one_beats_a_walker() -> None:
    """Covers WH-47, WH-50."""
    state, _ = play(new_game(3), Visit(0, "1", 0))
    refused(state, Visit(1, "1", 0), "must_outbid")
    beaten, events = play(state, Visit(1, "1", 1))
    assert beaten.occupant("1").seat == 1
    displaced = [e for e in events if e.kind == "displaced"][0].data
    assert displaced["returned"] == 0 and displaced["to_supply"] == 0  # a walker loses nothing
    state, _ = play(new_game(3), Visit(0, "1", 5))
    poor = set_player(state, 1, carriages=5)
    err = refused(poor, Visit(1, "1", 6), "not_enough_carriages")
    assert "6" in err.ko
    refused(poor, Visit(1, "1", 5), "must_outbid")
    moved, _ = play(poor, Visit(1, "3", 0))  # must go elsewhere
    assert moved.occupant("3").seat == 1


def test_displaced_player_waits_for_their_turn_to_come_round() -> None:
    """Covers WH-49, WH-51."""
    state, _ = play(new_game(3), Visit(0, "1", 1), Visit(1, "1", 2))
    assert state.turn == 2 and state.placement_of(0) is None
    state, _ = play(state, Visit(2, "3"))
    assert state.turn == 0
    state, _ = play(state, Visit(0, "5"))
    assert state.phase == "investigate"


def test_police_watched_card_needs_a_withdraw_or_a_lockpick() -> None:
    """Covers WH-53, WH-55, WH-24, WH-25."""
    state = new_game(2, with_rules(BANK_CASE, police_at_start=(1,)))
    refused(state, Visit(0, "1"), "policed")
    refused(state, Visit(0, "1", withdraw=True), "no_withdraw")
    picked = set_player(state, 0, lockpick=1)
    picked, _ = play(picked, Visit(0, "1", 2))  # normal placing, bidding included
    assert 1 in picked.police_on and picked.players[0].lockpick == 1  # discarded only later
    refused(picked, Visit(1, "1", 3), "policed")  # only the lockpick's holder gets in


def test_a_player_holding_both_may_use_either() -> None:
    """Covers WH-56, WH-54."""
    state = set_player(new_game(2, with_rules(BANK_CASE, police_at_start=(1,))), 0, lockpick=1, withdraw=1)
    withdrawn, _ = play(state, Visit(0, "1", 0, withdraw=True))
    assert 1 not in withdrawn.police_on and withdrawn.players[0].lockpick == 1
    picked, _ = play(state, Visit(0, "1", 0))
    assert 1 in picked.police_on and picked.players[0].withdraw == 1
    refused(new_game(2), Visit(0, "1", withdraw=True), "no_police_there")


def test_locked_card_needs_a_lockpick_even_with_a_withdraw() -> None:
    """Covers WH-57."""
    state = set_player(new_game(2), 0, withdraw=1)
    refused(state, Visit(0, "4"), "locked")
    picked, _ = play(set_player(state, 0, lockpick=1), Visit(0, "4"), Visit(1, "5"))
    assert picked.players[0].lockpick == 0  # discarded to read
    assert 4 in picked.players[0].notes


def test_watson_costs_four_once_a_round_before_or_after_placing() -> None:
    """Covers WH-58, WH-59, WH-62."""
    state = new_game(3)
    supply = state.supply.carriages
    before, _ = play(state, TakeWatson(0))
    assert before.watson == 0 and before.players[0].carriages == 6 and before.supply.carriages == supply + 4
    assert before.turn == 0  # still their turn: they now place
    refused(before, TakeWatson(0), "watson_taken")
    before, _ = play(before, Visit(0, "1"))
    refused(before, TakeWatson(1), "watson_taken")
    refused(before, Visit(1, "cab", watson=True), "watson_taken")
    after, _ = play(state, Visit(0, "cab", watson=True))  # after placing, even on the carriage stop
    assert after.watson == 0 and after.players[0].carriages == 6
    poor = set_player(state, 0, carriages=3)
    refused(poor, TakeWatson(0), "not_enough_carriages")
    refused(set_player(state, 0, carriages=5), Visit(0, "1", 2, watson=True), "not_enough_carriages")


def test_watson_is_available_again_next_round() -> None:
    """Covers WH-59."""
    state, _ = play(new_game(2), TakeWatson(0), Visit(0, "cab"), Visit(1, "cab"))
    assert state.phase == "visit" and state.round == 2 and state.watson == -1
    state, _ = play(state, TakeWatson(state.turn))
    assert state.watson >= 0


def test_carriage_stop_holds_anyone_without_bidding() -> None:
    """Covers WH-60, WH-61, WH-71."""
    state = new_game(3)
    refused(state, Visit(0, "cab", 1), "no_bidding")
    state, _ = play(state, Visit(0, "cab"), Visit(1, "cab"), Visit(2, "cab"))
    assert all(p.carriages == 13 for p in state.players)  # +3 each at the end of the phase
    assert state.phase == "visit" and state.round == 2


def test_221b_holds_many_players_who_announce_their_carriages() -> None:
    """Covers WH-63, WH-64, WH-65."""
    state = new_game(3)
    state = set_player(state, 1, carriages=7)
    refused(state, Visit(0, "221b", 2), "no_bidding")
    state, events = play(state, Visit(0, "221b"), Visit(1, "221b"), Visit(2, "1"))
    assert state.announced == ((0, 10), (1, 7))
    assert [e.data for e in events if e.kind == "announced"] == [{"seat": 0, "carriages": 10},
                                                                   {"seat": 1, "carriages": 7}]
    assert state.phase == "investigate"
    state, _ = play(state, DoneReading(2))
    assert state.phase == "solve" and state.pending == {0, 1}  # placing on 221B is a committed attempt


def test_unknown_location_is_refused_in_korean() -> None:
    """Covers WH-29, WH-05."""
    state = new_game(2)
    err = refused(state, Visit(0, "42"), "no_such_location")
    assert "42" in err.ko and "42" in err.en
    refused(state, Visit(0, "bank"), "no_such_location")


def test_carriages_are_conserved_through_a_bidding_war() -> None:
    """Covers WH-10, WH-48, WH-68."""
    state = new_game(3)
    total = total_carriages(state)
    for action in (Visit(0, "1", 1), Visit(1, "1", 2), Visit(2, "1", 3), Visit(0, "1", 4), Visit(1, "3"),
                   Visit(2, "5", 0)):
        state, _ = play(state, action)
        assert total_carriages(state) == total
