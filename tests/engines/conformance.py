"""The generic conformance harness every registered engine passes (engines/core.py: the contract).

`check_declarations` checks what an engine declares about its actions (every field annotated, who
takes each). `random_playthrough` plays one seeded random game, firing the engine's deadlines at random
moments after they pass, and checks at every thorough step: the input state is not mutated, every legal
action of every seat to move applies, illegal actions (other seats' actions, a player's action sent by
the table and the reverse) raise a RuleError with a Korean message and leave the state unchanged, the
state survives JSON, views are typed and JSON-safe and hold no other seat's secrets, the table's offers
are public and the same in every view, and every hidden variant (a secret swapped) leaves every other
seat's view and legal actions, the table view and the table's offers identical (and even the seats that
know the secret keep the same actions but for PRIVATE ones, which only their private channel offers). The game ends, and its
log replays. Game test modules call it with their own configs too.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from engines.core import (
    CHANCE,
    TABLE,
    Action,
    Engine,
    Event,
    RuleError,
    Secret,
    View,
    field_specs,
    stamp,
)

HANGUL = re.compile("[\uac00-\ud7a3]")
START = 1_800_000_000.0


@dataclass
class Playthrough:
    actions: list[Action] = field(default_factory=list)
    states: list[Any] = field(default_factory=list)
    outcome: Any = None
    variants: int = 0  # hidden variants checked


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


def json_pairs(tree: Any) -> set[tuple[str, Any]]:
    """Every mapping entry `key: value` anywhere in the JSON tree, its value frozen: `(key, frozen(value)) in
    json_pairs(tree)` is `contains_pair(tree, key, value)` in one walk of the tree, however many secrets are looked
    for (Clue at six players: 30,000 walks a game)."""
    pairs: set[tuple[str, Any]] = set()
    frozen(tree, pairs)
    return pairs


def frozen(node: Any, pairs: set[tuple[str, Any]] | None = None) -> Any:
    """A JSON value made hashable, equal to another exactly when the values are equal (Python's ==); each mapping
    entry met on the way goes into `pairs`."""
    if isinstance(node, Mapping):
        items = []
        for k, v in node.items():
            entry = (k, frozen(v, pairs))
            if pairs is not None:
                pairs.add(entry)
            items.append(entry)
        return ("mapping", frozenset(items))
    if isinstance(node, (list, tuple)):
        return ("sequence", tuple(frozen(v, pairs) for v in node))
    return node


def check_secrets(engine: Engine[Any], state: Any, events: tuple[Event, ...] = ()) -> None:
    seats = engine.seats(state)
    views = {seat: json_pairs(json.loads(json.dumps(engine.view(state, seat)))) for seat in (*seats, None)}
    datas = [(event, json_pairs(json.loads(json.dumps(event.to_dict()["data"])))) for event in events]
    for secret in engine.secrets(state):
        assert isinstance(secret, Secret)
        value = json.loads(json.dumps(secret.value))
        entry = (secret.key, frozen(value))
        for seat, view in views.items():
            shown = entry in view
            if seat is not None and seat in secret.seen_by:
                assert shown, f"seat {seat} should see its secret {secret.key}={value!r}"
            else:
                assert not shown, f"seat {seat} sees {secret.key}={value!r} meant for {sorted(secret.seen_by)}"
        for event, data in datas:
            if event.to is None or not event.to <= secret.seen_by:
                assert entry not in data, (
                    f"event {event.kind} shows {secret.key}={value!r} beyond {sorted(secret.seen_by)}")


def check_rule_error(exc: RuleError) -> None:
    assert exc.code and isinstance(exc.code, str)
    assert HANGUL.search(exc.ko), f"RuleError {exc.code} has no Korean message: {exc.ko!r}"
    assert exc.en and exc.en != exc.ko


def check_json_roundtrip(engine: Engine[Any], state: Any) -> None:
    data = json.loads(json.dumps(engine.state_to_dict(state), ensure_ascii=False))
    assert engine.state_from_dict(data) == state, "state does not survive JSON"


def check_declarations(engine: Engine[Any]) -> None:
    """Every action class: a name, who takes it, and a FieldSpec on every field but `seat`."""
    assert engine.actions, f"{engine.name} declares no actions"
    for name, cls in engine.actions.items():
        assert cls.NAME == name
        assert cls.BY in ("player", "table", "chance"), f"{name}.BY = {cls.BY!r}"
        specs = field_specs(cls)  # raises TypeError for a field without a FieldSpec
        for fname, spec in specs.items():
            assert (fname == "at") == (spec.kind == "moment"), f"{name}.{fname}: only `at` is a moment"
            if spec.kind == "ref":
                assert spec.of, f"{name}.{fname}: a ref names its catalog"
            if spec.kind == "drawn":
                assert cls.BY == "chance", f"{name}.{fname}: only chance draws"
        assert cls.__doc__ and cls.__doc__.strip(), f"{name} has no doc"
    described = engine.describe_actions()
    assert {d["name"] for d in described} == set(engine.actions)


def _json(data: Any) -> Any:
    return json.loads(json.dumps(data, ensure_ascii=False, sort_keys=True))


def check_views(engine: Engine[Any], state: Any) -> None:
    """Typed views: the shared part is consistent, JSON-safe and the table's offers are public."""
    seats = engine.seats(state)
    table = engine.table_offers(state) if engine.outcome(state) is None else ()
    movers = engine.to_move(state)
    for offer in table:
        cls = engine.actions[offer.action]
        assert offer.seat in movers, f"offer {offer}"
        if offer.private:  # a claim: the seat's private channel decides
            assert cls.PRIVATE and cls.BY == "player", f"offer {offer}: only a player's PRIVATE action is claimed"
        else:
            assert offer.action in engine.legal_names(state, offer.seat), f"offer {offer}"
        assert offer.final == cls.FINAL
    for seat in (*seats, None):
        view = engine.observe(state, seat)
        assert isinstance(view, View) and view.seat == seat
        assert [p.seat for p in view.players] == list(seats)
        assert view.table == table, "the table's offers differ between views"
        assert all(p.seat in movers for p in view.prompts), "a prompt names a seat that may not act"
        assert _json(view.to_dict()) == _json(engine.view(state, seat))


def check_hidden_variants(engine: Engine[Any], state: Any) -> int:
    """A secret swapped changes nothing for the seats that may not see it (nor the table)."""
    n = 0
    seats = engine.seats(state)
    views: dict[int | None, Any] = {}  # the state's own, each computed once for all its variants
    legal: dict[int, list[Any]] = {}
    for variant, knowers in engine.hidden_variants(state):
        n += 1
        assert variant != state, "a hidden variant must differ"
        assert engine.table_offers(variant) == engine.table_offers(state), "table offers depend on a secret"
        assert engine.to_move(variant) == engine.to_move(state), "who moves depends on a secret"
        for seat in (*seats, None, TABLE):
            if seat is not None and seat not in legal:
                legal[seat] = [(a.to_dict(), type(a).PRIVATE) for a in engine.legal_actions(state, seat)]
            if seat is not None and seat in knowers:
                # even a knower's shareable (not PRIVATE) actions are the same: the shared screen may show them
                mine = [a for a, private in legal[seat] if not private]
                theirs = [a.to_dict() for a in engine.legal_actions(variant, seat) if not type(a).PRIVATE]
                assert mine == theirs, f"seat {seat}'s non-private actions depend on its secret"
                continue
            if seat != TABLE:
                if seat not in views:
                    views[seat] = _json(engine.view(state, seat))
                assert _json(engine.view(variant, seat)) == views[seat], (
                    f"seat {seat}'s view depends on a secret of {sorted(knowers)}")
            if seat is not None:
                mine = [a for a, _ in legal[seat]]
                theirs = [a.to_dict() for a in engine.legal_actions(variant, seat)]
                assert mine == theirs, f"seat {seat}'s legal actions depend on a secret of {sorted(knowers)}"
    return n


def _check_seat_kinds(engine: Engine[Any], state: Any, seat: int, legal: list[Action]) -> None:
    """Legal actions are the seat's own and of its kind; sent by another kind of seat, each is refused."""
    before = engine.state_to_dict(state)
    movers = engine.to_move(state)
    for action in legal:
        assert action.seat == seat, f"{action.NAME} of seat {seat} says seat {action.seat}"
        kind = "table" if seat == TABLE else "player"
        assert type(action).BY == kind, f"{action.NAME} is BY {type(action).BY} but offered to {kind}"
    others = [s for s in movers if s != CHANCE and (s == TABLE) != (seat == TABLE)]
    for action in legal[:8]:
        for other in others[:2]:
            try:
                engine.apply(state, stamp(dataclasses.replace(action, seat=other), START))
            except RuleError as exc:
                check_rule_error(exc)
            else:
                raise AssertionError(f"{action.NAME} of seat {seat} accepted from seat {other}")
    assert engine.state_to_dict(state) == before


def random_playthrough(engine: Engine[Any], config: Mapping[str, Any], pack: Mapping[str, Any], seed: int,
                       max_steps: int = 5000, check_every: int = 5, check_first: int = 40,
                       max_legal_checked: int = 24, by_kind: bool = False) -> Playthrough:
    """Thorough checks run on the first `check_first` steps and every `check_every`-th step after; each
    applies up to `max_legal_checked` of the legal actions (a random sample) besides the one played.
    `by_kind`: pick an action name first, a FINAL one only now and then, so games go deeper (a Clue turn
    offers 324 accusations and one die roll)."""
    rng = random.Random(seed)
    check_declarations(engine)
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
            check_views(engine, state)
            play.variants += check_hidden_variants(engine, state)
            _check_illegal(engine, state, tried, rng)
        deadlines = sorted(engine.deadlines(state), key=lambda d: d.at)
        for d in deadlines:
            assert d.action.seat in movers, f"deadline {d.action.NAME} for a seat that may not act"
            if thorough and d.at > now:  # not due yet: refused
                try:
                    engine.apply(state, _stamp(d.action, now))
                except RuleError as exc:
                    check_rule_error(exc)
                else:
                    raise AssertionError(f"deadline {d.action.NAME} accepted before its moment")
        legal_by = {s: list(engine.legal_actions(state, s)) for s in movers if s != CHANCE}
        if thorough and not (deadlines and deadlines[0].at <= now):
            for s, legal in legal_by.items():
                _check_seat_kinds(engine, state, s, legal)
        seats_with = [s for s in movers if s == CHANCE or legal_by.get(s)]
        due = bool(deadlines) and deadlines[0].at <= now  # the session fires a due deadline first
        if due or (deadlines and (not seats_with or rng.random() < 0.15)):
            now = max(now, deadlines[0].at) + rng.choice((0.0, 0.5, 5.0))
            action = deadlines[0].action
        else:
            assert seats_with, f"seats {movers} to move but none has a legal action or a deadline"
            seat = rng.choice(seats_with)
            if seat == CHANCE:
                action = engine.sample_chance(state, rng)
            else:
                legal = legal_by[seat]
                if thorough and not due:
                    for other in rng.sample(legal, min(max_legal_checked, len(legal))):
                        engine.apply(state, _stamp(other, now))
                action = _pick(legal, rng) if by_kind else rng.choice(legal)
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


def _pick(legal: list[Action], rng: random.Random) -> Action:
    names = sorted({a.NAME for a in legal})
    calm = [n for n in names if not type(next(a for a in legal if a.NAME == n)).FINAL]
    name = rng.choice(calm if calm and rng.random() < 0.9 else names)
    return rng.choice([a for a in legal if a.NAME == name])


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
            engine.apply(state, dataclasses.replace(probe, seat=rng.choice(idle)))
        except RuleError as exc:
            check_rule_error(exc)
            assert exc.code == "not_your_turn"
        else:
            raise AssertionError("a seat that may not act had its action accepted")
