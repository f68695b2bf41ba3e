"""What each seat may see, and the secrets the conformance checker guards.

Secrets (digital mode, until the round is scored): each seat's card (`card`), the location (`location`,
seen only by the seats holding it — never by the Joker before the reveal), each seat's ability card
(`ability`, until flipped), the deck drawn (`deck`, seen by nobody: it would name the location), and
sealed ballots (`my_ballot`). Physical mode holds no card secrets: the real cards do.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any

from engines.core import Secret
from engines.parts import Card, Items, Part, Words, phrase, said
from engines.spyfall.state import JOKER, RoundRecord, RoundState, SpyState
from engines.spyfall.tally import tally_limits
from engines.votes import VoteKind


def card_view(state: SpyState, r: RoundState, seat: int) -> dict[str, Any]:
    """A seat's own card, as its private screen shows it."""
    assert r.facts is not None
    value = r.facts.cards[seat]
    if value == JOKER:
        return {"kind": "joker", "ko": "조커", "en": "Joker"}
    place = state.place(value)
    out: dict[str, Any] = {"kind": "location", "location": value, "ko": place.ko, "en": place.en}
    if state.settings.harley:
        out["harley"] = seat == r.facts.harley
    return out


def ability_view(state: SpyState, r: RoundState, seat: int) -> dict[str, Any]:
    assert r.powers is not None
    card = state.ability_cards[r.powers.cards[seat]]
    return {"id": card.id, "ko": card.ko, "en": card.en, "text_ko": card.text_ko, "text_en": card.text_en,
            "one_shot": card.one_shot}


def parts_of(state: SpyState, seat: int) -> list[Part]:
    """The seat's private screen: its card, its ability card, its sealed ballot, what it has used."""
    r = state.round
    if r is None:
        return []
    out: list[Part] = []
    if r.facts is not None and not state.settings.physical:
        card = card_view(state, r, seat)
        if card["kind"] == "joker":
            out.append(Card(phrase("role_card"), phrase("joker"), (phrase("joker_hint"),), tone="secret"))
        else:
            out.append(Card(phrase("location_card"), said(card["ko"], card["en"]),
                            (phrase("harley"),) if card.get("harley") else ()))
    if r.powers is not None:
        ab = state.ability_cards[r.powers.cards[seat]]
        used = (phrase("ability_flipped"),) if seat in r.flipped else ()
        out.append(Card(phrase("ability"), said(ab.ko, ab.en), (said(ab.text_ko, ab.text_en), *used)))
    ballot = r.vote.ballot_of(seat) if r.vote is not None and r.vote.sealed else None
    if ballot is not None:
        title = said(state.players[ballot]) if isinstance(ballot, int) else phrase(str(ballot))
        out.append(Card(phrase("my_ballot"), title))
    done: list[Words] = [phrase(k) for k, on in (("accused_already", seat in r.accusers),
                                                  ("called_multiverse", seat in r.callers)) if on]
    if done:
        out.append(Items(phrase("done"), tuple(done)))
    return out


def _in_round(state: SpyState) -> RoundState | None:
    """The current round while its cards are still secret."""
    r = state.round
    if r is None or r.phase == "round_over" or state.over or r.facts is None or state.settings.physical:
        return None
    return r


def secrets_of(state: SpyState) -> list[Secret]:
    out: list[Secret] = []
    r = state.round
    if r is not None and r.vote is not None and r.vote.sealed:
        by_choice: dict[str, set[int]] = {}
        for voter, choice in r.vote.ballots:
            by_choice.setdefault(json.dumps(choice), set()).add(voter)
        out += [Secret("my_ballot", json.loads(c), frozenset(s)) for c, s in by_choice.items()]
    r = _in_round(state)
    if r is None:
        return out
    assert r.facts is not None
    n = len(state.players)
    groups: dict[str, set[int]] = {}
    for seat in range(n):
        groups.setdefault(json.dumps(card_view(state, r, seat), sort_keys=True), set()).add(seat)
    # a Joker who revealed themselves is public from then on (the table saw the card)
    revealer = r.joker.seat if r.joker is not None else None
    out += [Secret("card", json.loads(v), frozenset(s)) for v, s in groups.items() if revealer not in s]
    places: dict[str, set[int]] = {}
    for seat, value in enumerate(r.facts.cards):
        if value != JOKER:
            places.setdefault(value, set()).add(seat)
    out += [Secret("location", p, frozenset(s)) for p, s in places.items()]
    out.append(Secret("deck", r.deck, frozenset()))
    if r.powers is not None:
        out += [Secret("ability", ability_view(state, r, s), frozenset({s})) for s in range(n) if s not in r.flipped]
    return out


