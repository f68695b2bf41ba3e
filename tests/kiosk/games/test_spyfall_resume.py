"""Spyfall DC through the kiosk session: a crash mid-round resumes the same round with the right time left,
and the session's tick reports the deadlines (no UI)."""

from __future__ import annotations

from pathlib import Path

from content.loader import load_library
from engines.core import TABLE
from engines.spyfall import actions as A
from table.session import Session

T0 = 1_800_000_000.0


class FakeClock:
    def __init__(self) -> None:
        self.t = T0

    def __call__(self) -> float:
        return self.t


def test_crash_mid_round_resumes_with_the_remaining_time(tmp_path: Path) -> None:
    """Covers SPY-21, SPY-39. Clock started, 100 s of play, an accusation paused it, 30 s of voting, a
    failed vote resumed it; the process dies; the journal resumes the same round with 380 s left."""
    library = load_library()
    clock = FakeClock()
    session = Session.new(library, "spyfall", {"players": ["앤", "후안", "마리아", "이삭"], "rounds": 3},
                          tmp_path, seed=11, clock=clock)
    session.dispatch(A.ChooseDealer(TABLE, 0))  # the deal (a chance step) follows by itself
    assert session.state.round.phase == "ready" and session.state.round.facts is not None
    session.dispatch(A.StartClock(TABLE))
    clock.t += 100
    session.dispatch(A.Accuse(1, 2))
    clock.t += 30
    session.dispatch(A.Hands(TABLE, (1,)))
    deadline = session.state.round.clock.deadline
    assert deadline == T0 + 130 + 380
    facts = session.state.round.facts
    session.journal.close()  # the crash: nothing else is written
    clock.t += 50
    resumed, report = Session.resume(library, tmp_path, clock=clock)  # type: ignore[misc]
    r = resumed.state.round
    assert report.dropped == 0 and r.number == 1 and r.phase == "play" and r.facts == facts
    assert r.clock.deadline == deadline and r.clock.remaining(clock()) == 330
    assert r.accusations == ((1, 2),)
    assert resumed.tick() is None  # not due yet
    clock.t = deadline + 1
    step = resumed.tick()
    assert step is not None and resumed.state.round.phase == "discussion"
    clock.t += 121
    resumed.tick()
    assert resumed.state.round.phase == "final_vote"
