"""The tablet's persisted outbox: every message to the floor is written (fsync'd, SQLite) before it is sent
and deleted only when the broker acknowledged it (QoS 1 PUBACK). A broker restart, a Wi-Fi drop or a kiosk
restart therefore loses nothing: what is left is sent again on the next connection. Messages with a `key`
(the retained status) replace their unsent predecessor: only the latest status waits."""

from __future__ import annotations

import sqlite3
import threading
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Message:
    id: int
    topic: str
    payload: bytes
    retain: bool
    key: str


class Outbox:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        self._db.execute("CREATE TABLE IF NOT EXISTS outbox (id INTEGER PRIMARY KEY AUTOINCREMENT, topic TEXT NOT NULL,"
                         " payload BLOB NOT NULL, retain INTEGER NOT NULL, key TEXT NOT NULL DEFAULT '')")
        self._handed: set[int] = set()  # given to the MQTT client, waiting for the broker's PUBACK

    def put(self, topic: str, payload: bytes, retain: bool = False, key: str = "") -> int:
        with self._lock:
            if key:
                rows = self._db.execute("SELECT id FROM outbox WHERE key = ?", (key,)).fetchall()
                stale = [r[0] for r in rows if r[0] not in self._handed]
                self._db.executemany("DELETE FROM outbox WHERE id = ?", [(i,) for i in stale])
            cur = self._db.execute("INSERT INTO outbox (topic, payload, retain, key) VALUES (?, ?, ?, ?)",
                                   (topic, payload, int(retain), key))
            return int(cur.lastrowid or 0)

    def take(self, limit: int = 100) -> list[Message]:
        """The oldest messages not yet handed to the client; they count as handed from now on."""
        with self._lock:
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
