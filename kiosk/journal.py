"""Append-only game journal: SQLite in WAL mode with synchronous=FULL, so an acknowledged action survives
a power cut. A header (engine, version, content hash, config, seed) and one record per accepted action;
undo is itself a record, so nothing is ever rewritten. A new game archives the old journal."""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS header (id INTEGER PRIMARY KEY CHECK (id = 1), body TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('action', 'undo', 'end')),
    body TEXT NOT NULL,
    at REAL NOT NULL
);
"""


class JournalError(Exception):
    pass


class Journal:
    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self._conn = conn

    @staticmethod
    def _connect(path: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        return conn

    @classmethod
    def create(cls, path: Path, header: Mapping[str, Any]) -> Journal:
        if path.exists():
            raise JournalError(f"journal already exists: {path}")
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = cls._connect(path)
        conn.executescript(SCHEMA)
        conn.execute("INSERT INTO header (id, body) VALUES (1, ?)", (json.dumps(header, ensure_ascii=False),))
        return cls(path, conn)

    @classmethod
    def open(cls, path: Path) -> Journal | None:
        """Open an existing journal, or None if there is none (or it has no header: a torn creation)."""
        if not path.exists():
            return None
        conn = cls._connect(path)
        try:
            row = conn.execute("SELECT body FROM header WHERE id = 1").fetchone()
        except sqlite3.DatabaseError:
            row = None
        if row is None:
            conn.close()
            return None
        return cls(path, conn)

    @property
    def header(self) -> dict[str, Any]:
        row = self._conn.execute("SELECT body FROM header WHERE id = 1").fetchone()
        return dict(json.loads(row[0]))

    def append(self, kind: str, body: Mapping[str, Any], at: float | None = None) -> int:
        cur = self._conn.execute("INSERT INTO records (kind, body, at) VALUES (?, ?, ?)",
                                 (kind, json.dumps(body, ensure_ascii=False), time.time() if at is None else at))
        return int(cur.lastrowid or 0)

    def records(self) -> list[tuple[int, str, dict[str, Any], float]]:
        rows = self._conn.execute("SELECT seq, kind, body, at FROM records ORDER BY seq").fetchall()
        return [(seq, kind, json.loads(body), at) for seq, kind, body, at in rows]

    def actions(self) -> list[dict[str, Any]]:
        """The effective actions: every action record, minus those taken back by undo records."""
        out: list[dict[str, Any]] = []
        for _, kind, body, _ in self.records():
            if kind == "action":
                out.append(body)
            elif kind == "undo":
                for _ in range(int(body.get("count", 1))):
                    if out:
                        out.pop()
        return out

    @property
    def ended(self) -> bool:
        row = self._conn.execute("SELECT 1 FROM records WHERE kind = 'end' LIMIT 1").fetchone()
        return row is not None

    def close(self) -> None:
        try:
            self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.DatabaseError:
            pass
        self._conn.close()


def archive(path: Path, archive_dir: Path, label: str = "") -> Path | None:
    """Move a journal (and its WAL files) into the archive; returns the new path."""
    if not path.exists():
        return None
    archive_dir.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    base = f"{stamp}-{label}" if label else stamp
    target = archive_dir / f"{base}.sqlite"
    n = 1
    while target.exists():
        n += 1
        target = archive_dir / f"{base}-{n}.sqlite"
    # fold the WAL into the main file first so the archive is one self-contained file
    j = Journal.open(path)
    if j is not None:
        j.close()
    shutil.move(str(path), target)
    for suffix in ("-wal", "-shm"):
        extra = Path(str(path) + suffix)
        if extra.exists():
            extra.unlink()
    return target
