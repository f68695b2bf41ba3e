"""221B Baker Street, the Holmes card, character cards and the end of the game (rulebook [3]–[5])."""

from __future__ import annotations

import dataclasses

from engines.core import Event
from engines.watson_holmes.actions import (
    CheckAnswer,
    CheckReply,
    ConsultAnswers,
    EndGame,
    RevealCharacter,
    RotateCharacter,
    SubmitAnswers,
    Verdict,
)
from engines.watson_holmes.content import answer_is_right, count_right
from engines.watson_holmes.messages import err
from engines.watson_holmes.rounds import Events, add_supply, grant, set_player, start_round
from engines.watson_holmes.state import CheckResult, PendingCheck, WhState

HOLMES_COST = 3
ROTATE_GAIN = 3
MAX_EXTRA_ROUNDS = 4
ANYTIME_PHASES = ("visit", "watson", "investigate", "solve")


# ---------------------------------------------------------------- 221B


def begin_solving(state: WhState, visitors: list[int], events: Events) -> WhState:
    events.append(Event("solving", {"seats": sorted(visitors)}))
    return dataclasses.replace(state, phase="solve", pending=frozenset(visitors))


def submit(state: WhState, action: SubmitAnswers, events: Events) -> WhState:
    """Lock in a 221B visitor's answers (WH-75); when all are in, set the order (WH-81, WH-82)."""
    seat = action.seat
    if state.phase != "solve" or seat not in state.pending:
        raise err("wrong_phase")
    n = len(state.case.questions)
    answers = tuple(a.strip() for a in action.answers)
    if state.case.digital or answers:
        if len(answers) != n:
            raise err("answer_count", n=n)
        if state.case.digital:
            for q, a in zip(state.case.questions, answers, strict=True):
                if not a:
                    raise err("answer_empty", q=q.number)
    state = set_player(state, seat, answers=answers)
    state = dataclasses.replace(state, pending=state.pending - {seat})
    events.append(Event("answers_locked", {"seat": seat}))
    if state.pending:
        return state
    visitors = [s for s, _ in state.announced if state.players[s].active]
    held = sorted({state.players[s].carriages for s in visitors}, reverse=True)
    queue = tuple(tuple(sorted(s for s in visitors if state.players[s].carriages == c)) for c in held)
    events.append(Event("solve_order", {"groups": [list(g) for g in queue]}))
    return resolve(dataclasses.replace(state, queue=queue), events)


def resolve(state: WhState, events: Events) -> WhState:
    """Attempt group by group, most carriages first; tied players attempt at once."""
    while state.queue:
        group = state.queue[0]
        if not state.case.digital:
            return dataclasses.replace(state, phase="judge", judging=group, verdicts=())
        answers = {s: state.players[s].answers or () for s in group}
        state = apply_results(state, group, {s: count_right(state.case, answers[s]) for s in group}, events)
        if state.phase == "over":
            return state
    return after_solving(state, events)


def verdict(state: WhState, action: Verdict, events: Events) -> WhState:
    """Physical box: the table enters how many answers of a player were right (WH-77)."""
    n = len(state.case.questions)
    if state.phase != "judge":
        raise err("wrong_phase")
    judged = {s for s, _ in state.verdicts}
    if action.player not in state.judging or action.player in judged:
        raise err("not_judged", player=action.player + 1)
    if action.right > n:
        raise err("bad_right", n=n)
    verdicts = (*state.verdicts, (action.player, action.right))
    state = dataclasses.replace(state, verdicts=verdicts)
    if len(verdicts) < len(state.judging):
        return state
    state = apply_results(state, state.judging, dict(verdicts), events)
    if state.phase == "over":
        return state
    return resolve(dataclasses.replace(state, phase="solve", judging=(), verdicts=()), events)


def apply_results(state: WhState, group: tuple[int, ...], rights: dict[int, int], events: Events) -> WhState:
    n = len(state.case.questions)
    correct = tuple(s for s in group if rights[s] == n)
    for seat in group:
        if rights[seat] == n:
            continue
        state = set_player(state, seat, status="failed", right_count=rights[seat])  # WH-79, WH-80
        state = dataclasses.replace(state, failed_order=(*state.failed_order, seat))
        events.append(Event("attempt_failed", {"seat": seat, "right": rights[seat], "of": n}))
        if not state.holmes_up:  # WH-84
            state = dataclasses.replace(state, holmes_up=True)
            events.append(Event("holmes_up", {}))
    for seat in correct:
        state = set_player(state, seat, status="solved")
        events.append(Event("solved", {"seat": seat}))
    if correct:
        if state.winners:
            state = dataclasses.replace(state, also_solved=(*state.also_solved, *correct))
        else:
            state = dataclasses.replace(state, winners=correct)
        if not state.play_on:  # WH-97
            return finish(state, "solved", events)
    return dataclasses.replace(state, queue=state.queue[1:])


def finish(state: WhState, reason: str, events: Events) -> WhState:
    events.append(Event("game_over", {"reason": reason, "winners": list(state.winners)}))
    return dataclasses.replace(state, phase="over", ended=reason, pending=frozenset(), pending_check=None,
                               queue=(), judging=())


def after_solving(state: WhState, events: Events) -> WhState:
    active = [s for s, p in enumerate(state.players) if p.active]
    if not active:  # WH-100, WH-102
        if state.winners:
            return finish(state, "solved", events)
        return finish(state, "last_player_failed" if state.last_standing >= 0 else "all_failed", events)
    if len(active) == 1 and not state.winners and state.last_standing < 0:  # WH-99, WH-101 (reading A)
        seat = active[0]
        extra = min(state.players[seat].carriages, MAX_EXTRA_ROUNDS)
        state = dataclasses.replace(state, last_standing=seat, extra_rounds=extra)
        events.append(Event("last_standing", {"seat": seat, "extra_rounds": extra}))
    return next_round(state, events)


