"""What each seat may see (`SpyView`, the game's part of a view, typed: the round and the seat's own part are
sub-parts), and the secrets the conformance checker guards.

Secrets (digital mode, until the round is scored): each seat's card (`card`), the location (`location`,
seen only by the seats holding it — never by the Joker before the reveal), each seat's ability card
(`ability`, until flipped), the deck drawn (`deck`, seen by nobody: it would name the location), and
sealed ballots (`my_ballot`). Physical mode holds no card secrets: the real cards do.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from engines.core import GamePart, Secret
from engines.parts import Card, Items, Part, Words, phrase, said
from engines.serial import to_jsonable
from engines.spyfall.content import DeckKind
from engines.spyfall.state import JOKER, Ending, Phase, RoundRecord, RoundState, SpyState
from engines.spyfall.tally import tally_limits
from engines.timers import Clock
from engines.votes import Choice, Vote, VoteKind


@dataclass(frozen=True)
class SpyCard(GamePart):
    """A seat's own card: the Joker, or a location (with, under the Harley module, whether it bears the icon)."""

    kind: Literal["joker", "location"]
    ko: str
    en: str
    location: str | None = None
    harley: bool | None = None


@dataclass(frozen=True)
class AbilityCard:
    id: str
    ko: str
    en: str
    text_ko: str
    text_en: str
    one_shot: bool


@dataclass(frozen=True)
class Me(GamePart):
    """The seat's own part: its card (digital deal), its ability card (Power-up) and what it has used."""

    seat: int
    name: str
    accused_already: bool
    called_multiverse: bool
    card: SpyCard | None = None
    ability: AbilityCard | None = None
    ability_flipped: bool | None = None


def card_of(state: SpyState, r: RoundState, seat: int) -> SpyCard:
    """A seat's own card, as its private screen shows it."""
    assert r.facts is not None
    value = r.facts.cards[seat]
    if value == JOKER:
        return SpyCard("joker", "조커", "Joker")
    place = state.place(value)
    return SpyCard("location", place.ko, place.en, value, seat == r.facts.harley if state.settings.harley else None)


def card_view(state: SpyState, r: RoundState, seat: int) -> dict[str, Any]:
    """`card_of`'s JSON (the deal's private event, the secrets list)."""
    return card_of(state, r, seat).to_dict()


def ability_of(state: SpyState, r: RoundState, seat: int) -> AbilityCard:
    assert r.powers is not None
    card = state.ability_cards[r.powers.cards[seat]]
    return AbilityCard(card.id, card.ko, card.en, card.text_ko, card.text_en, card.one_shot)


def parts_of(game: SpyView) -> list[Part]:
    """The seat's private screen, from its view's own fields: its card, its ability card, its sealed ballot, what
    it has used."""
    me, r = game.me, game.round
    if me is None or r is None:
        return []
    out: list[Part] = []
    if me.card is not None:
        if me.card.kind == "joker":
            out.append(Card(phrase("role_card"), phrase("joker"), (phrase("joker_hint"),), tone="secret"))
        else:
            out.append(Card(phrase("location_card"), said(me.card.ko, me.card.en),
                            (phrase("harley"),) if me.card.harley else ()))
    if me.ability is not None:
        ab = me.ability
        used = (phrase("ability_flipped"),) if me.ability_flipped else ()
        out.append(Card(phrase("ability"), said(ab.ko, ab.en), (said(ab.text_ko, ab.text_en), *used)))
    ballot = r.vote.my_ballot if r.vote is not None else None
    if ballot is not None:
        title = said(game.players[ballot]) if isinstance(ballot, int) else phrase(str(ballot))
        out.append(Card(phrase("my_ballot"), title))
    done: list[Words] = [phrase(k) for k, on in (("accused_already", me.accused_already),
                                                  ("called_multiverse", me.called_multiverse)) if on]
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
        out += [Secret("ability", to_jsonable(ability_of(state, r, s)), frozenset({s})) for s in range(n) if s not in r.flipped]
    return out


