"""The tablet's persisted outbox: every message to the floor is written (fsync'd, SQLite) before it is sent
and deleted only when the broker acknowledged it (QoS 1 PUBACK). A broker restart, a Wi-Fi drop or a kiosk
restart therefore loses nothing: what is left is sent again on the next connection. Messages with a `key`
(the retained status) replace their unsent predecessor: only the latest status waits.

Bounded: at most MAX_ROWS messages wait, none older than MAX_AGE_S (a tablet cut off for days must not fill its
card); the oldest unkeyed ones go first, and every message dropped so is counted on disk (`dropped()`). Open
staff calls never depend on it: they ride in the status (a keyed message, never dropped) until acknowledged."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Message:
    id: int
    topic: str
    payload: bytes
    retain: bool
    key: str


MAX_ROWS = 5000
MAX_AGE_S = 24 * 3600.0


class Outbox:
    def __init__(self, path: Path, max_rows: int = MAX_ROWS, max_age_s: float = MAX_AGE_S,
                 clock: Callable[[], float] = time.time) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.max_rows, self.max_age_s, self.clock = max_rows, max_age_s, clock
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, topic TEXT NOT NULL,"
                         " payload BLOB NOT NULL, retain INTEGER NOT NULL, key TEXT NOT NULL DEFAULT '')")
        columns = [r[1] for r in self._db.execute("PRAGMA table_info(outbox)")]
        if "created" not in columns:  # an outbox from before the bound: its rows count from now
            self._db.execute(f"ALTER TABLE outbox ADD COLUMN created REAL NOT NULL DEFAULT {self.clock()!r}")
        self._db.execute("CREATE TABLE IF NOT EXISTS counts (name TEXT PRIMARY KEY, n INTEGER NOT NULL)")
        self._handed: set[int] = set()  # given to the MQTT client, waiting for the broker's PUBACK

    def put(self, topic: str, payload: bytes, retain: bool = False, key: str = "") -> int:
        with self._lock:
            if key:
                rows = self._db.execute("SELECT id FROM outbox WHERE key = ?", (key,)).fetchall()
                stale = [r[0] for r in rows if r[0] not in self._handed]
                self._db.executemany("DELETE FROM outbox WHERE id = ?", [(i,) for i in stale])
            cur = self._db.execute("INSERT INTO outbox (topic, payload, retain, key, created) VALUES (?, ?, ?, ?, ?)",
                                   (topic, payload, int(retain), key, self.clock()))
            self._bound()
            return int(cur.lastrowid or 0)

    def _bound(self) -> None:
        """Drop (and count) unkeyed messages past the age limit, then the oldest beyond the row limit."""
        handed = self._handed
        old = [r[0] for r in self._db.execute("SELECT id FROM outbox WHERE key = '' AND created < ?",
                                               (self.clock() - self.max_age_s,)) if r[0] not in handed]
        over = int(self._db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0]) - len(old) - self.max_rows
        if over > 0:
            rows = self._db.execute("SELECT id FROM outbox WHERE key = '' ORDER BY id").fetchall()
            old += [r[0] for r in rows if r[0] not in handed and r[0] not in old][:over]
        if old:
            self._db.executemany("DELETE FROM outbox WHERE id = ?", [(i,) for i in old])
            self._db.execute("INSERT INTO counts VALUES ('dropped', ?) ON CONFLICT(name) DO UPDATE SET n = n + ?",
                             (len(old), len(old)))

    def dropped(self) -> int:
        """Messages dropped by the bounds, ever (kept on disk)."""
        with self._lock:
            row = self._db.execute("SELECT n FROM counts WHERE name = 'dropped'").fetchone()
            return int(row[0]) if row else 0

    def take(self, limit: int = 100) -> list[Message]:
        """The oldest messages not yet handed to the client; they count as handed from now on."""
        with self._lock:
            self._bound()
            rows = self._db.execute("SELECT id, topic, payload, retain, key FROM outbox ORDER BY id").fetchall()
            out = [Message(r[0], r[1], bytes(r[2]), bool(r[3]), r[4]) for r in rows if r[0] not in self._handed]
            out = out[:limit]
            self._handed.update(m.id for m in out)
            return out

    def done(self, message_id: int) -> None:
        """The broker has it (or refused it for good): forget it."""
        with self._lock:
            self._db.execute("DELETE FROM outbox WHERE id = ?", (message_id,))
            self._handed.discard(message_id)

    def release(self) -> None:
        """Nothing is with the client any more (a new client): every message is sent again."""
        with self._lock:
            self._handed.clear()

    def pending(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM outbox").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._db.close()
