"""Spyfall DC actions: the one source of action names (touch, voice, journal, CLI).

Seats: players 0..n-1; TABLE (-1) for what the table does together (clock, counts entered by hand,
revealed cards in physical mode); CHANCE (-2) for the deal. `at` is stamped by the session.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from engines.core import DRAWN, Action, At, Flag, OptSeat, Seat, Seats, actions_map, choice, number, ref


@dataclass(frozen=True)
class ChooseDealer(Action):
    """Round 1: the table names the first dealer ("the most suspicious player")."""

    NAME = "choose_dealer"
    BY = "table"
    dealer: Seat = 0


@dataclass(frozen=True)
class Deal(Action):
    """Chance (digital): the deck drawn from the shuffled bags, the card index each seat receives (from
    the bottom of the deck, shuffled) and, with Power-up, the ability card index each seat receives."""

    NAME = "deal"
    BY = "chance"
    deck: Annotated[str, DRAWN] = ""
    cards: Annotated[tuple[int, ...], DRAWN] = ()
    abilities: Annotated[tuple[int, ...], DRAWN] = ()


@dataclass(frozen=True)
class PickBag(Action):
    """Chance (physical): the bag the dealer takes; the real cards decide the roles."""

    NAME = "pick_bag"
    BY = "chance"
    deck: Annotated[str, DRAWN] = ""


@dataclass(frozen=True)
class StartClock(Action):
    """The dealer starts the round clock (8:00)."""

    NAME = "start_clock"
    BY = "table"
    at: At = 0.0


@dataclass(frozen=True)
class PauseClock(Action):
    """The table pauses the round clock (an interruption; not an accusation)."""

    NAME = "pause_clock"
    BY = "table"
    at: At = 0.0


@dataclass(frozen=True)
class ResumeClock(Action):
    """The table resumes the clock (after a pause, or declining God's Pride after a failed vote)."""

    NAME = "resume_clock"
    BY = "table"
    at: At = 0.0


@dataclass(frozen=True)
class TimeUp(Action):
    """The session reports a deadline passed: round clock → discussion; discussion → pointing."""

    NAME = "time_up"
    BY = "table"
    at: At = 0.0


@dataclass(frozen=True)
class StartPointing(Action):
    """The table ends the discussion early and points now ("1-2-3!")."""

    NAME = "start_pointing"
    BY = "table"
    FINAL = True
    at: At = 0.0


@dataclass(frozen=True)
class Accuse(Action):
    """Stop the clock and accuse a player (once per player per round)."""

    NAME = "accuse"
    FINAL = True
    accused: Seat = 0
    at: At = 0.0


@dataclass(frozen=True)
class RevealJoker(Action):
    """The Joker shows the Joker card, stopping the clock, to guess the location."""

    NAME = "reveal_joker"
    FINAL = True
    PRIVATE = True
    at: At = 0.0


@dataclass(frozen=True)
class GuessLocation(Action):
    """The revealed Joker names a location from the list."""

    NAME = "guess_location"
    FINAL = True
    location: Annotated[str, ref("locations")] = ""
    at: At = 0.0


@dataclass(frozen=True)
class DeclarePrank(Action):
    """Joker's prank: the revealed Joker declares that every card is a Joker this round."""

    NAME = "declare_prank"
    FINAL = True
    at: At = 0.0


@dataclass(frozen=True)
class ConfirmGuess(Action):
    """Physical mode: the heroes' cards show whether the named location was right."""

    NAME = "confirm_guess"
    BY = "table"
    FINAL = True
    correct: Flag = False
    at: At = 0.0


@dataclass(frozen=True)
class CallMultiverse(Action):
    """Multiverse madness: announce this is a multiverse round and call a show of hands."""

    NAME = "call_multiverse"
    FINAL = True
    at: At = 0.0


@dataclass(frozen=True)
class VoteYesNo(Action):
    """Sealed vote: a thumb up (yes) or down in an accusation; a raised hand in a multiverse vote."""

    NAME = "vote"
    FINAL = True  # a sealed ballot cannot be changed (already_voted)
    PRIVATE = True
    yes: Flag = False
    at: At = 0.0


@dataclass(frozen=True)
class PointAt(Action):
    """Sealed vote: point at a suspect (final vote, Harley hunt)."""

    NAME = "point"
    FINAL = True  # a sealed ballot cannot be changed (already_voted)
    PRIVATE = True
    target: Seat = 0
    at: At = 0.0


@dataclass(frozen=True)
class Hands(Action):
    """Open vote: the table enters which players voted yes / raised a hand; every other voter said no."""

    NAME = "hands"
    BY = "table"
    FINAL = True
    yes: Seats = ()
    at: At = 0.0


@dataclass(frozen=True)
class Points(Action):
    """Open vote: the table enters the number of fingers pointing at each seat."""

    NAME = "points"
    BY = "table"
    FINAL = True
    counts: Annotated[tuple[int, ...], number(0, 7)] = ()
    at: At = 0.0


@dataclass(frozen=True)
class UseAbility(Action):
    """Flip one's one-shot ability card (God's Pride: turns a majority into a unanimous vote)."""

    NAME = "use_ability"
    FINAL = True
    PRIVATE = True
    at: At = 0.0


@dataclass(frozen=True)
class EnterCards(Action):
    """Physical mode, end of round: the revealed cards. kind: standard | joker (prank round, all Jokers) |
    multiverse; joker: the seat that showed the Joker card (-1 none); harley: the seat whose card bears
    the Harley icon (-1 none)."""

    NAME = "enter_cards"
    BY = "table"
    FINAL = True
    kind: Annotated[str, choice("standard", "joker", "multiverse")] = "standard"
    joker: OptSeat = -1
    harley: OptSeat = -1


@dataclass(frozen=True)
class NextRound(Action):
    """Go on to the next round (the previous Joker deals)."""

    NAME = "next_round"
    BY = "table"


@dataclass(frozen=True)
class EndSession(Action):
    """End the session after this round (fewer rounds than agreed)."""

    NAME = "end_session"
    BY = "table"
    FINAL = True


ACTIONS = actions_map(ChooseDealer, Deal, PickBag, StartClock, PauseClock, ResumeClock, TimeUp, StartPointing,
                      Accuse, RevealJoker, GuessLocation, DeclarePrank, ConfirmGuess, CallMultiverse, VoteYesNo,
                      PointAt, Hands, Points, UseAbility, EnterCards, NextRound, EndSession)
