"""What each seat may see: `JackView`, the game's part of a view, typed. Jack's identity (`jack`) is in Jack's
view only until the game ends; an alibi card drawn at the spy is in its drawer's view only (`my_alibis`); the
table view holds neither. The seat's private screen (`parts`) is drawn from the same fields."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from engines.core import GamePart
from engines.mr_jack_ny.cards import TILE_KINDS
from engines.mr_jack_ny.state import DETECTIVE, JACK, OVER, ROUNDS, JackState, Play, WitnessCall, order_of
from engines.parts import Card, Items, Part, Reveal, Words, phrase, said

Role = Literal["detective", "jack"]
ROLE: dict[int, Role] = {DETECTIVE: "detective", JACK: "jack"}
COLOUR = {DETECTIVE: "yellow", JACK: "black"}  # JACK-10: the round track's card colours
ROLES: Mapping[str, Role] = {"0": "detective", "1": "jack"}


@dataclass(frozen=True)
class Round:
    """A round on the track: whose turns in which order (and their cards' colours), and whether it is done."""

    round: int
    order: tuple[Role, ...]
    colours: tuple[str, ...]
    done: bool


@dataclass(frozen=True)
class Character:
    id: str
    name_ko: str
    name_en: str
    ability: str
    innocent: bool  # cleared by a witness call (public)


@dataclass(frozen=True)
class Draw:
    """An alibi card drawn at the spy: who drew it when (the card is the drawer's: `MyAlibi`)."""

    seat: int
    round: int


@dataclass(frozen=True)
class MyAlibi:
    alibi: str
    round: int


@dataclass(frozen=True)
class ShownAlibi:
    """An alibi card as the end of the game shows it to everyone."""

    seat: int
    round: int
    alibi: str


@dataclass(frozen=True)
class TileCount:
    supply: int
    board: int
    gardens: int


@dataclass(frozen=True)
class JackView(GamePart):
    """The game's part of one seat's view. The fields defaulting to None are held by some views only (left out
    of the JSON there): the seat's own part (`me`, `my_alibis`, the detective's `my_suspects`), Jack's identity
    (Jack's view, and every view once the game is over) and the ending."""

    players: tuple[str, ...]
    roles: Mapping[str, Role]  # seat (as text) → role: seat 0 the detective, seat 1 Jack
    round: int
    rounds: int
    blitz: int  # the kiosk's per-turn reminder, seconds (0: off)
    phase: str
    turn: int  # 0..3 within the round
    to_move: Role | None
    track: tuple[Round, ...]
    offer: tuple[str, ...]  # this round's 4 cards (taken ones included)
    remaining: tuple[str, ...]  # the ones still to take
    current: Play | None
    plays: tuple[Play, ...]
    characters: tuple[Character, ...]
    suspects: tuple[str, ...]  # not cleared by a witness call
    witness: Literal["lit", "dark"]
    calls: tuple[WitnessCall, ...]
    spy: Literal["talking", "silent"]
    alibi_deck: int  # cards left
    alibi_draws: tuple[Draw, ...]
    tiles: Mapping[str, TileCount]  # per tile kind
    me: Role | None = None
    my_alibis: tuple[MyAlibi, ...] | None = None
    my_suspects: tuple[str, ...] | None = None  # the detective's own board: public clears and his alibi cards
    jack: str | None = None
    winner: Role | None = None
    reason: str | None = None
    all_alibis: tuple[ShownAlibi, ...] | None = None

    def character(self, cid: str) -> Character | None:
        return next((c for c in self.characters if c.id == cid), None)


def track(state: JackState) -> tuple[Round, ...]:
    """The round track: per round, whose turns in which order, and which rounds are done."""
    return tuple(Round(r, tuple(ROLE[s] for s in order_of(r)), tuple(COLOUR[s] for s in order_of(r)),
                       r < state.round or state.phase == OVER and r <= state.round)
                 for r in range(1, ROUNDS + 1))


def view(state: JackState, seat: int | None) -> JackView:
    over = state.phase == OVER
    mover = state.mover() if state.phase in ("pick", "act") else None
    mine = tuple(a for a in state.alibis if a.seat == seat)
    own = state.innocent | {a.card for a in mine}  # the detective's own board
    return JackView(
        players=state.players,
        roles=ROLES,
        round=state.round,
        rounds=ROUNDS,
        blitz=state.blitz,
        phase=state.phase,
        turn=state.turn,
        to_move=ROLE.get(mover) if mover is not None else None,
        track=track(state),
        offer=state.offer() if state.shuffled else (),
        remaining=state.remaining() if state.shuffled else (),
        current=state.current,
        plays=state.plays,
        characters=tuple(Character(c, state.names_ko[i], state.names_en[i], state.kinds[i], c in state.innocent)
                         for i, c in enumerate(state.roster)),
        suspects=tuple(c for c in state.roster if c not in state.innocent),
        witness="lit" if state.witness_lit else "dark",
        calls=state.calls,
        spy="talking" if state.spy_talking else "silent",
        alibi_deck=len(state.deck),
        alibi_draws=tuple(Draw(a.seat, a.round) for a in state.alibis),
        tiles={k: TileCount(state.tiles.supply[i], state.tiles.board[i], state.tiles.gardens[i])
               for i, k in enumerate(TILE_KINDS)},
        me=ROLE[seat] if seat in ROLE else None,
        my_alibis=tuple(MyAlibi(a.card, a.round) for a in mine) if seat in ROLE else None,
        my_suspects=tuple(c for c in state.roster if c not in own) if seat == DETECTIVE else None,
        jack=state.jack if seat == JACK or over else None,
        winner=(ROLE[state.winner] if state.winner is not None else None) if over else None,
        reason=state.reason if over else None,
        all_alibis=tuple(ShownAlibi(a.seat, a.round, a.card) for a in state.alibis) if over else None,
    )


def parts(game: JackView) -> list[Part]:
    """The seat's private screen, from its view's own fields: its role, Jack's identity (Jack only, held to see;
    JACK-09), the alibi cards it drew and, for the detective, the suspects left on his own board."""
    if game.me is None:
        return []

    def name(cid: str) -> Words:
        c = game.character(cid)
        return said(c.name_ko, c.name_en) if c is not None else said(cid, cid)

    out: list[Part] = [Card(phrase("role"), phrase(game.me), tone="secret" if game.me == "jack" else "")]
    if game.me == "jack" and game.jack is not None and game.phase != OVER:
        out.append(Reveal(phrase("jack_is"), name(game.jack)))
    if game.my_alibis:
        out.append(Items(phrase("my_alibis"), tuple(name(a.alibi) for a in game.my_alibis)))
    if game.my_suspects is not None:
        out.append(Items(phrase("my_suspects"), tuple(name(c) for c in game.my_suspects)))
    return out


def hidden_variants(state: JackState) -> list[tuple[JackState, frozenset[int]]]:
    """The game with one hidden fact changed, and who may see it: Jack is another suspect still in the
    alibi deck (Jack's player), or the deck's next two cards trade places (nobody)."""
    if state.phase == OVER:
        return []
    out: list[tuple[JackState, frozenset[int]]] = []
    other = next((c for c in state.deck if c not in state.innocent), None)
    if other is not None:
        deck = tuple(state.jack if c == other else c for c in state.deck)
        out.append((dataclasses.replace(state, jack=other, deck=deck), frozenset({JACK})))
    if len(state.deck) >= 2 and state.deck[0] != state.deck[1]:
        deck = (state.deck[1], state.deck[0], *state.deck[2:])
        out.append((dataclasses.replace(state, deck=deck), frozenset()))
    return out