@dataclass(frozen=True)
class SpySettings:
    rounds: int
    power_up: bool
    harley: bool
    prank: bool
    multiverse: bool
    deal: Literal["physical", "digital"]
    votes: Literal["sealed", "open"]
    round_seconds: float
    discussion_seconds: float
    harley_seconds: float


@dataclass(frozen=True)
class PastRound:
    """A finished round, everything revealed."""

    number: int
    dealer: int
    deck: str
    kind: DeckKind
    bag: int
    cards: tuple[str, ...]
    joker: int
    harley: int
    place: str
    place_ko: str
    place_en: str
    ending: Ending
    convicted: int
    accuser: int
    guess: str
    points: tuple[int, ...]
    abilities: tuple[str, ...]


@dataclass(frozen=True)
class Place:
    """A location of the list always on screen for everyone (SPY-08, SPY-26); its key is "id", never "location"."""

    id: str
    ko: str
    en: str
    aliases: tuple[str, ...]


@dataclass(frozen=True)
class ClockFace:
    """A clock as a screen draws it with its own wall time (engines.timers.Clock.to_view)."""

    duration: float
    running: bool
    deadline: float | None
    remaining_paused: float | None
    started: bool


@dataclass(frozen=True)
class Ballots(GamePart):
    """A vote: open votes show every ballot (`ballots`, voter as text → choice); sealed ones only who has voted,
    and the seat its own ballot (`my_ballot`)."""

    kind: VoteKind
    eligible: tuple[int, ...]
    options: tuple[Choice, ...]
    sealed: bool
    voted: tuple[int, ...]
    complete: bool
    ballots: Mapping[str, Choice] | None = None
    my_ballot: Choice | None = None


@dataclass(frozen=True)
class Tally:
    """A pointing vote entered by hand: the fingers it holds and the most each seat may hold."""

    fingers: int
    most: tuple[int, ...]


@dataclass(frozen=True)
class Flipped:
    """An ability card face up (Power-up): whose, and which."""

    seat: int
    id: str
    ko: str
    en: str


@dataclass(frozen=True)
class RoundView(GamePart):
    """The round as everyone sees it. -1 / "" / None: not (yet). The fields defaulting to None are held while
    they mean something: the hand tally, the accusation in progress, the bag (physical), the face-up ability
    cards (Power-up), the round revealed once scored."""

    number: int
    dealer: int
    phase: Phase
    clock: ClockFace
    talk: ClockFace | None  # the discussion or Harley-hunt timer
    accusations: tuple[tuple[int, int], ...]  # (accuser, accused), in order
    used_accusation: tuple[int, ...]
    multiverse_callers: tuple[int, ...]
    revealer: int  # the Joker who revealed themselves
    guess: str
    guess_correct: bool | None
    prank_by: int
    hunt_suspect: int
    ending: str
    convicted: int
    accuser: int
    pride_by: int
    counts: Mapping[str, int]  # the last decided vote's
    points: tuple[int, ...]
    vote: Ballots | None
    tally: Tally | None = None
    accuser_now: int | None = None
    accused_now: int | None = None
    bag: int | None = None
    flipped: tuple[Flipped, ...] | None = None
    revealed: PastRound | None = None


@dataclass(frozen=True)
class SpyView(GamePart):
    """The game's part of one seat's view: the session (players, settings, totals, rounds played, the location
    list), the round under way (`round`) and the seat's own part (`me`: seat views while a round is on)."""

    players: tuple[str, ...]
    settings: SpySettings
    totals: tuple[int, ...]
    history: tuple[PastRound, ...]
    decks_left: int
    over: bool
    locations: tuple[Place, ...]
    round: RoundView | None = None
    me: Me | None = None


def _seat(seat: int | None) -> int:
    return -1 if seat is None else seat


def _record(state: SpyState, rec: RoundRecord) -> PastRound:
    place = state.place(rec.place) if rec.place else None
    return PastRound(rec.number, rec.dealer, rec.deck, rec.kind, state.deck(rec.deck).bag, rec.cards, rec.joker,
                     rec.harley, rec.place, place.ko if place else "", place.en if place else "", rec.ending,
                     rec.convicted, rec.accuser, rec.guess, rec.points, rec.abilities)