def _seat(seat: int | None) -> int:
    return -1 if seat is None else seat


def _joker_view(r: RoundState) -> dict[str, Any]:
    """The Joker's reveal as the table sees it (-1 / "" / None: not yet)."""
    j = r.joker
    return {"revealer": _seat(j.seat if j else None), "guess": (j.guess if j else None) or "",
            "guess_correct": j.correct if j else None, "prank_by": _seat(j.seat if j and j.prank else None),
            "hunt_suspect": _seat(j.hunt_suspect if j else None)}


def _verdict_view(r: RoundState) -> dict[str, Any]:
    v = r.verdict
    return {"ending": v.ending if v else "", "convicted": _seat(v.convicted if v else None),
            "accuser": _seat(v.accuser if v else None)}


def _record(state: SpyState, rec: RoundRecord) -> dict[str, Any]:
    place = state.place(rec.place) if rec.place else None
    return {"number": rec.number, "dealer": rec.dealer, "deck": rec.deck, "kind": rec.kind,
            "bag": state.deck(rec.deck).bag, "cards": list(rec.cards), "joker": rec.joker,
            "harley": rec.harley, "place": rec.place, "place_ko": place.ko if place else "",
            "place_en": place.en if place else "", "ending": rec.ending, "convicted": rec.convicted,
            "accuser": rec.accuser, "guess": rec.guess, "points": list(rec.points),
            "abilities": list(rec.abilities)}


def view_of(state: SpyState, seat: int | None) -> dict[str, Any]:
    s = state.settings
    out: dict[str, Any] = {
        "players": list(state.players),
        "settings": {"rounds": s.rounds, "power_up": s.power_up, "harley": s.harley, "prank": s.prank,
                     "multiverse": s.multiverse, "deal": "physical" if s.physical else "digital",
                     "votes": "sealed" if s.sealed else "open", "round_seconds": s.round_s,
                     "discussion_seconds": s.discussion_s, "harley_seconds": s.harley_s},
        "totals": list(state.totals),
        "history": [_record(state, rec) for rec in state.history],
        "decks_left": len([d for d in state.pool if d not in state.used]),
        "over": state.over,
        # the location list, always on screen for everyone (SPY-08, SPY-26); keyed "id", never "location"
        "locations": [{"id": loc.id, "ko": loc.ko, "en": loc.en, "aliases": list(loc.aliases)}
                      for loc in state.locations],
    }
    r = state.round
    if r is not None:
        rv: dict[str, Any] = {
            "number": r.number, "dealer": r.dealer, "phase": r.phase, "clock": r.clock.to_view(),
            "talk": r.talk.to_view() if r.talk is not None else None,
            "accusations": [list(x) for x in r.accusations], "used_accusation": sorted(set(r.accusers)),
            "multiverse_callers": list(r.callers), **_joker_view(r), **_verdict_view(r),
            "pride_by": _seat(r.pride.by if r.pride is not None else None), "counts": {k: v for k, v in r.counts},
            "points": list(r.points), "vote": r.vote.to_view(seat) if r.vote is not None else None,
        }
        if r.vote is not None and r.vote.kind is VoteKind.PLURALITY and not r.vote.sealed:  # entered by hand
            fingers, most = tally_limits(len(state.players), r.vote.eligible, tuple(map(int, r.vote.options)))
            rv["tally"] = {"fingers": fingers, "most": list(most)}
        if r.phase in ("accusation", "pride") and r.accusations:
            rv["accuser_now"], rv["accused_now"] = r.accusations[-1]
        if s.physical and r.deck:
            rv["bag"] = state.deck(r.deck).bag
        if r.powers is not None:
            cards = [state.ability_cards[i] for i in r.powers.cards]
            rv["flipped"] = [{"seat": x, "id": cards[x].id, "ko": cards[x].ko, "en": cards[x].en}
                             for x in sorted(r.flipped)]
        if _in_round(state) is None and r.phase == "round_over" and state.history:
            rv["revealed"] = _record(state, state.history[-1])
        out["round"] = rv
        if seat is not None and seat >= 0:
            me: dict[str, Any] = {"seat": seat, "name": state.players[seat],
                                  "accused_already": seat in r.accusers, "called_multiverse": seat in r.callers}
            if r.facts is not None and not s.physical:
                me["card"] = card_view(state, r, seat)
            if r.powers is not None:
                me["ability"] = ability_view(state, r, seat)
                me["ability_flipped"] = seat in r.flipped
            out["me"] = me
    return out


