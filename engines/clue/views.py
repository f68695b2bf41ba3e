"""What each seat may see, the secrets list, and one seat's knowledge for the solver.

Hands and the envelope appear only where allowed: a hand in its owner's view; the envelope in the view
of a player who accused wrongly (they looked inside, CLUE-47) and, when the game is over, in every view;
a shown card only in the suggester's and the shower's views.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from engines.clue.content import SUSPECT, WEAPON
from engines.clue.knowledge import Fact, Knowledge
from engines.clue.state import DIGITAL, REFUTE, ClueState
from engines.core import Secret
from engines.parts import Card, Items, Part, Words, said
from engines.parts import phrase as ph


def _public(state: ClueState) -> dict[str, Any]:
    c = state.cards
    return {
        "set": c.id,
        "mode": state.mode,
        "cards": {"suspects": list(c.ids(0)), "weapons": list(c.ids(1)), "rooms": list(c.ids(2))},
        "players": [{"seat": i, "name": name, "suspect": state.suspects[i], "hand_size": state.hand_sizes[i],
                     "recorded": bool(state.hands[i]), "out": i in state.eliminated} for i, name in enumerate(state.players)],
        "first": state.first,
        "turn": state.turn,
        "phase": state.phase,
        "die": state.die,
        "asking": state.asking,
        "may_suggest": state.may_suggest,
        "moved": sorted(state.moved),
        "tokens": {s: state.tokens[i] for i, s in enumerate(c.ids(SUSPECT))},
        "weapons": {w: state.weapons[i] for i, w in enumerate(c.ids(WEAPON))},
        "suggestions": [{"n": r.n, "seat": r.seat, "suspect": r.suspect, "weapon": r.weapon, "room": r.room,
                         "passed": list(r.passed), "shown_by": r.shown_by, "done": r.done}
                        for r in state.history],
        "accusations": [{"seat": a.seat, "suspect": a.suspect, "weapon": a.weapon, "room": a.room,
                         "correct": a.correct} for a in state.accusations],
        "winner": state.winner,
        "over": state.over,
    }


@dataclass(frozen=True)
class Places:
    """Where the pieces stand on the physical board, as every view has it (public): per room of the set, in the
    set's order, the suspects' tokens and the weapons in it; the tokens on their start spaces or in the corridors
    (`out`, in the set's order); weapons in no room (`loose`: none in the rules, kept for a set that has any)."""

    rooms: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...]
    out: tuple[str, ...]
    loose: tuple[str, ...] = ()

    def room(self, room: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """(suspects, weapons) in `room`."""
        for rid, suspects, weapons in self.rooms:
            if rid == room:
                return suspects, weapons
        raise KeyError(room)


def places(v: Mapping[str, Any]) -> Places:
    """The board from a view's public part (`tokens`, `weapons`): a suggestion moved the named suspect and weapon
    into the suggester's room (CLUE-31)."""
    tokens: Mapping[str, str] = v["tokens"]
    weapons: Mapping[str, str] = v["weapons"]
    rooms = tuple((r, tuple(s for s in v["cards"]["suspects"] if tokens.get(s) == r),
                   tuple(w for w in v["cards"]["weapons"] if weapons.get(w) == r)) for r in v["cards"]["rooms"])
    known = set(v["cards"]["rooms"])
    return Places(rooms, tuple(s for s in v["cards"]["suspects"] if tokens.get(s, "") not in known),
                  tuple(w for w in v["cards"]["weapons"] if weapons.get(w, "") not in known))


def view(state: ClueState, seat: int | None) -> dict[str, Any]:
    out = _public(state)
    if state.over and state.envelope:
        out["envelope"] = list(state.envelope)
    if seat is None or not 0 <= seat < len(state.players):
        return out
    out["me"] = seat
    if state.hands[seat]:
        out["hand"] = list(state.hands[seat])
    if seat in state.eliminated and state.envelope:
        out["envelope"] = list(state.envelope)
    out["private_cards"] = [{"shown_card": {"n": s.n, "card": s.card}, "by": s.by, "to": s.to}
                            for s in state.shown if seat in (s.by, s.to)]
    if state.phase == REFUTE and state.asking == seat and (state.mode == DIGITAL or state.hands[seat]):
        out["can_show"] = [c for c in state.history[-1].named if c in state.hands[seat]]
    return out


def parts(state: ClueState, seat: int) -> list[Part]:
    """The seat's private screen: its hand, the cards shown to it and by it, the envelope once it looked
    inside (CLUE-47), and what it may show now."""
    if not 0 <= seat < len(state.players):
        return []

    def name(card: str) -> Words:
        c = state.cards.card(card)
        return said(c.ko, c.en)

    out: list[Part] = []
    if state.hands[seat]:
        out.append(Items(ph("hand"), tuple(name(c) for c in state.hands[seat])))
    to_me = tuple(Card(said(state.players[s.by]), name(s.card)) for s in state.shown if s.to == seat)
    by_me = tuple(Card(said(state.players[s.to]), name(s.card)) for s in state.shown if s.by == seat)
    if to_me:
        out.append(Items(ph("shown_to_me"), cards=to_me))
    if by_me:
        out.append(Items(ph("shown_by_me"), cards=by_me))
    if seat in state.eliminated and state.envelope and not state.over:
        out.append(Items(ph("envelope"), tuple(name(c) for c in state.envelope)))
    if state.phase == REFUTE and state.asking == seat and (state.mode == DIGITAL or state.hands[seat]):
        out.append(Items(ph("can_show"), tuple(name(c) for c in state.history[-1].named
                                                if c in state.hands[seat])))
    return out


def secrets(state: ClueState) -> list[Secret]:
    out = [Secret("hand", list(h), frozenset({i})) for i, h in enumerate(state.hands) if h]
    if state.envelope and not state.over:
        out.append(Secret("envelope", list(state.envelope), frozenset(state.eliminated)))
    out += [Secret("shown_card", {"n": s.n, "card": s.card}, frozenset({s.by, s.to})) for s in state.shown]
    return out


def knowledge_from_view(v: dict[str, Any]) -> Knowledge:
    """The same facts as `knowledge_for`, rebuilt from that seat's own view only (what the kiosk's
    private notebook uses: it never reads the state)."""
    seat = int(v["me"])
    cats = (tuple(v["cards"]["suspects"]), tuple(v["cards"]["weapons"]), tuple(v["cards"]["rooms"]))
    sizes = tuple(int(p["hand_size"]) for p in v["players"])
    facts: list[Fact] = [Fact("has", seat, (x,)) for x in v.get("hand", [])]
    seen = {(p["shown_card"]["n"], p["by"]): p["shown_card"]["card"] for p in v.get("private_cards", [])
            if p["to"] == seat}
    ref = 0
    for r in v["suggestions"]:
        named = (r["suspect"], r["weapon"], r["room"])
        for p in r["passed"]:
            if p != seat:
                facts.append(Fact("lacks", p, named))
        by = r["shown_by"]
        if by < 0 or by == seat:
            continue
        card = seen.get((r["n"], by))
        if card:
            facts.append(Fact("has", by, (card,)))
        else:
            ref += 1
            facts.append(Fact("one_of", by, named, ref))
    for a in v["accusations"]:
        if a["correct"] is False:
            facts.append(Fact("not_triple", -1, (a["suspect"], a["weapon"], a["room"])))
    if v["players"][seat]["out"] and "envelope" in v:
        facts += [Fact("envelope", -1, (x,)) for x in v["envelope"]]
    return Knowledge(cats, sizes, tuple(facts), seat)


def knowledge_for(state: ClueState, seat: int) -> Knowledge:
    """The facts `seat` may use: own hand, public passes and shows, cards shown to them, accusations."""
    c = state.cards
    cats = tuple(c.ids(k) for k in range(3))
    facts: list[Fact] = [Fact("has", seat, (x,)) for x in state.hands[seat]] if 0 <= seat < len(state.hands) else []
    seen = {(s.n, s.by): s.card for s in state.shown if s.to == seat}
    ref = 0
    for r in state.history:
        for p in r.passed:
            if p != seat:
                facts.append(Fact("lacks", p, r.named))
        if r.shown_by < 0 or r.shown_by == seat:
            continue
        card = seen.get((r.n, r.shown_by))
        if card:
            facts.append(Fact("has", r.shown_by, (card,)))
        else:
            ref += 1
            facts.append(Fact("one_of", r.shown_by, r.named, ref))
    for a in state.accusations:
        if a.correct is False:
            facts.append(Fact("not_triple", -1, a.named))
    if seat in state.eliminated and state.envelope:
        facts += [Fact("envelope", -1, (x,)) for x in state.envelope]
    return Knowledge(cats, state.hand_sizes, tuple(facts), seat)


def hidden_variants(state: ClueState) -> list[tuple[ClueState, frozenset[int]]]:
    """The game with one hidden fact changed, and who may see it: a card (never shown) moved between two
    hands (the two holders), or between the envelope and a hand (the holder and whoever saw the envelope)."""
    if state.over or state.mode != DIGITAL:
        return []
    shown = {s.card for s in state.shown}
    out: list[tuple[ClueState, frozenset[int]]] = []
    hands = state.hands
    free = [(seat, card) for seat, hand in enumerate(hands) for card in hand if card not in shown]
    c = state.cards
    for seat, card in free:
        other = next(((s2, x) for s2, x in free if s2 != seat and c.category_of(x) == c.category_of(card)), None)
        if other is not None:
            s2, x = other
            new = [list(h) for h in hands]
            new[seat][new[seat].index(card)] = x
            new[s2][new[s2].index(x)] = card
            out.append((replace(state, hands=tuple(tuple(h) for h in new)), frozenset({seat, s2})))
            break
    for seat, card in free:
        k = c.category_of(card)
        secret = state.envelope[k]
        new = [list(h) for h in hands]
        new[seat][new[seat].index(card)] = secret
        envelope = tuple(card if i == k else e for i, e in enumerate(state.envelope))
        out.append((replace(state, hands=tuple(tuple(h) for h in new), envelope=envelope),
                    frozenset({seat}) | state.eliminated))
        break
    return out
