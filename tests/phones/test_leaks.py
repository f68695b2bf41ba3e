"""A seat's stream never holds another seat's secret: random games of every registered engine, every
seat joined through the hub as a phone, every message checked against `engine.secrets(state)` at that
moment (the conformance harness's own `contains_pair`), table-only secrets included."""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from types import SimpleNamespace
from typing import Any

import pytest

import engines
from engines.core import CHANCE, Action, Engine, Secret, Step, Text, stamp
from phones.channel import PhoneHub
from phones.labels import Catalogs
from tests.engines import reference
from tests.engines.conformance import START, contains_pair
from tests.packs import pack_for
from tests.phones.helpers import admit
from tests.tables import act

engines.register(reference.ENGINE)
NAMES = engines.engine_names()


@cache
def catalogs() -> Catalogs:
    return Catalogs.load()


class PlaySession:
    """What the hub needs of a running table, over a bare engine (no journal): fast enough for many games."""

    playing = True

    def __init__(self, engine: Engine[Any], config: Mapping[str, Any], pack: Mapping[str, Any], seed: int,
                 name: str) -> None:
        self.engine = engine
        self.state = engine.setup(config, pack, seed)
        self.game = SimpleNamespace(id=name, pack=pack)
        self.header = {"game": name, "seed": seed}
        self.listeners: list[Callable[..., None]] = []
        self.now = START

    def subscribe(self, fn: Callable[..., None]) -> None:
        self.listeners.append(fn)

    def unsubscribe(self, fn: Callable[..., None]) -> None:
        self.listeners.remove(fn)

    def dispatch(self, action: Action) -> Any:
        step = self.engine.apply(self.state, stamp(action, self.now))
        self.now += 7.0
        self.state = step.state
        for fn in list(self.listeners):
            fn(self, SimpleNamespace(kind="step", step=step))
        return step

    def act(self, action: Action, channel: Any, confirmed: bool = False) -> Any:
        return self.dispatch(action)


class Recorder:
    def __init__(self, remote: str) -> None:
        self.seat: int | None = None
        self.remote = remote
        self.sent: list[dict[str, Any]] = []

    def send(self, message: Mapping[str, Any]) -> None:
        self.sent.append(json.loads(json.dumps(message)))

    def close(self, message: Mapping[str, Any]) -> None:
        self.sent.append(json.loads(json.dumps(message)))


def _walk(tree: Any, out: set[str], keys: bool, shortest: int = 1) -> set[str]:
    if isinstance(tree, Mapping):
        for k, v in tree.items():
            if keys:
                out.add(str(k))
            _walk(v, out, keys, shortest)
    elif isinstance(tree, (list, tuple)):
        for v in tree:
            _walk(v, out, keys, shortest)
    elif isinstance(tree, str) and len(tree) >= shortest:
        out.add(tree)
    return out


def _leaves(value: Any) -> set[str]:
    return _walk(value, set(), keys=False, shortest=2)  # a one-letter value says nothing


def _strings(tree: Any) -> set[str]:
    return _walk(tree, set(), keys=True)


ENTRY_KEYS = {"id", "group", "glabel", "final", "parts", "free", "field", "flabel", "k", "label", "count", "ko", "en"}


def _keys(tree: Any, out: set[str]) -> set[str]:
    """Every key in a JSON tree (messages are parsed JSON: plain dicts and lists)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            out.update(node)
            stack.extend(node.values())
        elif type(node) is list:
            stack.extend(node)
    return out


def _texts(tree: Any, out: set[str]) -> set[str]:
    """The words a page shows for buttons and names: every {ko, en} text."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if type(node) is dict:
            for k, v in node.items():
                if (k == "ko" or k == "en") and type(v) is str:
                    out.add(v)
                else:
                    stack.append(v)
        elif type(node) is list:
            stack.extend(node)
    return out


def check_stream(seat: int, messages: list[dict[str, Any]], secrets: list[Secret]) -> int:
    """No message holds a secret the seat may not see; the buttons name no hidden string either."""
    checked = 0
    for message in messages:
        view_strings = _strings(message.get("view", {}))
        names = message.get("names", {})
        assert set(names) <= view_strings, "names are sent only for ids the seat's view holds"
        view_strings |= _texts(names, set())  # the name of an id the seat sees is no secret
        shown = _texts(message.get("actions", []), set())
        # the buttons have a fixed shape (no key of a game's secret can be in them): check that shape,
        # then look for secret pairs in the rest and for hidden words in the buttons' texts
        assert _keys(message.get("actions", []), set()) <= ENTRY_KEYS
        rest = {k: v for k, v in message.items() if k != "actions"}
        for secret in secrets:
            value = json.loads(json.dumps(secret.value))
            if seat in secret.seen_by:
                continue
            assert not contains_pair(rest, secret.key, value), (
                f"seat {seat} was sent {secret.key}={value!r} meant for {sorted(secret.seen_by)}")
            hidden = _leaves(value) - view_strings
            assert not hidden & shown, f"seat {seat}'s buttons name {hidden & shown} of {secret.key}"
            checked += 1
    return checked


