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

from floor import schema

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
        body = {k: v for k, v in event.items() if k != "branch"}
        branch = event.get("branch", "")
        if schema.event(body) is None or not isinstance(branch, str) or (branch and not schema.ID.fullmatch(branch)):
            return False
        game = body.get("game")
        key = f"{branch}/{body['table']}" if branch else body["table"]
        with self._lock:
            cur = self._db.execute(
                "INSERT OR IGNORE INTO events (id, table_id, kind, game, at, body) VALUES (?, ?, ?, ?, ?, ?)",
                (f"{branch}/{body['id']}" if branch else body["id"], key, body["kind"],
                 game if isinstance(game, str) else None, float(body["at"]), json.dumps(body, ensure_ascii=False)))
            return cur.rowcount == 1

    def count(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT COUNT(*) FROM events").fetchone()[0])

    def stats(self) -> list[dict[str, Any]]:
        """Rows per day and game (and per branch, when events came from branches: then a total row per day and
        game with branch "*" follows each day's branch rows)."""
        with self._lock:
            rows = self._db.execute("SELECT table_id, kind, game, at, body FROM events ORDER BY at").fetchall()
        out: dict[tuple[str, str, str], dict[str, Any]] = {}
        minutes: dict[tuple[str, str, str], list[float]] = {}
        branched = any("/" in r[0] for r in rows)
        for table, kind, game, at, body in rows:
            try:
                data = schema.event(json.loads(body))
                day = time.strftime("%Y-%m-%d", time.localtime(at))
            except (ValueError, TypeError, OverflowError, OSError):
                data = None
            if data is None or kind not in COUNTED:  # an older floor's unchecked rows stay out too
                continue
            for branch in ((table.rpartition("/")[0], "*") if branched else ("",)):
                key = (day, game or "", branch)
                row = out.setdefault(key, {c: 0 for c in COLUMNS} | {"day": day, "game": game or "",
                                                                      "branch": branch, "tables": set()})
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
        return [out[k] for k in sorted(out, key=lambda k: (k[0], k[1], k[2] == "*", k[2]))]

    def csv_text(self, headers: Mapping[str, str] | None = None, games: Mapping[str, str] | None = None) -> str:
        """The statistics as CSV: `headers` name the columns (the catalog's, Korean first), `games` the games
        by id. Every cell that a spreadsheet would read as a formula is quoted as text."""
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\r\n")
        rows = self.stats()
        columns = list(COLUMNS)
        if any(r["branch"] for r in rows):  # a head office: per branch, and every branch together
            columns.insert(1, "branch")
        writer.writerow([cell((headers or {}).get(c, c)) for c in columns])
        for row in rows:
            row["game"] = (games or {}).get(row["game"], row["game"])
            if row["branch"] == "*":
                row["branch"] = (headers or {}).get("all", "*")
            writer.writerow([cell(row[c]) for c in columns])
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
