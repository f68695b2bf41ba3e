"""The journal's fsyncs are off the UI thread (issue #21): an append commits to the -wal and returns; the journal's
thread checkpoints it into the main file with fsyncs. What a power cut can lose, what close waits for, and how a
failure of that thread reaches the UI thread."""

from __future__ import annotations

import gc
import json
import shutil
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from table import journal as journal_mod
from table.journal import Journal
from table.session import Session
from table.storage import is_storage_error
from tests.engines.reference import Take
from tests.kiosk.nim_library import nim_library

ROOT = Path(__file__).resolve().parents[2]


def _sync_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("journal-sync")]


def _running(j: Journal) -> bool:
    """The journal's own thread is running."""
    thread = j._sync.thread
    return thread is not None and thread.is_alive()


@pytest.fixture(autouse=True)
def no_thread_left() -> Iterator[None]:
    """The test's own journals' threads stop (not another test's: a UI test on the same worker leaves its game's
    journal open with the app, and a game's start now starts its thread to make the new journal durable)."""
    before = set(_sync_threads())
    yield
    gc.collect()
    deadline = time.monotonic() + 5
    while set(_sync_threads()) - before and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not set(_sync_threads()) - before, "a journal's thread outlived its journal"


def _main_file_records(path: Path, into: Path) -> list[dict[str, Any]]:
    """The records in a copy of the main file alone, as a power cut that also lost the -wal would leave it."""
    shutil.copy(path, into)
    conn = sqlite3.connect(f"file:{into}?mode=ro", uri=True)
    try:
        return [json.loads(b) for (b,) in conn.execute("SELECT body FROM records ORDER BY seq")]
    finally:
        conn.close()


def _hold_checkpoints(monkeypatch: pytest.MonkeyPatch, before: Callable[[], None] = lambda: None,
                      after: Callable[[], None] = lambda: None) -> None:
    real = journal_mod._Syncer.checkpoint

    def checkpoint(self: Any, conn: sqlite3.Connection) -> tuple[int, int, int]:
        before()
        out = real(self, conn)
        after()
        return out

    monkeypatch.setattr(journal_mod._Syncer, "checkpoint", checkpoint)


