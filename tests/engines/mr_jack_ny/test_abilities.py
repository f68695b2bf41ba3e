"""Character abilities: what the kiosk records and checks (tile supply, targets, Monk Eastman)."""

from __future__ import annotations

import dataclasses

import pytest

from engines.core import RuleError
from engines.mr_jack_ny import __doc__ as package_doc
from engines.mr_jack_ny.actions import Arrest, EndTurn, Pick, UseAbility
from engines.mr_jack_ny.state import Tiles
from tests.engines.conformance import HANGUL
from tests.engines.mr_jack_ny.helpers import ENGINE, PACK, D, J, act, finish_round, new_game, step

ODD = ("swapper", "cloud_rider", "beach", "latimer", "grant", "callahan", "eastman", "smith")
EVEN_FIRST = ("grant", "callahan", "eastman", "smith", "swapper", "cloud_rider", "beach", "latimer")


def playing(character: str, seed: int = 7):  # type: ignore[no-untyped-def]
    """The detective (first pick of round 1) playing `character`."""
    order = ODD if character in ODD[:4] else EVEN_FIRST
    return act(new_game(seed, order), Pick(D, character))


def refused(state, action, code: str) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(RuleError) as info:
        step(state, action)
    assert info.value.code == code, info.value.code
    assert HANGUL.search(info.value.ko)


def test_swapper_swaps_a_neighbour_with_any_other_piece() -> None:
    """Covers JACK-33, JACK-34 (decision A: a piece next to the swapper ↔ any other piece)."""
    assert "JACK-34" in (package_doc or "")
    state = playing("swapper")
    nxt = act(state, UseAbility(D, target="grant", other="smith"))
    assert nxt.current is not None and nxt.current.ability_used
    assert (nxt.current.target, nxt.current.other) == ("grant", "smith")
    assert act(state, UseAbility(D, target="grant", other="swapper")).current.other == "swapper"  # type: ignore[union-attr]
    refused(state, UseAbility(D, target="grant", other="grant"), "swap_same")
    refused(state, UseAbility(D, target="swapper", other="grant"), "swap_target")
    refused(state, UseAbility(D, target="grant"), "swap_same")
    refused(state, UseAbility(D, target="nobody", other="grant"), "bad_value")  # not a piece: its declaration
    refused(nxt, UseAbility(D, target="beach", other="smith"), "ability_twice")
    ended = act(nxt, EndTurn(D))
    assert ended.plays[-1].ability_used and ended.plays[-1].character == "swapper"


def test_cloud_rider_places_a_building_from_the_supply() -> None:
    """Covers JACK-35, JACK-02."""
    state = playing("cloud_rider")
    nxt = act(state, UseAbility(D))
    assert nxt.tiles.count("supply", "building") == 6 and nxt.tiles.count("board", "building") == 1
    assert nxt.current is not None and nxt.current.tile == "building"
    refused(state, UseAbility(D, tile="lamp"), "extra_detail")


def test_beach_places_a_subway_entrance() -> None:
    """Covers JACK-36."""
    nxt = act(playing("beach"), UseAbility(D))
    assert ENGINE.view(nxt, None)["tiles"]["subway"] == {"supply": 3, "board": 4, "gardens": 0}


def test_latimer_places_a_lamp() -> None:
    """Covers JACK-37."""
    nxt = act(playing("latimer"), UseAbility(D))
    assert ENGINE.view(nxt, None)["tiles"]["lamp"] == {"supply": 3, "board": 3, "gardens": 0}


def test_grant_flips_a_lamp_building_or_subway_tile_into_a_garden() -> None:
    """Covers JACK-38, JACK-39 (an occupied subway may be flipped; a cordon-blocked one is the table's call)."""
    state = playing("grant")
    nxt = act(state, UseAbility(D, tile="subway"))
    assert ENGINE.view(nxt, None)["tiles"]["subway"] == {"supply": 4, "board": 2, "gardens": 1}
    refused(state, UseAbility(D, tile="building"), "no_tile_on_board")  # no building on the board yet
    refused(state, UseAbility(D, tile="tree"), "bad_value")  # not a tile kind: its declaration refuses it
    refused(state, UseAbility(D), "bad_tile")
    lamp = act(state, UseAbility(D, tile="lamp"))
    assert lamp.tiles.count("gardens", "lamp") == 1 and lamp.tiles.count("board", "lamp") == 1
    assert "통제선" in next(c.summary.ko for c in PACK["characters"].characters if c.id == "grant")


