"""The engine contract (engines/core.py) on the real games: who may send what, deadlines, set-up errors,
and legal actions that never carry a secret."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

import engines
from engines.core import CHANCE, TABLE, ConfigError, View, stamp
from engines.spyfall import actions as A
from tests.engines.spyfall.helpers import Table
from tests.packs import pack_for

GAMES = ["clue", "mr_jack_ny", "spyfall", "watson_holmes"]


def test_the_table_cannot_use_a_players_ability() -> None:
    """#19 item 4: `use_ability` sent as the table (seat -1) used the last seat's secret ability card and
    showed it on the table view; a player's action is refused from the table, state unchanged."""
    t = Table(["A", "B", "C", "D", "E"], modules=["power_up"])
    t.start(abilities={4: "speedster"})
    t.fails(A.UseAbility(TABLE, t.at()), "not_allowed")
    assert A.UseAbility.NAME not in {a.NAME for a in engines.find_engine("spyfall").legal_actions(t.state, TABLE)}


def test_watson_holmes_legal_actions_never_hold_an_accepted_answer() -> None:
    """#19 item 4: the answer samples offered at 221B were the case's accepted answers."""
    engine = engines.find_engine("watson_holmes")
    pack = pack_for("watson_holmes")
    for config in engine.example_configs(pack):
        state = engine.setup(config, pack, 1)
        accepted = {a for q in state.case.questions for a in q.accepted} | {
            " ".join(g[0] for g in q.keywords) for q in state.case.questions if q.keywords}
        rng = random.Random(1)
        for _ in range(400):
            if engine.outcome(state) is not None:
                break
            movers = [s for s in engine.to_move(state) if s != CHANCE]
            legal = [a for s in movers for a in engine.legal_actions(state, s)]
            text = json.dumps([a.to_dict() for a in legal], ensure_ascii=False)
            assert not [a for a in accepted if a and a in text], "a legal action holds an accepted answer"
            if not legal:
                break
            state = engine.apply(state, rng.choice(legal)).state


def test_spyfall_time_up_is_a_deadline_not_a_table_action() -> None:
    engine = engines.find_engine("spyfall")
    t = Table(["A", "B", "C", "D"])
    t.start()
    assert [d.at for d in engine.deadlines(t.state)] == [t.r.clock.deadline]
    assert A.TimeUp.NAME not in {a.NAME for a in engine.legal_actions(t.state, TABLE)}
    t.fails(A.TimeUp(TABLE, t.at()), "time_not_up")  # before its moment
    t.do(A.PauseClock(TABLE, t.r.clock.deadline + 5))  # paused just after the deadline: due at once
    (due,) = engine.deadlines(t.state)
    assert due.at <= t.state.now
    t.do(stamp(due.action, t.state.now))
    assert t.r.phase == "discussion"
    assert [d.at for d in engine.deadlines(t.state)] == [t.r.talk.deadline]


@pytest.mark.parametrize("name", GAMES)
def test_a_bad_setup_is_a_config_error(name: str) -> None:
    engine = engines.find_engine(name)
    with pytest.raises(ConfigError) as info:
        engine.setup({"players": ["혼자"]}, pack_for(name), 1)
    assert info.value.ko and info.value.en and info.value.ko != info.value.en


@pytest.mark.parametrize("name", GAMES)
def test_views_are_typed_and_keep_each_games_keys(name: str) -> None:
    engine = engines.find_engine(name)
    pack = pack_for(name)
    state = engine.setup(engine.example_configs(pack)[0], pack, 2)
    view = engine.observe(state, None)
    assert isinstance(view, View)
    data = engine.view(state, None)
    assert data["common"]["players"] == [{"seat": p.seat, "name": p.name} for p in view.players]
    if view.game is None:
        assert set(data) - {"common"} == set(view.detail)
    else:  # a typed game part: every key on the wire is a declared field
        assert set(data) - {"common"} <= {f.name for f in dataclasses.fields(view.game)}
    assert view.catalogs and all(n.id and n.ko and n.en for c in view.catalogs.values() for n in c)


def test_phone_buttons_carry_the_final_mark_and_label_from_fieldspecs() -> None:
    """Every frontend takes confirmation and labels from the declarations: the phones' entries say which
    action is FINAL, a seat field is labelled with the player's name and a ref with the catalog's name."""
    from phones.labels import Catalogs, Labeller

    t = Table(["지수", "민호", "서연", "도윤"])
    t.start()
    view = engines.find_engine("spyfall").view(t.state, 0)
    entries = Labeller(Catalogs.load(), "spyfall").entries(
        [A.Accuse(0, 1), A.PauseClock(TABLE), A.GuessLocation(0, "batcave")], view)
    assert [e["final"] for e in entries] == [True, False, True]
    assert entries[0]["parts"][0]["label"]["ko"] == "민호"
    assert entries[2]["parts"][0]["label"]["ko"] == "배트케이브"
