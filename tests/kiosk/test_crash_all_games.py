"""Crash safety at scale: kill -9 at random points of seeded games of all four games (≥ 200 kills in all);
after each kill the resumed state equals a fresh replay of the journal and no acknowledged action is lost.
Each run is a process of its own, forked from one that imported everything and loaded the content once
(tests/kiosk/forkserver.py), and killed with SIGKILL."""

from __future__ import annotations

import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from content.loader import Library, load_library
from table.session import Session, settle_endings
from tests.kiosk.forkserver import ForkServer

GAMES = ("spyfall", "watson_holmes", "clue", "mr_jack_ny")
KILLS_PER_GAME = 50


@pytest.fixture(scope="module")
def server() -> Iterator[ForkServer]:
    with ForkServer("tests.kiosk.killee_any") as forks:
        yield forks


def _check(lib: Library, jdir: Path) -> tuple[int, int] | None:
    resumed = Session.resume(lib, jdir)
    if resumed is None:
        settle_endings()  # an ended game is archived on the worker: done before the next process opens the folder
        return None
    session, report = resumed
    assert report.dropped == 0
    header = session.journal.header
    fresh = session.engine.setup(header["config"], session.game.pack, header["seed"])
    for data in session.journal.actions():
        fresh = session.engine.apply(fresh, session.engine.action_from_dict(data)).state
    assert fresh == session.state
    out = (int(header["seed"]), session.count)
    session.close()
    return out


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_kill_9_fifty_times_per_game_loses_nothing(game: str, tmp_path: Path, server: ForkServer) -> None:
    """Covers the kiosk-operations crash requirement (≥ 200 kills across the four games)."""
    lib = load_library()
    if game not in lib.games or not lib.games[game].playable:
        pytest.skip(f"{game} has no engine yet")
    rng = random.Random(game)
    acked = (0, 0)
    for kill in range(KILLS_PER_GAME):
        proc = server.run(game, str(tmp_path))
        first = proc.stdout.readline().split()
        assert first and first[0] == "ACK", first
        start = (int(first[1]), int(first[2]))
        assert start >= acked, f"kill {kill}: resumed at {start}, but {acked} was acknowledged"
        time.sleep(rng.uniform(0.0, 0.15))
        proc.send_signal(signal.SIGKILL)
        last = start
        for line in proc.stdout:
            parts = line.split()
            if parts and parts[0] == "ACK":
                last = (int(parts[1]), int(parts[2]))
        assert proc.wait() == -signal.SIGKILL, f"kill {kill}: the run ended before the kill"
        state = _check(lib, tmp_path)
        if state is not None and state[0] == last[0]:
            assert state[1] >= last[1], f"kill {kill}: journal at {state}, acknowledged {last}"
        acked = last
    assert acked > (0, 20)
