"""The journal's thread (see table/journal.py's module doc): it makes what the UI thread committed durable, and keeps
the -wal bounded, without the UI thread ever waiting for the disk or for it.

Emptying the -wal (issue #21: it grew ~8.4 KB per action, 17 MB after 2,000, all read again by a resume): the
first frame written into an emptied -wal makes SQLite write and sync the -wal's header, on the thread that writes
it, holding the write lock. So the UI connection must never be the first to write after an emptying, nor wait for
the thread that is. While the thread empties the -wal (a TRUNCATE checkpoint, which waits for readers and holds
the write lock) and writes the new header, the UI thread's appends go to the spill file instead (`-spill`, one JSON
line each: in the OS when `append` returns, as a commit is; never fsync'd) and the thread then moves them into the
journal, in order. Only this thread empties the -wal: the UI connection never restarts it itself (the pin, below,
or the spill), so no checkpoint ever runs beside a restart made by another connection."""

from __future__ import annotations

import ctypes
import functools
import json
import logging
import os
import sqlite3
import sys
import threading
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

Spilled = tuple[int, str, str, float]  # seq, kind, body (JSON text), at
INSERT_SEQ = "INSERT INTO records (seq, kind, body, at) VALUES (?, ?, ?, ?)"


def connect(path: Path, synchronous: str) -> sqlite3.Connection:
    """A connection whose close leaves the -wal as it is (`keep_wal`): only `Journal.close` lets SQLite fold it."""
    conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
    try:
        keep_wal(conn, path, True)
        conn.execute(f"PRAGMA synchronous={synchronous}")  # first: a new file's switch to WAL writes with it
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA wal_autocheckpoint=0")  # checkpoints: the journal's thread, open and close
    except sqlite3.DatabaseError:
        conn.close()
        raise
    return conn


_NO_CKPT_ON_CLOSE = 1006  # SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE (SQLite 3.16.2+)


def keep_wal(conn: sqlite3.Connection, path: Path, keep: bool) -> bool:
    """Whether closing `conn` leaves the -wal as it is, as a kill does (True), or lets SQLite, as the last connection,
    fold the -wal into the main file and delete it. Without this, an exit by an uncaught exception (the interpreter
    closes the connection) or a journal dropped unclosed deleted the -wal of a journal still marked open: the next
    start said records were lost, and none were. Returns whether the setting took (False: logged)."""
    if hasattr(conn, "setconfig"):  # Python 3.12+
        conn.setconfig(sqlite3.SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, keep)  # type: ignore[attr-defined]
        return True
    api = _sqlite_api()
    if api is not None:  # Python 3.11 (Debian 12): its sqlite3 module has no setconfig; the C API through ctypes
        db_config, db_filename = api
        db = ctypes.c_void_p.from_address(id(conn) + object.__basicsize__).value  # pysqlite_Connection.db
        name = db_filename(db, b"main") if db else None
        if name and os.path.realpath(os.fsdecode(name)) == os.path.realpath(path):  # the handle is this connection's
            now = ctypes.c_int(-1)
            if db_config(db, _NO_CKPT_ON_CLOSE, int(keep), ctypes.byref(now)) == 0 and now.value == int(keep):
                return True
    log.warning("journal %s: could not set SQLite's checkpoint on close (a crash may report a lost -wal)", path)
    return False


@functools.cache
def _sqlite_api() -> tuple[Any, Any] | None:
    """sqlite3_db_config and sqlite3_db_filename of the SQLite library the sqlite3 module uses, on CPython."""
    if sys.implementation.name != "cpython":
        return None
    try:
        import _sqlite3
        lib = ctypes.CDLL(getattr(_sqlite3, "__file__", None))  # its own dependencies' symbols too
        db_config, db_filename = lib.sqlite3_db_config, lib.sqlite3_db_filename
    except (ImportError, OSError, AttributeError):
        return None
    db_config.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
    db_config.restype = ctypes.c_int
    db_filename.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    db_filename.restype = ctypes.c_char_p
    return db_config, db_filename


