"""Append-only game journal: SQLite in WAL mode with synchronous=FULL, so an acknowledged action survives
a power cut. A header (engine, version, content hash, config, seed) and one record per accepted action;
undo is itself a record, so nothing is ever rewritten. A new game archives the old journal.

Damage (a bad SD card, a power cut during a checkpoint, a lost -wal file) never stops the table:
`open_journal` checks the whole journal; one that does not open or read back is moved to journal/damaged/
(kept for staff), and a fresh journal with the same header and every record that still reads takes its
place. The main file carries an "open" mark: open in the main file but no -wal beside it means the -wal was
lost (said, not silent). Every commit is checkpointed into the main file, so a lost -wal costs at most the
action being written."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kiosk.notices import Notice, add

SCHEMA = (
    "CREATE TABLE IF NOT EXISTS header (id INTEGER PRIMARY KEY CHECK (id = 1), body TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'end')),
    body TEXT NOT NULL,
    at REAL NOT NULL
)""",
    "CREATE TABLE IF NOT EXISTS mark (id INTEGER PRIMARY KEY CHECK (id = 1), open INTEGER NOT NULL)",
)
KINDS = ("action", "undo", "end")
DAMAGED = "damaged"  # journal_dir/damaged: journals moved aside, as found

Record = tuple[int, str, dict[str, Any], float]


class JournalError(Exception):
    pass


class JournalDamaged(JournalError):
    """The journal does not open or does not read back."""


def _wal(path: Path) -> Path:
    return Path(str(path) + "-wal")


class Journal:
    def __init__(self, path: Path, conn: sqlite3.Connection, header: dict[str, Any], wal_lost: bool = False) -> None:
        self.path = path
        self._conn = conn
        self._header = header
        self.wal_lost = wal_lost  # opened with the open mark set and no -wal file: its records are gone

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        try:
            conn.execute("PRAGMA journal_mode=WAL")
            conn.execute("PRAGMA synchronous=FULL")
            conn.execute("PRAGMA wal_autocheckpoint=1")  # each commit reaches the main file
        except sqlite3.DatabaseError:
            conn.close()
            raise
        return conn

    @classmethod
    def create(cls, path: Path, header: Mapping[str, Any]) -> Journal:
        if path.exists():
            raise JournalError(f"journal already exists: {path}")
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = cls._connect(path)
        body = json.dumps(header, ensure_ascii=False)
        conn.execute("BEGIN")
        for statement in SCHEMA:
            conn.execute(statement)
        conn.execute("INSERT INTO header (id, body) VALUES (1, ?)", (body,))
        conn.execute("INSERT INTO mark (id, open) VALUES (1, 1)")
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return cls(path, conn, dict(json.loads(body)))

    @classmethod
    def open(cls, path: Path) -> Journal | None:
        """Open an existing journal, or None if there is none (or an empty one: a creation cut short).
        Raises JournalDamaged when it does not open or its header does not read."""
        if not path.exists():
            return None
        wal_missing = not _wal(path).exists()
        try:
            conn = cls._connect(path)
        except sqlite3.DatabaseError as exc:
            raise JournalDamaged(f"{type(exc).__name__}: {exc}") from exc
        try:
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if not tables:
                conn.close()
                return None
            row = conn.execute("SELECT body FROM header WHERE id = 1").fetchone()
            if row is None:
                raise JournalDamaged("no header")
            header = _header(row[0])
            was_open = False
            if "mark" in tables:
                mark = conn.execute("SELECT open FROM mark WHERE id = 1").fetchone()
                was_open = bool(mark and mark[0])
        except (sqlite3.DatabaseError, ValueError, TypeError, KeyError, JournalDamaged) as exc:
            conn.close()
            if isinstance(exc, JournalDamaged):
                raise
            raise JournalDamaged(f"{type(exc).__name__}: {exc}") from exc
        try:  # a failure here is the storage's (read-only, full), not the journal's: raised as it is
            conn.execute("CREATE TABLE IF NOT EXISTS mark (id INTEGER PRIMARY KEY CHECK (id = 1), "
                         "open INTEGER NOT NULL)")
            conn.execute("INSERT OR REPLACE INTO mark (id, open) VALUES (1, 1)")
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.DatabaseError:
            conn.close()
            raise
        return cls(path, conn, header, wal_lost=was_open and wal_missing)

    @property
    def header(self) -> dict[str, Any]:
        return dict(self._header)

    def append(self, kind: str, body: Mapping[str, Any], at: float | None = None) -> int:
        cur = self._conn.execute("INSERT INTO records (kind, body, at) VALUES (?, ?, ?)",
                                 (kind, json.dumps(body, ensure_ascii=False), time.time() if at is None else at))
        return int(cur.lastrowid or 0)

    def records(self) -> list[Record]:
        """Every record; raises JournalDamaged at the first one that does not read back."""
        rows, problem = self.read()
        if problem:
            raise JournalDamaged(problem)
        return rows

    def read(self) -> tuple[list[Record], str]:
        """The records that read back, in order, up to the first damaged one; and what was wrong ("")."""
        return _read_records(self._conn)

    def actions(self) -> list[dict[str, Any]]:
        """The effective actions: every action record, minus those taken back by undo records."""
        return effective_actions(self.records())

    @property
    def ended(self) -> bool:
        row = self._conn.execute("SELECT 1 FROM records WHERE kind = 'end' LIMIT 1").fetchone()
        return row is not None

    def close(self) -> None:
        try:
            self._conn.execute("UPDATE mark SET open = 0 WHERE id = 1")
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.DatabaseError:
            pass
        self._conn.close()

    def abandon(self) -> None:
        """Close without writing (the file is about to be moved aside as found)."""
        self._conn.close()