def next_round(state: WhState, events: Events) -> WhState:
    return start_round(state, events)


# ---------------------------------------------------------------- the Holmes card and characters


def can_act_anytime(state: WhState, seat: int) -> bool:
    """Holmes actions and character cards are usable at any time by active players (WH-85, WH-96 A);
    a 221B visitor whose answers are locked waits for the verdict."""
    if state.phase not in ANYTIME_PHASES or state.pending_check is not None:
        return False
    if not state.players[seat].active:
        return False
    return not (state.phase == "solve" and seat in {s for s, _ in state.announced} and seat not in state.pending)


def _check_holmes(state: WhState, seat: int) -> None:
    if not can_act_anytime(state, seat):
        raise err("not_active" if not state.players[seat].active else "wrong_phase")
    if not state.holmes_up:
        raise err("holmes_down")
    have = state.players[seat].carriages
    if have < HOLMES_COST:
        raise err("not_enough_carriages", need=HOLMES_COST, have=have)


def _pay_holmes(state: WhState, seat: int) -> WhState:
    state = set_player(state, seat, carriages=state.players[seat].carriages - HOLMES_COST)
    return add_supply(state, carriages=HOLMES_COST)


def consult(state: WhState, action: ConsultAnswers, events: Events) -> WhState:
    """WH-86: read the answers of a failed player."""
    seat = action.seat
    _check_holmes(state, seat)
    if state.players[action.failed].status != "failed":
        raise err("not_failed")
    if action.failed in state.players[seat].consulted:
        raise err("consulted")
    state = _pay_holmes(state, seat)
    state = set_player(state, seat, consulted=state.players[seat].consulted | {action.failed})
    events.append(Event("answers_consulted", {"seat": seat, "failed": action.failed}))
    shown = {"seat": action.failed, "list": list(state.players[action.failed].answers or ())}
    events.append(Event("consulted_answers", {"answers": shown}, to=frozenset({seat})))
    return state


def check_answer(state: WhState, action: CheckAnswer, events: Events) -> WhState:
    """WH-87, WH-88: one answer checked by a failed player, once per game."""
    seat = action.seat
    _check_holmes(state, seat)
    if not state.failed_order:
        raise err("no_failed")
    if state.players[seat].checked:
        raise err("checked")
    if not 1 <= action.question <= len(state.case.questions):
        raise err("bad_question", q=action.question)
    if not action.answer.strip():
        raise err("answer_empty", q=action.question)
    state = _pay_holmes(state, seat)
    state = set_player(state, seat, checked=True)
    if not state.case.digital:
        events.append(Event("answer_check_asked", {"seat": seat, "question": action.question}))
        return dataclasses.replace(state, pending_check=PendingCheck(seat, action.question, action.answer))
    right = answer_is_right(state.case.questions[action.question - 1], action.answer)
    return _record_check(state, seat, action.question, action.answer, right, events)


def check_reply(state: WhState, action: CheckReply, events: Events) -> WhState:
    pending = state.pending_check
    if pending is None:
        raise err("no_check")
    state = dataclasses.replace(state, pending_check=None)
    return _record_check(state, pending.seat, pending.question, pending.answer, action.right, events)


def _record_check(state: WhState, seat: int, question: int, answer: str, right: bool, events: Events) -> WhState:
    checks = (*state.players[seat].checks, CheckResult(question, answer, right))
    events.append(Event("answer_checked", {"seat": seat, "question": question, "right": right}))
    return set_player(state, seat, checks=checks)


def use_character(state: WhState, action: RevealCharacter | RotateCharacter, events: Events) -> WhState:
    """WH-91..94: reveal and use the ability, or turn sideways for 3 carriages; once per game."""
    seat = action.seat
    player = state.players[seat]
    if not can_act_anytime(state, seat):
        raise err("not_active" if not player.active else "wrong_phase")
    if player.character_state == "none":
        raise err("no_character")
    if player.character_state != "hidden":
        raise err("character_used")
    card = state.character_card(player.character)
    assert card is not None
    if isinstance(action, RotateCharacter):
        state = set_player(state, seat, character_state="rotated")
        events.append(Event("character_rotated", {"seat": seat, "character": card.id}))
        return grant(state, seat, "carriages", ROTATE_GAIN, events)
    if state.expert and card.mentions_watson:  # WH-90: the Watson ability becomes "take 3 carriages"
        state = set_player(state, seat, character_state="revealed")
        events.append(Event("character_revealed", {"seat": seat, "character": card.id, "expert": True}))
        return grant(state, seat, "carriages", ROTATE_GAIN, events)
    if card.cost > player.carriages:
        raise err("not_enough_carriages", need=card.cost, have=player.carriages)
    state = set_player(state, seat, character_state="revealed", carriages=player.carriages - card.cost,
                       wiggins=card.id == "wiggins")
    state = add_supply(state, carriages=card.cost)
    events.append(Event("character_revealed", {"seat": seat, "character": card.id, "expert": False}))
    return state


def end_game(state: WhState, action: EndGame, events: Events) -> WhState:
    """WH-103, WH-104 (reading B): after a win, the table ends the play-on whenever it decides."""
    if not (state.play_on and state.winners):
        raise err("play_on_only")
    return finish(state, "solved", events)
