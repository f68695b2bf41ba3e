"""Issue #42, part 2: a journal that opens is not one that works. Journals that read but refuse writes (a dropped
records table, a schema whose writes fail, a free-page list that reads but does not write) made the resume, the
next game and staff "new table" raise, every time: the kiosk exited into systemd's restart loop, nothing was moved
aside and staff were told nothing. Another game's -wal beside a journal resumed silently as this game's."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from table.journal import DAMAGED, archive
from table.session import CURRENT
from tests.engines.reference import Take
from tests.kiosk.test_journal_damage import _game, _resume


def _sql(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(str(path), isolation_level=None)
    for statement in statements:
        conn.execute(statement)
    conn.close()


def _drop_records(path: Path) -> None:
    _sql(path, "DROP TABLE records")


def _trigger(path: Path) -> None:
    _sql(path, "CREATE TRIGGER no_more BEFORE INSERT ON records BEGIN SELECT RAISE(ABORT, 'refused'); END")


def _check_refuses_actions(path: Path) -> None:
    """The records table's CHECK rewritten (writable_schema) to refuse 'action': every record reads, no take writes."""
    _sql(path, "PRAGMA writable_schema=ON",
         "UPDATE sqlite_master SET sql = replace(sql, '''action'', ', '') WHERE name = 'records'")


def _unique_index(path: Path) -> None:
    """Records stamped at the same moment refused (this test's clock stands still): the next take fails."""
    _sql(path, "CREATE UNIQUE INDEX one_at_a_time ON records (at)")


