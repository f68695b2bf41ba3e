"""Clue actions (stable names; the engine's `actions` map is the one vocabulary)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from engines.core import DRAWN, Action, Flag, actions_map, ref


@dataclass(frozen=True)
class RecordHand(Action):
    """Physical mode: a player privately records their real cards (empty: skip)."""
    NAME = "record_hand"
    PRIVATE = True
    cards: Annotated[tuple[str, ...], ref("cards")] = ()


@dataclass(frozen=True)
class RollDie(Action):
    """Roll the die to move (the kiosk rolls it)."""
    NAME = "roll_die"


@dataclass(frozen=True)
class DieRoll(Action):
    """Chance: the die shows `value`."""
    NAME = "die_roll"
    BY = "chance"
    value: Annotated[int, DRAWN] = 1


@dataclass(frozen=True)
class EnterRoom(Action):
    """The player says which room their token entered."""
    NAME = "enter_room"
    room: Annotated[str, ref("rooms")] = ""


@dataclass(frozen=True)
class StayOut(Action):
    """The roll did not reach a room: the token stays in the corridors."""
    NAME = "stay_out"


@dataclass(frozen=True)
class UsePassage(Action):
    """Take the secret passage to the opposite corner room instead of rolling."""
    NAME = "use_passage"


@dataclass(frozen=True)
class Trapped(Action):
    """Every door of the player's room is blocked: they wait (no suggestion) and the turn passes."""
    NAME = "trapped"


@dataclass(frozen=True)
class Suggest(Action):
    """Suggest a suspect and a weapon in the room the token is in."""
    NAME = "suggest"
    suspect: Annotated[str, ref("suspects")] = ""
    weapon: Annotated[str, ref("weapons")] = ""


@dataclass(frozen=True)
class Show(Action):
    """Disprove: show one named card to the suggester (physical mode: `card` stays empty)."""
    NAME = "show"
    PRIVATE = True
    card: Annotated[str, ref("cards", optional=True)] = ""


@dataclass(frozen=True)
class Pass(Action):
    """Physical mode: the player holds none of the named cards."""
    NAME = "pass"
    PRIVATE = True


@dataclass(frozen=True)
class NoteShown(Action):
    """Physical mode: the suggester privately notes which card was shown (empty: do not note)."""
    NAME = "note_shown"
    PRIVATE = True
    card: Annotated[str, ref("cards", optional=True)] = ""


@dataclass(frozen=True)
class Accuse(Action):
    """Name the suspect, weapon and room in the envelope (once per game)."""
    NAME = "accuse"
    FINAL = True
    suspect: Annotated[str, ref("suspects")] = ""
    weapon: Annotated[str, ref("weapons")] = ""
    room: Annotated[str, ref("rooms")] = ""


@dataclass(frozen=True)
class ReportAccusation(Action):
    """Physical mode: the accuser looked in the envelope; was it right?"""
    NAME = "report_accusation"
    FINAL = True
    PRIVATE = True
    correct: Flag = False


@dataclass(frozen=True)
class EndTurn(Action):
    """End the turn."""
    NAME = "end_turn"


ACTIONS = actions_map(RecordHand, RollDie, DieRoll, EnterRoom, StayOut, UsePassage, Trapped, Suggest,
                      Show, Pass, NoteShown, Accuse, ReportAccusation, EndTurn)
