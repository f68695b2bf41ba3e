"""Setup, the visit phase and the investigation phase (rulebook [2] and [3])."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from engines.core import ConfigError, Event, seeded_rng
from engines.watson_holmes.actions import DoneReading, TakeWatson, Visit, WatsonPass, WatsonRead
from engines.watson_holmes.content import BAKER, CAB, Case, Components, TokenCounts
from engines.watson_holmes.messages import PLACES, err
from engines.watson_holmes.rounds import Events, add_supply, clockwise, first_to_visit, grant, set_player
from engines.watson_holmes.solve import begin_solving, next_round
from engines.watson_holmes.state import Placement, Player, Supply, WhState

WATSON_COST = 4
CAB_GAIN = 3
POLICE_SEATS = 5


# ---------------------------------------------------------------- helpers


def location_number(state: WhState, location: str) -> int:
    if location.isdigit():
        number = int(location)
        if any(loc.number == number for loc in state.case.locations):
            return number
    raise err("no_such_location", location=location)


# ---------------------------------------------------------------- setup


def new_game(config: Mapping[str, Any], case: Case, components: Components | None, seed: int) -> WhState:
    names = tuple(str(p) for p in config.get("players", ()))
    n = len(names)
    if not 2 <= n <= 7:
        raise ConfigError("왓슨&홈즈는 2~7명이 해요.", "Watson & Holmes is for 2 to 7 players.", code="players")
    tokens = components.tokens if components is not None else TokenCounts()
    start = config.get("start_player")
    if start is None:
        start = seeded_rng(seed, "start").randrange(n)  # WH-34/35: narrated opening → random start
    start = int(start)
    if not 0 <= start < n:
        raise ConfigError("시작 플레이어 자리가 없어요.", "The start player is not a seat.", code="start_player")
    state = WhState(
        players=tuple(Player(name=name, carriages=0) for name in names), case=case, characters=(),
        supply=Supply(tokens.carriages, tokens.police, tokens.withdraw, tokens.lockpick),
        expert=bool(config.get("expert", False)), play_on=bool(config.get("play_on", False)),
        start_player=start, turn=start)
    sink: Events = []
    for i, seat in enumerate(clockwise(state, start)):
        state = grant(state, seat, "carriages", case.rules.starting_carriages, sink)
        if case.rules.starting_police:
            state = grant(state, seat, "police" if i < POLICE_SEATS else "withdraw", 1, sink)
    for number in case.rules.police_at_start:
        if state.supply.police > 0:
            state = add_supply(state, police=-1)
            state = dataclasses.replace(state, police_on=state.police_on | {number})
    if case.rules.characters and components is not None and components.characters:
        deck = [c for c in components.characters if n >= 4 or c.id != "wiggins"]  # WH-41
        seeded_rng(seed, "characters").shuffle(deck)
        dealt = tuple(deck[:n])
        state = dataclasses.replace(state, characters=dealt)
        for seat, card in enumerate(dealt):
            state = set_player(state, seat, character=card.id, character_state="hidden")
    return dataclasses.replace(state, turn=first_to_visit(state, start))


# ---------------------------------------------------------------- visit phase


def check_visit(state: WhState, action: Visit) -> None:
    """Raise the rule the visit breaks, if any (WH-46..57, WH-58..65)."""
    if state.phase != "visit" or action.seat != state.turn:
        raise err("wrong_phase")
    player = state.players[action.seat]
    loc = action.location
    if state.must_solve and loc != BAKER:
        raise err("must_solve")
    extra = 0
    if action.watson:
        check_watson(state, action.seat)
        extra = WATSON_COST
    if loc in (CAB, BAKER):
        if action.carriages:
            raise err("no_bidding", place_ko=PLACES[loc][0], place_en=PLACES[loc][1])
        if action.withdraw:
            raise err("no_police_place", place_ko=PLACES[loc][0], place_en=PLACES[loc][1])
    else:
        number = location_number(state, loc)
        card = state.case.location(number)
        policed = number in state.police_on
        if action.withdraw:
            if not policed:
                raise err("no_police_there", location=loc)
            if player.withdraw < 1:
                raise err("no_withdraw")
        if card.locked and player.lockpick < 1:
            raise err("locked", location=loc)
        if policed and not action.withdraw and player.lockpick < 1:
            raise err("policed", location=loc)
        occupant = state.occupant(loc)
        if occupant is not None and action.carriages <= occupant.bid:
            raise err("must_outbid", location=loc, occupant=state.players[occupant.seat].name,
                      bid=occupant.bid, need=occupant.bid + 1)
    need = action.carriages + extra
    if need > player.carriages:
        raise err("not_enough_carriages", need=need, have=player.carriages)


def check_watson(state: WhState, seat: int) -> None:
    if state.expert:
        raise err("watson_expert")
    if state.watson >= 0:
        raise err("watson_taken")
    if state.players[seat].carriages < WATSON_COST:
        raise err("not_enough_carriages", need=WATSON_COST, have=state.players[seat].carriages)


def take_watson(state: WhState, action: TakeWatson, events: Events) -> WhState:
    if state.phase != "visit" or action.seat != state.turn:
        raise err("wrong_phase")
    check_watson(state, action.seat)
    return _pay_watson(state, action.seat, events)


def _pay_watson(state: WhState, seat: int, events: Events) -> WhState:
    state = set_player(state, seat, carriages=state.players[seat].carriages - WATSON_COST)
    state = add_supply(state, carriages=WATSON_COST)
    events.append(Event("watson_taken", {"seat": seat}))
    return dataclasses.replace(state, watson=seat)


def visit(state: WhState, action: Visit, events: Events) -> WhState:
    check_visit(state, action)
    seat, loc = action.seat, action.location
    if action.withdraw:
        number = int(loc)
        state = dataclasses.replace(state, police_on=state.police_on - {number})
        state = set_player(state, seat, withdraw=state.players[seat].withdraw - 1)
        state = add_supply(state, withdraw=1, police=1)  # WH-54: both tokens to the supply
        events.append(Event("police_removed", {"seat": seat, "location": number}))
    occupant = state.occupant(loc)
    if occupant is not None:  # WH-48: all but one carriage back; that one to the supply
        back = max(occupant.bid - 1, 0)
        lost = occupant.bid - back
        state = set_player(state, occupant.seat, carriages=state.players[occupant.seat].carriages + back)
        state = add_supply(state, carriages=lost)
        state = dataclasses.replace(state, placements=tuple(
            p for p in state.placements if p.seat != occupant.seat))
        events.append(Event("displaced", {"seat": occupant.seat, "by": seat, "location": loc,
                                          "returned": back, "to_supply": lost}))
    player = state.players[seat]
    state = set_player(state, seat, carriages=player.carriages - action.carriages)
    state = dataclasses.replace(state, placements=(*state.placements, Placement(seat, loc, action.carriages)),
                                last_placer=seat)
    events.append(Event("visited", {"seat": seat, "location": loc, "carriages": action.carriages}))
    if loc == BAKER:  # WH-65: carriages announced aloud
        held = state.players[seat].carriages - (WATSON_COST if action.watson else 0)
        state = dataclasses.replace(state, announced=(*state.announced, (seat, held)))
        events.append(Event("announced", {"seat": seat, "carriages": held}))
    if action.watson:
        state = _pay_watson(state, seat, events)
    nxt = first_to_visit(state, (seat + 1) % len(state.players))
    if nxt >= 0:
        return dataclasses.replace(state, turn=nxt)
    return end_visit_phase(state, events)


def end_visit_phase(state: WhState, events: Events) -> WhState:
    state = dataclasses.replace(state, start_player=state.last_placer, turn=-1)  # WH-52
    events.append(Event("start_player", {"seat": state.last_placer}))
    if state.watson >= 0 and watson_targets(state):
        return dataclasses.replace(state, phase="watson")
    return begin_reading(state, events)


# ---------------------------------------------------------------- investigation


def watson_targets(state: WhState) -> list[int]:
    """Players whose card Watson's owner may have read aloud (WH-66, WH-67)."""
    out = []
    for p in state.placements:
        if p.seat == state.watson or p.location in (CAB, BAKER):
            continue
        if not state.case.location(int(p.location)).no_watson:
            out.append(p.seat)
    return sorted(out)


