"""A tiny reference game used only by tests: proves the engine interface, conformance and journal work.

"Secret Nim": each player holds a secret number; players take 1-3 from a pile in turn; a chance step
rolls a bonus before every turn; the first take starts a 60 s clock. Whoever takes the last item wins;
if time runs out first, the highest secret number wins.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from engines.core import (
    CHANCE,
    DRAWN,
    TABLE,
    Action,
    At,
    Deadline,
    Engine,
    Event,
    IllegalActionError,
    Outcome,
    Secret,
    Step,
    View,
    actions_map,
    number,
    seeded_rng,
)
from engines.parts import Card, said
from engines.timers import Clock


@dataclass(frozen=True)
class Roll(Action):
    """Chance: the bonus rolled before a turn."""
    NAME = "roll"
    BY = "chance"
    value: Annotated[int, DRAWN] = 1


@dataclass(frozen=True)
class Take(Action):
    """Take 1 to 3 items from the pile."""
    NAME = "take"
    n: Annotated[int, number(1, 3)] = 1
    at: At = 0.0


@dataclass(frozen=True)
class TimeUp(Action):
    """The table reports the clock ran out."""
    NAME = "time_up"
    BY = "table"
    at: At = 0.0


@dataclass(frozen=True)
class NimState:
    players: tuple[str, ...]
    hands: tuple[int, ...]
    pile: int
    turn: int = 0
    rolled: int = 0
    roll_pending: bool = True
    clock: Clock = Clock(60.0)
    winner: int | None = None
    reason: str = ""


class SecretNim(Engine[NimState]):
    name = "secret_nim"
    state_type = NimState
    actions = actions_map(Roll, Take, TimeUp)

    def example_configs(self, pack: Mapping[str, Any]) -> list[dict[str, Any]]:
        return [{"players": ["A", "B"]}, {"players": ["A", "B", "C"], "pile": 7}]

    def setup(self, config: Mapping[str, Any], pack: Mapping[str, Any], seed: int) -> NimState:
        players = tuple(config["players"])
        hands = tuple(seeded_rng(seed, "deal").sample(range(1, 10), len(players)))
        return NimState(players=players, hands=hands, pile=int(config.get("pile", 10)))

    def to_move(self, state: NimState) -> frozenset[int]:
        if state.roll_pending:
            return frozenset({CHANCE})
        return frozenset({state.turn, TABLE}) if state.clock.started else frozenset({state.turn})

    def legal_actions(self, state: NimState, seat: int) -> Sequence[Action]:
        if seat not in self.to_move(state) or self.outcome(state):
            return []
        if seat == CHANCE:
            return [Roll(CHANCE, v) for v in (1, 2, 3)]
        if seat == TABLE:
            return []  # the clock's end is a deadline the session fires
        return [Take(seat, n) for n in (1, 2, 3) if n <= state.pile]

    def sample_chance(self, state: NimState, rng: random.Random) -> Action:
        return Roll(CHANCE, rng.randint(1, 3))

    def _apply(self, state: NimState, action: Action) -> Step[NimState]:
        if isinstance(action, Roll):
            if not 1 <= action.value <= 3:
                raise IllegalActionError("bad_roll", "주사위 값이 잘못됐어요.", "Bad roll.")
            return Step(dataclasses.replace(state, rolled=action.value, roll_pending=False),
                        (Event("rolled", {"value": action.value}),))
        if isinstance(action, TimeUp):
            if not state.clock.expired(action.at):
                raise IllegalActionError("not_yet", "아직 시간이 남았어요.", "Time is not up yet.")
            best = max(range(len(state.hands)), key=lambda i: state.hands[i])
            return Step(dataclasses.replace(state, winner=best, reason="time_up"),
                        (Event("time_up"),))
        assert isinstance(action, Take)
        if action.n > state.pile:  # 1 to 3: its declaration (number(1, 3)) says so before the rules
            raise IllegalActionError("bad_take", "남은 만큼만 가져갈 수 있어요.", "Take no more than are left.")
        if state.clock.expired(action.at):
            raise IllegalActionError("time_is_up", "시간이 다 됐어요.", "Time is up.")
        clock = state.clock if state.clock.started else state.clock.start(action.at)
        pile = state.pile - action.n
        nxt = dataclasses.replace(state, pile=pile, clock=clock, roll_pending=True,
                                  turn=(state.turn + 1) % len(state.players))
        if pile == 0:
            nxt = dataclasses.replace(nxt, winner=action.seat, reason="last_take", roll_pending=False)
        return Step(nxt, (Event("took", {"seat": action.seat, "n": action.n}),))

    def deadlines(self, state: NimState) -> list[Deadline]:
        if self.outcome(state) is None and not state.roll_pending and state.clock.deadline is not None:
            return [Deadline(state.clock.deadline, TimeUp(TABLE))]
        return []

    def hidden_variants(self, state: NimState) -> list[tuple[NimState, frozenset[int]]]:
        if state.winner is not None or len(state.hands) < 2 or state.hands[0] == state.hands[1]:
            return []
        hands = (state.hands[1], state.hands[0], *state.hands[2:])
        return [(dataclasses.replace(state, hands=hands), frozenset({0, 1}))]

    def observe(self, state: NimState, seat: int | None) -> View:
        out: dict[str, Any] = {"players": list(state.players), "pile": state.pile, "turn": state.turn,
                               "clock": state.clock.to_view()}
        if seat is not None and seat >= 0:
            out["hand"] = state.hands[seat]
        if state.winner is not None:
            out["hands"] = list(state.hands)
        mine = (Card(said("손패", "Hand"), said(str(state.hands[seat]))),) if seat is not None and seat >= 0 else ()
        return self.make_view(state, seat, "over" if state.winner is not None else "play", out, mine=mine)

    def outcome(self, state: NimState) -> Outcome | None:
        if state.winner is None:
            return None
        return Outcome(winners=(state.winner,), reason=state.reason)

    def secrets(self, state: NimState) -> list[Secret]:
        if state.winner is not None:
            return []
        return [Secret("hand", h, frozenset({i})) for i, h in enumerate(state.hands)]


ENGINE = SecretNim()
