"""Setup by player count, case parameters, the supply, character cards and the start player."""

from __future__ import annotations

import pytest

import engines.watson_holmes as package
from engines.watson_holmes import ENGINE
from engines.watson_holmes.actions import RevealCharacter, RotateCharacter, TakeWatson, Visit
from engines.watson_holmes.content import TokenCounts
from tests.engines.watson_holmes.helpers import (
    BANK_CASE,
    NAMES,
    bank_pack,
    new_game,
    play,
    real_game,
    refused,
    set_player,
)


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7])
def test_two_to_seven_players(n: int) -> None:
    """Covers WH-01, WH-11, WH-37."""
    state = new_game(n)
    assert len(state.players) == n
    assert all(p.carriages == 10 for p in state.players)
    assert sum(p.police for p in state.players) == min(n, 5)


@pytest.mark.parametrize("n", [1, 8])
def test_other_player_counts_are_refused(n: int) -> None:
    """Covers WH-01."""
    with pytest.raises(ValueError):
        ENGINE.setup({"players": (NAMES * 2)[:n], "case": "bank"}, bank_pack(), 1)


def test_six_and_seven_players_first_five_get_police_the_others_withdraw() -> None:
    """Covers WH-38, WH-39."""
    state = new_game(7, start_player=2)
    police = [s for s, p in enumerate(state.players) if p.police]
    withdraw = [s for s, p in enumerate(state.players) if p.withdraw]
    assert police == [2, 3, 4, 5, 6] and withdraw == [0, 1]
    six = new_game(6, start_player=0)
    assert [p.police for p in six.players] == [1, 1, 1, 1, 1, 0]
    assert [p.withdraw for p in six.players] == [0, 0, 0, 0, 0, 1]


def test_the_supply_is_the_box_minus_what_was_dealt() -> None:
    """Covers WH-32, WH-10, WH-31."""
    state = new_game(3, tokens=TokenCounts(carriages=50, police=4, withdraw=3, lockpick=2))
    assert state.supply.carriages == 20 and state.supply.police == 1
    assert (state.supply.withdraw, state.supply.lockpick) == (3, 2)
    assert not state.holmes_up and state.watson == -1  # Holmes face down, Watson available
    view = ENGINE.view(state, None)
    assert view["holmes_up"] is False and view["watson_available"] is True
    short = new_game(3, tokens=TokenCounts(carriages=25, police=2))
    assert sorted(p.carriages for p in short.players) == [5, 10, 10]  # the box ran out of carriages
    assert sum(p.police for p in short.players) == 2


def test_case_special_rules_override_the_defaults() -> None:
    """Covers WH-04, WH-03."""
    two = real_game("case_02")
    assert all(p.carriages == 8 for p in two.players)
    three = real_game("case_03")
    assert all(p.police == 0 for p in three.players) and three.police_on == {8}
    assert three.case.special_rules is not None and "8" in three.case.special_rules.ko


def test_only_the_chosen_case_is_used() -> None:
    """Covers WH-29."""
    state = real_game("case_01")
    assert state.case.id == "case_01"
    assert [loc["number"] for loc in ENGINE.view(state, None)["locations"]] == list(range(1, 10))
    refused(state, Visit(0, "12"), "no_such_location")


def test_start_player_is_random_when_the_kiosk_narrates() -> None:
    """Covers WH-34, WH-35."""
    starts = {ENGINE.setup({"players": NAMES[:5], "case": "bank"}, bank_pack(), seed).start_player
              for seed in range(30)}
    assert len(starts) > 1 and starts <= set(range(5))
    again = {ENGINE.setup({"players": NAMES[:5], "case": "bank"}, bank_pack(), 11).start_player for _ in range(3)}
    assert len(again) == 1  # seeded: a replay gets the same start
    assert ENGINE.setup({"players": NAMES[:5], "case": "bank", "start_player": 3}, bank_pack(), 1).start_player == 3
    assert "WH-35" in (package.__doc__ or "")


