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
Ending = Literal["accusation", "final_vote", "no_conviction", "guess", "prank", "multiverse"]



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
    joker: int | None = None  # the one Joker of a standard round
    harley: int | None = None  # the holder of the Harley icon (module on and dealt)
    location: str | None = None  # a standard round's location (None: physical mode, or no single place)

    def is_joker(self, seat: int) -> bool:
        return self.cards[seat] == JOKER


@dataclass(frozen=True)
class Powers:
    """Power-up (digital deal): each seat's ability card (an index into the session's cards), and the seats
    whose one-shot card is face up."""

    cards: tuple[int, ...]
    flipped: frozenset[int] = frozenset()


@dataclass(frozen=True)
class JokerPlay:
    """The Joker revealed themselves: who, the location named (physical: `correct` once the table said),
    or a prank declared instead; after a right guess with Harley, the hunt's most pointed-at seat."""

    seat: int
    guess: str | None = None
    correct: bool | None = None
    prank: bool = False
    hunt_suspect: int | None = None  # None: no hunt, a tie or nobody


@dataclass(frozen=True)
class MultiverseCall:
    """The latest multiverse call; `yes`: who raised a hand, once the call passed."""

    caller: int
    yes: frozenset[int] = frozenset()


@dataclass(frozen=True)
class Pride:
    """An accusation failed with more yes than no (Power-up): the majority side may flip God's Pride."""

    majority: frozenset[int]
    by: int | None = None


@dataclass(frozen=True)
class Verdict:
    """How the round ended; who was convicted (None: nobody) and, for an accusation, who accused them."""

    ending: Ending
    convicted: int | None = None
    accuser: int | None = None


@dataclass(frozen=True)
class RoundState:
    number: int
    dealer: int
    phase: Phase
    clock: Clock
    deck: str | None = None  # the deck (bag) in play, once picked
    dealt: tuple[int, ...] = ()  # digital: index of each seat's card in the deck
    powers: Powers | None = None  # digital Power-up
    facts: Facts | None = None
    accusations: tuple[tuple[int, int], ...] = ()  # (accuser, accused), in order
    callers: tuple[int, ...] = ()  # seats that called a multiverse vote
    vote: Vote | None = None
    talk: Clock | None = None  # the discussion or Harley-hunt timer
    joker: JokerPlay | None = None
    multiverse: MultiverseCall | None = None
    pride: Pride | None = None
    verdict: Verdict | None = None
    counts: tuple[tuple[str, int], ...] = ()  # the last decided vote's counts (shown on the table)
    points: tuple[int, ...] = ()  # this round's points, once scored

    @property
    def accusers(self) -> tuple[int, ...]:
        return tuple(a for a, _ in self.accusations)

    @property
    def flipped(self) -> frozenset[int]:
        return self.powers.flipped if self.powers is not None else frozenset()


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
