"""The Watson & Holmes engine: who may act, what is legal, and dispatch to the rules modules."""

from __future__ import annotations

import dataclasses
import json
import typing
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engines.core import TABLE, Action, ConfigError, Engine, Named, Offer, Outcome, RuleError, Secret, Step, View
from engines.serial import from_jsonable, to_jsonable
from engines.watson_holmes import rounds, rules, solve, views
from engines.watson_holmes.actions import (
    ACTIONS,
    CheckAnswer,
    CheckReply,
    ConsultAnswers,
    DoneReading,
    EndGame,
    RevealCharacter,
    RotateCharacter,
    SubmitAnswers,
    TakeWatson,
    Verdict,
    Visit,
    WatsonPass,
    WatsonRead,
)
from engines.watson_holmes.content import BAKER, CAB, Case, Components
from engines.watson_holmes.messages import err
from engines.watson_holmes.state import WhState

WRONG = "모르겠어요"


def pick_case(config: Mapping[str, Any], pack: Mapping[str, Any]) -> Case:
    name = str(config.get("case", ""))
    for key in (name, f"cases/{name}"):
        value = pack.get(key)
        if isinstance(value, Case):
            return value
    for value in pack.values():
        if isinstance(value, Case) and value.id == name:
            return value
    raise ConfigError("이 사건은 없어요: {name}", "No case {name} in the Watson & Holmes content.",
                      code="no_case", name=name)


