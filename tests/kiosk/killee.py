"""Child process for the kill -9 test: resume (or start) a Secret Nim game and play a scripted policy,
printing "ACK <count>" after each acknowledged dispatch. Usage: killee.py JOURNAL_DIR"""

from __future__ import annotations

import sys
from pathlib import Path

from engines.core import CHANCE
from table.session import Session
from tests.engines.reference import Take
from tests.kiosk.nim_library import nim_library

START = 1_800_000_000.0


def policy(session: Session) -> Take:
    s = session.state
    # stamped a millisecond apart: the game's 60 s clock never runs out (a second apart, it did after ~60 actions,
    # and every later run raised "time is up" at once, so the kills after it hit a process already gone)
    return Take(s.turn, 1 + (s.pile % 3 if s.pile % 3 < s.pile else 0) % 3, at=START + session.count / 1000)


def main() -> None:
    jdir = Path(sys.argv[1])
    lib = nim_library()
    resumed = Session.resume(lib, jdir, clock=lambda: START)
    if resumed is None:
        session = Session.new(lib, "secret_nim", {"players": ["가", "나", "다"], "pile": 100000}, jdir, seed=7,
                              clock=lambda: START)
    else:
        session = resumed[0]
    print(f"ACK {session.count}", flush=True)
    while session.outcome is None:
        assert CHANCE not in session.engine.to_move(session.state)
        session.dispatch(policy(session))
        print(f"ACK {session.count}", flush=True)


if __name__ == "__main__":
    main()