def _header(text: Any) -> dict[str, Any]:
    header = json.loads(text)
    if not isinstance(header, dict):
        raise ValueError("the header is not a mapping")
    return header


def _read_records(conn: sqlite3.Connection) -> tuple[list[Record], str]:
    out: list[Record] = []
    try:
        cur = conn.execute("SELECT seq, kind, body, at FROM records ORDER BY seq")
        for seq, kind, body, at in cur:
            data = json.loads(body)
            if kind not in KINDS or not isinstance(data, dict) or not isinstance(at, (int, float)):
                return out, f"record {seq}: not a journal record"
            out.append((int(seq), str(kind), data, float(at)))
    except (sqlite3.DatabaseError, ValueError, TypeError) as exc:
        return out, f"after record {out[-1][0] if out else 0}: {type(exc).__name__}: {exc}"
    return out, ""


def effective_actions(records: list[Record]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for _, kind, body, _ in records:
        if kind == "action":
            out.append(body)
        elif kind == "undo":
            for _ in range(int(body.get("count", 1))):
                if out:
                    out.pop()
    return out


def _salvage(path: Path) -> tuple[dict[str, Any] | None, list[Record], int]:
    """Whatever still reads from a damaged journal: its header, the records before the first bad one, and
    the highest record number it claims to have (0 when unknown)."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    except sqlite3.DatabaseError:
        return None, [], 0
    try:
        try:
            row = conn.execute("SELECT body FROM header WHERE id = 1").fetchone()
            header = _header(row[0]) if row else None
        except (sqlite3.DatabaseError, ValueError, TypeError, KeyError):
            header = None
        rows, _ = _read_records(conn)
        try:
            last = int(conn.execute("SELECT max(seq) FROM records").fetchone()[0] or 0)
        except (sqlite3.DatabaseError, TypeError, ValueError):
            last = 0
        return header, rows, max(last, rows[-1][0] if rows else 0)
    finally:
        conn.close()


def move_aside(path: Path, folder: Path, label: str = "") -> Path | None:
    """Move a journal and its -wal/-shm files, as they are, into `folder`; returns the new main file."""
    if not path.exists():
        return None
    folder.mkdir(parents=True, exist_ok=True)
    target = _free_name(folder, label)
    shutil.move(str(path), target)
    for suffix in ("-wal", "-shm"):
        extra = Path(str(path) + suffix)
        if extra.exists():
            shutil.move(str(extra), str(target) + suffix)
    return target


def _free_name(folder: Path, label: str) -> Path:
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = f"{stamp}-{label}" if label else stamp
    target = folder / f"{base}.sqlite"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{base}-{n}.sqlite"
    return target


def open_journal(path: Path, notices: list[Notice] | None = None) -> Journal | None:
    """Open the journal to resume it, repairing what can be repaired (see the module doc); what was found
    and done is added to `notices`. Never raises for damage."""
    if not path.exists():
        return None
    problem = ""
    try:
        journal = Journal.open(path)
    except JournalDamaged as exc:
        journal, problem = None, str(exc)
    if journal is not None:
        rows, problem = journal.read()
        if not problem:
            if journal.wal_lost:
                add(notices, "journal_wal_lost", kept=len(effective_actions(rows)))
            return journal
        journal.abandon()
    elif not problem:  # no tables at all: a creation cut short, or a file emptied by damage (can't tell)
        moved = move_aside(path, path.parent / DAMAGED, "empty")
        add(notices, "journal_empty", file=f"{DAMAGED}/{moved.name}" if moved else "")
        return None
    header, rows, last = _salvage(path)
    moved = move_aside(path, path.parent / DAMAGED, "damaged")
    shown = f"{DAMAGED}/{moved.name}" if moved else ""
    if header is None:
        add(notices, "journal_unreadable", file=shown, problem=problem)
        return None
    fresh = path.with_name(path.name + ".repair")
    for leftover in (fresh, _wal(fresh), Path(str(fresh) + "-shm")):
        leftover.unlink(missing_ok=True)
    rebuilt = Journal.create(fresh, header)
    for _, kind, body, at in rows:
        rebuilt.append(kind, body, at)
    rebuilt.close()
    os.replace(fresh, path)
    add(notices, "journal_repaired", kept=len(rows), lost=max(0, last - (rows[-1][0] if rows else 0)), file=shown,
        problem=problem)
    return Journal.open(path)


def archive(path: Path, archive_dir: Path, label: str = "") -> Path | None:
    """Move a journal into the archive (one self-contained file); returns the new path. A journal that does
    not open goes to journal/damaged/ as it is."""
    if not path.exists():
        return None
    try:
        j = Journal.open(path)
    except JournalDamaged:
        return move_aside(path, archive_dir.parent / DAMAGED, f"{label}-damaged" if label else "damaged")
    if j is not None:
        j.close()  # folds the WAL into the main file (a -wal left over goes along, not lost)
    return move_aside(path, archive_dir, label)