def watson_read(state: WhState, action: WatsonRead | WatsonPass, events: Events) -> WhState:
    if state.phase != "watson" or action.seat != state.watson:
        raise err("wrong_phase")
    if isinstance(action, WatsonRead):
        if action.target not in watson_targets(state):
            raise err("watson_target")
        placement = state.placement_of(action.target)
        assert placement is not None
        number = int(placement.location)
        card = state.case.location(number)
        state = dataclasses.replace(state, public_cards=state.public_cards | {number})
        events.append(Event("watson_reading", {"seat": state.watson, "target": action.target,
                                               "number": number, "clue": card.clue}))
    else:
        events.append(Event("watson_passed", {"seat": state.watson}))
    return begin_reading(state, events)


def begin_reading(state: WhState, events: Events) -> WhState:
    """Everyone takes their card, spent carriages go to the supply, lockpicks open watched or locked
    cards, and each reader sees their text (WH-68..70); symbol grants come with the reading (WH-22)."""
    pending = set()
    for seat in clockwise(state, state.start_player):
        placement = state.placement_of(seat)
        if placement is None or placement.location in (CAB, BAKER):
            continue
        state = add_supply(state, carriages=placement.bid)
        number = int(placement.location)
        card = state.case.location(number)
        if number in state.police_on or card.locked:
            state = set_player(state, seat, lockpick=state.players[seat].lockpick - 1)
            state = add_supply(state, lockpick=1)
            events.append(Event("lockpick_used", {"seat": seat, "location": number}))
        notes = state.players[seat].notes
        state = set_player(state, seat, zone=card.zone,
                           notes=notes if number in notes else (*notes, number))
        events.append(Event("card_read", {"seat": seat, "number": number, "clue": card.clue},
                            to=frozenset({seat})))
        if state.case.digital:
            state = _grant_rewards(state, seat, card.rewards.carriages, card.rewards.police,
                                   card.rewards.withdraw, card.rewards.lockpick, events)
        pending.add(seat)
    state = dataclasses.replace(state, phase="investigate", pending=frozenset(pending))
    if not pending:
        return end_investigation(state, events)
    return state


