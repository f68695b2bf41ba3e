"""Tablet seats: a bot plays one seat from what that seat may see, nothing else.

A bot is a function `bot(view, legal, rng) -> action`:
- `view`: the seat's own typed observation (`engine.observe(state, seat)`), the same a guest's private
  screen gets; its game part (typed: `view.part(JackView)`; a game not moved yet: `view.detail`) holds the
  public log the bot keeps its notes from;
- `legal`: that seat's legal actions now (`engine.legal_actions(state, seat)`), possibly fewer where the
  table knows better (a room the token cannot reach on the physical board);
- `rng`: a random stream the caller owns (seeded: the same stream, the same choice).
It is handed no state, no journal and no other seat's view, and keeps nothing between calls: whatever it
needs to remember it rebuilds from the view. It returns one of the actions in `legal` (the object itself).

`decide(engine, state, seat, bot, rng)` is the one place that reads the state: it takes the seat's view and
legal actions from the engine, calls the bot, and checks the answer. Each game's bots live in
`engines/<game>/bots.py` as `LEVELS` (level id → `Level`); `find_bot(game, level)` finds one.
"""

from __future__ import annotations

import functools
import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

from engines.core import CHANCE, TABLE, Action, Engine, View, seeded_rng

Bot = Callable[[View, Sequence[Action], random.Random], Action]


@dataclass(frozen=True)
class Level:
    """A bot level of a game: stable `id`, its names (Korean first), and the bot."""

    id: str
    ko: str
    en: str
    bot: Bot


class BotError(Exception):
    """A bot answered with an action not among the legal ones it was given (a bug in the bot)."""


def levels(game: str) -> Mapping[str, Level]:
    """The bot levels of a game (empty when the game has no tablet seats)."""
    try:
        module = importlib.import_module(f"engines.{game}.bots")
    except ModuleNotFoundError as exc:
        if exc.name in (f"engines.{game}", f"engines.{game}.bots"):
            return {}
        raise
    found: Mapping[str, Level] = getattr(module, "LEVELS", {})
    return found


def find_bot(game: str, level: str) -> Bot:
    found = levels(game)
    if level not in found:
        raise KeyError(f"no {game} bot of level {level!r} (known: {', '.join(found) or 'none'})")
    return found[level].bot


def choose(bot: Bot, view: View, legal: Sequence[Action], rng: random.Random) -> Action:
    """Call `bot` and check that it answered with one of `legal`."""
    if not legal:
        raise BotError("no legal action to choose from")
    action = bot(view, tuple(legal), rng)
    if action not in legal:
        raise BotError(f"bot answered {action!r}, not a legal action")
    return action


def decide(engine: Engine[Any], state: Any, seat: int, bot: Bot, rng: random.Random,
           allowed: Callable[[Action], bool] | None = None) -> Action:
    """The action `bot` takes for `seat` now: from that seat's view and legal actions only. `allowed`
    narrows the legal actions where the table knows better (the physical board); never to none."""
    legal = list(engine.legal_actions(state, seat))
    if allowed is not None:
        legal = [a for a in legal if allowed(a)] or legal
    return choose(bot, engine.observe(state, seat), legal, rng)


def random_bot(view: View, legal: Sequence[Action], rng: random.Random) -> Action:
    """A random legal player (bench/bots.py's floor): any legal action, uniformly."""
    return rng.choice(list(legal))


def pick(legal: Sequence[Action], name: str, **fields: Any) -> Action | None:
    """The legal action of that name whose fields equal `fields` (None: not among them)."""
    for a in legal:
        if a.NAME == name and all(getattr(a, k, None) == v for k, v in fields.items()):
            return a
    return None


def named(legal: Sequence[Action], name: str) -> list[Action]:
    """The legal actions of that name, in their order."""
    return [a for a in legal if a.NAME == name]


A = TypeVar("A", bound=Action)


def of(legal: Sequence[Action], kind: type[A]) -> list[A]:
    """The legal actions of that class, in their order, typed (their fields read as attributes)."""
    return [a for a in legal if isinstance(a, kind)]


# ---------------------------------------------------------------- simulated games (tests, bench/bots.py)


class Board(Protocol):
    """What the physical table decides in a simulated game, which the engine leaves to the table: which
    legal actions the board allows now (a room the token reaches), the table's own actions (Mr. Jack's
    witness call), and what changed on the board after each action. It may read the state: it is the
    world, not a player."""

    def allowed(self, state: Any, action: Action) -> bool: ...

    def table_action(self, state: Any, rng: random.Random) -> Action: ...

    def after(self, state: Any, action: Action, new: Any) -> None: ...


@dataclass
class Played:
    """A simulated game: the last state and every action applied, in order."""

    state: Any
    actions: list[Action]


def play(engine: Engine[Any], state: Any, seats: Mapping[int, Bot], seed: int, board: Board | None = None,
         limit: int = 20_000) -> Played:
    """Play `state` to its end (or `limit` actions): each seat of `seats` by its bot on its own random
    stream, chance by the engine's sampler, the table by `board`. Seeded: the same seed, the same game."""
    streams = {seat: seeded_rng(seed, "bot", seat) for seat in seats}
    chance = seeded_rng(seed, "chance")
    table = seeded_rng(seed, "table")
    actions: list[Action] = []
    while engine.outcome(state) is None and len(actions) < limit:
        movers = sorted(engine.to_move(state))
        if not movers:
            break
        seat = movers[0]
        if seat == CHANCE:
            action = engine.sample_chance(state, chance)
        elif seat == TABLE:
            if board is None:
                raise ValueError(f"{engine.name}: the table acts and no board model was given")
            action = board.table_action(state, table)
        else:
            action = decide(engine, state, seat, seats[seat], streams[seat],
                            None if board is None else functools.partial(board.allowed, state))
        new = engine.apply(state, action).state
        if board is not None:
            board.after(state, action, new)
        state = new
        actions.append(action)
    return Played(state, actions)
