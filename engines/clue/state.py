"""Clue game state: frozen dataclasses of tuples and frozensets (JSON-safe through engines.serial)."""

from __future__ import annotations

from dataclasses import dataclass

from engines.clue.content import CardSet

DIGITAL, PHYSICAL = "digital", "physical"

# phases
HANDS = "hands"  # physical: each seat may record its real hand privately (or skip)
START = "start"  # the turn's player: roll, secret passage, suggest where moved, trapped, accuse
ROLL = "roll"  # chance: the die
MOVE = "move"  # after the roll: enter a room or stay in the corridors
IN_ROOM = "in_room"  # entered a room: suggest, accuse or end the turn
REFUTE = "refute"  # `asking` shows a card or passes
NOTE = "note"  # physical: the suggester privately notes the card shown (or skips)
AFTER = "after"  # accuse or end the turn
ACCUSE_CHECK = "accuse_check"  # physical: the accuser looks in the envelope and reports
OVER = "over"


@dataclass(frozen=True)
class SuggestionRecord:
    """Public: who suggested what, who passed, who showed (never which card)."""

    n: int
    seat: int
    suspect: str
    weapon: str
    room: str
    passed: tuple[int, ...] = ()
    shown_by: int = -1
    done: bool = False

    @property
    def named(self) -> tuple[str, str, str]:
        return (self.suspect, self.weapon, self.room)


@dataclass(frozen=True)
class ShownCard:
    """Private to `by` and `to`: the card shown for suggestion `n`."""

    n: int
    by: int
    to: int
    card: str


@dataclass(frozen=True)
class AccusationRecord:
    seat: int
    suspect: str
    weapon: str
    room: str
    correct: bool | None = None  # None while a physical accusation is being checked

    @property
    def named(self) -> tuple[str, str, str]:
        return (self.suspect, self.weapon, self.room)


@dataclass(frozen=True)
class ClueState:
    players: tuple[str, ...]
    suspects: tuple[str, ...]  # seat → suspect id (the player's token)
    cards: CardSet
    mode: str
    hand_sizes: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]  # digital: dealt; physical: as recorded by each seat (may be empty)
    envelope: tuple[str, ...]  # digital: (suspect, weapon, room); physical: ()
    first: int  # the starting seat
    turn: int
    phase: str
    tokens: tuple[str, ...]  # per suspect of the set: room id, or "" (start space / corridor)
    weapons: tuple[str, ...]  # per weapon of the set: room id
    moved: frozenset[str] = frozenset()  # suspects moved by another's suggestion since their last turn
    left_room: str = ""  # the room the turn's player started in (may not re-enter it this turn)
    may_suggest: bool = False
    die: int = 0
    asking: int = -1
    history: tuple[SuggestionRecord, ...] = ()
    shown: tuple[ShownCard, ...] = ()
    accusations: tuple[AccusationRecord, ...] = ()
    eliminated: frozenset[int] = frozenset()
    winner: int = -1
    over: bool = False

    def token_of(self, seat: int) -> str:
        return self.tokens[self.cards.ids(0).index(self.suspects[seat])]

    @property
    def current(self) -> SuggestionRecord | None:
        return self.history[-1] if self.history and not self.history[-1].done else None