def _grant_rewards(state: WhState, seat: int, carriages: int, police: bool, withdraw: bool, lockpick: bool,
                   events: Events) -> WhState:
    if carriages:
        state = grant(state, seat, "carriages", carriages, events)
    for kind, wanted in (("police", police), ("withdraw", withdraw), ("lockpick", lockpick)):
        if wanted:
            state = grant(state, seat, kind, 1, events)
    return state


def police_allowed(state: WhState, seat: int) -> bool:
    """May `seat` put a police token on the card it is leaving (WH-73, WH-74)?"""
    placement = state.placement_of(seat)
    if placement is None or placement.location in (CAB, BAKER) or state.players[seat].police < 1:
        return False
    number = int(placement.location)
    return not state.case.location(number).no_police and number not in state.police_on


def done_reading(state: WhState, action: DoneReading, events: Events) -> WhState:
    seat = action.seat
    if state.phase != "investigate" or seat not in state.pending:
        raise err("not_reading")
    gains = (action.gain_carriages, action.gain_police, action.gain_withdraw, action.gain_lockpick)
    if any(gains) and state.case.digital:
        raise err("gains_digital")
    state = _grant_rewards(state, seat, *gains, events=events)
    if action.police:
        if state.players[seat].police < 1:
            raise err("no_police_token")
        if not police_allowed(state, seat):
            raise err("police_here")
        placement = state.placement_of(seat)
        assert placement is not None
        number = int(placement.location)
        state = set_player(state, seat, police=state.players[seat].police - 1)
        state = dataclasses.replace(state, police_on=state.police_on | {number})
        events.append(Event("police_placed", {"seat": seat, "location": number}))
    state = dataclasses.replace(state, pending=state.pending - {seat})
    events.append(Event("done_reading", {"seat": seat}))
    if not state.pending:
        return end_investigation(state, events)
    return state


def end_investigation(state: WhState, events: Events) -> WhState:
    for seat in clockwise(state, state.start_player):
        placement = state.placement_of(seat)
        if placement is not None and placement.location == CAB:  # WH-71
            state = grant(state, seat, "carriages", CAB_GAIN, events)
    visitors = [s for s, _ in state.announced if state.players[s].active]
    if visitors:
        return begin_solving(state, visitors, events)
    return next_round(state, events)
