"""Child process for the all-games kill -9 test: resume (or start) a game of GAME and play seeded random
legal moves forever, printing "ACK <seed> <count>" after each acknowledged dispatch; a finished game is
archived and the next one starts. Usage: killee_any.py GAME JOURNAL_DIR"""

from __future__ import annotations

import random
import sys
from pathlib import Path

from content.loader import load_library
from engines.core import CHANCE
from table.session import Session

T0 = 1_800_000_000.0


def main() -> None:
    game_id, jdir = sys.argv[1], Path(sys.argv[2])
    lib = load_library()
    now = [T0]
    clock = lambda: now[0]  # noqa: E731
    while True:
        resumed = Session.resume(lib, jdir, clock=clock)
        if resumed is None:
            seed = len(list((jdir / "archive").glob("*.sqlite"))) + 1
            engine = __import__("engines").find_engine(lib.games[game_id].engine_name)
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
