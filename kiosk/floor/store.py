"""The floor's event log (SQLite on the floor box): every table's game starts and ends, teaching sessions,
voice use and staff calls, each once (QoS 1 may deliver twice; the event id decides). Statistics across
tables come from it as one CSV: per day and game, plays, finished plays, average minutes, teaching sessions,
voice commands, staff calls."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from kiosk.floor import schema

COUNTED = ("game_started", "game_ended", "teach", "voice", "call")
COLUMNS = ("day", "game", "plays", "finished", "avg_minutes", "teaching_sessions", "teaching_minutes",
           "voice_commands", "staff_calls", "tables")


class FloorStore:
    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")  # an event is on disk before the broker hears our PUBACK
        self._db.execute("CREATE TABLE IF NOT EXISTS events (id TEXT PRIMARY KEY, table_id TEXT NOT NULL,"
                         " kind TEXT NOT NULL, game TEXT, at REAL NOT NULL, body TEXT NOT NULL)")

    def add(self, event: Mapping[str, Any]) -> bool:
        """Keep an event (committed to disk before this returns); False when it was already there or does not
        fit its schema."""
        if schema.event(dict(event)) is None:
            return False
        game = event.get("game")
        with self._lock:
            cur = self._db.execute(
                "INSERT OR IGNORE INTO events (id, table_id, kind, game, at, body) VALUES (?, ?, ?, ?, ?, ?)",
                (event["id"], event["table"], event["kind"], game if isinstance(game, str) else None,
                 float(event["at"]), json.dumps(event, ensure_ascii=False)))
            return cur.rowcount == 1

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    def stats(self) -> list[dict[str, Any]]:
        with self._lock:
            rows = self._db.execute("SELECT table_id, kind, game, at, body FROM events ORDER BY at").fetchall()
        out: dict[tuple[str, str], dict[str, Any]] = {}
        minutes: dict[tuple[str, str], list[float]] = {}
        for table, kind, game, at, body in rows:
            try:
                data = schema.event(json.loads(body))
                day = time.strftime("%Y-%m-%d", time.localtime(at))
            except (ValueError, TypeError, OverflowError, OSError):
                data = None
            if data is None or kind not in COUNTED:  # an older floor's unchecked rows stay out too
                continue
            key = (day, game or "")
            row = out.setdefault(key, {c: 0 for c in COLUMNS} | {"day": day, "game": game or "", "tables": set()})
            row["tables"].add(table)
            if kind == "game_ended":
                row["plays"] += 1
                row["finished"] += 1 if data.get("finished") else 0
                minutes.setdefault(key, []).append(float(data.get("minutes") or 0.0))
            elif kind == "teach":
                row["teaching_sessions"] += 1
                row["teaching_minutes"] = round(row["teaching_minutes"] + float(data.get("minutes") or 0.0), 1)
            elif kind == "voice":
                row["voice_commands"] += int(data.get("commands") or 0)
            elif kind == "call":
                row["staff_calls"] += 1
        for key, row in out.items():
            spent = minutes.get(key, [])
            row["avg_minutes"] = round(sum(spent) / len(spent), 1) if spent else ""
            row["tables"] = len(row["tables"])
        return [out[k] for k in sorted(out)]

    def csv_text(self, headers: Mapping[str, str] | None = None, games: Mapping[str, str] | None = None) -> str:
        """The statistics as CSV: `headers` name the columns (the catalog's, Korean first), `games` the games
        by id. Every cell that a spreadsheet would read as a formula is quoted as text."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\r\n")
        writer.writerow([cell((headers or {}).get(c, c)) for c in COLUMNS])
        for row in self.stats():
            row["game"] = (games or {}).get(row["game"], row["game"])
            writer.writerow([cell(row[c]) for c in COLUMNS])
        return "\ufeff" + buf.getvalue()  # BOM: Excel opens Korean text right

    def close(self) -> None:
        with self._lock:
            self._db.close()


def cell(value: Any) -> str:
    """A CSV cell a spreadsheet shows as the text it is: one that starts like a formula (= + - @, a tab or a
    carriage return) gets a leading apostrophe. Numbers are written as numbers."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    text = str(value)
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text