def fsync_dir(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def spill_path(path: Path) -> Path:
    return Path(str(path) + "-spill")


def spill_line(record: Spilled) -> bytes:
    return (json.dumps(record, ensure_ascii=False) + "\n").encode()


def read_spill(path: Path, last: int) -> list[Spilled]:
    """The records of `path`'s spill file that follow record `last`, in order, up to the first one that does not
    (a line cut short by a power cut, a gap): never a record after a missing one."""
    out: list[Spilled] = []
    try:
        lines = spill_path(path).read_bytes().split(b"\n")
    except FileNotFoundError:
        return out
    for line in lines:
        try:
            seq, kind, body, at = json.loads(line)
            record = (int(seq), str(kind), str(body), float(at))
        except (ValueError, TypeError):
            break
        if record[0] > last + len(out) + 1:
            break
        if record[0] == last + len(out) + 1:
            out.append(record)
    return out


class Syncer:
    """Holds no reference to its Journal, which stops it on close (or when it is collected unclosed)."""

    SETTLE = 0.02  # s: appends this close together share a checkpoint
    WAL_FRAMES = 500  # the -wal is emptied once a checkpoint left it this long (4 KB pages: ~2 MB, 250 actions)

    def __init__(self, path: Path) -> None:
        self.path = path
        self.cond = threading.Condition()
        self.written = 0  # appends committed by the writer
        self.durable = 0  # of those, checkpointed with fsyncs
        self.failure: BaseException | None = None
        self.stopping = False
        self.thread: threading.Thread | None = None
        self.folders: tuple[Path, ...] = ()  # fsync'd after the next checkpoint: entries made or moved unsynced
        self.spilling = False  # the -wal is being emptied: appends go to `spill` and the spill file
        self.spill: list[Spilled] = []
        self.emptied = 0  # times the -wal was emptied

    def wrote(self) -> None:
        """One more append committed (called with `cond` held)."""
        self.written += 1
        if self.thread is None and not self.stopping:
            self.thread = threading.Thread(target=self._run, name=f"journal-sync {self.path.name}", daemon=True)
            self.thread.start()
        self.cond.notify_all()

    def stop(self) -> None:
        with self.cond:
            self.stopping = True
            self.cond.notify_all()
        if self.thread is not None and self.thread is not threading.current_thread():
            self.thread.join()

    def checkpoint(self, conn: sqlite3.Connection) -> tuple[int, int, int]:
        """(busy, frames in the -wal, frames checkpointed): a PASSIVE checkpoint never waits for the writer."""
        row = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        return int(row[0]), int(row[1]), int(row[2])

    def empty(self, conn: sqlite3.Connection) -> None:
        """Empty the -wal (TRUNCATE: it waits for readers, the UI thread's reads of a few ms; a busy one leaves
        it as it is)."""
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()

    def _pin(self, pin: sqlite3.Connection) -> None:
        """A read snapshot of every commit so far; while one is held the writer cannot restart the -wal in place
        (an fsync on its thread). Taken with `cond` held, between appends: they wait the few µs."""
        if pin.in_transaction:
            pin.execute("COMMIT")
        pin.execute("BEGIN")
        pin.execute("SELECT count(*) FROM mark").fetchall()

    def _restart(self, ckpt: sqlite3.Connection, pin: sqlite3.Connection) -> None:
        """Empty the -wal and write its next header (synced) here, the UI thread's appends spilled meanwhile; then
        move the spilled records into the journal, and the UI thread writes to it again."""
        with self.cond:
            self.spilling = True
            if pin.in_transaction:
                pin.execute("COMMIT")
        self.empty(ckpt)
        ckpt.execute("PRAGMA synchronous=NORMAL")  # commits unsynced, as the UI thread's (the header is synced)
        try:
            first = True
            while True:
                with self.cond:
                    batch = list(self.spill)
                    if not batch and not first:
                        try:
                            os.truncate(spill_path(self.path), 0)
                        except FileNotFoundError:
                            pass
                        self.spilling = False
                        self.emptied += 1
                        self._pin(pin)
                        return
                ckpt.execute("BEGIN IMMEDIATE")
                try:
                    ckpt.executemany(INSERT_SEQ, batch)
                    if first:  # a write even with nothing spilled: the header is synced here, not by an append
                        ckpt.execute("UPDATE mark SET open = 3 - open WHERE id = 1")
                    ckpt.execute("COMMIT")
                except BaseException:
                    ckpt.execute("ROLLBACK")
                    raise
                with self.cond:
                    del self.spill[:len(batch)]
                first = False
        finally:
            ckpt.execute("PRAGMA synchronous=FULL")

    def _run(self) -> None:
        pin = ckpt = None
        try:
            ckpt, pin = connect(self.path, "FULL"), connect(self.path, "FULL")
            while True:
                with self.cond:
                    self.cond.wait_for(lambda: self.stopping or self.durable < self.written)
                    if self.stopping or self.cond.wait_for(lambda: self.stopping, self.SETTLE):
                        return
                    self._pin(pin)
                    target = self.written
                busy, frames, done = self.checkpoint(ckpt)
                caught_up = not busy and frames == done  # up to the pin and beyond: every record in it
                if caught_up:
                    folders, self.folders = self.folders, ()
                    for folder in folders:
                        fsync_dir(folder)
                with self.cond:
                    if caught_up:
                        self.durable = max(self.durable, target)
                        self.cond.notify_all()
                if not busy and frames >= self.WAL_FRAMES:  # the TRUNCATE copies what this one could not
                    self._restart(ckpt, pin)
        except Exception as exc:  # handed to the writer's thread (Journal.check)
            with self.cond:
                self.failure = exc
                self.cond.notify_all()
        finally:
            for conn in (pin, ckpt):
                if conn is not None:
                    try:
                        conn.close()
                    except sqlite3.Error:
                        pass
