"""Property tests: random legal play keeps every invariant; any action is either legal or a clean RuleError."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core import CHANCE, TABLE, RuleError
from engines.watson_holmes import ENGINE
from engines.watson_holmes.actions import (
    CheckAnswer,
    ConsultAnswers,
    DoneReading,
    RevealCharacter,
    RotateCharacter,
    SubmitAnswers,
    TakeWatson,
    Verdict,
    Visit,
    WatsonRead,
)
from engines.watson_holmes.state import WhState
from tests.engines.watson_holmes.helpers import NAMES, real_pack

SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
CASES = ["case_01", "case_02", "case_03", "cafe_box_example"]


def _setup(case_id: str, n: int, seed: int, expert: bool) -> WhState:
    return ENGINE.setup({"players": NAMES[:n], "case": case_id, "expert": expert}, real_pack(), seed)


def _check_invariants(state: WhState, box: dict[str, int]) -> None:
    s = state.supply
    on_cards = sum(p.bid for p in state.placements) if state.phase in ("visit", "watson") else 0
    assert s.carriages + on_cards + sum(p.carriages for p in state.players) == box["carriages"]
    assert s.police + len(state.police_on) + sum(p.police for p in state.players) == box["police"]
    assert s.withdraw + sum(p.withdraw for p in state.players) == box["withdraw"]
    assert s.lockpick + sum(p.lockpick for p in state.players) == box["lockpick"]
    for p in state.players:
        assert p.carriages >= 0 and p.police in (0, 1) and p.withdraw in (0, 1) and p.lockpick in (0, 1)
    no_police = {loc.number for loc in state.case.locations if loc.no_police}
    assert state.police_on & no_police <= set(state.case.rules.police_at_start)
    if ENGINE.outcome(state) is None:
        assert ENGINE.to_move(state)
    json.dumps([ENGINE.view(state, s) for s in (None, *range(len(state.players)))])


def _box(state: WhState) -> dict[str, int]:
    tokens = real_pack()["components"].tokens
    return {"carriages": tokens.carriages, "police": tokens.police, "withdraw": tokens.withdraw,
            "lockpick": tokens.lockpick}


@SETTINGS
@given(case_id=st.sampled_from(CASES), n=st.integers(2, 7), seed=st.integers(0, 10_000), expert=st.booleans())
def test_random_legal_play_keeps_the_invariants(case_id: str, n: int, seed: int, expert: bool) -> None:
    """Covers WH-10, WH-18, WH-19, WH-20, WH-21, WH-25, WH-68, WH-74."""
    state = _setup(case_id, n, seed, expert)
    box = _box(state)
    rng = random.Random(seed)
    for _ in range(120):
        _check_invariants(state, box)
        if ENGINE.outcome(state) is not None:
            break
        seats = sorted(s for s in ENGINE.to_move(state) if s != CHANCE)
        seat = rng.choice(seats)
        legal = list(ENGINE.legal_actions(state, seat))
        assert legal or seat != TABLE
        if not legal:
            continue
        state = ENGINE.apply(state, rng.choice(legal)).state


def _any_action(rng: random.Random, n: int):
    seat = rng.choice([*range(n), TABLE, n + 3])
    loc = rng.choice(["1", "2", "4", "8", "13", "99", "cab", "221b", "", "x"])
    return rng.choice([
        Visit(seat, loc, rng.randint(-2, 12), rng.random() < 0.3, rng.random() < 0.2),
        TakeWatson(seat), WatsonRead(seat, rng.randint(-1, n)), DoneReading(seat, rng.random() < 0.5),
        SubmitAnswers(seat, tuple("가" for _ in range(rng.randint(0, 4)))), Verdict(seat, rng.randint(-1, n),
                                                                                    rng.randint(-1, 4)),
        ConsultAnswers(seat, rng.randint(-1, n)), CheckAnswer(seat, rng.randint(0, 4), rng.choice(["", "x"])),
        RevealCharacter(seat), RotateCharacter(seat),
    ])


@SETTINGS
@given(case_id=st.sampled_from(CASES), n=st.integers(2, 5), seed=st.integers(0, 10_000))
def test_any_action_applies_or_is_refused_cleanly(case_id: str, n: int, seed: int) -> None:
    """Covers WH-53, WH-50, WH-74, WH-75."""
    state = _setup(case_id, n, seed, False)
    rng = random.Random(seed)
    for _ in range(80):
        if ENGINE.outcome(state) is not None:
            break
        action = _any_action(rng, n)
        before = ENGINE.state_to_dict(state)
        try:
            state = ENGINE.apply(state, action).state
        except RuleError as exc:
            assert any("\uac00" <= ch <= "\ud7a3" for ch in exc.ko) and exc.en and exc.code
            assert ENGINE.state_to_dict(state) == before
            legal = ENGINE.legal_actions(state, action.seat) if action.seat in ENGINE.to_move(state) else []
            assert action not in legal
            seats = sorted(ENGINE.to_move(state))
            moves = ENGINE.legal_actions(state, rng.choice(seats))
            if moves:
                state = ENGINE.apply(state, rng.choice(list(moves))).state
