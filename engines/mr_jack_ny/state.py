"""The state of one Mr. Jack in New York game, as the kiosk keeps it (no board positions: JACK-03)."""

from __future__ import annotations

from dataclasses import dataclass

from engines.mr_jack_ny.cards import TILE_AT_SETUP, TILE_KINDS, TILE_TOTAL

DETECTIVE = 0
JACK = 1
ROUNDS = 8
# Pick order of the four turns of a round (JACK-11, JACK-12 reading A: by round).
ORDER_ODD: tuple[int, ...] = (DETECTIVE, JACK, JACK, DETECTIVE)
ORDER_EVEN: tuple[int, ...] = (JACK, DETECTIVE, DETECTIVE, JACK)
SPY = "spy"

# Phases
SHUFFLE = "shuffle"  # CHANCE shuffles the 8 character cards (odd rounds)
PICK = "pick"  # the seat to move takes one of the offered cards
ACT = "act"  # that seat plays the character: ability, spy visit, arrest/escape, end of turn
WITNESS = "witness"  # the table reports who is visible; the kiosk sets the witness card
OVER = "over"


def order_of(round_no: int) -> tuple[int, ...]:
    return ORDER_ODD if round_no % 2 == 1 else ORDER_EVEN


@dataclass(frozen=True)
class Play:
    """One turn: the character card played and what was done with it."""

    round: int
    seat: int
    character: str
    ability_used: bool = False
    target: str = ""  # swap: the adjacent character; move_other: the moved character
    other: str = ""  # swap: whom the target changes place with
    tile: str = ""  # garden: the tile kind flipped; build/subway/lamp: the kind placed
    spy_visit: bool = False


@dataclass(frozen=True)
class Alibi:
    """An alibi card drawn at the spy; only `seat` sees `card`."""

    seat: int
    round: int
    card: str


@dataclass(frozen=True)
class WitnessCall:
    """The end-of-round call: which characters the table saw, and what the kiosk set."""

    round: int
    visible: frozenset[str]
    seen: bool  # the witness card: lit (Jack seen) or dark
    cleared: frozenset[str]  # newly cleared by this call


@dataclass(frozen=True)
class Tiles:
    """Tile counts per kind (TILE_KINDS order): in the supply, on the board, flipped to gardens."""

    supply: tuple[int, ...] = tuple(t - s for t, s in zip(TILE_TOTAL, TILE_AT_SETUP, strict=True))
    board: tuple[int, ...] = TILE_AT_SETUP
    gardens: tuple[int, ...] = (0, 0, 0)

    def count(self, where: str, kind: str) -> int:
        values: tuple[int, ...] = getattr(self, where)
        return values[TILE_KINDS.index(kind)]

    def moved(self, kind: str, src: str, dst: str) -> Tiles:
        i = TILE_KINDS.index(kind)
        data = {w: list(getattr(self, w)) for w in ("supply", "board", "gardens")}
        data[src][i] -= 1
        data[dst][i] += 1
        return Tiles(**{w: tuple(v) for w, v in data.items()})


@dataclass(frozen=True)
class JackState:
    players: tuple[str, ...]  # seat 0 the detective, seat 1 Jack
    roster: tuple[str, ...]  # the 8 character ids, content order
    kinds: tuple[str, ...]  # ability kind of each roster entry
    names_ko: tuple[str, ...]
    names_en: tuple[str, ...]
    jack: str  # the culprit (secret from the detective until the end)
    deck: tuple[str, ...]  # alibi cards left, top first
    round: int = 1
    phase: str = SHUFFLE
    shuffled: tuple[str, ...] = ()  # this pair of rounds: 4 for the odd round, then 4 for the even one
    turn: int = 0  # 0..3 within the round
    current: Play | None = None
    plays: tuple[Play, ...] = ()
    alibis: tuple[Alibi, ...] = ()
    calls: tuple[WitnessCall, ...] = ()
    witness_lit: bool = True  # JACK-08: starts lit (seen)
    spy_talking: bool = True  # JACK-06: starts talking
    innocent: frozenset[str] = frozenset()  # cleared by witness calls (public)
    tiles: Tiles = Tiles()
    blitz: int = 0  # optional per-turn reminder timer of the kiosk, seconds (0: off); no rule effect
    winner: int | None = None
    reason: str = ""

    def kind_of(self, cid: str) -> str:
        return self.kinds[self.roster.index(cid)]

    def name_ko(self, cid: str) -> str:
        return self.names_ko[self.roster.index(cid)] if cid in self.roster else cid

    def name_en(self, cid: str) -> str:
        return self.names_en[self.roster.index(cid)] if cid in self.roster else cid

    def offer(self) -> tuple[str, ...]:
        """The 4 cards of this round (taken ones included)."""
        return self.shuffled[:4] if self.round % 2 == 1 else self.shuffled[4:]

    def remaining(self) -> tuple[str, ...]:
        taken = {p.character for p in self.plays if p.round == self.round}
        if self.current is not None:
            taken.add(self.current.character)
        return tuple(c for c in self.offer() if c not in taken)

    def mover(self) -> int:
        return order_of(self.round)[self.turn]
