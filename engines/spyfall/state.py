"""Spyfall DC state: frozen dataclasses only (JSON-safe through engines.serial)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engines.spyfall.content import Ability, Deck, DeckKind, Location
from engines.timers import Clock
from engines.votes import Vote

JOKER = "joker"  # a card value in Facts.cards and SessionDeck.cards

Phase = Literal[
    "choose_dealer",  # round 1: the table picks the first dealer ("the most suspicious player")
    "deal",  # CHANCE: digital → pick a deck and deal; physical → name the bag to take
    "ready",  # cards are out; the table starts the 8-minute clock
    "play",  # the clock runs (or the table paused it)
    "accusation",  # a player stopped the clock: yes/no vote, the accused does not vote
    "pride",  # accusation failed with more yes than no: God's Pride may be flipped (Power-up)
    "multiverse_vote",  # someone called multiverse madness: raised hands
    "guess",  # the Joker revealed: name a location (or declare the prank)
    "confirm_guess",  # physical: the table says whether the named location was right
    "harley_talk",  # after a right guess (Harley module): 30 s discussion
    "harley_vote",  # everyone but the Joker points at a Harley suspect
    "discussion",  # time is up: open discussion (2:00 by default)
    "final_vote",  # everyone points at once
    "reveal",  # physical: the table enters the revealed cards
    "round_over",  # scores shown; next round or end of session
]
Ending = Literal["", "accusation", "final_vote", "no_conviction", "guess", "prank", "multiverse"]



@dataclass(frozen=True)
class SessionDeck:
    """A deck in play, compact: each card is a location id or "joker"; `harley` is the icon card's index."""

    id: str
    kind: DeckKind
    bag: int
    cards: tuple[str, ...]
    harley: int = -1

    @property
    def location(self) -> str:
        return self.cards[0] if self.kind == "standard" else ""

    @staticmethod
    def of(deck: Deck) -> SessionDeck:
        cards = tuple(JOKER if c.kind == "joker" else c.location for c in deck.cards)
        harley = next((i for i, c in enumerate(deck.cards) if c.harley), -1)
        return SessionDeck(deck.id, deck.kind, deck.bag, cards, harley)


@dataclass(frozen=True)
class Settings:
    rounds: int = 5
    power_up: bool = False
    harley: bool = False
    prank: bool = False
    multiverse: bool = False
    physical: bool = False  # the real cards decide the roles; the kiosk names the bag
    sealed: bool = False  # votes collected per seat (pass the tablet) instead of counts by the table
    round_s: float = 480.0
    discussion_s: float = 120.0
    harley_s: float = 30.0


@dataclass(frozen=True)
class Facts:
    """What the cards of a round were: known at the deal (digital) or entered at the reveal (physical)."""

    kind: DeckKind  # "joker": a prank round (every card a Joker)
    cards: tuple[str, ...]  # per seat: a location id or "joker" (physical: "" for a location card)
    joker: int = -1  # the one Joker of a standard round
    harley: int = -1  # the holder of the Harley icon (module on and dealt), else -1
    location: str = ""  # a standard round's location ("" when unknown in physical mode)

    def is_joker(self, seat: int) -> bool:
        return self.cards[seat] == JOKER


@dataclass(frozen=True)
class RoundState:
    number: int
    dealer: int
    phase: Phase
    clock: Clock
    deck: str = ""
    dealt: tuple[int, ...] = ()  # digital: index of each seat's card in the deck
    abilities: tuple[int, ...] = ()  # digital Power-up: index of each seat's ability card
    flipped: frozenset[int] = frozenset()  # seats whose one-shot ability card is face up
    facts: Facts | None = None
    accusations: tuple[tuple[int, int], ...] = ()  # (accuser, accused), in order
    callers: tuple[int, ...] = ()  # seats that called a multiverse vote
    vote: Vote | None = None
    talk: Clock | None = None  # the discussion or Harley-hunt timer
    revealer: int = -1
    guess: str = ""
    guess_correct: bool | None = None
    prank_by: int = -1
    ending: Ending = ""
    convicted: int = -1
    accuser: int = -1  # who stopped the clock for the conviction (accusation ending)
    pride_by: int = -1
    majority: frozenset[int] = frozenset()  # pride phase: the seats that voted yes (the majority side)
    hunt_suspect: int = -1  # most pointed-at in the Harley hunt (-1: tie / nobody)
    mv_caller: int = -1
    mv_yes: frozenset[int] = frozenset()
    counts: tuple[tuple[str, int], ...] = ()  # the last decided vote's counts (shown on the table)
    points: tuple[int, ...] = ()  # this round's points, once scored

    @property
    def accusers(self) -> tuple[int, ...]:
        return tuple(a for a, _ in self.accusations)


@dataclass(frozen=True)
class RoundRecord:
    """A finished round, everything revealed."""

    number: int
    dealer: int
    deck: str
    kind: DeckKind
    cards: tuple[str, ...]
    joker: int
    harley: int
    place: str
    ending: Ending
    convicted: int
    accuser: int
    guess: str
    points: tuple[int, ...]
    abilities: tuple[str, ...] = ()


@dataclass(frozen=True)
class SpyState:
    players: tuple[str, ...]
    settings: Settings
    locations: tuple[Location, ...]
    decks: tuple[SessionDeck, ...]  # the decks in play (digital: multiverse decks re-mixed for the session)
    ability_cards: tuple[Ability, ...]
    pool: tuple[str, ...]  # deck ids in play this session
    used: tuple[str, ...] = ()  # decks already used (once per session)
    round: RoundState | None = None
    history: tuple[RoundRecord, ...] = ()
    totals: tuple[int, ...] = ()
    now: float = 0.0  # the latest moment seen in an action
    over: bool = False
    first_dealer: int = -1

    def deck(self, deck_id: str) -> SessionDeck:
        for d in self.decks:
            if d.id == deck_id:
                return d
        raise KeyError(deck_id)

    def place(self, location_id: str) -> Location:
        for loc in self.locations:
            if loc.id == location_id:
                return loc
        raise KeyError(location_id)

    def of_kind(self, kind: DeckKind) -> tuple[SessionDeck, ...]:
        return tuple(d for d in self.decks if d.kind == kind)