def _free_pages_broken(path: Path) -> None:
    """Free pages made (a table filled and dropped), then the free-page list's first trunk page pointed past the
    file's end: every page reads, and the first write that takes a new page fails ("database disk image is
    malformed")."""
    _sql(path, "CREATE TABLE junk (x)", "INSERT INTO junk VALUES (zeroblob(60000))", "DROP TABLE junk",
         "PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    assert int.from_bytes(data[36:40], "big") > 0  # free pages
    data[32:36] = (len(data) // 4096 + 40).to_bytes(4, "big")
    path.write_bytes(bytes(data))


DAMAGE: dict[str, Callable[[Path], None]] = {
    "records dropped": _drop_records, "a trigger refusing writes": _trigger,
    "a CHECK refusing actions": _check_refuses_actions, "a unique index": _unique_index,
    "free-page list broken": _free_pages_broken}


@pytest.mark.parametrize("how", list(DAMAGE))
def test_a_journal_that_refuses_writes_is_moved_aside_and_the_game_goes_on(tmp_path: Path, how: str) -> None:
    s = _game(tmp_path, 6)
    before = s.journal.actions()
    s.close()
    DAMAGE[how](tmp_path / CURRENT)
    session, notices = _resume(tmp_path)
    assert session is not None, notices
    assert [n.key for n in notices] == ["journal_repaired"]
    kept = tmp_path / notices[0].params["file"]
    assert kept.parent.name == DAMAGED and kept.exists()
    if how == "records dropped":  # nothing of the game reads: it starts again from its header (same seed, same deal)
        assert session.journal.header["seed"] == 3 and session.count == 1
    else:
        assert session.journal.actions() == before and session.count == 13
    for _ in range(80):  # pages taken: the free-page list, the records table growing
        session.dispatch(Take(session.state.turn, 1))
    count = session.count
    session.close()
    again, notices = _resume(tmp_path)
    assert again is not None and again.count == count and notices == []
    again.close()


@pytest.mark.parametrize("how", list(DAMAGE))
def test_the_next_game_and_new_table_take_a_journal_that_refuses_writes(tmp_path: Path, how: str) -> None:
    """Without a resume first (a game started, staff reset the table): the damaged journal goes to damaged/."""
    _game(tmp_path, 4).close()
    DAMAGE[how](tmp_path / CURRENT)
    moved = archive(tmp_path / CURRENT, tmp_path / "archive", "turnover")
    assert moved is not None and moved.parent.name == DAMAGED and not (tmp_path / CURRENT).exists()
    _game(tmp_path, 2).close()
    DAMAGE[how](tmp_path / CURRENT)
    _sql(tmp_path / CURRENT, "UPDATE mark SET open = 1")  # left open, as by a kill (a closed one is archived as is)
    s = _game(tmp_path, 40, seed=9)  # the next game's start: the damaged one moved aside, the new one writes
    assert s.journal.header["seed"] == 9
    s.close()
    assert len(list((tmp_path / DAMAGED).glob("*.sqlite"))) == 2


@pytest.mark.parametrize("closed", [False, True])
def test_another_games_wal_beside_a_journal_is_not_replayed(tmp_path: Path, closed: bool) -> None:
    """Another game's -wal put beside a journal (a careless copy, a swap): before, SQLite replayed its pages onto
    this journal and the other game resumed in its place, silently. Now the -wal's journal id does not match the
    main file's: it is moved to damaged/ unread, said, and the game resumes from the main file alone."""
    mine, theirs, table = tmp_path / "mine", tmp_path / "theirs", tmp_path / "table"
    a = _game(mine, 10, seed=3)
    assert a.journal.flush(10)
    a_actions = a.journal.actions()
    if closed:
        a.close()
    other = _game(theirs, 25, seed=11)
    assert other.journal.flush(10)
    for _ in range(5):  # records in the other -wal not yet checkpointed too
        other.dispatch(Take(other.state.turn, 1))
    table.mkdir()  # the kiosk killed: its main file as it is, the other game's -wal beside it
    shutil.copy(mine / CURRENT, table / CURRENT)
    foreign = (theirs / (CURRENT + "-wal")).read_bytes()
    (table / (CURRENT + "-wal")).write_bytes(foreign)
    session, notices = _resume(table)
    assert session is not None and session.journal.header["seed"] == 3
    assert session.journal.actions() == a_actions and session.count == 21
    assert [n.key for n in notices] == ["journal_wal_foreign"] and notices[0].params["kept"] == 21
    assert (table / notices[0].params["file"]).read_bytes() == foreign
    session.dispatch(Take(session.state.turn, 1))
    session.close()
    again, notices = _resume(table)
    assert again is not None and again.count == 23 and notices == []
    again.close()
    if not closed:
        a.close()
    other.close()


def test_a_journal_made_before_the_id_opens_and_gets_one(tmp_path: Path) -> None:
    """A journal from before this change (its mark without a jid) resumes as before, and has an id from then on."""
    s = _game(tmp_path, 3)
    s.close()
    _sql(tmp_path / CURRENT, "DROP TABLE mark",
         "CREATE TABLE mark (id INTEGER PRIMARY KEY CHECK (id = 1), open INTEGER NOT NULL)",
         "INSERT INTO mark VALUES (1, 0)")
    session, notices = _resume(tmp_path)
    assert session is not None and session.count == 7 and notices == []
    session.close()
    conn = sqlite3.connect(str(tmp_path / CURRENT))
    assert len(conn.execute("SELECT jid FROM mark").fetchone()[0]) == 16
    conn.close()


def test_a_journal_damaged_during_play_is_repaired_by_the_recoverys_resume(tmp_path: Path) -> None:
    """Writes refused while the game is played (a trigger added under it): the append raises, nothing of the game
    changes (the kiosk's recovery closes the session and resumes it: TableKeeper), and the resume moves the journal
    aside and goes on with every record."""
    s = _game(tmp_path, 5)
    _trigger(tmp_path / CURRENT)
    count = s.count
    with pytest.raises(sqlite3.IntegrityError):
        s.dispatch(Take(s.state.turn, 1))
    assert s.count == count
    s.close()
    session, notices = _resume(tmp_path)
    assert session is not None and session.count == count and [n.key for n in notices] == ["journal_repaired"]
    session.dispatch(Take(session.state.turn, 1))
    session.close()