def test_character_cards_one_each_secret_per_seat() -> None:
    """Covers WH-40, WH-94."""
    state = new_game(4, characters=True)
    ids = [p.character for p in state.players]
    assert len(set(ids)) == 4 and all(p.character_state == "hidden" for p in state.players)
    for seat in range(4):
        view = ENGINE.view(state, seat)
        assert view["me"]["character"] == ids[seat]
        others = [p for p in view["players"] if p["seat"] != seat]
        assert all("character" not in p for p in others)
    assert all("character" not in p for p in ENGINE.view(state, None)["players"])


def test_no_wiggins_with_fewer_than_four_players() -> None:
    """Covers WH-41."""
    for seed in range(25):
        for n in (2, 3):
            state = ENGINE.setup({"players": NAMES[:n], "case": "bank"}, bank_pack(characters=True), seed)
            assert "wiggins" not in {p.character for p in state.players}
    seven = ENGINE.setup({"players": NAMES[:7], "case": "bank"}, bank_pack(characters=True), 1)
    assert "wiggins" in {p.character for p in seven.players}


def test_wiggins_token_only_for_the_wiggins_owner() -> None:
    """Covers WH-26, WH-92."""
    state = ENGINE.setup({"players": NAMES[:7], "case": "bank", "start_player": 0}, bank_pack(characters=True), 1)
    owner = next(s for s, p in enumerate(state.players) if p.character == "wiggins")
    other = (owner + 1) % 7
    state, events = play(state, RevealCharacter(owner), RevealCharacter(other))
    assert state.players[owner].wiggins and not state.players[other].wiggins
    assert [e.data["character"] for e in events if e.kind == "character_revealed"][0] == "wiggins"


def test_characters_reveal_or_rotate_once() -> None:
    """Covers WH-91, WH-92, WH-93, WH-94, WH-96."""
    state = new_game(4, characters=True)
    seat = 2  # not their turn: usable at any time (WH-96 reading A)
    assert state.turn == 0 and seat in ENGINE.to_move(state)
    rotated, events = play(state, RotateCharacter(seat))
    assert rotated.players[seat].character_state == "rotated" and rotated.players[seat].carriages == 13
    assert "character" in ENGINE.view(rotated, None)["players"][seat]  # face up on the table
    assert seat not in ENGINE.to_move(rotated)  # nothing left to use before their turn
    revealed, _ = play(state, RevealCharacter(seat))
    assert revealed.players[seat].character_state == "revealed"
    turn, _ = play(state, RotateCharacter(0))  # seat 0 is to visit, so still to move
    refused(turn, RevealCharacter(0), "character_used")
    refused(turn, RotateCharacter(0), "character_used")
    assert "WH-96" in (package.__doc__ or "")


def test_character_ability_may_cost_carriages_and_expert_turns_watson_abilities_into_three() -> None:
    """Covers WH-90, WH-95."""
    state = ENGINE.setup({"players": NAMES[:7], "case": "bank", "start_player": 0}, bank_pack(characters=True), 2)
    hopkins = next(s for s, p in enumerate(state.players) if p.character == "hopkins")
    paid, _ = play(state, RevealCharacter(hopkins))
    assert paid.players[hopkins].carriages == 8
    broke = set_player(state, hopkins, carriages=1)
    assert RevealCharacter(hopkins) not in ENGINE.legal_actions(broke, hopkins)
    expert = ENGINE.setup({"players": NAMES[:7], "case": "bank", "start_player": 0, "expert": True},
                          bank_pack(characters=True), 2)
    mycroft = next(s for s, p in enumerate(expert.players) if p.character == "mycroft")
    gained, _ = play(expert, RevealCharacter(mycroft))
    assert gained.players[mycroft].carriages == 13
    refused(expert, TakeWatson(0), "watson_expert")
    normal = ENGINE.setup({"players": NAMES[:7], "case": "bank", "start_player": 0}, bank_pack(characters=True), 2)
    used, _ = play(normal, RevealCharacter(mycroft))
    assert used.players[mycroft].carriages == 10


def test_case_without_characters() -> None:
    """Covers WH-04, WH-40."""
    from tests.engines.watson_holmes.helpers import with_rules
    state = new_game(3, with_rules(BANK_CASE, characters=False), characters=True)
    assert all(p.character_state == "none" for p in state.players)
