"""A damaged journal never stops the table: it is moved aside (kept for staff), what still replays is kept,
a fresh journal starts, and staff are told; a lost -wal file is detected and said."""

from __future__ import annotations

import os
import random
import shutil
import sqlite3
from pathlib import Path

import pytest

from kiosk.journal import DAMAGED, archive
from kiosk.notices import Notice
from kiosk.session import CURRENT, Session
from tests.engines.reference import Take
from tests.kiosk import journal_fuzz
from tests.kiosk.nim_library import nim_library

T0 = 1_800_000_000.0


def _game(jdir: Path, actions: int) -> Session:
    """A Secret Nim game: a roll (chance), then each take is followed by a roll: 2 * actions + 1 records."""
    s = Session.new(nim_library(), "secret_nim", {"players": ["가", "나"], "pile": 500}, jdir, seed=3,
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


@pytest.mark.slow
def test_random_damage_never_fails_a_start_and_no_loss_goes_unsaid(tmp_path: Path) -> None:
    """40 journals damaged ten ways (see tests/kiosk/journal_fuzz.py; `python -m tests.kiosk.journal_fuzz`
    runs more and prints the figures)."""
    tally = journal_fuzz.run(tmp_path, tries=40, seed=7, max_actions=12)
    print(journal_fuzz.report(tally))
    assert tally.failures == [] and tally.silent_losses == [] and tally.silent_changes == []
    assert tally.kept > 0 and tally.notices
