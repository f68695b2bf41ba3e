"""The generic conformance harness every registered engine passes (DESIGN.md, Conventions).

`random_playthrough` plays one seeded random game and checks, at every step: the input state is not
mutated, every legal action of every seat to move applies, illegal actions raise a RuleError with a
Korean message and leave the state unchanged, the state survives JSON, views are JSON-safe and hold no
other seat's secrets, and the game ends. Game test modules call it with their own configs too.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.core import CHANCE, TABLE, Action, Engine, Event, RuleError, Secret, stamp

HANGUL = re.compile("[\uac00-\ud7a3]")
START = 1_800_000_000.0


@dataclass
class Playthrough:
    actions: list[Action] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)
    outcome: Any = None


def contains_pair(tree: Any, key: str, value: Any) -> bool:
    """Is there a mapping entry `key: value` anywhere in the JSON tree?"""
    if isinstance(tree, Mapping):
        for k, v in tree.items():
            if k == key and v == value:
                return True
            if contains_pair(v, key, value):
                return True
    elif isinstance(tree, (list, tuple)):
        return any(contains_pair(v, key, value) for v in tree)
    return False


def check_secrets(engine: Engine[Any], state: Any, events: tuple[Event, ...] = ()) -> None:
    seats = engine.seats(state)
    views = {seat: json.loads(json.dumps(engine.view(state, seat))) for seat in (*seats, None)}
    for secret in engine.secrets(state):
        assert isinstance(secret, Secret)
        value = json.loads(json.dumps(secret.value))
        for seat, view in views.items():
            shown = contains_pair(view, secret.key, value)
            if seat is not None and seat in secret.seen_by:
                assert shown, f"seat {seat} should see its secret {secret.key}={value!r}"
            else:
                assert not shown, f"seat {seat} sees {secret.key}={value!r} meant for {sorted(secret.seen_by)}"
        for event in events:
            if event.to is None or not event.to <= secret.seen_by:
                data = json.loads(json.dumps(event.to_dict()["data"]))
                assert not contains_pair(data, secret.key, value), (
                    f"event {event.kind} shows {secret.key}={value!r} beyond {sorted(secret.seen_by)}")


def check_rule_error(exc: RuleError) -> None:
    assert exc.code and isinstance(exc.code, str)
    assert HANGUL.search(exc.ko), f"RuleError {exc.code} has no Korean message: {exc.ko!r}"
    assert exc.en and exc.en != exc.ko


def check_json_roundtrip(engine: Engine[Any], state: Any) -> None:
    data = json.loads(json.dumps(engine.state_to_dict(state), ensure_ascii=False))
    assert engine.state_from_dict(data) == state, "state does not survive JSON"


def random_playthrough(engine: Engine[Any], config: Mapping[str, Any], pack: Mapping[str, Any], seed: int,
                       max_steps: int = 5000, check_every: int = 5, check_first: int = 40,
                       max_legal_checked: int = 24) -> Playthrough:
    """Thorough checks run on the first `check_first` steps and every `check_every`-th step after; each
    applies up to `max_legal_checked` of the legal actions (a random sample) besides the one played."""
    rng = random.Random(seed)
    state = engine.setup(config, pack, seed)
    now = START
    play = Playthrough(states=[state])
    tried: list[Action] = []
    for step_no in range(max_steps):
        if engine.outcome(state) is not None:
            break
        movers = sorted(engine.to_move(state))
        assert movers, "nobody may act but the game is not over"
        thorough = step_no < check_first or step_no % check_every == 0
        before = engine.state_to_dict(state)
        if thorough:
            check_json_roundtrip(engine, state)
            check_secrets(engine, state)
            _check_illegal(engine, state, tried, rng)
        seat = rng.choice(movers)
        if seat == CHANCE:
            action = engine.sample_chance(state, rng)
        else:
            legal = list(engine.legal_actions(state, seat))
            if not legal:
                seats_with = [s for s in movers if s != CHANCE and engine.legal_actions(state, s)]
                assert seats_with or CHANCE in movers, f"seats {movers} to move but none has a legal action"
                seat = rng.choice(seats_with) if seats_with else CHANCE
                legal = list(engine.legal_actions(state, seat)) if seat != CHANCE else [
                    engine.sample_chance(state, rng)]
            if thorough:
                for other in rng.sample(legal, min(max_legal_checked, len(legal))):
                    engine.apply(state, _stamp(other, now))
            action = rng.choice(legal)
            tried.extend(rng.sample(legal, min(3, len(legal))))
        action = _stamp(action, now)
        step = engine.apply(state, action)
        assert engine.state_to_dict(state) == before, f"{action.NAME} mutated its input state"
        if thorough:
            check_secrets(engine, step.state, step.events)
        now = max(now, float(getattr(action, "at", 0.0) or 0.0)) + rng.choice((0.5, 3.0, 20.0))
        state = step.state
        play.actions.append(action)
        play.states.append(state)
    else:
        raise AssertionError(f"game did not end within {max_steps} steps")
    play.outcome = engine.outcome(state)
    check_json_roundtrip(engine, state)
    # replay: the action log alone rebuilds the same final state
    replayed = engine.setup(config, pack, seed)
    for action in play.actions:
        replayed = engine.apply(replayed, engine.action_from_dict(json.loads(json.dumps(action.to_dict())))).state
    assert replayed == state, "the action log does not replay to the same state"
    # after the end nothing is accepted
    if play.actions:
        try:
            engine.apply(state, play.actions[-1])
        except RuleError as exc:
            assert exc.code == "game_over"
        else:
            raise AssertionError("an action was accepted after the game ended")
    return play


def _stamp(action: Action, now: float) -> Action:
    return stamp(action, now)


def _check_illegal(engine: Engine[Any], state: Any, tried: list[Action], rng: random.Random) -> None:
    """Actions seen elsewhere, and actions by seats not to move, either apply or raise a clean RuleError."""
    before = engine.state_to_dict(state)
    movers = engine.to_move(state)
    for action in rng.sample(tried, min(6, len(tried))):
        try:
            engine.apply(state, _stamp(action, START))
        except RuleError as exc:
            check_rule_error(exc)
            if action.seat not in movers:
                assert exc.code == "not_your_turn", exc.code
        assert engine.state_to_dict(state) == before
    idle = [s for s in (*engine.seats(state), TABLE) if s not in movers]
    if idle and tried:
        probe = tried[-1]
        try:
            import dataclasses
            engine.apply(state, dataclasses.replace(probe, seat=rng.choice(idle)))
        except RuleError as exc:
            check_rule_error(exc)
            assert exc.code == "not_your_turn"
        else:
            raise AssertionError("a seat that may not act had its action accepted")