def _ballots(vote: Vote, seat: int | None) -> Ballots:
    return Ballots(vote.kind, vote.eligible, vote.options, vote.sealed, tuple(sorted(vote.voted)), vote.complete,
                   ballots={str(v): c for v, c in vote.ballots} if not vote.sealed else None,
                   my_ballot=vote.ballot_of(seat) if vote.sealed and seat is not None else None)


def _face(clock: Clock) -> ClockFace:
    """As `Clock.to_view`: while paused or idle, what is left (a paused clock's remaining time needs no moment)."""
    return ClockFace(clock.duration, clock.running, clock.deadline, None if clock.running else clock.remaining(0.0),
                     clock.started)


def _round(state: SpyState, r: RoundState, seat: int | None) -> RoundView:
    s, j, v = state.settings, r.joker, r.verdict
    tally = None
    if r.vote is not None and r.vote.kind is VoteKind.PLURALITY and not r.vote.sealed:  # entered by hand
        fingers, most = tally_limits(len(state.players), r.vote.eligible, tuple(map(int, r.vote.options)))
        tally = Tally(fingers, most)
    now = r.accusations[-1] if r.phase in ("accusation", "pride") and r.accusations else None
    cards = [state.ability_cards[i] for i in r.powers.cards] if r.powers is not None else []
    return RoundView(
        number=r.number, dealer=r.dealer, phase=r.phase, clock=_face(r.clock),
        talk=_face(r.talk) if r.talk is not None else None,
        accusations=r.accusations, used_accusation=tuple(sorted(set(r.accusers))), multiverse_callers=r.callers,
        revealer=_seat(j.seat if j else None), guess=(j.guess if j else None) or "",
        guess_correct=j.correct if j else None, prank_by=_seat(j.seat if j and j.prank else None),
        hunt_suspect=_seat(j.hunt_suspect if j else None),
        ending=v.ending if v else "", convicted=_seat(v.convicted if v else None),
        accuser=_seat(v.accuser if v else None),
        pride_by=_seat(r.pride.by if r.pride is not None else None), counts=dict(r.counts), points=r.points,
        vote=_ballots(r.vote, seat) if r.vote is not None else None,
        tally=tally,
        accuser_now=now[0] if now else None, accused_now=now[1] if now else None,
        bag=state.deck(r.deck).bag if s.physical and r.deck else None,
        flipped=tuple(Flipped(x, cards[x].id, cards[x].ko, cards[x].en) for x in sorted(r.flipped))
        if r.powers is not None else None,
        revealed=_record(state, state.history[-1])
        if _in_round(state) is None and r.phase == "round_over" and state.history else None,
    )


def view_of(state: SpyState, seat: int | None) -> SpyView:
    s, r = state.settings, state.round
    me = None
    if r is not None and seat is not None and seat >= 0:
        me = Me(seat, state.players[seat], seat in r.accusers, seat in r.callers,
                card=card_of(state, r, seat) if r.facts is not None and not s.physical else None,
                ability=ability_of(state, r, seat) if r.powers is not None else None,
                ability_flipped=seat in r.flipped if r.powers is not None else None)
    return SpyView(
        players=state.players,
        settings=SpySettings(s.rounds, s.power_up, s.harley, s.prank, s.multiverse,
                             "physical" if s.physical else "digital", "sealed" if s.sealed else "open",
                             s.round_s, s.discussion_s, s.harley_s),
        totals=state.totals,
        history=tuple(_record(state, rec) for rec in state.history),
        decks_left=len([d for d in state.pool if d not in state.used]),
        over=state.over,
        locations=tuple(Place(loc.id, loc.ko, loc.en, tuple(loc.aliases)) for loc in state.locations),
        round=_round(state, r, seat) if r is not None else None,
        me=me,
    )


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
