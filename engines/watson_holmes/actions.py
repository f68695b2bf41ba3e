"""Watson & Holmes actions. Field `seat` is who acts; TABLE (-1) enters the table's verdicts."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from engines.core import TEXT, Action, Flag, Seat, Text, actions_map, number, ref


@dataclass(frozen=True)
class Visit(Action):
    """Put your piece on a card: a number, "cab" (carriage stop) or "221b"; `carriages` placed on it;
    `withdraw`: first discard your withdraw token to remove the card's police; `watson`: take the
    Watson card (4 carriages) after placing."""

    NAME = "visit"
    location: Annotated[str, ref("places")] = "cab"
    carriages: Annotated[int, number(0, 99)] = 0
    withdraw: Flag = False
    watson: Flag = False


@dataclass(frozen=True)
class TakeWatson(Action):
    """Pay 4 carriages for the Watson card on your visit turn, before placing."""

    NAME = "take_watson"


@dataclass(frozen=True)
class WatsonRead(Action):
    """Watson's owner has another player's card read aloud to the table (target = that player's seat)."""

    NAME = "watson_read"
    target: Seat = 0


@dataclass(frozen=True)
class WatsonPass(Action):
    """Watson's owner does not use the card this round."""

    NAME = "watson_pass"


@dataclass(frozen=True)
class DoneReading(Action):
    """You have read your card and made notes; `police`: put your police token on the card you leave.
    In a physical box, report the token symbols printed on your card (`gain_*`)."""

    NAME = "done_reading"
    PRIVATE = True
    police: Flag = False
    gain_carriages: Annotated[int, number(0, 9)] = 0
    gain_police: Flag = False
    gain_withdraw: Flag = False
    gain_lockpick: Flag = False


@dataclass(frozen=True)
class SubmitAnswers(Action):
    """At 221B: your sealed answers to every question, in order (a physical box may submit none)."""

    NAME = "submit_answers"
    FINAL = True
    PRIVATE = True
    answers: Annotated[tuple[str, ...], TEXT] = ()


@dataclass(frozen=True)
class Verdict(Action):
    """Physical box: the table says how many questions `player` got right against the booklet."""

    NAME = "verdict"
    BY = "table"
    FINAL = True
    player: Seat = 0
    right: Annotated[int, number(0, 20)] = 0


@dataclass(frozen=True)
class ConsultAnswers(Action):
    """Holmes: pay 3 carriages to read the answers of a player who failed (`failed` = their seat)."""

    NAME = "consult_answers"
    FINAL = True
    PRIVATE = True
    failed: Seat = 0


@dataclass(frozen=True)
class CheckAnswer(Action):
    """Holmes: pay 3 carriages to have one answer checked (once per game)."""

    NAME = "check_answer"
    FINAL = True
    PRIVATE = True
    question: Annotated[int, number(1, 20)] = 1
    answer: Text = ""


@dataclass(frozen=True)
class CheckReply(Action):
    """Physical box: the table (a failed player) says aloud whether the checked answer is right."""

    NAME = "check_reply"
    BY = "table"
    FINAL = True
    right: Flag = False


@dataclass(frozen=True)
class RevealCharacter(Action):
    """Reveal your character card and use its ability (once per game)."""

    NAME = "reveal_character"
    FINAL = True
    PRIVATE = True


@dataclass(frozen=True)
class RotateCharacter(Action):
    """Turn your character card sideways and take 3 carriages instead (once per game)."""

    NAME = "rotate_character"
    FINAL = True


@dataclass(frozen=True)
class EndGame(Action):
    """Play-on after a win: the table decides the game ends now and the solution is read."""

    NAME = "end_game"
    BY = "table"
    FINAL = True


ACTIONS = actions_map(Visit, TakeWatson, WatsonRead, WatsonPass, DoneReading, SubmitAnswers, Verdict,
                      ConsultAnswers, CheckAnswer, CheckReply, RevealCharacter, RotateCharacter, EndGame)
