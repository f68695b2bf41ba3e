"""What each seat may see: `WhView`, the game's part of a view, typed. Clue texts only for their readers (a
seat's `me.notes`) or everyone after Watson's reading; a hidden character card only in its holder's `me`;
sealed answers only in their writer's and consulters' `me`; accepted answers and the solution only at the end
(WH-06, WH-36, WH-69). The seat's private screen (`parts`) is drawn from the same fields."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from engines.core import GamePart, Secret
from engines.parts import Card, Items, Part, Words, phrase, said
from engines.serial import field_names, to_jsonable
from engines.watson_holmes.content import BAKER, CAB, CharacterCard, Rewards, Text
from engines.watson_holmes.state import CharState, CheckResult, Phase, Status, Supply, WhState


@dataclass(frozen=True)
class CaseInfo:
    id: str
    number: int
    title: Text
    questions: int  # how many
    digital: bool


@dataclass(frozen=True)
class PlayerRow:
    """A player as the whole table sees them. `character`: their card once revealed (or the game is over), else
    None (no key on the wire)."""

    seat: int
    name: str
    carriages: int
    police: int
    withdraw: int
    lockpick: int
    status: Status
    zone: int
    right_count: int | None  # a failed player's right answers
    character_state: CharState
    wiggins: bool
    checked: bool
    placed: str | None  # where their piece is this round
    character: str | None = None

    def to_wire(self) -> dict[str, Any]:
        out = {name: to_jsonable(getattr(self, name)) for name in field_names(PlayerRow)[:-1]}
        if self.character is not None:
            out["character"] = self.character
        return out


@dataclass(frozen=True)
class LocationRow:
    """A location card on the table. `shown`: its text is public (Watson's reading, the end); `clue` is that text
    (None for a physical box's card, which the players read). Not shown: no clue key on the wire."""

    number: int
    police: bool
    occupant: int | None
    bid: int
    clue: Text | None = None
    shown: bool = False

    def to_wire(self) -> dict[str, Any]:
        out: dict[str, Any] = {"number": self.number, "police": self.police, "occupant": self.occupant,
                               "bid": self.bid}
        if self.shown:
            out["clue"] = to_jsonable(self.clue)
        return out


@dataclass(frozen=True)
class Announced:
    """A piece at 221B Baker Street, and how many questions its player announced."""

    seat: int
    announced: int


@dataclass(frozen=True)
class CheckAsked:
    seat: int
    question: int


@dataclass(frozen=True)
class Failed:
    seat: int
    right: int


@dataclass(frozen=True)
class Answers:
    """A player's sealed answers (`list`: in question order)."""

    seat: int
    list: tuple[str, ...]


@dataclass(frozen=True)
class Sheet:
    """A sealed answer sheet: consulted (WH-69) or, at the end, shown."""

    answers: Answers


@dataclass(frozen=True)
class AnswerText:
    number: int
    answer: Text | None


@dataclass(frozen=True)
class Solution:
    """The case's solution: every view holds it once the game is over (WH-36)."""

    solution: Text | None
    reasoning: Text | None
    solution_audio: str
    accepted: tuple[tuple[str, ...], ...]
    answers_text: tuple[AnswerText, ...]
    submitted: tuple[Sheet, ...]


@dataclass(frozen=True)
class Note:
    """A location card the seat read: its text is the seat's own (WH-40)."""

    number: int
    name: Text
    clue: Text | None
    rewards: Rewards


@dataclass(frozen=True)
class Me:
    """The seat's private part: its character card (hidden from the others until revealed), the card it reads
    now, its notes, its own sealed answers, the sheets it consulted and its answer checks (WH-69, WH-87)."""

    seat: int
    character: str | None
    character_card: CharacterCard | None
    reading: int | None
    notes: tuple[Note, ...]
    answers: Answers | None
    consulted: tuple[Sheet, ...]
    checks: tuple[CheckResult, ...]

    def note(self, number: int | None) -> Note | None:
        return next((n for n in self.notes if n.number == number), None)

    def consulted_answers(self, seat: int) -> tuple[str, ...]:
        return next((c.answers.list for c in self.consulted if c.answers.seat == seat), ())


@dataclass(frozen=True)
class WhView(GamePart):
    """The game's part of one seat's view. `solution`: every view's once the game is over; `me`: a seat's own
    part (not in the table view). Both are left out of the JSON while None."""

    game: str
    case: CaseInfo
    phase: Phase
    round: int
    start_player: int
    turn: int | None  # whose visit it is
    watson: int | None  # who took Watson this round
    watson_available: bool
    expert: bool
    play_on: bool
    holmes_up: bool
    supply: Supply
    players: tuple[PlayerRow, ...]
    locations: tuple[LocationRow, ...]
    cab: tuple[int, ...]
    baker: tuple[Announced, ...]
    public_readings: tuple[int, ...]
    pending: tuple[int, ...]
    judging: tuple[int, ...]
    solve_queue: tuple[tuple[int, ...], ...]
    pending_check: CheckAsked | None
    failed: tuple[Failed, ...]
    winners: tuple[int, ...]
    also_solved: tuple[int, ...]
    last_standing: int | None
    extra_rounds_left: int
    must_solve: bool
    ended: str | None
    solution: Solution | None = None
    me: Me | None = None

    def location(self, number: int | str) -> LocationRow | None:
        return next((loc for loc in self.locations if str(loc.number) == str(number)), None)


def _answers(state: WhState, seat: int) -> Answers:
    return Answers(seat, tuple(state.players[seat].answers or ()))


def _me(state: WhState, seat: int) -> Me:
    p = state.players[seat]
    placement = state.placement_of(seat)
    reading = None
    if state.phase == "investigate" and seat in state.pending and placement is not None \
            and placement.location not in (CAB, BAKER):
        reading = int(placement.location)
    notes = tuple(Note(n, loc.name, loc.clue, loc.rewards) for n in p.notes for loc in (state.case.location(n),))
    return Me(seat=seat, character=p.character or None,
              character_card=state.character_card(p.character) if p.character else None,
              reading=reading, notes=notes, answers=_answers(state, seat) if p.answers is not None else None,
              consulted=tuple(Sheet(_answers(state, f)) for f in sorted(p.consulted)), checks=p.checks)


def view(state: WhState, seat: int | None) -> WhView:
    case = state.case
    over = state.phase == "over"
    occupants = {p.location: p for p in state.placements}
    locations = []
    for loc in case.locations:
        occ = occupants.get(str(loc.number))
        shown = loc.number in state.public_cards or over
        locations.append(LocationRow(loc.number, loc.number in state.police_on, occ.seat if occ else None,
                                     occ.bid if occ else 0, loc.clue if shown else None, shown))
    players = []
    for s, p in enumerate(state.players):
        placed = state.placement_of(s)
        players.append(PlayerRow(
            s, p.name, p.carriages, p.police, p.withdraw, p.lockpick, p.status, p.zone,
            p.right_count if p.status == "failed" else None, p.character_state, p.wiggins, p.checked,
            placed.location if placed else None,
            p.character if p.character_state in ("revealed", "rotated") or over else None))
    solution = None
    if over:
        solution = Solution(
            case.solution, case.reasoning, case.solution_audio, tuple(q.accepted for q in case.questions),
            tuple(AnswerText(q.number, q.answer) for q in case.questions),
            tuple(Sheet(_answers(state, s)) for s, p in enumerate(state.players) if p.answers is not None))
    check = state.pending_check
    return WhView(
        game="watson_holmes",
        case=CaseInfo(case.id, case.number, case.title, len(case.questions), case.digital),
        phase=state.phase, round=state.round, start_player=state.start_player,
        turn=state.turn if state.phase == "visit" else None,
        watson=state.watson if state.watson >= 0 else None,
        watson_available=not state.expert and state.watson < 0 and state.phase == "visit",
        expert=state.expert, play_on=state.play_on, holmes_up=state.holmes_up,
        supply=state.supply, players=tuple(players), locations=tuple(locations),
        cab=tuple(sorted(p.seat for p in state.placements if p.location == CAB)),
        baker=tuple(Announced(s, c) for s, c in state.announced),
        public_readings=tuple(sorted(state.public_cards)),
        pending=tuple(sorted(state.pending)), judging=state.judging,
        solve_queue=state.queue,
        pending_check=CheckAsked(check.seat, check.question) if check else None,
        failed=tuple(Failed(s, state.players[s].right_count) for s in state.failed_order),
        winners=state.winners, also_solved=state.also_solved,
        last_standing=state.last_standing if state.last_standing >= 0 else None,
        extra_rounds_left=state.extra_rounds, must_solve=state.must_solve,
        ended=state.ended or None,
        solution=solution,
        me=_me(state, seat) if seat is not None and seat >= 0 else None,
    )


def _said(text: Text | None) -> Words:
    return said(text.ko, text.en) if text is not None else said("")


def _note(note: Note) -> Card:
    return Card(said(str(note.number)), _said(note.name), (_said(note.clue),) if note.clue is not None else ())


def parts(game: WhView) -> list[Part]:
    """The seat's private screen, from its view's own fields: its character card, the card it reads now, its
    notes (the clue texts it read, WH-40), its sealed answers and the answers it consulted or checked (WH-69)."""
    me = game.me
    if me is None:
        return []
    out: list[Part] = []
    card = me.character_card
    if card is not None:
        out.append(Card(phrase("character_card"), _said(card.name), (_said(card.summary),)))
    reading = me.note(me.reading)
    if reading is not None:
        note = _note(reading)
        out.append(Card(phrase("reading"), note.title, note.lines))
    if me.notes:
        out.append(Items(phrase("notes"), cards=tuple(_note(n) for n in me.notes)))
    if me.answers is not None:
        out.append(Items(phrase("answers"), tuple(said(a) for a in me.answers.list)))
    consulted = tuple(Card(said(game.players[c.answers.seat].name), said(" / ".join(c.answers.list)))
                      for c in me.consulted)
    if consulted:
        out.append(Items(phrase("consulted"), cards=consulted))
    if me.checks:
        out.append(Items(phrase("checks"), cards=tuple(
            Card(said(str(c.question)), said(c.answer), (phrase("right" if c.right else "wrong"),))
            for c in me.checks)))
    return out


def secrets(state: WhState) -> list[Secret]:
    if state.phase == "over":
        return []
    case = state.case
    out: list[Secret] = []
    for loc in case.locations:
        if loc.clue is None or loc.number in state.public_cards:
            continue
        readers = frozenset(s for s, p in enumerate(state.players) if loc.number in p.notes)
        out.append(Secret("clue", to_jsonable(loc.clue), readers))
    out.append(Secret("accepted", to_jsonable(tuple(q.accepted for q in case.questions)), frozenset()))
    if case.solution is not None:
        out.append(Secret("solution", to_jsonable(case.solution), frozenset()))
    if case.reasoning is not None:
        out.append(Secret("reasoning", to_jsonable(case.reasoning), frozenset()))
    for seat, p in enumerate(state.players):
        if p.answers is not None:
            seen = frozenset({seat}) | frozenset(s for s, q in enumerate(state.players) if seat in q.consulted)
            out.append(Secret("answers", to_jsonable(_answers(state, seat)), seen))
        if p.character_state == "hidden":
            out.append(Secret("character", p.character, frozenset({seat})))
    return out


def hidden_variants(state: WhState) -> list[tuple[WhState, frozenset[int]]]:
    """The game with one hidden fact changed, and who may see it: the case's accepted answers and
    solution (nobody before the end), two unread cards' texts (nobody), two hidden characters (their
    holders)."""
    if state.phase == "over":
        return []
    case = state.case
    out: list[tuple[WhState, frozenset[int]]] = []
    if case.questions and (case.questions[0].accepted or case.questions[0].keywords):
        q = dataclasses.replace(case.questions[0], accepted=("다른 답",), keywords=(("다른",),))
        other = dataclasses.replace(case, questions=(q, *case.questions[1:]),
                                    solution=Text("다른 해답", "Another solution"))
        out.append((dataclasses.replace(state, case=other), frozenset()))
    seen = set(state.public_cards) | {n for p in state.players for n in p.notes} | {
        int(p.location) for p in state.placements if p.location.isdigit()}
    unread = [loc for loc in case.locations if loc.clue is not None and loc.number not in seen]
    pair = next(((x, y) for x in unread for y in unread if x.number < y.number and x.clue != y.clue), None)
    if pair is not None:
        x, y = pair
        swapped = {x.number: dataclasses.replace(x, clue=y.clue), y.number: dataclasses.replace(y, clue=x.clue)}
        locs = tuple(swapped.get(loc.number, loc) for loc in case.locations)
        out.append((dataclasses.replace(state, case=dataclasses.replace(case, locations=locs)), frozenset()))
    hidden = [s for s, p in enumerate(state.players) if p.character_state == "hidden"]
    pairs = [(a, b) for a in hidden for b in hidden if a < b
             and state.players[a].character != state.players[b].character]
    if pairs:
        a, b = pairs[0]
        players = list(state.players)
        players[a] = dataclasses.replace(players[a], character=state.players[b].character)
        players[b] = dataclasses.replace(players[b], character=state.players[a].character)
        out.append((dataclasses.replace(state, players=tuple(players)), frozenset({a, b})))
    return out
