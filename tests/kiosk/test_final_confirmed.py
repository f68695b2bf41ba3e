"""Conformance of the frontends with the engines' FINAL marks (issue 20): every action an engine marks FINAL
is confirmed by every frontend, and no other is — the tablet (one place: HostContext.dispatch), the phones
(each entry carries the mark; page.js asks only for those: tests/phones/test_e2e_browser.py) and voice
(a template's `final` comes from the mark). Driven by random play of every engine."""

from __future__ import annotations

import random
from typing import Any

import pytest

import engines
from engines.core import CHANCE, Action, stamp
from phones.labels import Catalogs, Labeller
from tests.packs import pack_for

GAMES = ["clue", "mr_jack_ny", "spyfall", "watson_holmes"]


class _Session:
    """A running table for HostContext: `act` applies (a FINAL action only when confirmed, as table.Table)."""

    playing = True

    def __init__(self, name: str, seed: int) -> None:
        self.game = type("G", (), {"id": name})()
        self.engine = engines.find_engine(name)
        pack = pack_for(name)
        self.state = self.engine.setup(self.engine.example_configs(pack)[seed % 2], pack, seed)
        self.sent: list[Action] = []
        self.now = 1_000.0

    def dispatch(self, action: Action) -> Any:
        self.now += 1
        step = self.engine.apply(self.state, stamp(action, self.now))
        self.state = step.state
        self.sent.append(action)
        return step

    def view(self, seat: int | None) -> dict[str, Any]:
        return self.engine.view(self.state, seat)

    def act(self, action: Action, channel: Any, confirmed: bool = False) -> Any:
        assert confirmed or not type(action).FINAL, f"{action.NAME} reached the table unconfirmed"
        return self.dispatch(action)

    def needs_confirmation(self, action: Action) -> bool:
        return bool(type(action).FINAL)

    def subscribe(self, fn: Any) -> None:
        pass

    def unsubscribe(self, fn: Any) -> None:
        pass


class _App:
    lang = "ko"

    def tr(self, key: str, **params: Any) -> str:
        return f"{key} {params}"

    def toast(self, text: str) -> None:
        raise AssertionError(f"a legal action was refused: {text}")


def _Context(session: _Session, game: str) -> Any:
    """The real HostContext.dispatch; the dialog replaced by a record of what was asked (and a yes)."""
    from kiosk.hosting import HostContext  # Kivy: imported inside the test

    class Context(HostContext):
        def confirm(self, text: str, on_yes: Any, timeout: float = 0.0, danger: bool = False) -> None:
            self.asked.append(text)
            self.pending = on_yes

    app = _App()
    app.table = session  # type: ignore[attr-defined]
    ctx = Context(app, type("G", (), {"id": game})())  # type: ignore[arg-type]
    ctx.asked = []
    return ctx


def _moves(session: _Session, rng: random.Random, steps: int) -> Any:
    engine = session.engine
    for _ in range(steps):
        if engine.outcome(session.state) is not None:
            return
        movers = sorted(engine.to_move(session.state))
        if movers == [CHANCE]:
            session.state = engine.apply(session.state, engine.sample_chance(session.state, rng)).state
            continue
        legal = [a for s in movers if s != CHANCE for a in engine.legal_actions(session.state, s)]
        if not legal:
            return
        name = rng.choice(sorted({a.NAME for a in legal}))  # by name: Clue's many accusations do not crowd out
        yield rng.choice([a for a in legal if a.NAME == name])


@pytest.mark.parametrize("name", GAMES)
def test_the_tablet_asks_before_exactly_the_final_actions(name: str) -> None:
    """A screen hands every action to HostContext.dispatch; a FINAL one is sent only after a yes, with a
    question in words (the screen's own, or the action's label and values), any other at once."""
    finals = nonfinals = 0
    for seed in range(3):
        session = _Session(name, seed)
        ctx = _Context(session, name)
        for action in _moves(session, random.Random(seed), 150):
            before = len(session.sent)
            step = ctx.dispatch(action)
            if type(action).FINAL:
                finals += 1
                assert step is None and len(session.sent) == before, f"{action.NAME} sent without asking"
                assert ctx.asked and ctx.asked[-1].startswith("host.generic.confirm")
                ctx.pending()
            else:
                nonfinals += 1
                assert step is not None and not ctx.asked, f"{action.NAME} asked although not FINAL"
            assert session.sent[-1] == action
            ctx.asked.clear()
        confirmed = _Context(session, name)  # voice asked already: nothing asked twice
        for action in _moves(session, random.Random(seed + 7), 5):
            confirmed.dispatch(action, confirmed=True)
            assert not confirmed.asked
    assert finals and nonfinals


@pytest.mark.parametrize("name", GAMES)
def test_the_phones_mark_exactly_the_final_actions_with_words_in_both_languages(name: str) -> None:
    catalogs = Catalogs.load()
    labeller = Labeller(catalogs, name)
    engine = engines.find_engine(name)
    for cls in engine.actions.values():
        if cls.FINAL:
            for lang in ("ko", "en"):
                catalog = catalogs.ko if lang == "ko" else catalogs.en
                assert f"phones.action.{name}.{cls.NAME}" in catalog, f"{cls.NAME}: no {lang} label to ask with"
    session = _Session(name, 1)
    seen = set()
    for action in _moves(session, random.Random(3), 200):
        for seat in {action.seat} | set(session.engine.seats(session.state)):
            legal = list(engine.legal_actions(session.state, seat))
            for entry in labeller.entries(legal, session.view(seat)):
                assert entry["final"] == type(legal[entry["id"]]).FINAL
                seen.add(entry["final"])
        session.dispatch(action)
    assert seen == {True, False}


def test_voice_asks_before_exactly_the_final_actions() -> None:
    from audio.intents import load_catalog

    catalog = load_catalog()
    checked = 0
    for name in GAMES:
        engine = engines.find_engine(name)
        for spec in catalog.game_intents(name):
            assert spec.final == (engine.actions[spec.action].FINAL or spec.say_back), spec.name
            checked += 1
    assert checked >= 20