class WatsonHolmes(Engine[WhState]):
    name = "watson_holmes"
    version = "1"
    state_type = WhState
    actions = ACTIONS
    content_types = {"components.yaml": Components, "cases/*.yaml": Case}

    # ------------------------------------------------------------ setup
    def setup(self, config: Mapping[str, Any], pack: Mapping[str, Any], seed: int) -> WhState:
        components = pack.get("components")
        return rules.new_game(config, pick_case(config, pack),
                              components if isinstance(components, Components) else None, seed)

    def example_configs(self, pack: Mapping[str, Any]) -> list[dict[str, Any]]:
        cases = sorted((v for v in pack.values() if isinstance(v, Case)), key=lambda c: (c.number, c.id))
        names = ["지수", "민호", "서연", "도윤", "하은", "준우", "유나"]
        digital = [c for c in cases if c.digital]
        physical = [c for c in cases if not c.digital]
        out: list[dict[str, Any]] = []
        if digital:
            out.append({"players": names[:3], "case": digital[0].id})
            out.append({"players": names[:2], "case": digital[-1].id, "expert": True, "play_on": True})
        if physical:
            out.append({"players": names[:3], "case": physical[0].id, "play_on": True})
        return out

    # ------------------------------------------------------------ turn
    def to_move(self, state: WhState) -> frozenset[int]:
        if state.phase == "over":
            return frozenset()
        if state.pending_check is not None or state.phase == "judge":
            return frozenset({TABLE})
        seats: set[int] = set()
        if state.phase == "visit":
            seats.add(state.turn)
        elif state.phase == "watson":
            seats.add(state.watson)
        else:
            seats |= state.pending
        seats |= {s for s in range(len(state.players)) if self._anytime(state, s)}
        if state.play_on and state.winners:
            seats.add(TABLE)
        return frozenset(seats)

    def _anytime(self, state: WhState, seat: int) -> bool:
        return any(self._may_claim(state, seat))

    @staticmethod
    def _may_claim(state: WhState, seat: int) -> tuple[bool, bool]:
        """(its character's ability, a Holmes action) may be open to the seat now, from public facts only: who
        moves and what the shared screen offers are public, while the card's cost and whom the seat consulted are
        its secrets (its legal actions, a subset, decide on its private screen)."""
        if not solve.can_act_anytime(state, seat):
            return False, False
        p = state.players[seat]
        return (p.character_state == "hidden",
                state.holmes_up and p.carriages >= solve.HOLMES_COST and bool(state.failed_order))

    def _anytime_actions(self, state: WhState, seat: int) -> list[Action]:
        if not solve.can_act_anytime(state, seat):
            return []
        p = state.players[seat]
        out: list[Action] = []
        if p.character_state == "hidden":
            card = state.character_card(p.character)
            if card is not None and (card.cost <= p.carriages or (state.expert and card.mentions_watson)):
                out.append(RevealCharacter(seat))
            out.append(RotateCharacter(seat))
        if state.holmes_up and p.carriages >= solve.HOLMES_COST:
            out += [ConsultAnswers(seat, f) for f in state.failed_order if f not in p.consulted]
            if not p.checked and state.failed_order:
                out.append(CheckAnswer(seat, 1, WRONG))  # the text is typed by the guest
        return out

    def table_offers(self, state: WhState) -> tuple[Offer, ...]:
        """Besides the public moves: a hidden character's ability (its cost is the holder's secret) and Holmes's
        two actions (whom a seat consulted is its secret) as claims for the seat's private screen, from public
        facts only: a shared menu that listed the seat's legal ones told whether its card was affordable."""
        offers = super().table_offers(state)
        if self.outcome(state) is not None:
            return offers
        for seat, p in enumerate(state.players):
            character, holmes = self._may_claim(state, seat)
            if character:
                offers += (Offer(seat, RevealCharacter.NAME, RevealCharacter.FINAL, private=True),)
            if holmes:
                offers += (Offer(seat, ConsultAnswers.NAME, ConsultAnswers.FINAL, private=True),)
                if not p.checked:
                    offers += (Offer(seat, CheckAnswer.NAME, CheckAnswer.FINAL, private=True),)
        return offers

    def legal_actions(self, state: WhState, seat: int) -> Sequence[Action]:
        if seat not in self.to_move(state):
            return []
        if seat == TABLE:
            return self._table_actions(state)
        out: list[Action] = []
        if state.phase == "visit" and seat == state.turn:
            out += self._visits(state, seat)
        elif state.phase == "watson" and seat == state.watson:
            out += [WatsonRead(seat, t) for t in rules.watson_targets(state)] + [WatsonPass(seat)]
        elif state.phase == "investigate" and seat in state.pending:
            out.append(DoneReading(seat))
            if rules.police_allowed(state, seat):
                out.append(DoneReading(seat, police=True))
            if not state.case.digital:
                out.append(DoneReading(seat, gain_carriages=2, gain_lockpick=True))
        elif state.phase == "solve" and seat in state.pending:
            out += self._answer_sets(state, seat)
        return out + self._anytime_actions(state, seat)

    def _table_actions(self, state: WhState) -> list[Action]:
        if state.pending_check is not None:
            return [CheckReply(TABLE, True), CheckReply(TABLE, False)]
        if state.phase == "judge":
            judged = {s for s, _ in state.verdicts}
            player = next(s for s in state.judging if s not in judged)
            n = len(state.case.questions)
            return [Verdict(TABLE, player, n), Verdict(TABLE, player, n - 1), Verdict(TABLE, player, 0)]
        return [EndGame(TABLE)] if state.play_on and state.winners else []

    def _visits(self, state: WhState, seat: int) -> list[Action]:
        candidates: list[Visit] = [Visit(seat, CAB), Visit(seat, BAKER), Visit(seat, CAB, watson=True)]
        for loc in state.case.locations:
            key = str(loc.number)
            occupant = state.occupant(key)
            bid = occupant.bid + 1 if occupant else loc.number % 2
            candidates += [Visit(seat, key, bid), Visit(seat, key, bid, withdraw=True)]
        out: list[Action] = []
        for visit in candidates:
            try:
                rules.check_visit(state, visit)
            except RuleError:
                continue
            out.append(visit)
        try:
            rules.check_watson(state, seat)
            out.append(TakeWatson(seat))
        except RuleError:
            pass
        return out

    def _answer_sets(self, state: WhState, seat: int) -> list[Action]:
        """Placeholders only: the answers are typed by the guest (a legal action never holds the case's
        accepted answers)."""
        out: list[Action] = [SubmitAnswers(seat, tuple(WRONG for _ in state.case.questions))]
        if not state.case.digital:
            out.append(SubmitAnswers(seat, ()))
        return out

    # ------------------------------------------------------------ apply
    def _apply(self, state: WhState, action: Action) -> Step[WhState]:
        events: rounds.Events = []
        new = self._dispatch(state, action, events)
        return Step(new, tuple(events))

    def _dispatch(self, state: WhState, action: Action, events: rounds.Events) -> WhState:
        if isinstance(action, Visit):
            return rules.visit(state, action, events)
        if isinstance(action, TakeWatson):
            return rules.take_watson(state, action, events)
        if isinstance(action, (WatsonRead, WatsonPass)):
            return rules.watson_read(state, action, events)
        if isinstance(action, DoneReading):
            return rules.done_reading(state, action, events)
        if isinstance(action, SubmitAnswers):
            return solve.submit(state, action, events)
        if isinstance(action, Verdict):
            return solve.verdict(state, action, events)
        if isinstance(action, ConsultAnswers):
            return solve.consult(state, action, events)
        if isinstance(action, CheckAnswer):
            return solve.check_answer(state, action, events)
        if isinstance(action, CheckReply):
            return solve.check_reply(state, action, events)
        if isinstance(action, (RevealCharacter, RotateCharacter)):
            return solve.use_character(state, action, events)
        if isinstance(action, EndGame):
            return solve.end_game(state, action, events)
        raise err("wrong_phase")

    # ------------------------------------------------------------ serial (the case is cached: it never changes)
    def state_to_dict(self, state: WhState) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in dataclasses.fields(state):
            value = getattr(state, f.name)
            out[f.name] = _case_to_json(value) if f.name == "case" else to_jsonable(value)
        return out

    def state_from_dict(self, data: Mapping[str, Any]) -> WhState:
        hints = typing.get_type_hints(WhState)
        kwargs: dict[str, Any] = {}
        for f in dataclasses.fields(WhState):
            if f.name == "case":
                kwargs["case"] = _case_from_json(data["case"])
            elif f.name in data:
                kwargs[f.name] = from_jsonable(hints[f.name], data[f.name], (f.name,))
        return WhState(**kwargs)

    # ------------------------------------------------------------ views
    def player_names(self, state: WhState) -> tuple[str, ...]:
        return tuple(p.name for p in state.players)

    def observe(self, state: WhState, seat: int | None) -> View:
        game = views.view(state, seat)
        places = (Named(CAB, "마차 정류장", "Carriage stop"), Named(BAKER, "베이커가 221B", "221B Baker Street"),
                  *(Named(str(loc.number), loc.name.ko, loc.name.en or loc.name.ko) for loc in state.case.locations))
        over = state.phase == "over"
        known = [p.character for i, p in enumerate(state.players) if p.character and (
            over or p.character_state in ("revealed", "rotated") or i == seat)]  # only what this view shows
        characters = tuple(Named(c.id, c.name.ko, c.name.en or c.name.ko) for c in state.characters if c.id in known)
        return self.make_view(state, seat, state.phase, game, catalogs={"places": places, "characters": characters},
                              mine=views.parts(game))

    def secrets(self, state: WhState) -> Iterable[Secret]:
        return views.secrets(state)

    def hidden_variants(self, state: WhState) -> Iterable[tuple[WhState, frozenset[int]]]:
        return views.hidden_variants(state)

    def outcome(self, state: WhState) -> Outcome | None:
        if state.phase != "over":
            return None
        return Outcome(winners=state.winners, reason=state.ended,
                       detail={"also_solved": list(state.also_solved), "failed": list(state.failed_order),
                               "rounds": state.round})


_TO_JSON: dict[int, tuple[Case, Any]] = {}
_FROM_JSON: dict[str, Case] = {}


def _case_to_json(case: Case) -> Any:
    """The case's JSON, computed once per case object (the result is shared: do not mutate it)."""
    hit = _TO_JSON.get(id(case))
    if hit is None or hit[0] is not case:
        if len(_TO_JSON) > 64:
            _TO_JSON.clear()
        hit = (case, to_jsonable(case))
        _TO_JSON[id(case)] = hit
    return hit[1]


def _case_from_json(data: Any) -> Case:
    key = json.dumps(data, sort_keys=True, ensure_ascii=False)
    case = _FROM_JSON.get(key)
    if case is None:
        if len(_FROM_JSON) > 64:
            _FROM_JSON.clear()
        case = from_jsonable(Case, data)
        assert isinstance(case, Case)
        _FROM_JSON[key] = case
    return case


ENGINE = WatsonHolmes()
