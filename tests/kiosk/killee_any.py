"""Child process for the all-games kill -9 test: resume (or start) a game of GAME and play seeded random
legal moves forever, printing "ACK <seed> <count>" after each acknowledged dispatch; a finished game is
archived and the next one starts. Usage: killee_any.py GAME JOURNAL_DIR (or a run of tests/kiosk/forkserver.py)"""

from __future__ import annotations

import random
import sys
from pathlib import Path

import engines
from content.loader import Library, load_library
from engines.core import CHANCE
from table.session import Session

T0 = 1_800_000_000.0
_LIBRARY: list[Library] = []


def preload() -> None:
    """Run once by the fork server: every run forked after it finds the content loaded and the engines imported."""
    lib = load_library()
    for game in lib.games.values():
        if game.playable:
            engines.find_engine(game.engine_name)
    _LIBRARY.append(lib)


def main() -> None:
    game_id, jdir = sys.argv[1], Path(sys.argv[2])
    lib = _LIBRARY[0] if _LIBRARY else load_library()
    now = [T0]
    clock = lambda: now[0]  # noqa: E731
    while True:
        resumed = Session.resume(lib, jdir, clock=clock)
        if resumed is None:
            seed = len(list((jdir / "archive").glob("*.sqlite"))) + 1
            engine = engines.find_engine(lib.games[game_id].engine_name)
            config = engine.example_configs(lib.games[game_id].pack)[0]
            session = Session.new(lib, game_id, config, jdir, seed=seed, clock=clock)
        else:
            session = resumed[0]
        seed = session.journal.header["seed"]
        now[0] = T0 + 10 * session.count
        print(f"ACK {seed} {session.count}", flush=True)
        while session.outcome is None:
            rng = random.Random(f"{seed}:{session.count}")
            step = session.tick()
            if step is None:
                seats = sorted(s for s in session.engine.to_move(session.state) if s != CHANCE)
                moves = [a for s in seats for a in session.legal(s)]
                session.dispatch(rng.choice(moves))
            now[0] += rng.choice((1.0, 5.0, 30.0))
            print(f"ACK {seed} {session.count}", flush=True)
        session.end()


if __name__ == "__main__":
    main()
