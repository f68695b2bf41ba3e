"""Property tests: random sessions with every module combination keep every invariant; any action in any
reachable state either applies or raises a RuleError with a Korean message, leaving the state unchanged."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines.core import CHANCE, TABLE, RuleError, stamp
from engines.spyfall import ENGINE as E
from engines.spyfall import actions as A
from tests.engines.conformance import HANGUL, random_playthrough
from tests.engines.spyfall.helpers import NAMES, PACK

MODULES = ("power_up", "harley", "prank", "multiverse")
COMBOS = [c for k in range(5) for c in itertools.combinations(MODULES, k)]


@pytest.mark.parametrize("modules", COMBOS, ids=lambda c: "+".join(c) or "standard")
def test_random_session_every_module_combination(modules: tuple[str, ...]) -> None:
    """Covers SPY-27, SPY-20. Each of the 16 module combinations (digital or physical, open or sealed by
    turns): a random session ends, every round ends exactly once, decks are never reused, points only from
    the tables (per round at most 4 for one seat), totals add up."""
    k = COMBOS.index(modules)
    deal, votes = ("digital", "physical")[k % 2], ("open", "sealed", "sealed", "open")[k % 4]
    n = 5 + k % 4 if "harley" in modules else 3 + k % 6
    config = {"players": NAMES[:n], "rounds": 2, "modules": list(modules), "deal": deal, "votes": votes}
    play = random_playthrough(E, config, PACK, seed=k, check_every=10)
    final = play.states[-1]
    assert final.over and len(set(final.used)) == len(final.used) == len(final.history)
    for rec in final.history:
        assert len(rec.points) == n and max(rec.points) <= 4 and min(rec.points) >= 0
    assert final.totals == tuple(map(sum, zip(*[r.points for r in final.history], strict=True)))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n=st.integers(5, 8), modules=st.sets(st.sampled_from(MODULES)),
       physical=st.booleans(), sealed=st.booleans())
def test_random_play_never_breaks_an_invariant(seed: int, n: int, modules: set[str], physical: bool,
                                               sealed: bool) -> None:
    """Covers SPY-17, SPY-19. Random legal play: JSON round-trip, replay, no secret leaks; in every digital
    standard round exactly one Joker and N-1 location cards of one location."""
    config = {"players": NAMES[:n], "rounds": 1, "modules": sorted(modules),
              "deal": "physical" if physical else "digital", "votes": "sealed" if sealed else "open"}
    play = random_playthrough(E, config, PACK, seed=seed, check_every=5)
    for state in play.states:
        f = state.round.facts if state.round is not None else None
        if f is not None and not physical and f.kind == "standard":
            assert f.cards.count("joker") == 1 and len(set(f.cards)) == 2


def _random_action(rng: random.Random, n: int) -> A.Action:
    seat = rng.choice([TABLE, CHANCE, *range(n), n, -5])
    target = rng.choice([-1, *range(n), n])
    at = rng.choice([0.0, 1_800_000_000.0, 1_800_000_500.0])
    loc = rng.choice(["watchtower", "batcave", "nowhere", ""])
    deck = rng.choice(["batcave", "jokers", "multiverse_a", "nothing"])
    return rng.choice([
        A.ChooseDealer(seat, target), A.Deal(seat, deck, tuple(rng.sample(range(9), min(n, 9))), ()),
        A.PickBag(seat, deck), A.StartClock(seat, at), A.PauseClock(seat, at), A.ResumeClock(seat, at),
        A.TimeUp(seat, at), A.StartPointing(seat, at), A.Accuse(seat, target, at), A.RevealJoker(seat, at),
        A.GuessLocation(seat, loc, at), A.DeclarePrank(seat, at), A.ConfirmGuess(seat, rng.random() < .5, at),
        A.CallMultiverse(seat, at), A.VoteYesNo(seat, rng.random() < .5, at), A.PointAt(seat, target, at),
        A.Hands(seat, tuple(rng.sample(range(n + 1), rng.randint(0, n))), at),
        A.Points(seat, tuple(rng.randint(-1, 3) for _ in range(rng.choice([n, n - 1]))), at),
        A.UseAbility(seat, at), A.EnterCards(seat, rng.choice(["standard", "joker", "multiverse", "x"]), target,
                                             rng.choice([-1, target])),
        A.NextRound(seat), A.EndSession(seat),
    ])


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 100_000), modules=st.sets(st.sampled_from(MODULES)), physical=st.booleans(),
       sealed=st.booleans())
def test_any_action_applies_or_is_refused_cleanly(seed: int, modules: set[str], physical: bool,
                                                  sealed: bool) -> None:
    """Every action, legal or not, in reachable states: a RuleError with a stable code, a Korean and an
    English message, and the state unchanged — or it applies."""
    rng = random.Random(seed)
    n = rng.randint(5, 8)
    config = {"players": NAMES[:n], "rounds": 2, "modules": sorted(modules),
              "deal": "physical" if physical else "digital", "votes": "sealed" if sealed else "open"}
    state = E.setup(config, PACK, seed)
    now = 1_800_000_000.0
    for _ in range(40):
        if E.outcome(state) is not None:
            break
        before = json.dumps(E.state_to_dict(state), sort_keys=True)
        for _ in range(8):
            action = _random_action(rng, n)
            try:
                E.apply(state, stamp(action, now))
            except RuleError as exc:
                assert exc.code and HANGUL.search(exc.ko) and exc.en and exc.en != exc.ko
        assert json.dumps(E.state_to_dict(state), sort_keys=True) == before
        movers = sorted(E.to_move(state))
        seat = rng.choice(movers)
        if seat == CHANCE:
            action = E.sample_chance(state, rng)
        else:
            legal = list(E.legal_actions(state, seat)) or [
                a for s in movers if s != CHANCE for a in E.legal_actions(state, s)]
            if not legal:  # only a timeout is pending: it fires once its moment has passed
                deadline = min(E.deadlines(state), key=lambda d: d.at)
                legal, now = [deadline.action], max(now, deadline.at)
            action = rng.choice(legal)
        state = E.apply(state, stamp(action, now)).state
        now += rng.choice((1.0, 30.0, 200.0))


@settings(max_examples=60, deadline=None)
@given(n=st.integers(5, 8), hunt=st.booleans(), data=st.data())
def test_an_open_tally_applies_exactly_when_it_counts_every_voter_once(n: int, hunt: bool,
                                                                     data: st.DataObject) -> None:
    """Covers SPY-29, SPY-32, SPY-33, SPY-72. Any fingers per seat entered for the final vote or the Harley
    hunt apply exactly when they could have been pointed: one finger per voter (all players; all but the
    revealed Joker in the hunt), none on a non-candidate, none on oneself. Otherwise a RuleError, state unchanged."""
    state = E.setup({"players": NAMES[:n], "modules": ["harley"], "rounds": 1}, PACK, 0)
    for action in (A.ChooseDealer(TABLE, 0), E.sample_chance(state, random.Random(n)), A.StartClock(TABLE)):
        state = E.apply(state, stamp(action, 1_800_000_000.0)).state
    joker = state.round.facts.joker
    if hunt:
        for action in (A.RevealJoker(joker), A.GuessLocation(joker, state.round.deck), A.StartPointing(TABLE)):
            state = E.apply(state, stamp(action, 1_800_000_010.0)).state
    else:
        for action in (A.TimeUp(TABLE, 1_800_000_480.0), A.StartPointing(TABLE)):
            state = E.apply(state, stamp(action, 1_800_000_480.0)).state
    voters = [s for s in range(n) if not (hunt and s == joker)]
    counts = tuple(data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n)))
    ok = (sum(counts) == len(voters) and (not hunt or counts[joker] == 0)
          and all(c <= len(voters) - (s in voters) for s, c in enumerate(counts)))
    before = json.dumps(E.state_to_dict(state), sort_keys=True)
    try:
        step = E.apply(state, A.Points(TABLE, counts, 1_800_000_500.0))
    except RuleError as exc:
        assert not ok and exc.code in ("bad_counts", "self_point", "not_candidate") and HANGUL.search(exc.ko)
        assert json.dumps(E.state_to_dict(state), sort_keys=True) == before
    else:
        assert ok and step.state.round.vote is None
