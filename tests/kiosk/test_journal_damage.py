"""A damaged journal never stops the table: it is moved aside (kept for staff), what still replays is kept,
a fresh journal starts, and staff are told; a lost -wal file is detected and said."""

from __future__ import annotations

import gc
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from table.journal import DAMAGED, archive
from table.notices import Notice
from table.session import CURRENT, Session
from tests.engines.reference import Take
from tests.kiosk import journal_fuzz
from tests.kiosk.nim_library import nim_library

T0 = 1_800_000_000.0
ROOT = Path(__file__).resolve().parents[2]


def _game(jdir: Path, actions: int, seed: int = 3) -> Session:
    """A Secret Nim game: a roll (chance), then each take is followed by a roll: 2 * actions + 1 records."""
    s = Session.new(nim_library(), "secret_nim", {"players": ["가", "나"], "pile": 500}, jdir, seed=seed,
                    clock=lambda: T0)
    for _ in range(actions):
        s.dispatch(Take(s.state.turn, 1))
    return s


def _resume(jdir: Path) -> tuple[Session | None, list[Notice]]:
    notices: list[Notice] = []
    resumed = Session.resume(nim_library(), jdir, clock=lambda: T0, notices=notices)
    return (resumed[0] if resumed else None), notices


def _new_game(jdir: Path) -> Session:
    return Session.new(nim_library(), "secret_nim", {"players": ["가", "나"]}, jdir, seed=9, clock=lambda: T0)


def test_a_garbage_journal_is_moved_aside_and_new_games_and_new_table_work(tmp_path: Path) -> None:
    """Garbage in current.sqlite made every new game and staff "new table" raise (6 in a minute ended the
    process; only a shell fixed it)."""
    garbage = random.Random(1).randbytes(5000)
    (tmp_path / CURRENT).write_bytes(garbage)
    session, notices = _resume(tmp_path)
    assert session is None
    assert [n.key for n in notices] == ["journal_unreadable"]
    kept = tmp_path / notices[0].params["file"]
    assert kept.parent.name == DAMAGED and kept.read_bytes() == garbage
    _new_game(tmp_path).close()
    # the same garbage found when a game starts, or when staff reset the table
    (tmp_path / CURRENT).unlink()
    (tmp_path / CURRENT).write_bytes(garbage)
    _new_game(tmp_path).close()
    (tmp_path / CURRENT).unlink()
    (tmp_path / CURRENT).write_bytes(garbage)
    moved = archive(tmp_path / CURRENT, tmp_path / "archive", "turnover")
    assert moved is not None and moved.parent.name == DAMAGED and moved.read_bytes() == garbage
    assert len(list((tmp_path / DAMAGED).glob("*.sqlite"))) == 3


def test_a_garbage_record_keeps_every_action_before_it(tmp_path: Path) -> None:
    s = _game(tmp_path, 12)
    original = s.journal.actions()
    s.close()
    conn = sqlite3.connect(str(tmp_path / CURRENT))
    conn.execute("UPDATE records SET body = '}{' WHERE seq = 9")
    conn.commit()
    conn.close()
    session, notices = _resume(tmp_path)
    assert session is not None
    assert [n.key for n in notices] == ["journal_repaired"]
    assert notices[0].params["kept"] == 8 and notices[0].params["lost"] == 25 - 8
    assert session.journal.actions()[:8] == original[:8] and session.count == 9  # and a fresh roll
    session.dispatch(Take(session.state.turn, 2))  # the game goes on, in a fresh journal
    session.close()
    again, notices = _resume(tmp_path)
    assert again is not None and again.count == 11 and notices == []
    again.close()
    assert len(list((tmp_path / DAMAGED).glob("*.sqlite"))) == 1


def test_a_record_that_is_no_action_stops_the_replay_there_instead_of_failing_the_resume(tmp_path: Path) -> None:
    s = _game(tmp_path, 6)
    s.close()
    conn = sqlite3.connect(str(tmp_path / CURRENT))
    conn.execute("""UPDATE records SET body = '{"name": "warp"}' WHERE seq = 5""")
    conn.commit()
    conn.close()
    session, notices = _resume(tmp_path)
    assert [(n.key, dict(n.params)) for n in notices] == [("journal_dropped", {"kept": 4, "dropped": 9})]
    assert session is not None and session.count == 5  # the 4 that replay, then a fresh roll
    session.close()


@pytest.mark.parametrize("header", ["{", "null", '{"game": "secret_nim", "config": {"players": 7}, "seed": 1}'])
def test_a_header_that_does_not_read_or_set_up_is_moved_aside(tmp_path: Path, header: str) -> None:
    _game(tmp_path, 3).close()
    conn = sqlite3.connect(str(tmp_path / CURRENT))
    conn.execute("UPDATE header SET body = ?", (header,))
    conn.commit()
    conn.close()
    session, notices = _resume(tmp_path)
    assert session is None and len(notices) == 1
    assert notices[0].key in ("journal_unreadable", "journal_unplayable")
    assert (tmp_path / notices[0].params["file"]).exists() and not (tmp_path / CURRENT).exists()
    _new_game(tmp_path).close()