def test_callahan_moves_a_cordon_and_smith_moves_a_ferry() -> None:
    """Covers JACK-40, JACK-43: recorded, no tile leaves the supply."""
    for who in ("callahan", "smith"):
        state = playing(who)
        nxt = act(state, UseAbility(D))
        assert nxt.current is not None and nxt.current.ability_used and nxt.tiles == state.tiles
        refused(state, UseAbility(D, target="grant"), "extra_detail")


def test_eastman_moves_another_character_instead_of_himself() -> None:
    """Covers JACK-41."""
    state = playing("eastman")
    nxt = act(state, UseAbility(D, target="beach"))
    assert nxt.current is not None and nxt.current.target == "beach"
    refused(state, UseAbility(D, target="eastman"), "eastman_target")
    refused(state, UseAbility(D, target="spy"), "eastman_target")
    refused(state, UseAbility(D), "eastman_target")


def test_a_character_moved_by_eastman_cannot_arrest() -> None:
    """Covers JACK-42 (the same-witness-status rule is judged at the table, see the package docstring)."""
    assert "JACK-42" in (package_doc or "")
    state = playing("eastman")
    assert any(isinstance(a, Arrest) for a in ENGINE.legal_actions(state, D))
    nxt = act(state, UseAbility(D, target="beach"))
    assert not any(isinstance(a, Arrest) for a in ENGINE.legal_actions(nxt, D))
    refused(nxt, Arrest(D, "beach"), "arrest_eastman")
    refused(nxt, Arrest(D, "grant"), "arrest_eastman")
    assert ENGINE.outcome(act(state, Arrest(D, "grant"))) is not None  # Monk moving himself may arrest


def test_mandatory_ability_that_cannot_be_done_is_skipped() -> None:
    """Covers JACK-44 (decision A), JACK-02: an empty supply refuses the placement, the turn still ends."""
    assert "JACK-44" in (package_doc or "")
    state = playing("latimer")
    empty = dataclasses.replace(state, tiles=Tiles(supply=(0, 4, 7), board=(6, 3, 0)))
    assert not any(isinstance(a, UseAbility) for a in ENGINE.legal_actions(empty, D))
    refused(empty, UseAbility(D), "no_tile")
    ended = act(empty, EndTurn(D))
    assert ended.plays[-1].character == "latimer" and not ended.plays[-1].ability_used


def test_lamp_supply_runs_out_after_four_placements() -> None:
    """Covers JACK-02, JACK-37, JACK-44: 6 lamp tiles, 2 on the board at set-up → 4 more, then none."""
    state = new_game(7, ODD)
    for round_no in (1, 3, 5, 7):
        assert state.round == round_no and "latimer" in state.remaining()
        state = act(state, Pick(D, "latimer"), UseAbility(D))
        if round_no < 7:
            state = finish_round(finish_round(state, order=ODD), order=ODD)
    assert state.tiles.count("supply", "lamp") == 0 and state.tiles.count("board", "lamp") == 6
    assert state.current is not None
    again = dataclasses.replace(state, current=dataclasses.replace(state.current, ability_used=False))
    refused(again, UseAbility(D), "no_tile")
    assert act(again, EndTurn(D)).plays[-1].ability_used is False


def test_jack_records_abilities_on_his_turns_too() -> None:
    """Covers JACK-17, JACK-15."""
    state = act(new_game(7, ODD), Pick(D, "swapper"), EndTurn(D), Pick(J, "beach"), UseAbility(J))
    assert state.current is not None and state.current.seat == J and state.current.ability_used
    state = act(state, EndTurn(J))
    assert [(p.seat, p.character, p.ability_used) for p in state.plays] == [(D, "swapper", False), (J, "beach", True)]
    assert ENGINE.view(state, None)["plays"][1]["ability_used"] is True
