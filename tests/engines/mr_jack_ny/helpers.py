"""Shared helpers for the Mr. Jack in New York tests: a game with a known card order, turn scripting."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from engines import find_engine
from engines.core import CHANCE, TABLE, Action, Step
from engines.mr_jack_ny.actions import CallWitness, EndTurn, Pick, Shuffle, UseAbility, VisitSpy
from engines.mr_jack_ny.state import JackState
from tests.packs import pack_for

ENGINE = find_engine("mr_jack_ny")
PACK = pack_for("mr_jack_ny")
CONFIG = {"players": ["민호", "지수"]}
D, J = 0, 1


def new_game(seed: int = 7, order: Iterable[str] | None = None) -> JackState:
    """A set-up game with the round-1 shuffle applied (default: the roster order)."""
    state = ENGINE.setup(CONFIG, PACK, seed)
    return act(state, Shuffle(CHANCE, tuple(order) if order is not None else state.roster))


def step(state: JackState, action: Action) -> Step[JackState]:
    before = ENGINE.state_to_dict(state)
    out = ENGINE.apply(state, action)
    assert ENGINE.state_to_dict(state) == before, "apply mutated its input"
    return out


def act(state: JackState, *actions: Action) -> JackState:
    for action in actions:
        state = step(state, action).state
    return state


def turn(state: JackState, character: str | None = None, ability: UseAbility | None = None,
         spy: bool = False) -> JackState:
    """The seat to move picks `character` (default: the first card left), optionally uses the ability
    and visits the spy, and ends the turn."""
    seat = state.mover()
    state = act(state, Pick(seat, character or state.remaining()[0]))
    if ability is not None:
        state = act(state, ability)
    if spy:
        state = act(state, VisitSpy(seat))
    return act(state, EndTurn(seat))


def finish_round(state: JackState, visible: Iterable[str] = (), order: Iterable[str] | None = None) -> JackState:
    """Play the round's remaining turns, make the witness call, and shuffle if a new odd round starts."""
    while state.phase in ("pick", "act"):
        if state.phase == "act":
            state = act(state, EndTurn(state.mover()))
        else:
            state = turn(state)
    if state.phase == "witness":
        state = act(state, CallWitness(TABLE, frozenset(visible)))
    if state.phase == "shuffle":
        state = act(state, Shuffle(CHANCE, tuple(order) if order is not None else state.roster))
    return state


def others(state: JackState) -> list[str]:
    return [c for c in state.roster if c != state.jack]


def as_json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True)
