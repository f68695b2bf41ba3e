"""What every phase shares: players' and supply's changes, seat order, tokens granted, a new round."""

from __future__ import annotations

import dataclasses
from typing import Any

from engines.core import Event
from engines.watson_holmes.state import WhState

Events = list[Event]


def set_player(state: WhState, seat: int, **changes: Any) -> WhState:
    players = list(state.players)
    players[seat] = dataclasses.replace(players[seat], **changes)
    return dataclasses.replace(state, players=tuple(players))


def add_supply(state: WhState, **delta: int) -> WhState:
    supply = state.supply
    return dataclasses.replace(state, supply=dataclasses.replace(
        supply, **{k: getattr(supply, k) + v for k, v in delta.items()}))


def clockwise(state: WhState, first: int) -> list[int]:
    n = len(state.players)
    return [(first + i) % n for i in range(n)]


def grant(state: WhState, seat: int, kind: str, amount: int, events: Events) -> WhState:
    """Give tokens from the finite supply; nothing beyond the supply, nor a second police, withdraw or
    lockpick token (WH-10, WH-18..21)."""
    player = state.players[seat]
    have = getattr(state.supply, kind)
    if kind != "carriages":
        amount = 1 if getattr(player, kind) == 0 else 0
    given = min(amount, have)
    if given > 0:
        state = add_supply(state, **{kind: -given})
        state = set_player(state, seat, **{kind: getattr(player, kind) + given})
    events.append(Event("granted", {"seat": seat, "kind": kind, "asked": amount, "given": given}))
    return state


def first_to_visit(state: WhState, first: int) -> int:
    for seat in clockwise(state, first):
        if state.players[seat].active and state.placement_of(seat) is None:
            return seat
    return -1


def start_round(state: WhState, events: Events) -> WhState:
    must = False
    extra = state.extra_rounds
    if state.last_standing >= 0 and not state.winners:
        if extra > 0:
            extra -= 1
        else:
            must = True
    state = dataclasses.replace(
        state, phase="visit", round=state.round + 1, placements=(), watson=-1, announced=(),
        pending=frozenset(), queue=(), judging=(), verdicts=(), last_placer=-1, must_solve=must,
        extra_rounds=extra)
    state = dataclasses.replace(state, turn=first_to_visit(state, state.start_player))
    events.append(Event("round_started", {"round": state.round, "start_player": state.start_player,
                                          "must_solve": must, "extra_rounds_left": extra}))
    return state
