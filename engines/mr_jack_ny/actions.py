"""Actions of Mr. Jack in New York. Seat 0 is the detective, seat 1 Jack; TABLE reports the witness call."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Annotated

from engines.core import DRAWN, Action, actions_map, ref


@dataclass(frozen=True)
class Shuffle(Action):
    """Chance (odd rounds): the order of all 8 character cards; the first 4 are revealed now."""

    NAME = "shuffle"
    BY = "chance"
    order: Annotated[tuple[str, ...], DRAWN] = ()


@dataclass(frozen=True)
class Pick(Action):
    """Take one of the revealed character cards and play that character this turn."""

    NAME = "pick"
    character: Annotated[str, ref("characters")] = ""


@dataclass(frozen=True)
class UseAbility(Action):
    """Record that the played character's special ability was used (before or after the move).

    swap: `target` (a character next to the swapper) changes place with `other` (any other character or
    the spy); move_other (Monk Eastman): `target` is the character moved instead of Monk; garden (Emma
    Grant): `tile` is the kind flipped ("lamp", "subway" or "building")."""

    NAME = "use_ability"
    target: Annotated[str, ref("pieces", optional=True)] = ""
    other: Annotated[str, ref("pieces", optional=True)] = ""
    tile: Annotated[str, ref("tiles", optional=True)] = ""


@dataclass(frozen=True)
class VisitSpy(Action):
    """The played character visits the talking spy: the player draws an alibi card only they see."""

    NAME = "visit_spy"


@dataclass(frozen=True)
class EndTurn(Action):
    """The played character has moved (and used or skipped its ability): the turn passes."""

    NAME = "end_turn"


@dataclass(frozen=True)
class Arrest(Action):
    """Detective: the played character entered `suspect`'s space; arrest that character."""

    NAME = "arrest"
    FINAL = True
    suspect: Annotated[str, ref("characters")] = ""


@dataclass(frozen=True)
class Escape(Action):
    """Jack: the played character left by an unblocked harbour with a ferry, or an exit."""

    NAME = "escape"
    FINAL = True
    PRIVATE = True


@dataclass(frozen=True)
class CallWitness(Action):
    """Table, end of round: the characters visible now (by a lamp or next to another character, and not in
    a garden). The kiosk, knowing Jack, sets the witness card and clears suspects."""

    NAME = "call_witness"
    BY = "table"
    FINAL = True
    visible: Annotated[frozenset[str], ref("characters")] = field(default_factory=frozenset)


ACTIONS = actions_map(Shuffle, Pick, UseAbility, VisitSpy, EndTurn, Arrest, Escape, CallWitness)
