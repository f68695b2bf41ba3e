"""The state of a Watson & Holmes game: frozen dataclasses only, changed through dataclasses.replace."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from engines.watson_holmes.content import Case, CharacterCard

Phase = Literal["visit", "watson", "investigate", "solve", "judge", "over"]
Status = Literal["active", "failed", "solved"]
CharState = Literal["hidden", "revealed", "rotated", "none"]


@dataclass(frozen=True)
class Supply:
    """The shared supply, finite per kind (WH-10, WH-32)."""

    carriages: int
    police: int
    withdraw: int
    lockpick: int


@dataclass(frozen=True)
class CheckResult:
    question: int
    answer: str
    right: bool


@dataclass(frozen=True)
class Player:
    name: str
    carriages: int
    police: int = 0
    withdraw: int = 0
    lockpick: int = 0
    status: Status = "active"
    character: str = ""
    character_state: CharState = "none"
    wiggins: bool = False
    zone: int = 1
    checked: bool = False
    answers: tuple[str, ...] | None = None
    right_count: int = -1
    notes: tuple[int, ...] = ()
    consulted: frozenset[int] = frozenset()
    checks: tuple[CheckResult, ...] = ()

    @property
    def active(self) -> bool:
        return self.status == "active"


@dataclass(frozen=True)
class Placement:
    """A piece on a card this round. `location` is a card number as text, "cab" or "221b"."""

    seat: int
    location: str
    bid: int = 0


@dataclass(frozen=True)
class PendingCheck:
    """A physical-box answer check waiting for the table's verdict (WH-87)."""

    seat: int
    question: int
    answer: str = ""


@dataclass(frozen=True)
class WhState:
    players: tuple[Player, ...]
    case: Case
    characters: tuple[CharacterCard, ...]
    supply: Supply
    expert: bool = False
    play_on: bool = False
    phase: Phase = "visit"
    round: int = 1
    start_player: int = 0
    turn: int = 0
    placements: tuple[Placement, ...] = ()
    last_placer: int = -1
    watson: int = -1
    watson_paid: bool = False
    police_on: frozenset[int] = frozenset()
    public_cards: frozenset[int] = frozenset()
    pending: frozenset[int] = frozenset()
    announced: tuple[tuple[int, int], ...] = ()
    queue: tuple[tuple[int, ...], ...] = ()
    judging: tuple[int, ...] = ()
    verdicts: tuple[tuple[int, int], ...] = ()
    holmes_up: bool = False
    winners: tuple[int, ...] = ()
    also_solved: tuple[int, ...] = ()
    last_standing: int = -1
    extra_rounds: int = 0
    must_solve: bool = False
    pending_check: PendingCheck | None = None
    ended: str = ""
    failed_order: tuple[int, ...] = ()

    def placement_of(self, seat: int) -> Placement | None:
        for p in self.placements:
            if p.seat == seat:
                return p
        return None

    def occupant(self, location: str) -> Placement | None:
        if location in ("cab", "221b"):
            return None
        for p in self.placements:
            if p.location == location:
                return p
        return None

    def character_card(self, card_id: str) -> CharacterCard | None:
        for card in self.characters:
            if card.id == card_id:
                return card
        return None
