"""Journal and session: journaling, resume with deadlines, undo, archive, crash safety (kill -9)."""

from __future__ import annotations

import random
import signal
import time
from pathlib import Path

import pytest

from engines.core import TABLE, RuleError
from table.journal import Journal
from table.notices import Notice
from table.session import CURRENT, Session
from tests.engines.reference import Take
from tests.kiosk.forkserver import ForkServer
from tests.kiosk.nim_library import nim_library

T0 = 1_800_000_000.0


class FakeClock:
    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> float:
        return self.now


def test_journal_records_actions_and_undo(tmp_path: Path) -> None:
    j = Journal.create(tmp_path / "j.sqlite", {"game": "x"})
    j.append("action", {"name": "a"})
    j.append("action", {"name": "b"})
    j.append("undo", {"count": 1})
    j.append("action", {"name": "c"})
    assert [a["name"] for a in j.actions()] == ["a", "c"]
    assert j.header == {"game": "x"}
    j.close()
    again = Journal.open(tmp_path / "j.sqlite")
    assert again is not None and [a["name"] for a in again.actions()] == ["a", "c"]
    again.close()


def test_resume_restores_state_and_deadline(tmp_path: Path) -> None:
    clock = FakeClock()
    lib = nim_library()
    s = Session.new(lib, "secret_nim", {"players": ["가", "나"]}, tmp_path, seed=3, clock=clock)
    s.dispatch(Take(s.state.turn, 2))
    clock.now += 5
    s.dispatch(Take(s.state.turn, 1))
    deadline = s.state.clock.deadline
    assert deadline == T0 + 60
    state = s.state
    s.close()
    clock.now += 1000  # the tablet was off for a while: the deadline is what it was
    resumed = Session.resume(lib, tmp_path, clock=clock)
    assert resumed is not None
    s2, report = resumed
    assert s2.state == state and s2.state.clock.deadline == deadline
    assert report.dropped == 0 and report.replayed == s2.count
    # the kiosk submits the time-up action with the stored deadline
    step = s2.tick()
    assert step is not None and s2.outcome is not None and s2.outcome.reason == "time_up"


def test_rule_error_leaves_session_and_journal_unchanged(tmp_path: Path) -> None:
    s = Session.new(nim_library(), "secret_nim", {"players": ["가", "나"]}, tmp_path, seed=1, clock=FakeClock())
    before, records = s.state, len(s.journal.records())
    with pytest.raises(RuleError) as err:
        s.dispatch(Take(s.state.turn, 7))
    assert err.value.code == "bad_value" and "1부터 3까지" in err.value.ko  # n: number(1, 3)
    with pytest.raises(RuleError):
        s.dispatch(Take(1 - s.state.turn, 1))
    assert s.state == before and len(s.journal.records()) == records


