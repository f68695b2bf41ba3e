"""How far apart the rooms of the classic board are, for a tablet seat's choice of room (engines.clue.bots).

The engine models rooms only (CLUE-06): squares and doors stay at the table. A tablet seat still has to
choose a room its die can reach, so it carries this coarse map of the classic board: the fewest squares
from one room's nearest door to another room on foot, the secret passages (CLUE-34: no roll), and from each
start space to its nearest rooms. The figures were counted by hand on the classic layout, door to door, and are
rounded; corridors are not modelled (another token may block a square; the table decides then).

A set without a map (any set but the classic one) gets `UNKNOWN` for every pair: the table's legal actions
decide what is reachable.
"""

from __future__ import annotations

import random

from engines.clue.state import ClueState
from engines.core import Action

UNKNOWN = 99

# Upper triangle, door to door on foot, the classic board.
_ROOMS: dict[tuple[str, str], int] = {
    ("kitchen", "ballroom"): 7, ("kitchen", "conservatory"): 20, ("kitchen", "dining_room"): 11,
    ("kitchen", "billiard_room"): 17, ("kitchen", "library"): 23, ("kitchen", "lounge"): 19,
    ("kitchen", "hall"): 17, ("kitchen", "study"): 24,
    ("ballroom", "conservatory"): 4, ("ballroom", "dining_room"): 7, ("ballroom", "billiard_room"): 6,
    ("ballroom", "library"): 12, ("ballroom", "lounge"): 15, ("ballroom", "hall"): 13, ("ballroom", "study"): 17,
    ("conservatory", "dining_room"): 19, ("conservatory", "billiard_room"): 7, ("conservatory", "library"): 15,
    ("conservatory", "lounge"): 24, ("conservatory", "hall"): 20, ("conservatory", "study"): 20,
    ("dining_room", "billiard_room"): 14, ("dining_room", "library"): 14, ("dining_room", "lounge"): 4,
    ("dining_room", "hall"): 8, ("dining_room", "study"): 17,
    ("billiard_room", "library"): 4, ("billiard_room", "lounge"): 22, ("billiard_room", "hall"): 15,
    ("billiard_room", "study"): 15,
    ("library", "lounge"): 14, ("library", "hall"): 7, ("library", "study"): 7,
    ("lounge", "hall"): 8, ("lounge", "study"): 17,
    ("hall", "study"): 4,
}

# Each start space to its nearest rooms; the rest through those rooms.
_STARTS: dict[str, dict[str, int]] = {
    "scarlet": {"lounge": 6, "hall": 8},
    "mustard": {"dining_room": 8, "lounge": 8},
    "white": {"ballroom": 7, "kitchen": 9},
    "green": {"ballroom": 7, "conservatory": 9},
    "peacock": {"conservatory": 6, "billiard_room": 8},
    "plum": {"library": 7, "study": 8},
}


_PASSAGES = (("kitchen", "study"), ("conservatory", "lounge"))


def passage(room: str) -> str:
    """The room a secret passage leads to from `room` on the classic board ("": none)."""
    for a, b in _PASSAGES:
        if room in (a, b):
            return b if room == a else a
    return ""


def room_distance(a: str, b: str) -> int:
    """Squares on foot from room `a` to room `b` on the classic board (0: the same room)."""
    if a == b:
        return 0
    return _ROOMS.get((a, b), _ROOMS.get((b, a), UNKNOWN))


def start_distance(suspect: str, room: str) -> int:
    """Squares from a suspect's start space to `room`."""
    near = _STARTS.get(suspect, {})
    if room in near:
        return near[room]
    return min((d + room_distance(r, room) for r, d in near.items()), default=UNKNOWN)


def has_map(set_id: str) -> bool:
    return set_id == "classic"


class Walks:
    """The physical board of a simulated game (engines.bots.Board), coarsely: each token is in a room or
    on its way from a room (or its start space) with the squares it has walked since. A room is reachable
    when its distance from where the walk began, less the squares walked, is within the die. Generous (a
    walk comes nearer to every room at once) and the same for every player. Used by tests and bench/bots.py,
    never by a bot."""

    def __init__(self) -> None:
        self.origin: dict[str, str] = {}  # suspect → the room it left ("" → its start space)
        self.walked: dict[str, int] = {}

    def distance(self, suspect: str, room: str) -> int:
        origin = self.origin.get(suspect, "")
        full = room_distance(origin, room) if origin else start_distance(suspect, room)
        return max(0, full - self.walked.get(suspect, 0))

    def allowed(self, state: ClueState, action: Action) -> bool:
        if action.NAME != "enter_room" or not has_map(state.cards.id):
            return True
        return self.distance(state.suspects[action.seat], str(getattr(action, "room", ""))) <= state.die

    def table_action(self, state: ClueState, rng: random.Random) -> Action:
        raise ValueError("Clue has no table actions")

    def after(self, state: ClueState, action: Action, new: ClueState) -> None:
        for i, suspect in enumerate(new.cards.ids(0)):
            room, was = new.tokens[i], state.tokens[i]
            if room:
                self.origin[suspect], self.walked[suspect] = room, 0
            elif was:  # left a room by the corridors
                self.origin[suspect], self.walked[suspect] = was, 0
        if action.NAME == "stay_out":
            suspect = new.suspects[action.seat]
            self.walked[suspect] = self.walked.get(suspect, 0) + state.die