def test_a_lost_wal_file_is_detected_and_the_game_resumes_where_it_was(tmp_path: Path) -> None:
    """A power cut, then the -wal file is gone (a bad card, a careless copy). Before, the game was in the -wal
    only (checkpoints came every 1,000 pages): the whole game vanished without a word. Now the journal's thread
    checkpoints each burst of appends into the main file, and the open mark says the -wal is missing."""
    s = _game(tmp_path / "live", 20)
    assert s.journal.flush(10)  # the checkpoint after the last append (test_journal_sync: what a cut loses before)
    copy = tmp_path / "after_power_cut"
    copy.mkdir()
    shutil.copy(tmp_path / "live" / CURRENT, copy / CURRENT)  # the main file as it is on disk, no -wal
    s.close()
    session, notices = _resume(copy)
    assert [n.key for n in notices] == ["journal_wal_lost"]
    assert session is not None and session.count == 41  # every take and roll
    session.close()


def test_an_emptied_journal_is_said(tmp_path: Path) -> None:
    _game(tmp_path, 5).close()
    (tmp_path / CURRENT).write_bytes(b"")
    session, notices = _resume(tmp_path)
    assert session is None and [n.key for n in notices] == ["journal_empty"]


def test_a_clean_close_and_a_kill_leave_no_notice(tmp_path: Path) -> None:
    _game(tmp_path, 5).close()
    session, notices = _resume(tmp_path)
    assert session is not None and notices == []
    # not closed (the process was killed): the -wal is there, nothing to say
    session.dispatch(Take(session.state.turn, 1))
    assert os.path.exists(str(tmp_path / CURRENT) + "-wal")
    copy = tmp_path / "copy"
    copy.mkdir()
    for suffix in ("", "-wal"):
        shutil.copy(str(tmp_path / CURRENT) + suffix, str(copy / CURRENT) + suffix)
    session.close()
    again, notices = _resume(copy)
    assert again is not None and again.count == 13 and notices == []
    again.close()


def test_a_crash_by_an_uncaught_exception_loses_nothing_and_says_nothing(tmp_path: Path) -> None:
    """The kiosk dies of an uncaught exception (Kivy re-raises a burst of errors; systemd restarts it). The
    interpreter's exit closed the journal's connection: SQLite folded the -wal into the main file and deleted it,
    the mark still said open, and the next start told staff the -wal was lost (every action was there). Now only
    Journal.close lets SQLite fold and delete the -wal: this exit leaves it as a kill does. The same crash with the
    -wal then lost (a bad card, a careless copy) is still said."""
    script = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        from table.session import Session
        from tests.engines.reference import Take
        from tests.kiosk.nim_library import nim_library
        s = Session.new(nim_library(), "secret_nim", {{"players": ["가", "나"], "pile": 500}}, Path(sys.argv[1]),
                        seed=3, clock=lambda: {T0})
        for n in range(8):
            s.dispatch(Take(s.state.turn, 1))
            if n == 3:
                assert s.journal.flush(10)
                print("DURABLE", s.count, flush=True)
        print("ACK", s.count, flush=True)
        raise RuntimeError("a bug")
    """)
    jdir = tmp_path / "live"
    out = subprocess.run([sys.executable, "-c", script, str(jdir)], cwd=ROOT, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=60)
    assert out.returncode == 1 and "RuntimeError: a bug" in out.stderr, out.stderr
    durable, acked = (int(line.split()[1]) for line in out.stdout.splitlines())
    assert (durable, acked) == (9, 17)
    lost = tmp_path / "wal_lost"
    lost.mkdir()
    shutil.copy(jdir / CURRENT, lost / CURRENT)  # the main file alone: its -wal gone
    session, notices = _resume(jdir)
    assert notices == [] and session is not None and session.count == acked
    session.close()
    session, notices = _resume(lost)
    assert [n.key for n in notices] == ["journal_wal_lost"]
    assert session is not None and durable <= notices[0].params["kept"] <= acked
    session.close()


def test_a_journal_dropped_unclosed_says_nothing(tmp_path: Path) -> None:
    """A session collected without close (its connection closed by the collector) is a crash like the one
    above: every action resumes and no -wal is said lost."""
    _game(tmp_path, 5)
    gc.collect()
    session, notices = _resume(tmp_path)
    assert notices == [] and session is not None and session.count == 11
    session.close()


@pytest.mark.slow
def test_random_damage_never_fails_a_start_and_no_loss_goes_unsaid(tmp_path: Path) -> None:
    """40 journals damaged ten ways (see tests/kiosk/journal_fuzz.py; `python -m tests.kiosk.journal_fuzz`
    runs more and prints the figures)."""
    tally = journal_fuzz.run(tmp_path, tries=40, seed=7, max_actions=12)
    print(journal_fuzz.report(tally))
    assert tally.failures == [] and tally.silent_losses == [] and tally.silent_changes == []
    assert tally.kept > 0 and tally.notices