def test_an_append_returns_before_its_checkpoint_and_the_main_file_has_it_after(tmp_path: Path,
                                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Each append waited for the -wal's fsync and its checkpoint's (437 ms worst of 200 here, 10-100+ ms per
    fsync on an SD card). Now it returns at once; the record reaches the main file when the checkpoint runs."""
    gate = threading.Event()
    checkpointed: list[int] = []
    _hold_checkpoints(monkeypatch, before=lambda: None if gate.wait(10) else None,
                      after=lambda: checkpointed.append(1))
    j = Journal.create(tmp_path / "j.sqlite", {"game": "x"})
    for n in range(5):
        j.append("action", {"n": n})
    # returned with no checkpoint over: one that waited for its checkpoint returned once the held one gave up (10 s).
    # Not a wall-clock bound (it was < 2 s): how long 5 appends take is the machine's speed
    assert checkpointed == [] and not gate.is_set()
    assert [a["n"] for a in j.actions()] == [0, 1, 2, 3, 4]  # the writer reads its own records
    assert not j.flush(timeout=0.2)
    assert _main_file_records(tmp_path / "j.sqlite", tmp_path / "early.sqlite") == []
    gate.set()
    assert j.flush(timeout=10)
    assert [r["n"] for r in _main_file_records(tmp_path / "j.sqlite", tmp_path / "late.sqlite")] == [0, 1, 2, 3, 4]
    j.close()


def _fsyncs_of_a_thread(tmp_path: Path, before: str, play: str, after: str) -> tuple[int, int]:
    """Run `before`, then `play` on a thread of its own, then `after` (Python source, in a child process) under
    strace: the fsyncs that thread made, and all of them."""
    if shutil.which("strace") is None or subprocess.run(["strace", "-o", "/dev/null", "true"]).returncode != 0:
        pytest.skip("strace is not usable here")
    script = "\n".join([
        "import threading, time", "from pathlib import Path", "from table.journal import Journal",
        "from table.session import Session", "from tests.engines.reference import Take",
        "from tests.kiosk.nim_library import nim_library", textwrap.dedent(before),
        "def play():", '    print("UI", threading.get_native_id(), flush=True)', textwrap.indent(textwrap.dedent(play), "    "),
        "ui = threading.Thread(target=play)", "ui.start()", "ui.join()", textwrap.dedent(after)])
    out = subprocess.run(["strace", "-f", "-qq", "-e", "trace=fsync,fdatasync", "-o", str(tmp_path / "trace"),
                          sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    ui = out.stdout.split()[1]
    calls = [line.split()[0] for line in (tmp_path / "trace").read_text().splitlines() if "sync(" in line]
    return calls.count(ui), len(calls)


def test_the_appending_thread_calls_no_fsync(tmp_path: Path) -> None:
    """Counted by strace, per thread: 40 appends made 160 fsyncs on the appending thread before (the -wal's, then
    the checkpoint's); now none, and the journal's thread makes them. (Without its read snapshot, an append
    after a checkpoint that caught up restarts the -wal and syncs its header: 9 here.)"""
    mine, calls = _fsyncs_of_a_thread(tmp_path, f"""
        j = Journal.create(Path({str(tmp_path / 'j.sqlite')!r}), {{"game": "x"}})
    """, """
        for n in range(40):
            j.append("action", {"n": n})
            time.sleep(0.1 if n % 5 == 4 else 0.005)  # bursts, and pauses the checkpoint ends in
    """, "j.close()")
    assert mine == 0, f"{mine} fsyncs on the appending thread"
    assert calls > 4  # creation, the journal thread's checkpoints, close


def test_a_games_start_calls_no_fsync_on_its_thread(tmp_path: Path) -> None:
    """Session.new archived the previous journal (opened, folded, closed: 9 fsyncs here) and made the new one (10)
    on the UI thread: about 1 s at an SD card's 50 ms per fsync. Now the previous journal, closed, is moved as it
    is and the new one is made unsynced: the journal's thread makes them durable."""
    game = '"secret_nim", {"players": ["가", "나"], "pile": 50}, jdir'
    mine, calls = _fsyncs_of_a_thread(tmp_path, f"""
        jdir = Path({str(tmp_path)!r})
        old = Session.new(nim_library(), {game}, seed=2)
        old.dispatch(Take(old.state.turn, 1))
        old.close()
        new = []
    """, f"""
        new.append(Session.new(nim_library(), {game}, seed=5))
        new[0].dispatch(Take(new[0].state.turn, 2))
    """, "new[0].close()")
    assert mine == 0, f"{mine} fsyncs on the thread that started the game"
    assert calls > 4  # the journal thread's, the closes'
    (archived,) = (tmp_path / "archive").glob("*.sqlite")
    old = Journal.open(archived)
    assert old is not None and old.header["seed"] == 2 and [a["n"] for a in old.actions() if a["name"] == "take"] == [1]
    old.close()
    resumed = Journal.open(tmp_path / "current.sqlite")
    assert resumed is not None and resumed.header["seed"] == 5 and [a["n"] for a in resumed.actions() if a["name"] == "take"] == [2]
    resumed.close()


def test_a_new_games_journal_is_on_disk_after_its_first_checkpoint(tmp_path: Path) -> None:
    """Made without an fsync, the new journal (its tables, header and first records) is in the main file once its
    thread's checkpoint ran: what a power cut that also lost the -wal would leave."""
    s = Session.new(nim_library(), "secret_nim", {"players": ["가", "나"], "pile": 50}, tmp_path, seed=3)
    s.dispatch(Take(s.state.turn, 1))
    assert s.journal.flush(timeout=10)
    assert len(_main_file_records(tmp_path / "current.sqlite", tmp_path / "cut.sqlite")) == s.count == 3
    s.close()


def test_under_concurrent_appends_the_main_file_always_holds_a_prefix_in_order(tmp_path: Path,
                                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """The main file as it is after each checkpoint (what a power cut that also lost the -wal leaves), while
    another thread keeps appending: always records 0..k-1 in order, k never going back, all of them at the end."""
    path = tmp_path / "j.sqlite"
    seen: list[list[int]] = []
    _hold_checkpoints(monkeypatch, after=lambda: seen.append(
        [r["n"] for r in _main_file_records(path, tmp_path / f"cut{len(seen)}.sqlite")]))
    j = Journal.create(path, {"game": "x"})
    total = 300

    def play() -> None:
        for n in range(total):
            j.append("action", {"n": n})
            if n % 7 == 0:
                time.sleep(0.002)

    ui = threading.Thread(target=play)
    ui.start()
    ui.join()
    assert j.flush(timeout=10)
    j.close()
    assert len(seen) >= 2
    for cut in seen:
        assert cut == list(range(len(cut)))
    assert [len(c) for c in seen] == sorted(len(c) for c in seen)
    assert seen[-1] == list(range(total))


def test_close_waits_for_the_checkpoint_and_stops_the_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    inside = threading.Event()
    _hold_checkpoints(monkeypatch, before=lambda: (inside.set(), time.sleep(0.3)))
    j = Journal.create(tmp_path / "j.sqlite", {"game": "x"})
    for n in range(3):
        j.append("action", {"n": n})
    assert inside.wait(10)  # the thread is in its (slow) checkpoint (a fixed 50 ms wait did not say so)
    assert _sync_threads()
    j.close()
    assert not _running(j)
    assert not Path(str(tmp_path / "j.sqlite") + "-wal").exists()
    assert [r["n"] for r in _main_file_records(tmp_path / "j.sqlite", tmp_path / "c.sqlite")] == [0, 1, 2]


def test_a_journal_dropped_unclosed_stops_its_thread(tmp_path: Path) -> None:
    j = Journal.create(tmp_path / "j.sqlite", {"game": "x"})
    j.append("action", {"n": 0})
    assert _sync_threads()
    del j  # the fixture checks the thread ended


def test_a_failure_of_the_journal_thread_is_raised_on_the_ui_thread_then_appends_are_fsynced(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The card fails under the checkpoint (an fsync's EIO, a full card): the next append, or the game screen's
    tick, raises it on the UI thread, where the kiosk's storage fallback takes it (test_damage_ui); never
    swallowed. Raised once; the journal then commits as before (fsync'd, checkpointed on each commit)."""

    def broken() -> None:
        raise sqlite3.OperationalError("disk I/O error")

    _hold_checkpoints(monkeypatch, before=broken)
    s = Session.new(nim_library(), "secret_nim", {"players": ["가", "나"], "pile": 50}, tmp_path, seed=3,
                    clock=lambda: 1_800_000_000.0)
    j = s.journal
    with pytest.raises(sqlite3.OperationalError) as err:
        j.flush(timeout=10)
    assert is_storage_error(err.value)
    assert not _running(j)
    s.tick()  # reported once: the kiosk is recovering already
    before = s.count
    s.dispatch(Take(s.state.turn, 1))
    assert s.count > before
    kept = _main_file_records(tmp_path / "current.sqlite", tmp_path / "c.sqlite")
    assert len(kept) == s.count  # fsync'd and checkpointed before dispatch returned, as before the thread
    s.close()


def test_a_failure_reaches_the_ui_thread_through_tick(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    failed = threading.Event()

    def broken() -> None:
        failed.set()
        raise sqlite3.OperationalError("database or disk is full")

    _hold_checkpoints(monkeypatch, before=broken)
    s = Session.new(nim_library(), "secret_nim", {"players": ["가", "나"], "pile": 50}, tmp_path, seed=3,
                    clock=lambda: 1_800_000_000.0)
    assert failed.wait(10)
    s.journal._sync.thread.join(10)  # type: ignore[union-attr]
    with pytest.raises(sqlite3.OperationalError, match="disk is full"):
        s.tick()
    s.close()
