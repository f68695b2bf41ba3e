"""Set-up, players, components and content of Mr. Jack in New York."""

from __future__ import annotations

import pytest

from engines.core import CHANCE, RuleError
from engines.mr_jack_ny.cards import DEFAULT_CHARACTERS, TILE_AT_SETUP, TILE_TOTAL, CharacterSet
from tests.engines.conformance import HANGUL
from tests.engines.mr_jack_ny.helpers import CONFIG, ENGINE, PACK, J


def test_exactly_two_players_detective_and_jack() -> None:
    """Covers JACK-01."""
    state = ENGINE.setup(CONFIG, PACK, 1)
    assert ENGINE.seats(state) == (0, 1)
    assert ENGINE.view(state, 0)["me"] == "detective" and ENGINE.view(state, 1)["me"] == "jack"
    for players in (["혼자"], ["가", "나", "다"]):
        with pytest.raises(RuleError) as info:
            ENGINE.setup({"players": players}, PACK, 1)
        assert info.value.code == "players" and HANGUL.search(info.value.ko)


def test_components_eight_characters_eight_alibis_and_tile_counts() -> None:
    """Covers JACK-02, JACK-05."""
    state = ENGINE.setup(CONFIG, PACK, 3)
    assert len(state.roster) == 8
    assert sorted((state.jack, *state.deck)) == sorted(state.roster)  # 8 alibi cards, one per character
    tiles = ENGINE.view(state, None)["tiles"]
    # 6 lamp / 7 subway / 7 building tiles; 2 lamps and 3 subways are on the board at set-up.
    assert TILE_TOTAL == (6, 7, 7) and TILE_AT_SETUP == (2, 3, 0)
    assert tiles == {"lamp": {"supply": 4, "board": 2, "gardens": 0},
                     "subway": {"supply": 4, "board": 3, "gardens": 0},
                     "building": {"supply": 7, "board": 0, "gardens": 0}}


def test_scope_no_board_positions_in_the_kiosk_state() -> None:
    """Covers JACK-03: the kiosk conducts the physical game (rounds, draft, witness call, suspects, Jack's
    identity, arrest, escape) and keeps no board positions."""
    state = ENGINE.setup(CONFIG, PACK, 3)
    fields = set(ENGINE.state_to_dict(state))
    assert {"round", "jack", "calls", "innocent", "plays", "spy_talking", "witness_lit"} <= fields
    assert not fields & {"board", "positions", "grid", "coords"}
    assert set(ENGINE.actions) == {"shuffle", "pick", "use_ability", "visit_spy", "end_turn", "arrest",
                                   "escape", "call_witness"}


def test_the_eight_characters_are_the_six_named_plus_swapper_and_cloud_rider() -> None:
    """Covers JACK-04."""
    chars = PACK["characters"]
    assert isinstance(chars, CharacterSet)
    ids = {c.id for c in chars.characters}
    assert ids == {"beach", "latimer", "grant", "callahan", "eastman", "smith", "swapper", "cloud_rider"}
    assert ids == {c.id for c in DEFAULT_CHARACTERS.characters}
    names = {c.id: c.name.en for c in chars.characters}
    assert names["cloud_rider"] == "Cloud Rider" and names["eastman"] == "Monk Eastman"
    assert {c.id: c.ability for c in chars.characters} == {c.id: c.ability for c in DEFAULT_CHARACTERS.characters}


def test_spy_starts_talking_and_witness_card_starts_lit() -> None:
    """Covers JACK-06, JACK-08."""
    state = ENGINE.setup(CONFIG, PACK, 11)
    table = ENGINE.view(state, None)
    assert table["spy"] == "talking" and state.spy_talking
    assert table["witness"] == "lit" and state.witness_lit


def test_alibi_deck_and_character_cards_are_shuffled_separately() -> None:
    """Covers JACK-07, JACK-13: the alibi deck is dealt at set-up from the seed; the character cards are a
    separate CHANCE shuffle at the start of round 1."""
    jacks = {ENGINE.setup(CONFIG, PACK, seed).jack for seed in range(40)}
    assert len(jacks) >= 6  # the culprit varies with the seed
    state = ENGINE.setup(CONFIG, PACK, 5)
    assert ENGINE.setup(CONFIG, PACK, 5) == state  # deterministic per seed
    assert state.phase == "shuffle" and ENGINE.to_move(state) == frozenset({CHANCE})
    import random
    a = ENGINE.sample_chance(state, random.Random(1))
    b = ENGINE.sample_chance(state, random.Random(2))
    assert sorted(a.order) == sorted(b.order) == sorted(state.roster)  # type: ignore[attr-defined]
    assert a != b


def test_jack_alone_sees_the_culprit_card() -> None:
    """Covers JACK-09."""
    state = ENGINE.setup(CONFIG, PACK, 21)
    assert ENGINE.view(state, J)["jack"] == state.jack
    assert "jack" not in ENGINE.view(state, 0)
    assert "jack" not in ENGINE.view(state, None)
    assert state.jack not in state.deck and len(state.deck) == 7


def test_cards_show_movement_range_and_ability_timing() -> None:
    """Covers JACK-16, JACK-17."""
    for card in PACK["characters"].characters:
        assert (card.move_min, card.move_max) == (1, 3)  # "1-3": at least 1, at most 3 spaces
        assert HANGUL.search(card.summary.ko) and card.summary.en
        if card.id == "eastman":
            assert card.timing == "instead_of_move" and not card.mandatory
        else:
            assert card.timing == "before_or_after"
            assert ("전이나 후" in card.summary.ko) and "Before or after" in card.summary.en
    with pytest.raises(ValueError):
        type(card)(id="x", name=card.name, ability="swap", summary=card.summary, move_min=3, move_max=1)


def test_optional_turn_timer_is_part_of_the_config() -> None:
    """Covers JACK-01: the kiosk's optional blitz timer (seconds, 0 = off) is validated and journaled."""
    assert ENGINE.view(ENGINE.setup(CONFIG, PACK, 1), None)["blitz"] == 0
    assert ENGINE.view(ENGINE.setup({**CONFIG, "blitz": 90}, PACK, 1), None)["blitz"] == 90
    for bad in (-1, 601, "60", True):
        with pytest.raises(RuleError) as info:
            ENGINE.setup({**CONFIG, "blitz": bad}, PACK, 1)
        assert info.value.code == "bad_blitz" and HANGUL.search(info.value.ko)
