"""Set-up: suspects per seat, the envelope, the deal, who starts, what each seat sees."""

from __future__ import annotations

import pytest

from engines.clue import ENGINE
from engines.clue.content import CLASSIC
from engines.clue.knowledge import hand_sizes
from engines.clue.rules import first_seat
from engines.core import RuleError
from tests.engines.clue.helpers import PACK, game


def test_players_take_suspect_tokens_and_unused_tokens_stay_suspects() -> None:
    """Covers CLUE-07, CLUE-08: each seat gets a suspect; with 3 players all 6 tokens are on the board
    and all 6 suspects can still be named."""
    state = game(3)
    assert state.suspects == ("scarlet", "mustard", "white")
    assert len(state.tokens) == 6 and all(t == "" for t in state.tokens)
    view = ENGINE.view(state, None)
    assert set(view["tokens"]) == set(CLASSIC.ids(0))


def test_weapons_start_in_different_rooms() -> None:
    """Covers CLUE-09: the 6 weapons start in 6 different rooms."""
    for seed in range(20):
        state = game(4, seed=seed)
        assert len(set(state.weapons)) == 6 and set(state.weapons) <= set(CLASSIC.ids(2))


def test_envelope_gets_one_card_of_each_kind_unseen() -> None:
    """Covers CLUE-10, CLUE-11: exactly one suspect, weapon and room go into the envelope (kept on the
    tablet: nobody's view shows it while the game runs)."""
    for seed in range(10):
        state = game(5, seed=seed)
        s, w, r = state.envelope
        assert s in CLASSIC.ids(0) and w in CLASSIC.ids(1) and r in CLASSIC.ids(2)
        for seat in (None, 0, 1, 2, 3, 4):
            assert "envelope" not in ENGINE.view(state, seat)


@pytest.mark.parametrize(("n", "sizes"), [(3, [6, 6, 6]), (4, [5, 5, 4, 4]), (5, [4, 4, 4, 3, 3]),
                                          (6, [3, 3, 3, 3, 3, 3])])
def test_rest_is_dealt_clockwise_with_uneven_hands(n: int, sizes: list[int]) -> None:
    """Covers CLUE-12, CLUE-13: the other 18 cards are dealt clockwise from the first player; sizes
    3p 6/6/6, 4p 5/5/4/4, 5p 4/4/4/3/3, 6p 3×6; every card is in exactly one place."""
    state = game(n)
    assert [len(h) for h in state.hands] == sizes == list(state.hand_sizes)
    every = [c for h in state.hands for c in h] + list(state.envelope)
    assert sorted(every) == sorted(c.id for c in CLASSIC.cards)
    assert hand_sizes(18, 4, first=2) == (4, 4, 5, 5)


def test_each_player_sees_only_their_own_hand() -> None:
    """Covers CLUE-14, CLUE-15: a hand is only in its owner's view (their private notes start from it);
    the table view shows no hand."""
    state = game(4)
    assert "hand" not in ENGINE.view(state, None)
    for seat in range(4):
        v = ENGINE.view(state, seat)
        assert v["hand"] == list(state.hands[seat])
        assert all(o.get("hand") != v["hand"] for s, o in ((s, ENGINE.view(state, s)) for s in range(4))
                   if s != seat)


def test_scarlet_starts_and_play_is_clockwise() -> None:
    """Covers CLUE-16: Miss Scarlet's player starts, wherever they sit; turns go clockwise."""
    state = game(4, suspects=["green", "mustard", "scarlet", "white"])
    assert state.turn == state.first == 2
    assert first_seat(CLASSIC, ["green", "mustard", "scarlet", "white"]) == 2


def test_without_scarlet_the_next_start_space_clockwise_starts() -> None:
    """Covers CLUE-17 (AMBIGUOUS, reading A): nobody plays Scarlet → the player whose start space comes
    next clockwise (Mustard, then White, …) starts."""
    assert first_seat(CLASSIC, ["plum", "white", "green"]) == 1
    assert first_seat(CLASSIC, ["plum", "peacock", "green"]) == 2
    state = game(3, suspects=["plum", "white", "green"])
    assert state.turn == 1


def test_bad_configs_are_refused_in_korean() -> None:
    """Covers CLUE-02: 2 or 7 players, repeated suspects and unknown modes are refused with a message."""
    for config in ({"players": ["a", "b"]}, {"players": list("abcdefg")},
                   {"players": ["a", "b", "c"], "suspects": ["plum", "plum", "white"]},
                   {"players": ["a", "b", "c"], "mode": "vr"}):
        with pytest.raises(RuleError) as err:
            ENGINE.setup(config, PACK, 1)
        assert "설정" in err.value.ko
