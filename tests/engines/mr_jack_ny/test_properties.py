"""Property tests: random legal play keeps every invariant; illegal actions are refused cleanly."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.core import CHANCE, TABLE, Action, RuleError
from engines.mr_jack_ny.actions import Arrest, CallWitness, EndTurn, Escape, Pick, Shuffle, UseAbility, VisitSpy
from engines.mr_jack_ny.cards import TILE_TOTAL
from tests.engines.conformance import check_rule_error, check_secrets, contains_pair, random_playthrough
from tests.engines.mr_jack_ny.helpers import CONFIG, ENGINE, PACK, D, J


def play(seed: int, arrest_weight: float):  # type: ignore[no-untyped-def]
    """A random game that rarely arrests or escapes (so it runs long), yielding each state."""
    rng = random.Random(seed)
    state = ENGINE.setup(CONFIG, PACK, seed)
    yield state, ()
    for _ in range(400):
        if ENGINE.outcome(state) is not None:
            return
        seat = rng.choice(sorted(ENGINE.to_move(state)))
        if seat == CHANCE:
            action: Action = ENGINE.sample_chance(state, rng)
        else:
            legal = list(ENGINE.legal_actions(state, seat))
            enders = [a for a in legal if isinstance(a, (Arrest, Escape))]
            rest = [a for a in legal if not isinstance(a, (Arrest, Escape))]
            action = rng.choice(enders if enders and rng.random() < arrest_weight else rest)
        out = ENGINE.apply(state, action)
        state = out.state
        yield state, out.events
    raise AssertionError("game did not end")


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 100_000), arrest_weight=st.sampled_from([0.0, 0.02, 0.2]))
def test_random_games_never_leak_jack_and_keep_the_books(seed: int, arrest_weight: float) -> None:
    """Covers JACK-09, JACK-24, JACK-28, JACK-02, JACK-18: Jack's identity is never in the detective's or the
    table view before the end, alibi cards only in the drawer's view, Jack is never cleared, clears only
    grow, tiles are conserved, rounds stay within 1..8."""
    innocent: frozenset[str] = frozenset()
    final = None
    for state, events in play(seed, arrest_weight):
        final = state
        check_secrets(ENGINE, state, events)
        over = ENGINE.outcome(state) is not None
        for seat in (D, None):
            shown = contains_pair(json.loads(json.dumps(ENGINE.view(state, seat))), "jack", state.jack)
            assert shown == over
        assert state.jack not in state.innocent and innocent <= state.innocent
        innocent = state.innocent
        for i, total in enumerate(TILE_TOTAL):
            assert state.tiles.supply[i] + state.tiles.board[i] + state.tiles.gardens[i] == total
            assert min(state.tiles.supply[i], state.tiles.board[i], state.tiles.gardens[i]) >= 0
        assert 1 <= state.round <= 8
        assert len(state.deck) + len(state.alibis) == 7
    assert final is not None and ENGINE.outcome(final) is not None
    if arrest_weight == 0.0:
        assert ENGINE.outcome(final).reason in ("rounds_over",)  # type: ignore[union-attr]


ANY_ACTION = st.one_of(
    st.builds(Shuffle, st.sampled_from([CHANCE, D]), st.tuples(*[st.sampled_from(["beach", "smith", "x"])] * 3)),
    st.builds(Pick, st.sampled_from([D, J, TABLE]), st.sampled_from(["beach", "grant", "x", ""])),
    st.builds(UseAbility, st.sampled_from([D, J]), st.sampled_from(["", "beach", "spy", "x"]),
              st.sampled_from(["", "smith", "spy"]), st.sampled_from(["", "lamp", "tree"])),
    st.builds(VisitSpy, st.sampled_from([D, J])),
    st.builds(EndTurn, st.sampled_from([D, J, TABLE])),
    st.builds(Arrest, st.sampled_from([D, J]), st.sampled_from(["beach", "eastman", "x"])),
    st.builds(Escape, st.sampled_from([D, J])),
    st.builds(CallWitness, st.sampled_from([TABLE, D]), st.frozensets(st.sampled_from(["beach", "smith", "x"]))),
)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 1000), steps=st.integers(0, 60), action=ANY_ACTION)
def test_any_action_applies_or_is_refused_in_korean_with_state_unchanged(seed: int, steps: int,
                                                                         action: Action) -> None:
    """Covers JACK-15, JACK-19, JACK-28, JACK-47: every illegal step → a RuleError with a Korean message,
    the state unchanged."""
    state = None
    for i, (s, _) in enumerate(play(seed, 0.0)):
        state = s
        if i >= steps:
            break
    assert state is not None
    before = ENGINE.state_to_dict(state)
    try:
        ENGINE.apply(state, action)
    except RuleError as exc:
        check_rule_error(exc)
    assert ENGINE.state_to_dict(state) == before


def test_conformance_playthroughs_of_the_engine() -> None:
    """Covers JACK-01, JACK-09: the generic harness (secrets, JSON, replay, legal/illegal, game ends)."""
    for seed in range(10):
        for config in ENGINE.example_configs(PACK):
            assert random_playthrough(ENGINE, config, PACK, seed, check_every=3).outcome is not None
