"""Nothing secret is ever published to the floor: random games of every registered engine, the reporter
observing after every step (with staff calls now and then), every payload checked against
`engine.secrets(state)` at that moment — no secret pair anywhere, and no hidden word of a secret as any
string of the payload (player names aside)."""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import engines
from engines.core import CHANCE, Engine, stamp
from floor import schema
from floor.report import REASONS, TableReporter, players_of
from tests.engines import reference
from tests.engines.conformance import START, contains_pair
from tests.packs import pack_for

engines.register(reference.ENGINE)
NAMES = engines.engine_names()


class PlaySession:
    """What the reporter reads of a session, over a bare engine (no journal file)."""

    def __init__(self, engine: Engine[Any], config: Mapping[str, Any], seed: int, name: str) -> None:
        self.engine = engine
        self.state = engine.setup(config, pack_for(name), seed)
        self.game = SimpleNamespace(id=name)
        self.journal = SimpleNamespace(header={"game": name, "seed": seed, "started_at": START})
        self.now = START

    @property
    def outcome(self) -> Any:
        return self.engine.outcome(self.state)

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.engine.view(self.state, seat)


def step(session: PlaySession, rng: random.Random) -> bool:
    """One move at `session.now`: a due deadline, else a chance step or a random kind of legal action of a
    random mover; False when the mover drawn had nothing to do."""
    engine = session.engine
    mover = rng.choice(sorted(engine.to_move(session.state)))
    due = [d for d in engine.deadlines(session.state) if d.at <= session.now]
    if due:  # the session fires a due timeout first
        action = min(due, key=lambda d: d.at).action
    elif mover == CHANCE:
        action = engine.sample_chance(session.state, rng)
    else:
        legal = list(engine.legal_actions(session.state, mover))
        if not legal:
            return False
        kind = rng.choice(sorted({a.NAME for a in legal}))  # each kind as likely: games go deeper
        action = rng.choice([a for a in legal if a.NAME == kind])
    session.state = engine.apply(session.state, stamp(action, session.now)).state
    return True


def _leaves(tree: Any, out: set[str]) -> set[str]:
    if isinstance(tree, Mapping):
        for v in tree.values():
            _leaves(v, out)
    elif isinstance(tree, (list, tuple)):
        for v in tree:
            _leaves(v, out)
    elif isinstance(tree, str) and len(tree) >= 2:
        out.add(tree)
    return out


def check_payloads(engine: Engine[Any], session: PlaySession, sent: list[tuple[str, Any]]) -> int:
    secrets = list(engine.secrets(session.state))
    names = set(players_of(session.view(None)))
    checked = 0
    for topic, payload in sent:
        data = json.loads(json.dumps(payload))
        strings = _leaves(data, set())
        for secret in secrets:
            value = json.loads(json.dumps(secret.value))
            assert not contains_pair(data, secret.key, value), f"{topic} holds {secret.key}={value!r}"
            hidden = _leaves(value, set()) - names
            assert not hidden & strings, f"{topic} names {hidden & strings} of the secret {secret.key}"
            checked += 1
    return checked


def play(name: str, config: Mapping[str, Any], seed: int, tmp: Path, max_steps: int = 150,
         reporter_cls: type[TableReporter] = TableReporter, engine: Engine[Any] | None = None) -> int:
    engine = engine or engines.find_engine(name)
    session = PlaySession(engine, config, seed, name)
    sent: list[tuple[str, Any]] = []
    clock = [START]
    reporter = reporter_cls("t01", lambda topic, payload, retain=False, key="": sent.append((topic, payload)),
                            tmp / f"{name}-{seed}.json", clock=lambda: clock[0])
    reporter.seated()
    rng = random.Random(seed)
    checked = 0
    for _ in range(max_steps):
        reporter.observe(session)
        if rng.random() < 0.05:
            reporter.call(rng.choice(REASONS))
        checked += check_payloads(engine, session, sent)
        fits_schema(sent)
        sent.clear()
        if session.outcome is not None:
            break
        session.now = clock[0] + 7.0
        if step(session, rng):
            clock[0] = session.now
    reporter.observe(None)  # the table is turned over
    checked += check_payloads(engine, session, sent)
    fits_schema(sent)
    return checked


def fits_schema(sent: list[tuple[str, Any]]) -> None:
    """What a real table sends passes the floor's strict schemas (the floor drops what does not)."""
    for topic, payload in sent:
        kind = topic.rsplit("/", 1)[-1]
        ok = schema.status(payload, "t01") if kind == "status" else schema.event(payload, "t01")
        assert ok is not None, (kind, payload)


@pytest.mark.parametrize("name", NAMES)
def test_no_floor_message_holds_a_secret(name: str, tmp_path: Path) -> None:
    engine = engines.find_engine(name)
    checked = 0
    for i, config in enumerate(engine.example_configs(pack_for(name))[:3]):
        for seed in range(3):
            checked += play(name, config, seed * 31 + i, tmp_path)
    if name != "reference_nim":
        assert checked > 0, f"{name}: no secret was ever checked"


class _LeakyReporter(TableReporter):
    def status(self) -> dict[str, Any]:
        out = super().status()
        if self._session is not None:
            out["peek"] = self._session.view(0)  # seat 0's own view sent to the floor
        return out


def test_the_check_catches_a_reporter_that_publishes_a_seats_view(tmp_path: Path) -> None:
    name = "clue"
    config = engines.find_engine(name).example_configs(pack_for(name))[0]
    with pytest.raises(AssertionError, match="holds|names"):
        play(name, config, 1, tmp_path, reporter_cls=_LeakyReporter)
