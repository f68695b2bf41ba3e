"""Headless kiosk tables for the floor tests and the bench: a real kiosk Session (journal on disk, no Kivy)
playing a scripted game (seeded random legal actions), its TableFloor reporting to the broker."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from engines.core import CHANCE
from floor.client import FloorConfig
from floor.table import TableFloor
from table.session import Session

GAMES = ("spyfall", "clue", "mr_jack_ny", "watson_holmes")


def _library() -> Any:
    from tests.phones.helpers import library

    return library()


class HeadlessTable:
    def __init__(self, table: str, index: int, folder: Path, host: str, port: int, password: str,
                 keepalive: int = 10) -> None:
        self.table = table
        self.folder = folder
        self.rng = random.Random(index)
        self.game = GAMES[index % len(GAMES)]
        self.calls: list[str] = []
        self.games_played = 0
        self.floor = TableFloor(FloorConfig(host, port, table, password), folder, keepalive=keepalive)
        self.session: Session | None = None
        self.floor.start()
        self.floor.seated()

    def new_game(self) -> None:
        library = _library()
        game = library.games[self.game]
        from engines import find_engine

        configs = find_engine(game.engine_name).example_configs(game.pack)
        self.session = Session.new(library, self.game, self.rng.choice(configs), self.folder / "journal",
                                   seed=self.rng.randrange(10_000))
        self.floor.observe(self.session)

    def step(self) -> None:
        """One scripted move (a new game when none is running or the last one ended)."""
        s = self.session
        if s is None or s.outcome is not None:
            if s is not None:
                s.end()
                self.games_played += 1
            self.new_game()
            return
        if s.tick() is not None:  # a clock ran out (the kiosk's host frame ticks the same way)
            self.floor.observe(s)
            return
        movers = sorted(m for m in s.engine.to_move(s.state) if m != CHANCE)
        legal = [a for m in movers for a in s.legal(m)]
        if not legal:
            return
        kind = self.rng.choice(sorted({a.NAME for a in legal}))
        s.dispatch(self.rng.choice([a for a in legal if a.NAME == kind]))
        self.floor.observe(s)

    def call(self, reason: str) -> str:
        call_id = str(self.floor.call(reason)["id"])
        self.calls.append(call_id)
        return call_id

    def stop(self) -> None:
        if self.session is not None:
            self.session.close()
        self.floor.stop()


def wait(seconds: float) -> None:
    time.sleep(seconds)
