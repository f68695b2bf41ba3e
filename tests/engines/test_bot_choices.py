"""What the tablet seats choose in the situations their levels are about: a certain Clue envelope is
accused, a card already seen by the suggester is the one shown again, Jack takes his card and escapes while
the witness is dark, the detective arrests his last suspect."""

from __future__ import annotations

import random

import pytest

from engines.bots import decide
from engines.clue import bots as clue_bots
from engines.clue.actions import DieRoll, EndTurn, RollDie, StayOut, Suggest
from engines.clue.state import REFUTE, ClueState
from engines.core import CHANCE
from engines.mr_jack_ny import bots as jack_bots
from engines.mr_jack_ny.actions import Arrest, Escape, Pick
from engines.mr_jack_ny.state import DETECTIVE, JACK
from tests.engines.clue.helpers import ENGINE as CLUE
from tests.engines.clue.helpers import ENVELOPE, HANDS4, do, enter, game
from tests.engines.mr_jack_ny.helpers import ENGINE as MJ
from tests.engines.mr_jack_ny.helpers import act, finish_round, new_game


def _pass_turn(state: ClueState) -> ClueState:
    s = state.turn
    return do(state, RollDie(s), DieRoll(CHANCE, 3), StayOut(s), EndTurn(s))


def _asked_again() -> ClueState:
    """Seat 0 suggests Mustard with the rope in the kitchen (seat 1 holds only Mustard: shows it); the next
    time, in the dining room: seat 1 holds Mustard and the dining room."""
    state = game(4, hands=HANDS4, envelope=ENVELOPE)
    state = do(enter(state, "kitchen"), Suggest(0, "mustard", "rope"))
    assert state.phase == REFUTE and state.asking == 1
    state = do(state, *[a for a in CLUE.legal_actions(state, 1) if a.NAME == "show"][:1], EndTurn(0))
    for _ in range(3):
        state = _pass_turn(state)
    state = do(enter(state, "dining_room"), Suggest(0, "mustard", "rope"))
    assert state.phase == REFUTE and state.asking == 1
    return state


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_the_card_the_suggester_has_seen_is_shown_again(level: str) -> None:
    state = _asked_again()
    bot = clue_bots.LEVELS[level].bot
    shown = {decide(CLUE, state, 1, bot, random.Random(k)).card for k in range(12)}  # type: ignore[attr-defined]
    assert shown == {"mustard"}


def test_the_easy_detective_shows_any_card() -> None:
    state = _asked_again()
    bot = clue_bots.LEVELS["easy"].bot
    shown = {decide(CLUE, state, 1, bot, random.Random(k)).card for k in range(24)}  # type: ignore[attr-defined]
    assert shown == {"mustard", "dining_room"}


def test_a_fresh_card_shown_is_a_room_first() -> None:
    """Nothing shown before: of Mustard, the lead pipe and the conservatory, the room (one of nine)."""
    state = game(4, hands=HANDS4, envelope=ENVELOPE)
    state = do(enter(state, "conservatory"), Suggest(0, "mustard", "lead_pipe"))
    assert state.asking == 1
    assert decide(CLUE, state, 1, clue_bots.LEVELS["normal"].bot, random.Random(0)).card == "conservatory"  # type: ignore[attr-defined]


@pytest.mark.parametrize("level", sorted(clue_bots.LEVELS))
def test_a_detective_who_looked_in_the_envelope_knows_it_and_accuses_rightly(level: str) -> None:
    """Counting or not, a notebook whose every card but the envelope's is placed names it (a contrived deal:
    seat 0 holds all 18 other cards, seats 1-3 none)."""
    hands = (tuple(c.id for c in game(4).cards.cards if c.id not in ENVELOPE), (), (), ())
    state = game(4, hands=hands, envelope=ENVELOPE)
    action = decide(CLUE, state, 0, clue_bots.LEVELS[level].bot, random.Random(0))
    assert action.NAME == "accuse"
    assert (action.suspect, action.weapon, action.room) == ENVELOPE  # type: ignore[attr-defined]


@pytest.mark.parametrize("level", sorted(jack_bots.LEVELS))
def test_the_detective_arrests_his_last_suspect(level: str) -> None:
    state = new_game(seed=7)
    x = next(c for c in state.roster if c != state.jack)
    state = finish_round(state, visible={state.jack, x})  # seen: all but these two cleared
    state = finish_round(state, visible={state.jack})  # seen: x cleared too
    assert state.round == 3 and state.mover() == DETECTIVE
    bot = jack_bots.LEVELS[level].bot
    pick = decide(MJ, state, DETECTIVE, bot, random.Random(0))
    assert isinstance(pick, Pick) and pick.character != state.jack  # a card to arrest with
    state = act(state, pick)
    assert decide(MJ, state, DETECTIVE, bot, random.Random(0)) == Arrest(DETECTIVE, state.jack)


def test_the_hard_jack_takes_his_card_and_escapes_while_the_witness_is_dark() -> None:
    jack = new_game(seed=7).jack
    rest = [c for c in new_game(seed=7).roster if c != jack]
    state = new_game(seed=7, order=[*rest[:4], jack, *rest[4:]])  # Jack's card comes in round 2
    state = finish_round(state, visible=set())  # unseen: the witness card goes dark
    assert not state.witness_lit and state.mover() == JACK and jack in state.remaining()  # round 2: Jack first
    bot = jack_bots.LEVELS["hard"].bot
    pick = decide(MJ, state, JACK, bot, random.Random(0))
    assert pick == Pick(JACK, state.jack)
    state = act(state, pick)
    assert decide(MJ, state, JACK, bot, random.Random(0)) == Escape(JACK)


def test_what_a_seat_knew_is_read_from_its_view() -> None:
    """The end-of-game screen's record of a tablet seat: certain of the whole envelope when its notebook is;
    at the deal, of nothing, the likeliest envelope one of 324 with p a few per cent at most."""
    hands = (tuple(c.id for c in game(4).cards.cards if c.id not in ENVELOPE), (), (), ())
    sure = clue_bots.knew(CLUE.observe(game(4, hands=hands, envelope=ENVELOPE), 0))
    assert sure.certain == {0: "plum", 1: "rope", 2: "study"} and sure.likeliest == ENVELOPE and sure.p == 1.0
    start = clue_bots.knew(CLUE.observe(game(4), 0))
    assert start.certain == {} and len(start.likeliest) == 3 and 0 < start.p < 0.05
