"""어려움 chooses where to go by what the next turns reach (engines.clue.reach), not by this turn's die alone."""

from __future__ import annotations

import random

import pytest

from engines.bots import decide
from engines.clue import bots as clue_bots
from engines.clue.actions import DieRoll, EndTurn, RollDie, StayOut
from engines.clue.board import UNKNOWN
from engines.clue.reach import Plan, Planner, Spot, distance
from engines.clue.state import MOVE, ClueState
from engines.core import CHANCE
from tests.engines.clue.helpers import ENGINE as CLUE
from tests.engines.clue.helpers import do, enter, game

ENVELOPE = ("plum", "rope", "study")


def _in_the_ballroom_with_a_six() -> ClueState:
    """Seat 0 of four holds every card but the envelope's and the library (seat 1 holds that one): it knows
    the suspect and the weapon, and the room is the library or the study, even odds. It stands in the
    ballroom and has rolled a 6: the conservatory (4 squares) and the billiard room (6) are in reach, both
    its own cards, so a suggestion in either teaches nothing today."""
    cards = game(4).cards
    mine = tuple(c.id for c in cards.cards if c.id not in (*ENVELOPE, "library"))
    state = game(4, hands=(mine, ("library",), (), ()), envelope=ENVELOPE)
    state = do(enter(state, "ballroom"), EndTurn(0))
    for _ in range(3):
        seat = state.turn
        state = do(state, RollDie(seat), DieRoll(CHANCE, 3), StayOut(seat), EndTurn(seat))
    state = do(state, RollDie(0), DieRoll(CHANCE, 6))
    assert state.phase == MOVE and state.turn == 0 and state.token_of(0) == "ballroom"
    return state


def test_hard_goes_where_the_next_turn_reaches_the_open_room() -> None:
    """The billiard room is 4 squares from the library (the next roll reaches it one time in two); the
    conservatory is 15 from it and its passage leads to the lounge, another card of its own. The die-only
    choice (the values of the rooms reached today, and the old passage bonus) finds the two equal and takes
    either; 어려움 takes the billiard room, every time."""
    state = _in_the_ballroom_with_a_six()
    bot = clue_bots.LEVELS["hard"].bot
    chosen = {getattr(decide(CLUE, state, 0, bot, random.Random(k)), "room", "") for k in range(12)}
    assert chosen == {"billiard_room"}
    n = clue_bots.notes(CLUE.observe(state, 0), True)
    values = clue_bots.room_values(clue_bots.HARD, n, random.Random(0))
    assert values["conservatory"] == values["billiard_room"] == 0.0 < values["library"]


def test_the_normal_level_still_looks_at_todays_die_only() -> None:
    state = _in_the_ballroom_with_a_six()
    bot = clue_bots.LEVELS["normal"].bot
    chosen = {getattr(decide(CLUE, state, 0, bot, random.Random(k)), "room", "") for k in range(16)}
    assert chosen == {"billiard_room", "conservatory"}


def test_distances_from_a_room_and_from_the_corridors() -> None:
    assert distance(Spot("ballroom"), "conservatory") == 4
    assert distance(Spot("ballroom"), "ballroom") == UNKNOWN  # not back into the room just left
    assert distance(Spot("ballroom", 3), "conservatory") == 1
    assert distance(Spot("ballroom", 3), "ballroom") == 3  # back the way it walked
    assert distance(Spot("ballroom", 9), "kitchen") == 0


def test_a_passage_is_a_certain_suggestion_next_turn() -> None:
    """Only the lounge is worth a suggestion: from the conservatory the passage reaches it for sure, from the
    ballroom no roll does (15 squares); entering the conservatory is worth the lounge's value, discounted."""
    values = {"lounge": 1.0}
    p = Planner(values, Plan(future=0.5, turns=1))
    assert p.entered("conservatory") == pytest.approx(0.5)
    assert p.entered("ballroom") == 0.0
    assert p.through("conservatory") == pytest.approx(1.0)
    assert p.through("ballroom") == 0.0  # no passage


def test_rolling_is_valued_over_the_die_faces() -> None:
    """From the ballroom only the conservatory (4 squares) is worth anything: a roll reaches it on 4, 5 or 6;
    walking on (1-3) is worth the next turn's chance from closer, discounted."""
    values = {"conservatory": 1.0}
    one = Planner(values, Plan(future=0.5, turns=1))
    assert one.roll(Spot("ballroom")) == pytest.approx(0.5)  # no turn after this one looked at
    two = Planner(values, Plan(future=0.5, turns=2))
    # faces 1-3 walk on: next turn, from 1-3 squares nearer, the conservatory needs 3/2/1 squares: 4/6, 5/6, 6/6
    later = (4 / 6 + 5 / 6 + 6 / 6) / 6 * 0.5
    # faces 4-6 enter now; the turn after, from the conservatory, the ballroom is back 4 squares (worth 0)
    assert two.roll(Spot("ballroom")) == pytest.approx(0.5 + later)


def test_hard_names_a_rival_already_in_the_room_freely() -> None:
    """어려움 avoids naming a rival's token (it would move it into its room: a free suggestion on the rival's next
    turn, CLUE-39), but a token already in the room is not moved and earns nothing (CLUE-39's right comes from
    being moved). Seat 0 (Scarlet) knows all but the suspect: its rivals Mustard (in the ballroom with it) and White
    (at her start) are the two left, equal in what a suggestion teaches. 어려움 names the one already
    there, every time; 보통, which does not weigh the gift, names either."""
    g = game(4)
    here, away = g.suspects[1], g.suspects[2]
    envelope = (away, "rope", "study")
    mine = tuple(c.id for c in g.cards.cards if c.id not in (*envelope, here))
    state = game(4, hands=(mine, (here,), (), ()), envelope=envelope)
    state = do(state, RollDie(0), DieRoll(CHANCE, 3), StayOut(0), EndTurn(0))
    state = do(enter(state, "ballroom"), EndTurn(1))
    for _ in range(2):
        seat = state.turn
        state = do(state, RollDie(seat), DieRoll(CHANCE, 3), StayOut(seat), EndTurn(seat))
    state = enter(state, "ballroom")
    assert state.turn == 0 and state.token_of(0) == state.token_of(1) == "ballroom" and state.token_of(2) == ""

    def named(level: str) -> set[str]:
        bot = clue_bots.LEVELS[level].bot
        return {getattr(decide(CLUE, state, 0, bot, random.Random(k)), "suspect", "") for k in range(12)}

    assert named("hard") == {here}
    assert named("normal") == {here, away}
