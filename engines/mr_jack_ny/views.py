"""What each seat may see. Jack's identity is in Jack's view only (key "jack") until the game ends; an
alibi card drawn at the spy is in its drawer's view only (key "alibi"); the table view holds neither."""

from __future__ import annotations

import dataclasses
from typing import Any

from engines.mr_jack_ny.cards import TILE_KINDS
from engines.mr_jack_ny.state import DETECTIVE, JACK, OVER, ROUNDS, JackState, Play, order_of
from engines.parts import Card, Items, Part, Reveal, Words, phrase, said

ROLE = {DETECTIVE: "detective", JACK: "jack"}
COLOUR = {DETECTIVE: "yellow", JACK: "black"}  # JACK-10: the round track's card colours


def _play(p: Play) -> dict[str, Any]:
    return {"round": p.round, "seat": p.seat, "character": p.character, "ability_used": p.ability_used,
            "target": p.target, "other": p.other, "tile": p.tile, "spy_visit": p.spy_visit}


def track(state: JackState) -> list[dict[str, Any]]:
    """The round track: per round, whose turns in which order, and which rounds are done."""
    return [{"round": r, "order": [ROLE[s] for s in order_of(r)], "colours": [COLOUR[s] for s in order_of(r)],
             "done": r < state.round or state.phase == OVER and r <= state.round}
            for r in range(1, ROUNDS + 1)]


def view(state: JackState, seat: int | None) -> dict[str, Any]:
    over = state.phase == OVER
    mover = state.mover() if state.phase in ("pick", "act") else None
    characters = [{"id": c, "name_ko": state.names_ko[i], "name_en": state.names_en[i],
                   "ability": state.kinds[i], "innocent": c in state.innocent}
                  for i, c in enumerate(state.roster)]
    out: dict[str, Any] = {
        "players": list(state.players),
        "roles": {"0": "detective", "1": "jack"},
        "round": state.round,
        "rounds": ROUNDS,
        "blitz": state.blitz,
        "phase": state.phase,
        "turn": state.turn,
        "to_move": ROLE.get(mover) if mover is not None else None,
        "track": track(state),
        "offer": list(state.offer()) if state.shuffled else [],
        "remaining": list(state.remaining()) if state.shuffled else [],
        "current": _play(state.current) if state.current is not None else None,
        "plays": [_play(p) for p in state.plays],
        "characters": characters,
        "suspects": [c for c in state.roster if c not in state.innocent],
        "witness": "lit" if state.witness_lit else "dark",
        "calls": [{"round": w.round, "visible": sorted(w.visible), "seen": w.seen, "cleared": sorted(w.cleared)}
                  for w in state.calls],
        "spy": "talking" if state.spy_talking else "silent",
        "alibi_deck": len(state.deck),
        "alibi_draws": [{"seat": a.seat, "round": a.round} for a in state.alibis],
        "tiles": {k: {"supply": state.tiles.supply[i], "board": state.tiles.board[i],
                      "gardens": state.tiles.gardens[i]} for i, k in enumerate(TILE_KINDS)},
    }
    if seat in (DETECTIVE, JACK):
        out["me"] = ROLE[seat]
        mine = [a for a in state.alibis if a.seat == seat]
        out["my_alibis"] = [{"alibi": a.card, "round": a.round} for a in mine]
        if seat == DETECTIVE:
            # The detective's own board: public clears plus the alibi cards he drew.
            own = state.innocent | {a.card for a in mine}
            out["my_suspects"] = [c for c in state.roster if c not in own]
    if seat == JACK or over:
        out["jack"] = state.jack
    if over:
        out["winner"] = ROLE.get(state.winner) if state.winner is not None else None
        out["reason"] = state.reason
        out["all_alibis"] = [{"seat": a.seat, "round": a.round, "alibi": a.card} for a in state.alibis]
    return out


def parts(state: JackState, seat: int) -> list[Part]:
    """The seat's private screen: its role, Jack's identity (Jack only, held to see; JACK-09), the alibi
    cards it drew and, for the detective, the suspects left on his own board."""
    if seat not in (DETECTIVE, JACK):
        return []

    def name(c: str) -> Words:
        i = state.roster.index(c)
        return said(state.names_ko[i], state.names_en[i])

    out: list[Part] = [Card(phrase("role"), phrase(ROLE[seat]), tone="secret" if seat == JACK else "")]
    if seat == JACK and state.phase != OVER:
        out.append(Reveal(phrase("jack_is"), name(state.jack)))
    mine = [a.card for a in state.alibis if a.seat == seat]
    if mine:
        out.append(Items(phrase("my_alibis"), tuple(name(c) for c in mine)))
    if seat == DETECTIVE:
        own = state.innocent | set(mine)
        out.append(Items(phrase("my_suspects"), tuple(name(c) for c in state.roster if c not in own)))
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
