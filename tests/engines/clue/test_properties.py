"""Property tests: random legal play keeps every invariant; illegal actions are refused cleanly."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.clue import ENGINE
from engines.clue.actions import Accuse, EnterRoom, Show, Suggest
from engines.clue.solver import analyse
from engines.clue.views import knowledge_for, knowledge_from_view, places
from engines.core import CHANCE, RuleError
from tests.engines.clue.helpers import game, seen
from tests.engines.conformance import check_rule_error, check_secrets, random_playthrough
from tests.packs import pack_for


def policy(state, rng: random.Random):  # type: ignore[no-untyped-def]
    """A player-like policy: rarely accuses, mostly moves and suggests (so games run long)."""
    movers = sorted(ENGINE.to_move(state))
    seat = movers[0]
    if seat == CHANCE:
        return ENGINE.sample_chance(state, rng)
    legal = list(ENGINE.legal_actions(state, seat))
    calm = [a for a in legal if not isinstance(a, Accuse)]
    if calm and rng.random() > 0.03:
        return rng.choice(calm)
    return rng.choice(legal)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10_000), n=st.integers(3, 6), mode=st.sampled_from(["digital", "physical"]))
def test_long_random_games_keep_invariants(seed: int, n: int, mode: str) -> None:
    """Covers CLUE-14, CLUE-41, CLUE-45, CLUE-53, CLUE-31, CLUE-38: in long random games secrets stay with their
    owners, every card is in one place, eliminated players never get a turn, every weapon stands in exactly one
    room and every token in one room or outside them (the same board in every view), a suggestion leaves its
    suspect and weapon in the suggester's room, and each seat's notebook (rebuilt from that seat's view alone)
    never contradicts the real deal (digital); the names the shared screen offers are those of the legal actions."""
    rng = random.Random(seed)
    state = game(n, mode=mode, seed=seed)
    for i in range(160):
        if ENGINE.outcome(state) is not None:
            break
        action = policy(state, rng)
        step = ENGINE.apply(state, action)
        if i % 8 == 0 or step.events and any(e.to for e in step.events):
            check_secrets(ENGINE, step.state, step.events)
        if i % 8 == 0:  # the table's offers, said without making every suggestion and accusation, are the same
            for seat in range(n):
                assert ENGINE.offer_names(step.state, seat) == {
                    a.NAME for a in ENGINE.legal_actions(step.state, seat) if not type(a).PRIVATE}
        state = step.state
        if not state.over:
            assert state.turn not in state.eliminated
        _board_holds(state, action, every_view=i % 8 == 0)
    if mode == "digital":
        every = sorted(c for h in state.hands for c in h) + sorted(state.envelope)
        assert sorted(every) == sorted(c.id for c in state.cards.cards)
        for seat in range(n):
            assert knowledge_from_view(seen(state, seat)) == knowledge_for(state, seat)
            a = analyse(knowledge_for(state, seat))
            assert not a.contradiction
            for k, card in a.envelope().items():
                assert state.envelope[k] == card


def _board_holds(state, action, every_view: bool) -> None:  # type: ignore[no-untyped-def]
    """Every weapon in exactly one room, every token in one room or outside them, the same board in every view; a
    suggestion's suspect and weapon in the suggester's room."""
    rooms = state.cards.ids(2)
    assert len(state.weapons) == len(state.cards.weapons) and all(r in rooms for r in state.weapons)
    assert len(state.tokens) == len(state.cards.suspects) and all(r == "" or r in rooms for r in state.tokens)
    board = places(seen(state, None))
    assert sorted(w for _, _, ws in board.rooms for w in ws) == sorted(state.cards.ids(1)) and not board.loose
    assert sorted([s for _, ss, _ in board.rooms for s in ss] + list(board.out)) == sorted(state.cards.ids(0))
    if every_view:
        assert all(places(seen(state, seat)) == board for seat in range(len(state.players)))
    if isinstance(action, Suggest):
        room = state.history[-1].room
        assert action.suspect in board.room(room)[0] and action.weapon in board.room(room)[1]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), card=st.sampled_from(["", "plum", "rope", "nowhere", "hall", "knife"]))
def test_illegal_actions_are_refused_in_korean_and_change_nothing(seed: int, card: str) -> None:
    """Covers CLUE-32, CLUE-41: malformed suggestions, rooms and shows at any point are refused with a
    Korean message and leave the state unchanged."""
    rng = random.Random(seed)
    state = game(4, seed=seed)
    for _ in range(rng.randrange(1, 40)):
        if ENGINE.outcome(state) is not None:
            break
        state = ENGINE.apply(state, policy(state, rng)).state
    before = ENGINE.state_to_dict(state)
    for seat in range(4):
        for bad in (Suggest(seat, card, card), EnterRoom(seat, card), Show(seat, card),
                    Accuse(seat, card, "rope", "hall")):
            try:
                ENGINE.apply(state, bad)
            except RuleError as exc:
                check_rule_error(exc)
            assert ENGINE.state_to_dict(state) == before


def test_conformance_with_the_notation_example_set() -> None:
    """Covers CLUE-68: the 22-card set plays through the generic conformance checks too."""
    pack = pack_for("clue")
    for seed in range(2):
        play = random_playthrough(ENGINE, {"players": list("ABCD"), "set": "notation_example"}, pack, seed)
        assert play.outcome is not None
