"""Tablet seats (engines.bots, engines/clue/bots.py, engines/mr_jack_ny/bots.py): every bot answers with one
of the legal actions it is handed, the same random stream gives the same game, a seeded game of bots
reaches its end, and no bot peeks: every hidden fact changed consistently with a seat's view leaves that
seat's choices unchanged (the no-peeking test)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from engines import bots
from engines.bots import Bot, BotError, decide, play, random_bot
from engines.clue import ENGINE as CLUE
from engines.clue import bots as clue_bots
from engines.clue.board import Walks
from engines.clue.solver import analyse
from engines.clue.state import ClueState, ShownCard
from engines.clue.views import knowledge_for
from engines.core import Action, View
from engines.mr_jack_ny import ENGINE as JACK
from engines.mr_jack_ny import bots as jack_bots
from engines.mr_jack_ny.state import DETECTIVE, OVER, Alibi, JackState
from engines.mr_jack_ny.state import JACK as JACK_SEAT
from engines.mr_jack_ny.streets import Streets
from tests.packs import pack_for

CLUE_PACK = pack_for("clue")
JACK_PACK = pack_for("mr_jack_ny")
CLUE_LEVELS = sorted(clue_bots.LEVELS)
JACK_LEVELS = sorted(jack_bots.LEVELS)


def clue_game(n: int, seed: int) -> ClueState:
    state: ClueState = CLUE.setup({"players": [f"p{i}" for i in range(n)], "mode": "digital"}, CLUE_PACK, seed)
    return state


def jack_game(seed: int) -> JackState:
    state: JackState = JACK.setup({"players": ["탐정", "잭"]}, JACK_PACK, seed)
    return state


def clue_seats(n: int, levels: list[str]) -> dict[int, Bot]:
    return {i: clue_bots.LEVELS[levels[i % len(levels)]].bot for i in range(n)}


# ---------------------------------------------------------------- the interface


def test_levels_are_found_by_game_and_a_game_without_bots_has_none() -> None:
    assert list(bots.levels("clue")) == ["easy", "normal", "hard"]
    assert [lv.ko for lv in bots.levels("clue").values()] == ["쉬움", "보통", "어려움"]
    assert list(bots.levels("mr_jack_ny")) == ["easy", "hard"]
    assert bots.levels("spyfall") == {}
    assert bots.find_bot("clue", "hard") is clue_bots.LEVELS["hard"].bot
    with pytest.raises(KeyError):
        bots.find_bot("clue", "expert")


def test_an_answer_outside_the_legal_actions_is_refused() -> None:
    state = clue_game(3, 1)
    seat = next(iter(CLUE.to_move(state)))

    def cheat(view: View, legal: Any, rng: random.Random) -> Action:
        return Action(seat)  # not among the legal actions

    with pytest.raises(BotError):
        decide(CLUE, state, seat, cheat, random.Random(0))


# ---------------------------------------------------------------- full games: legal, to the end, seeded


@pytest.mark.parametrize("levels", [["easy", "normal", "hard"], ["hard", "normal", "easy", "normal", "easy", "hard"]])
def test_a_seeded_clue_game_of_bots_ends_with_a_right_accusation_and_replays_alike(levels: list[str]) -> None:
    n = len(levels)
    first = play(CLUE, clue_game(n, 5), clue_seats(n, levels), seed=5, board=Walks())
    out = CLUE.outcome(first.state)
    assert out is not None and out.reason == "accusation"  # decide() checked every answer was legal
    assert first.state.accusations[-1].named == first.state.envelope
    # only 어려움 gambles: the others accuse when their notebook is certain, so never wrongly
    assert all(a.correct for a in first.state.accusations if levels[a.seat] != "hard")
    again = play(CLUE, clue_game(n, 5), clue_seats(n, levels), seed=5, board=Walks())
    assert again.actions == first.actions
    other = play(CLUE, clue_game(n, 5), clue_seats(n, levels), seed=6, board=Walks())
    assert other.actions != first.actions  # another stream, another game (same deal)


@pytest.mark.parametrize("detective", [*JACK_LEVELS, "random"])
@pytest.mark.parametrize("jack", [*JACK_LEVELS, "random"])
def test_seeded_mr_jack_games_of_bots_end_and_replay_alike(detective: str, jack: str) -> None:
    def seat(level: str) -> Bot:
        return random_bot if level == "random" else jack_bots.LEVELS[level].bot

    for seed in range(8):
        seats = {DETECTIVE: seat(detective), JACK_SEAT: seat(jack)}
        first = play(JACK, jack_game(seed), seats, seed=seed, board=Streets(seed))
        assert JACK.outcome(first.state) is not None
        again = play(JACK, jack_game(seed), seats, seed=seed, board=Streets(seed))
        assert again.actions == first.actions


def test_every_bot_answer_is_one_of_the_legal_actions_it_was_handed() -> None:
    """Narrowed legal lists too (the table's board): the answer is always from the list handed over."""
    rng = random.Random(3)
    states: list[tuple[Any, int]] = [*_clue_states(4, 11, ["easy", "normal", "hard", "easy"]), *_jack_states(11)]
    for state, seat in states:
        engine: Any = CLUE if isinstance(state, ClueState) else JACK
        legal = list(engine.legal_actions(state, seat))
        narrowed = [a for a in legal if rng.random() < 0.5] or legal[:1]
        for level in (clue_bots.LEVELS if engine is CLUE else jack_bots.LEVELS).values():
            for handed in (legal, narrowed):
                answer = level.bot(engine.observe(state, seat), tuple(handed), random.Random(1))
                assert any(answer is a for a in handed)


# ---------------------------------------------------------------- no peeking


def _clue_states(n: int, seed: int, levels: list[str]) -> Iterator[tuple[ClueState, int]]:
    """States of a seeded bot game where a bot seat is to move (every 3rd decision)."""
    game = play(CLUE, clue_game(n, seed), clue_seats(n, levels), seed=seed, board=Walks())
    state = clue_game(n, seed)
    for k, action in enumerate(game.actions):
        if action.seat >= 0 and k % 3 == 0:
            yield state, action.seat
        state = CLUE.apply(state, action).state


def _clue_variants(state: ClueState, seat: int, count: int, rng: random.Random) -> list[ClueState]:
    """The same game with every fact hidden from `seat` drawn again among those its view allows: the other
    hands and the envelope (a uniformly drawn consistent deal), and which card was shown between others."""
    a = analyse(knowledge_for(state, seat))
    assert a.counter is not None
    P = len(state.players)
    out = []
    for _ in range(count):
        deal = a.counter.sample(rng)
        assert deal is not None
        hands = tuple(tuple(sorted(c for c, o in deal.items() if o == p)) if p != seat else state.hands[p]
                      for p in range(P))
        envelope = tuple(next(c.id for c in cat if deal[c.id] == P) for cat in state.cards.categories)
        shown = tuple(s if seat in (s.by, s.to) else ShownCard(
            s.n, s.by, s.to, next(c for c in state.history[s.n - 1].named if c in hands[s.by])) for s in state.shown)
        out.append(replace(state, hands=hands, envelope=envelope, shown=shown))
    return out


def _same_choices(engine: Any, state: Any, variant: Any, seat: int, bot: Bot) -> None:
    assert engine.observe(variant, seat).to_dict() == engine.observe(state, seat).to_dict()
    for k in range(3):
        assert decide(engine, variant, seat, bot, random.Random(k)) == decide(engine, state, seat, bot, random.Random(k))


@pytest.mark.parametrize("level", CLUE_LEVELS)
def test_clue_bots_do_not_peek(level: str) -> None:
    """Every hidden fact redrawn consistently with the seat's view (other hands, the envelope, cards shown
    between others): the seat's view is the same and so is its bot's choice, stream by stream."""
    bot = clue_bots.LEVELS[level].bot
    rng = random.Random(level)
    changed = 0
    for state, seat in list(_clue_states(4, 21, ["normal", "easy", "hard", "normal"]))[::4]:
        for variant in _clue_variants(state, seat, 3, rng):
            changed += (variant.hands, variant.envelope) != (state.hands, state.envelope)
            _same_choices(CLUE, state, variant, seat, bot)
    assert changed >= 10


def _jack_states(seed: int) -> Iterator[tuple[JackState, int]]:
    seats = {DETECTIVE: jack_bots.LEVELS["easy"].bot, JACK_SEAT: jack_bots.LEVELS["easy"].bot}
    game = play(JACK, jack_game(seed), seats, seed=seed, board=Streets(seed, reach=0.0, escape=0.0))
    state = jack_game(seed)
    for action in game.actions:
        if action.seat in (DETECTIVE, JACK_SEAT):
            yield state, action.seat
        state = JACK.apply(state, action).state


def _jack_variants(state: JackState, seat: int, rng: random.Random) -> list[JackState]:
    """Hidden from the detective: who Jack is (any suspect left on his own board), the alibis Jack drew, the
    deck's order. Hidden from Jack: the alibis the detective drew, the deck's order."""
    mine = {a.card for a in state.alibis if a.seat == seat}
    out = []
    for _ in range(4):
        if seat == DETECTIVE:
            jack = rng.choice([c for c in state.roster if c not in state.innocent and c not in mine])
        else:
            jack = state.jack
        pool = [c for c in state.roster if c != jack and c not in mine]
        rng.shuffle(pool)
        alibis = tuple(a if a.seat == seat else Alibi(a.seat, a.round, pool.pop()) for a in state.alibis)
        out.append(replace(state, jack=jack, alibis=alibis, deck=tuple(pool)))
    return out


@pytest.mark.parametrize("level", JACK_LEVELS)
def test_mr_jack_bots_do_not_peek(level: str) -> None:
    bot = jack_bots.LEVELS[level].bot
    rng = random.Random(level)
    changed = 0
    for seed in (3, 4):
        for state, seat in _jack_states(seed):
            if state.phase == OVER:
                continue
            for variant in _jack_variants(state, seat, rng):
                changed += variant.jack != state.jack
                _same_choices(JACK, state, variant, seat, bot)
    assert changed >= 10


def test_the_no_peeking_check_catches_a_bot_that_reaches_the_state() -> None:
    """A bot that finds the state on the call stack (the only way round its arguments) and names the
    envelope: the hidden facts redrawn, its choice changes, and the check fails."""
    import inspect

    def peeking(view: View, legal: Any, rng: random.Random) -> Action:
        frame = inspect.currentframe()
        while frame is not None and not isinstance(frame.f_locals.get("state"), ClueState):
            frame = frame.f_back
        assert frame is not None
        s, w, r = frame.f_locals["state"].envelope
        return next((a for a in legal if a.NAME == "accuse" and (a.suspect, a.weapon, a.room) == (s, w, r)),
                    legal[0])

    rng = random.Random(5)
    caught = 0
    for state, seat in list(_clue_states(4, 21, ["normal"]))[:12]:
        for variant in _clue_variants(state, seat, 2, rng):
            try:
                _same_choices(CLUE, state, variant, seat, peeking)
            except AssertionError:
                caught += 1
    assert caught
