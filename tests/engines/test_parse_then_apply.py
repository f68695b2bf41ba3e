"""Parse, then apply (#36): `Engine.apply` checks every value of an action against its field's declaration
(seat, number range, choice, flag, text, moment) before any rule runs, in one place for every game; the
handlers no longer check what the declaration already says."""

from __future__ import annotations

import pytest

from engines import find_engine
from engines.core import TABLE, Action, RuleError, check_values
from engines.spyfall import actions as SA
from engines.watson_holmes.actions import ConsultAnswers, Visit
from tests.engines.spyfall.helpers import Table
from tests.engines.watson_holmes.helpers import ENGINE as WH
from tests.engines.watson_holmes.helpers import new_game
from tests.packs import pack_for


def refused_by_declaration(engine: object, state: object, action: Action, field: str) -> RuleError:
    before = engine.state_to_dict(state)  # type: ignore[attr-defined]
    with pytest.raises(RuleError) as info:
        engine.apply(state, action)  # type: ignore[attr-defined]
    exc = info.value
    assert exc.code == "bad_value", (exc.code, exc.ko)
    assert exc.params["field"] == field and exc.en.startswith("The action's value is wrong: ")
    assert exc.ko.startswith("행동의 값이 잘못됐어요: ")
    assert field not in exc.ko and field not in exc.en  # an identifier is for logs (params), not for people
    assert any("\uac00" <= ch <= "\ud7a3" for ch in exc.ko), exc.ko
    assert engine.state_to_dict(state) == before  # type: ignore[attr-defined]
    return exc


def test_a_number_outside_its_range_or_not_a_whole_number_is_refused_naming_the_field() -> None:
    """Watson & Holmes bids: number(0, 99). Before, the visit rule checked `carriages < 0` itself
    (bad_carriages) and let a bool or 100 through to the rules."""
    state = new_game(2)
    exc = refused_by_declaration(WH, state, Visit(0, "1", -1), "carriages")
    assert "0부터 99까지" in exc.ko
    refused_by_declaration(WH, state, Visit(0, "1", 100), "carriages")
    refused_by_declaration(WH, state, Visit(0, "1", True), "carriages")


def test_a_flag_must_be_a_bool() -> None:
    """A phone's JSON "yes" for a flag was taken as true before (any non-empty string)."""
    refused_by_declaration(WH, new_game(2), Visit(0, "1", 0, withdraw="yes"), "withdraw")  # type: ignore[arg-type]


def test_a_seat_field_must_name_a_seat_of_the_game() -> None:
    """Spyfall's dealer and accused (the rules checked `bad_seat` themselves), W&H's failed player."""
    t = Table()
    t.fails(SA.ChooseDealer(TABLE, 4), "bad_value")
    t.fails(SA.ChooseDealer(TABLE, -1), "bad_value")
    t.start()
    t.fails(SA.Accuse(0, 9, t.at()), "bad_value")
    refused_by_declaration(WH, new_game(2), ConsultAnswers(0, 5), "failed")


def test_a_choice_and_each_element_of_a_tuple_field_are_checked() -> None:
    """EnterCards.kind is a choice; Points.counts is number(0, 7) per seat (a negative count was the tally's own
    check before)."""
    t = Table(deal="physical")
    t.start()
    t.time_up()
    t.fails(SA.EnterCards(TABLE, "jokers", 0), "bad_value")
    t2 = Table()
    t2.start()
    t2.time_up()
    t2.discuss_then_point()
    t2.fails(SA.Points(TABLE, (5, -1, 0, 0), t2.at()), "bad_value")


@pytest.mark.parametrize("game", ["spyfall", "watson_holmes", "mr_jack_ny", "clue"])
def test_every_legal_action_at_the_start_fits_its_declaration(game: str) -> None:
    """The generator of legal actions and the declarations agree (the property tests play on)."""
    engine = find_engine(game)
    pack = pack_for(game)
    for config in engine.example_configs(pack):
        state = engine.setup(config, pack, 3)
        seats = engine.seats(state)
        for seat in sorted(engine.to_move(state)):
            for action in engine.legal_actions(state, seat):
                check_values(action, seats)


def test_a_ref_must_name_an_entry_of_its_catalog_where_the_engine_says_them() -> None:
    """Clue says its catalogs (Engine.ref_ids): a weapon named as the suspect, or a card not in the set, is refused
    by the declaration (the rules' own card checks are gone); an optional ref may be "" (Show in physical mode)."""
    from engines.clue.actions import Accuse, Show
    from tests.engines.clue.helpers import ENGINE as CLUE
    from tests.engines.clue.helpers import ENVELOPE, HANDS4, game

    state = game(4, hands=HANDS4, envelope=ENVELOPE)
    exc = refused_by_declaration(CLUE, state, Accuse(0, "rope", "rope", "hall"), "suspect")
    assert exc.ko == "행동의 값이 잘못됐어요: 이 게임에 없는 이름이에요." and "rope" not in exc.en
    assert exc.params["value"] == "rope"
    refused_by_declaration(CLUE, state, Accuse(0, "green", "rope", "attic"), "room")
    assert CLUE.ref_ids(state, "cards") is not None and "" not in CLUE.ref_ids(state, "cards")
    check_values(Show(1, ""), CLUE.seats(state), lambda c: CLUE.ref_ids(state, c))  # optional: none shown
