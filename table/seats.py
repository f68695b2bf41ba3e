"""Tablet seats: the seats of a game the tablet plays, and the one way a bot is asked for a move.

A game's set-up declares them in its config, so they are journaled with it and survive a restart:
`config["tablet"] = {"2": "normal", "3": "hard"}` (seat → level id of `engines.<game>.bots.LEVELS`; JSON keys
are strings). The engines read only the keys they know, so the key rides beside theirs.

`ask(bot, view, legal, seed, seat, count)` is all a bot gets: that seat's typed view, its legal actions and a
random stream seeded from the game's journal seed, the seat and the number of actions applied so far (the same
game resumed asks the same question with the same stream, so it answers the same). It is never handed the
state, the journal or another seat's view. The table (table.Table.play_tablet) acts with the answer through
`Table.act(action, bot(seat))`: journaled and undoable like any action."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.bots import Bot, choose, levels
from engines.core import Action, View, seeded_rng

KEY = "tablet"


def tablet_seats(config: Mapping[str, Any]) -> dict[int, str]:
    """The tablet's seats of a config: seat → level id (empty: every seat is a guest's)."""
    raw = config.get(KEY) or {}
    if not isinstance(raw, Mapping):
        raise ValueError(f"config[{KEY!r}] must map seats to levels, not {type(raw).__name__}")
    return {int(seat): str(level) for seat, level in raw.items()}


def check(game: str, config: Mapping[str, Any]) -> None:
    """Refuse tablet seats the game cannot have: a level it has no bot for, a seat outside the players, or
    no guest left (ValueError; the set-up forms offer only what passes)."""
    seats = tablet_seats(config)
    if not seats:
        return
    known = levels(game)
    players = len(config.get("players", ()))
    for seat, level in seats.items():
        if level not in known:
            raise ValueError(f"{game} has no tablet level {level!r} (known: {', '.join(known) or 'none'})")
        if players and not 0 <= seat < players:
            raise ValueError(f"tablet seat {seat} outside the {players} players")
    if players and len(seats) >= players:
        raise ValueError("every seat is the tablet's: a game needs a guest")


def config_with(config: Mapping[str, Any], seats: Mapping[int, str]) -> dict[str, Any]:
    """`config` with these tablet seats (JSON-safe keys)."""
    out = {k: v for k, v in config.items() if k != KEY}
    if seats:
        out[KEY] = {str(s): lv for s, lv in sorted(seats.items())}
    return out


def stream(seed: int, seat: int, count: int) -> random.Random:
    """The bot's random stream for its move at `count` actions (deterministic: the same game, the same draw)."""
    return seeded_rng(seed, "tablet", seat, count)


def ask(bot: Bot, view: View, legal: Sequence[Action], seed: int, seat: int, count: int) -> Action:
    """The bot's move: it sees `view` (its own seat's), `legal` and its stream, nothing else."""
    return choose(bot, view, legal, stream(seed, seat, count))


__all__ = ["KEY", "ask", "check", "config_with", "stream", "tablet_seats"]
