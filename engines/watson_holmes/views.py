"""What each seat may see. Clue texts only for their readers (or everyone after Watson's reading);
answers, accepted answers and the solution only at the end (WH-06, WH-36, WH-69)."""

from __future__ import annotations

import dataclasses
from typing import Any

from engines.core import Secret
from engines.parts import Card, Items, Part, Words, phrase, said
from engines.serial import to_jsonable
from engines.watson_holmes.content import BAKER, CAB, Text
from engines.watson_holmes.state import WhState


def _answers(state: WhState, seat: int) -> dict[str, Any]:
    return {"seat": seat, "list": list(state.players[seat].answers or ())}


def table_view(state: WhState) -> dict[str, Any]:
    case = state.case
    over = state.phase == "over"
    occupants = {p.location: p for p in state.placements}
    locations = []
    for loc in case.locations:
        occ = occupants.get(str(loc.number))
        entry: dict[str, Any] = {"number": loc.number, "police": loc.number in state.police_on,
                                 "occupant": occ.seat if occ else None, "bid": occ.bid if occ else 0}
        if loc.number in state.public_cards or over:
            entry["clue"] = to_jsonable(loc.clue)
        locations.append(entry)
    players = []
    for seat, p in enumerate(state.players):
        placed = state.placement_of(seat)
        entry = {"seat": seat, "name": p.name, "carriages": p.carriages, "police": p.police,
                 "withdraw": p.withdraw, "lockpick": p.lockpick, "status": p.status, "zone": p.zone,
                 "right_count": p.right_count if p.status == "failed" else None,
                 "character_state": p.character_state, "wiggins": p.wiggins, "checked": p.checked,
                 "placed": placed.location if placed else None}
        if p.character_state in ("revealed", "rotated") or over:
            entry["character"] = p.character
        players.append(entry)
    out: dict[str, Any] = {
        "game": "watson_holmes",
        "case": {"id": case.id, "number": case.number, "title": to_jsonable(case.title),
                 "questions": len(case.questions), "digital": case.digital},
        "phase": state.phase, "round": state.round, "start_player": state.start_player,
        "turn": state.turn if state.phase == "visit" else None,
        "watson": state.watson if state.watson >= 0 else None,
        "watson_available": not state.expert and state.watson < 0 and state.phase == "visit",
        "expert": state.expert, "play_on": state.play_on, "holmes_up": state.holmes_up,
        "supply": to_jsonable(state.supply), "players": players, "locations": locations,
        "cab": sorted(p.seat for p in state.placements if p.location == CAB),
        "baker": [{"seat": s, "announced": c} for s, c in state.announced],
        "public_readings": sorted(state.public_cards),
        "pending": sorted(state.pending), "judging": list(state.judging),
        "solve_queue": [list(g) for g in state.queue],
        "pending_check": ({"seat": state.pending_check.seat, "question": state.pending_check.question}
                          if state.pending_check else None),
        "failed": [{"seat": s, "right": state.players[s].right_count} for s in state.failed_order],
        "winners": list(state.winners), "also_solved": list(state.also_solved),
        "last_standing": state.last_standing if state.last_standing >= 0 else None,
        "extra_rounds_left": state.extra_rounds, "must_solve": state.must_solve,
        "ended": state.ended or None,
    }
    if over:
        out["solution"] = {
            "solution": to_jsonable(case.solution), "reasoning": to_jsonable(case.reasoning),
            "solution_audio": case.solution_audio,
            "accepted": to_jsonable(tuple(q.accepted for q in case.questions)),
            "answers_text": [{"number": q.number, "answer": to_jsonable(q.answer)} for q in case.questions],
            "submitted": [{"answers": _answers(state, s)} for s, p in enumerate(state.players)
                          if p.answers is not None],
        }
    return out


def seat_view(state: WhState, seat: int) -> dict[str, Any]:
    out = table_view(state)
    p = state.players[seat]
    card = state.character_card(p.character) if p.character else None
    placement = state.placement_of(seat)
    reading = None
    if state.phase == "investigate" and seat in state.pending and placement is not None \
            and placement.location not in (CAB, BAKER):
        reading = int(placement.location)
    notes = []
    for number in p.notes:
        loc = state.case.location(number)
        notes.append({"number": number, "name": to_jsonable(loc.name), "clue": to_jsonable(loc.clue),
                      "rewards": to_jsonable(loc.rewards)})
    out["me"] = {
        "seat": seat, "character": p.character or None,
        "character_card": to_jsonable(card) if card else None,
        "reading": reading, "notes": notes,
        "answers": _answers(state, seat) if p.answers is not None else None,
        "consulted": [{"answers": _answers(state, f)} for f in sorted(p.consulted)],
        "checks": [to_jsonable(c) for c in p.checks],
    }
    return out


def _said(text: Text | None) -> Words:
    return said(text.ko, text.en) if text is not None else said("")


def _note(state: WhState, number: int) -> Card:
    loc = state.case.location(number)
    return Card(said(str(number)), _said(loc.name), (_said(loc.clue),) if loc.clue is not None else ())


def parts(state: WhState, seat: int) -> list[Part]:
    """The seat's private screen: its character card, the card it reads now, its notes (the clue texts
    it read, WH-40), its sealed answers and the answers it consulted or checked (WH-69)."""
    p = state.players[seat]
    out: list[Part] = []
    card = state.character_card(p.character) if p.character else None
    if card is not None:
        out.append(Card(phrase("character_card"), _said(card.name), (_said(card.summary),)))
    placement = state.placement_of(seat)
    if state.phase == "investigate" and seat in state.pending and placement is not None \
            and placement.location not in (CAB, BAKER):
        note = _note(state, int(placement.location))
        out.append(Card(phrase("reading"), note.title, note.lines))
    if p.notes:
        out.append(Items(phrase("notes"), cards=tuple(_note(state, n) for n in p.notes)))
    if p.answers is not None:
        out.append(Items(phrase("answers"), tuple(said(a) for a in p.answers)))
    consulted = tuple(Card(said(state.players[f].name), said(" / ".join(state.players[f].answers or ())))
                      for f in sorted(p.consulted))
    if consulted:
        out.append(Items(phrase("consulted"), cards=consulted))
    if p.checks:
        out.append(Items(phrase("checks"), cards=tuple(
            Card(said(str(c.question)), said(c.answer), (phrase("right" if c.right else "wrong"),))
            for c in p.checks)))
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
            out.append(Secret("answers", _answers(state, seat), seen))
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
