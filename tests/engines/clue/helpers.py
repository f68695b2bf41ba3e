"""Shared helpers for the Clue engine tests: the shipped pack, games with chosen deals, short scripts."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from engines.clue import ENGINE
from engines.clue.actions import DieRoll, EnterRoom, RollDie
from engines.clue.state import ClueState
from engines.clue.views import ClueView
from engines.core import CHANCE, Action, Event
from tests.packs import pack_for

PACK = pack_for("clue")


def game(n: int = 4, mode: str = "digital", seed: int = 1, card_set: str = "classic",
         hands: tuple[tuple[str, ...], ...] | None = None, envelope: tuple[str, ...] | None = None,
         **config: Any) -> ClueState:
    names = ["지수", "민호", "서연", "하준", "유나", "도윤"][:n]
    state: ClueState = ENGINE.setup({"players": names, "mode": mode, "set": card_set, **config}, PACK, seed)
    if hands is not None:
        state = replace(state, hands=hands, hand_sizes=tuple(len(h) for h in hands))
    if envelope is not None:
        state = replace(state, envelope=envelope)
    return state


def seen(state: ClueState, seat: int | None) -> ClueView:
    """The game's typed part of `seat`'s view (None: the table's)."""
    return ENGINE.observe(state, seat).part(ClueView)


def do(state: ClueState, *actions: Action) -> ClueState:
    for a in actions:
        state = ENGINE.apply(state, a).state
    return state


def events(state: ClueState, action: Action) -> tuple[ClueState, tuple[Event, ...]]:
    step = ENGINE.apply(state, action)
    return step.state, step.events


def enter(state: ClueState, room: str, die: int = 4) -> ClueState:
    """The turn's player rolls and enters `room`."""
    seat = state.turn
    return do(state, RollDie(seat), DieRoll(CHANCE, die), EnterRoom(seat, room))


# A fixed classic deal for 4 players (seat 0 = Scarlet starts; sizes 5/5/4/4).
ENVELOPE = ("plum", "rope", "study")
HANDS4 = (
    ("scarlet", "knife", "kitchen", "ballroom", "hall"),
    ("mustard", "lead_pipe", "conservatory", "dining_room", "lounge"),
    ("white", "wrench", "billiard_room", "library"),
    ("green", "peacock", "candlestick", "revolver"),
)