def test_legal_actions_are_asked_of_the_engine_once_per_state(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A screen asks for a seat's legal actions at every redraw; the engine is asked once per state and seat, and
    again after an action or an undo."""
    s = Session.new(nim_library(), "secret_nim", {"players": ["가", "나"]}, tmp_path, seed=2, clock=FakeClock())
    asked: list[int] = []
    legal_actions = s.engine.legal_actions
    monkeypatch.setattr(s.engine, "legal_actions", lambda state, seat: asked.append(seat) or legal_actions(state, seat))
    seat = s.state.turn
    first = s.legal(seat)
    first.clear()  # a caller's list is its own
    assert s.legal(seat) == list(legal_actions(s.state, seat)) != [] and asked == [seat]
    s.legal(1 - seat)
    assert asked == [seat, 1 - seat]
    s.dispatch(Take(seat, 1))  # the engine asks itself too (is the action legal?)
    asked.clear()
    s.legal(seat)
    s.legal(seat)
    assert asked == [seat]
    assert s.undo()  # replayed: the engine asks itself again
    asked.clear()
    s.legal(seat)
    s.legal(seat)
    assert asked == [seat]
    s.close()


def test_undo_takes_back_last_action_and_its_chance_step(tmp_path: Path) -> None:
    lib = nim_library()
    s = Session.new(lib, "secret_nim", {"players": ["가", "나"]}, tmp_path, seed=2, clock=FakeClock())
    after_first = None
    s.dispatch(Take(s.state.turn, 1))
    after_first = s.state
    s.dispatch(Take(s.state.turn, 3))
    assert s.state.pile == 6
    assert s.undo()
    assert s.state == after_first
    s.close()
    s2, _ = Session.resume(lib, tmp_path) or (None, None)
    assert s2 is not None and s2.state == after_first


def test_new_game_archives_the_old_journal(tmp_path: Path) -> None:
    lib = nim_library()
    s = Session.new(lib, "secret_nim", {"players": ["가", "나"]}, tmp_path, seed=2, clock=FakeClock())
    s.dispatch(Take(s.state.turn, 1))
    s.close()
    Session.new(lib, "secret_nim", {"players": ["가", "나"]}, tmp_path, seed=5, clock=FakeClock()).close()
    archived = list((tmp_path / "archive").glob("*.sqlite"))
    assert len(archived) == 1
    old = Journal.open(archived[0])
    assert old is not None and old.header["seed"] == 2 and len(old.actions()) >= 1


def test_ended_game_is_not_resumed(tmp_path: Path) -> None:
    lib = nim_library()
    s = Session.new(lib, "secret_nim", {"players": ["가", "나"], "pile": 1}, tmp_path, seed=2, clock=FakeClock())
    s.dispatch(Take(s.state.turn, 1))
    assert s.outcome is not None
    s.end()
    assert Session.resume(lib, tmp_path) is None
    assert not (tmp_path / CURRENT).exists()


def test_an_ended_game_is_archived_on_the_journal_worker_and_the_next_game_waits(tmp_path: Path,
                                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Ending a game (HostContext.end_game) does not wait for the disk on the UI thread: its "end" record, checkpoint
    and move happen on the journal worker; the next game's journal is made only once that is done."""
    import threading

    from table import session as session_mod

    lib = nim_library()
    s = Session.new(lib, "secret_nim", {"players": ["가", "나"], "pile": 1}, tmp_path, seed=2, clock=FakeClock())
    s.dispatch(Take(s.state.turn, 1))
    gate, where = threading.Event(), []
    real = session_mod.close_into

    def slow_archive(*args: object, **kw: object) -> object:
        where.append(threading.current_thread())
        gate.wait(10)
        return real(*args, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(session_mod, "close_into", slow_archive)
    s.end(later=True)  # returns while the archive waits
    assert (tmp_path / CURRENT).exists()
    threading.Timer(0.3, gate.set).start()
    Session.new(lib, "secret_nim", {"players": ["가", "나"]}, tmp_path, seed=5, clock=FakeClock()).close()
    assert where and where[0] is not threading.current_thread()
    archived = list((tmp_path / "archive").glob("*.sqlite"))
    assert len(archived) == 1
    old = Journal.open(archived[0])
    assert old is not None and old.header["seed"] == 2 and old.ended
    old.close()


def test_an_ended_game_found_at_start_is_archived_on_the_journal_worker(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A game that ended just before a crash (its "end" written, the worker's archive not done) is found by the
    next start's resume on the UI thread: it closed it and archived it there, opening it a second time (17 fsyncs,
    0.9 s at 50 ms per fsync). Now the worker closes and moves it, and a new game waits for that."""
    import gc
    import threading

    from table import journal as journal_mod
    from table.session import settle_endings

    s = Session.new(nim_library(), "secret_nim", {"players": ["가", "나"], "pile": 1}, tmp_path, seed=2,
                    clock=FakeClock())
    s.dispatch(Take(s.state.turn, 1))
    s.journal.append("end", {"outcome": None})
    del s  # as a crash leaves it: the end written, not archived
    gc.collect()
    where: list[threading.Thread] = []
    real = journal_mod.move_aside
    monkeypatch.setattr(journal_mod, "move_aside", lambda *a, **k: where.append(threading.current_thread())
                        or real(*a, **k))
    notices: list[Notice] = []
    assert Session.resume(nim_library(), tmp_path, clock=FakeClock(), notices=notices) is None
    settle_endings()
    assert notices == []
    assert where and threading.current_thread() not in where
    (archived,) = (tmp_path / "archive").glob("*closed*.sqlite")
    old = Journal.open(archived)
    assert old is not None and old.ended and old.header["seed"] == 2
    old.close()
    assert not (tmp_path / CURRENT).exists()


def test_tick_does_nothing_before_the_deadline(tmp_path: Path) -> None:
    clock = FakeClock()
    s = Session.new(nim_library(), "secret_nim", {"players": ["가", "나"]}, tmp_path, seed=2, clock=clock)
    s.dispatch(Take(s.state.turn, 1))
    assert TABLE in s.engine.to_move(s.state)
    clock.now += 59
    assert s.tick() is None
    clock.now += 2
    assert s.tick() is not None


def _replay_count(jdir: Path) -> tuple[int, object]:
    lib = nim_library()
    resumed = Session.resume(lib, jdir)
    assert resumed is not None
    session, report = resumed
    assert report.dropped == 0
    # the resumed state equals a fresh replay of every journaled action
    fresh = session.engine.setup(session.journal.header["config"], {}, session.journal.header["seed"])
    for data in session.journal.actions():
        fresh = session.engine.apply(fresh, session.engine.action_from_dict(data)).state
    assert fresh == session.state
    count, state = session.count, session.state
    session.close()
    return count, state


@pytest.mark.slow
def test_kill_9_at_50_random_points_loses_no_acknowledged_action(tmp_path: Path) -> None:
    """Covers the foundation crash-safety requirement: kill -9 at ≥ 50 random points, resume each time.
    Each run is a process of its own forked from one that imported everything (tests/kiosk/forkserver.py). Ten
    kills to a journal, then a new one: each grows to ~3,000 actions (the -wal emptied a dozen times, appends
    spilled meanwhile); one journal for all 50 grew to ~25,000, replayed three times a kill (the test's 90 s)."""
    rng = random.Random(1234)
    acked_per_journal = []
    with ForkServer("tests.kiosk.killee") as server:
        for kills in range(50):
            jdir = tmp_path / f"journal{kills // 10}"
            if kills % 10 == 0:
                acked_per_journal.append(0)
            last_ack = acked_per_journal[-1]
            proc = server.run(str(jdir))
            first = proc.stdout.readline()
            assert first.startswith("ACK"), first
            resumed_at = int(first.split()[1])
            assert resumed_at >= last_ack, "an acknowledged action was lost"
            time.sleep(rng.uniform(0.0, 0.08))
            proc.send_signal(signal.SIGKILL)
            acked = resumed_at
            for line in proc.stdout:
                if line.startswith("ACK"):
                    acked = int(line.split()[1])
            assert proc.wait() == -signal.SIGKILL, f"kill {kills + 1}: the game stopped before the kill"
            count, _ = _replay_count(jdir)
            assert count >= acked, f"kill {kills + 1}: journal has {count} actions but {acked} were acknowledged"
            acked_per_journal[-1] = acked
    assert sum(acked_per_journal) > 50