def hidden_variants(state: SpyState) -> list[tuple[SpyState, frozenset[int]]]:
    """The round with one hidden fact changed, and who may see it: two seats' cards swapped, two seats'
    ability cards swapped, another location (seen by every location holder), a sealed ballot changed."""
    out: list[tuple[SpyState, frozenset[int]]] = []
    r = state.round
    if r is not None and r.vote is not None and r.vote.sealed and r.vote.ballots:
        voter, ballot = r.vote.ballots[0]
        other = next((o for o in r.vote.options if o != ballot and o != voter), None)
        if other is not None:
            vote = dataclasses.replace(r.vote, ballots=((voter, other), *r.vote.ballots[1:]))
            out.append((dataclasses.replace(state, round=dataclasses.replace(r, vote=vote)), frozenset({voter})))
    r = _in_round(state)
    if r is None:
        return out
    facts = r.facts
    assert facts is not None
    cards = facts.cards
    pair = next(((a, b) for a in range(len(cards)) for b in range(a + 1, len(cards))
                 if cards[a] != cards[b] or (facts.harley in (a, b))), None)
    if pair is not None and not set(pair) & r.flipped:
        a, b = pair
        swapped = list(cards)
        swapped[a], swapped[b] = cards[b], cards[a]
        dealt = list(r.dealt)
        dealt[a], dealt[b] = r.dealt[b], r.dealt[a]
        swap: dict[int | None, int | None] = {a: b, b: a}
        nf = dataclasses.replace(facts, cards=tuple(swapped), harley=swap.get(facts.harley, facts.harley),
                                 joker=swap.get(facts.joker, facts.joker))
        out.append((_with_round(state, dataclasses.replace(r, facts=nf, dealt=tuple(dealt))), frozenset(pair)))
    unflipped = [s for s in range(len(r.powers.cards)) if s not in r.flipped] if r.powers is not None else []
    if r.powers is not None and len(unflipped) >= 2:
        a, b = unflipped[:2]
        ab = list(r.powers.cards)
        ab[a], ab[b] = ab[b], ab[a]
        powers = dataclasses.replace(r.powers, cards=tuple(ab))
        out.append((_with_round(state, dataclasses.replace(r, powers=powers)), frozenset({a, b})))
    spare = [d for d in state.pool if d not in state.used and state.deck(d).kind == "standard"]
    if facts.kind == "standard" and spare:
        new = state.deck(spare[0])
        holders = frozenset(s for s, c in enumerate(cards) if c != JOKER)
        nf = dataclasses.replace(facts, location=new.location,
                                 cards=tuple(JOKER if c == JOKER else new.location for c in cards))
        used = tuple(new.id if d == r.deck else d for d in state.used)
        variant = dataclasses.replace(_with_round(state, dataclasses.replace(r, facts=nf, deck=new.id)), used=used)
        out.append((variant, holders))
    return out


def _with_round(state: SpyState, r: RoundState) -> SpyState:
    return dataclasses.replace(state, round=r)