def play(name: str, config: Mapping[str, Any], seed: int, max_steps: int,
         engine: Engine[Any] | None = None) -> int:
    engine = engine or engines.find_engine(name)
    pack = pack_for(name)
    session = PlaySession(engine, config, pack, seed, name)
    hub = PhoneHub(catalogs=catalogs())
    hub.follow(session)  # type: ignore[arg-type]
    phones: dict[int, Recorder] = {}
    for seat in engine.seats(session.state):
        phone = Recorder(f"10.0.0.{seat}")
        pass_ = hub.seat_pass(seat)
        assert pass_ is not None
        assert admit(hub, phone, token=pass_.token)["t"] == "joined"
        phones[seat] = phone
    rng = random.Random(seed)
    checked = 0
    for _ in range(max_steps):
        secrets = list(engine.secrets(session.state))
        for seat, phone in phones.items():
            if not phone.sent:
                continue
            checked += check_stream(seat, phone.sent, secrets)
            assert phone.sent[-1]["t"] == "state" and phone.sent[-1]["seat"] == seat
            assert phone.sent[-1]["view"] == json.loads(json.dumps(engine.view(session.state, seat)))
            phone.sent.clear()
        if engine.outcome(session.state) is not None:
            break
        movers = sorted(engine.to_move(session.state))
        mover = rng.choice(movers)
        due = [d for d in engine.deadlines(session.state) if d.at <= session.now]
        if due:  # the session fires a due timeout first
            action = due[0].action
        elif mover == CHANCE:
            action = engine.sample_chance(session.state, rng)
        else:
            legal = list(engine.legal_actions(session.state, mover))
            if not legal:
                continue
            kinds = sorted({a.NAME for a in legal})  # each kind of action as likely: games go deeper
            kind = rng.choice(kinds)
            action = rng.choice([a for a in legal if a.NAME == kind])
        act(session, action)
    hub.end_game()
    assert all(p.sent[-1]["t"] == "bye" for p in phones.values())
    return checked


@pytest.mark.parametrize("name", NAMES)
def test_no_seat_is_ever_sent_another_seats_secret(name: str) -> None:
    """Covers, on the phone channel: SPY-19, CLUE-14, CLUE-41, JACK-09, WH-06, WH-40, WH-69 (every secret
    the engines declare reaches only the seats that may see it)."""
    engine = engines.find_engine(name)
    configs = engine.example_configs(pack_for(name))
    checked = 0
    for i, config in enumerate(configs[:3]):
        for seed in range(2):
            checked += play(name, config, seed * 31 + i, max_steps=120)
    if name != "reference_nim":
        assert checked > 0, f"{name}: no secret was ever checked"


class _LeakyViewNim(reference.SecretNim):
    name = "leaky_view_nim"

    def view(self, state, seat):  # type: ignore[no-untyped-def]
        out = super().view(state, seat)
        out["table_talk"] = [{"hand": h} for h in state.hands]  # every seat's secret to every seat
        return out


@dataclass(frozen=True)
class Whisper(Action):
    NAME = "whisper"
    words: Text = ""


class _LeakyButtonsNim(reference.SecretNim):
    """Offers a 'free text' sample that happens to be another seat's secret word."""

    name = "leaky_buttons_nim"
    actions = {**reference.SecretNim.actions, "whisper": Whisper}

    def secrets(self, state):  # type: ignore[no-untyped-def]
        return [*super().secrets(state), Secret("word", f"비밀{state.hands[1]}", frozenset({1}))]

    def legal_actions(self, state, seat):  # type: ignore[no-untyped-def]
        out = list(super().legal_actions(state, seat))
        return out + [Whisper(seat, f"비밀{state.hands[1]}")] if seat == 0 and out else out

    def _apply(self, state, action):  # type: ignore[no-untyped-def]
        return Step(state) if isinstance(action, Whisper) else super()._apply(state, action)


def test_the_leak_check_catches_a_leaking_view() -> None:
    with pytest.raises(AssertionError, match="was sent hand"):
        play("leaky_view_nim", {"players": ["A", "B"]}, 0, 40, engine=_LeakyViewNim())


def test_free_text_samples_are_never_shown_so_a_secret_in_one_does_not_leak() -> None:
    """The sample of a free-text field is not a choice the view names: the page asks for text instead."""
    assert play("leaky_buttons_nim", {"players": ["A", "B"]}, 0, 40, engine=_LeakyButtonsNim()) > 0
