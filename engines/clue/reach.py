"""Where to go, looking past this turn's die (어려움, engines.clue.bots): a room is worth what a suggestion
there teaches now plus, discounted, what the turns after it can reach from there.

The map is the classic board's (engines.clue.board): squares door to door, the secret passages (a
suggestion next turn without a roll). A token in the corridors (`Spot.walked` > 0) has come that many squares
nearer to every room but the one it left, which is as far behind it as it walked. Each later turn is
valued by its die's six faces alike: the best of entering a room it reaches (that room's value), taking the
passage, or walking on. Room values are those of now (what a suggestion there would teach with today's
notebook): the discount `Plan.future` stands for what the turns between may change.

A position the map does not know (the start space or the corridors, which no view holds) is planned by
the caller from the table's legal actions.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from engines.clue.board import UNKNOWN, passage, room_distance

FACES = range(1, 7)


@dataclass(frozen=True)
class Plan:
    """`future`: what a suggestion one turn later is worth against one now; `turns`: how many turns after
    this one are looked at."""

    future: float = 0.6
    turns: int = 2


@dataclass(frozen=True)
class Spot:
    """A token's place at the start of a turn: in `room` (walked 0) or `walked` squares out of it."""

    room: str
    walked: int = 0


def distance(spot: Spot, room: str) -> int:
    """Squares from `spot` to `room`'s door (the room just left: back the way walked)."""
    if room == spot.room:
        return spot.walked if spot.walked else UNKNOWN  # one may not leave a room and re-enter it in one turn
    return max(0, room_distance(spot.room, room) - spot.walked)


class Planner:
    """Values of moves for one decision, given each room's value now (`values`, rooms of the classic map)."""

    def __init__(self, values: Mapping[str, float], plan: Plan) -> None:
        self.values = dict(values)
        self.plan = plan
        self._memo: dict[tuple[Spot, int], float] = {}

    def entered(self, room: str) -> float:
        """Suggesting in `room` this turn, then the turns after from there."""
        return self.values.get(room, 0.0) + self.plan.future * self.after(Spot(room), self.plan.turns)

    def stayed(self, spot: Spot) -> float:
        """Ending this turn in the corridors at `spot`: nothing now, the turns after from there."""
        return self.plan.future * self.after(spot, self.plan.turns)

    def roll(self, spot: Spot) -> float:
        """Rolling from `spot` this turn: over the die's faces, the best of the rooms reached or walking on."""
        return self._roll(spot, self.plan.turns)

    def through(self, room: str) -> float:
        """Taking the secret passage from `room` this turn (0 when it has none)."""
        to = passage(room)
        return self.entered(to) if to else 0.0

    def after(self, spot: Spot, turns: int) -> float:
        """What the next `turns` turns from `spot` are worth (each later one by `future` less)."""
        if turns <= 0:
            return 0.0
        key = (spot, turns)
        if key not in self._memo:
            best = self._roll(spot, turns)
            to = passage(spot.room) if not spot.walked else ""
            if to:
                best = max(best, self.values.get(to, 0.0) + self.plan.future * self.after(Spot(to), turns - 1))
            self._memo[key] = best
        return self._memo[key]

    def _roll(self, spot: Spot, turns: int) -> float:
        later = self.plan.future
        total = 0.0
        for face in FACES:
            best = later * self.after(Spot(spot.room, spot.walked + face), turns - 1)
            for room, value in self.values.items():
                if distance(spot, room) <= face:
                    best = max(best, value + later * self.after(Spot(room), turns - 1))
            total += best
        return total / len(FACES)
