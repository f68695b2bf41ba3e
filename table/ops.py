"""Café operations without Kivy: logging to a rotating file, play statistics from the journal archive
(CSV export), and the systemd watchdog / readiness notifications."""

from __future__ import annotations

import csv
import logging
import logging.handlers
import os
import socket
import sqlite3
import time
from dataclasses import asdict, dataclass
from pathlib import Path

log = logging.getLogger(__name__)
LOG_NAME = "tablehost.log"


def setup_logging(data_dir: Path, level: int = logging.INFO) -> Path:
    """Log to data_dir/logs/tablehost.log (1 MB × 5 files) besides whatever Kivy does."""
    folder = data_dir / "logs"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOG_NAME
    root = logging.getLogger()
    if not any(isinstance(h, logging.handlers.RotatingFileHandler) and Path(h.baseFilename) == path
               for h in root.handlers):
        handler = logging.handlers.RotatingFileHandler(path, maxBytes=1_000_000, backupCount=5, encoding="utf-8")
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
    if root.level > level or root.level == logging.NOTSET:
        root.setLevel(level)
    return path


def tail_log(data_dir: Path, lines: int = 40) -> list[str]:
    path = data_dir / "logs" / LOG_NAME
    if not path.exists():
        return []
    with open(path, encoding="utf-8", errors="replace") as f:
        return [line.rstrip("\n") for line in f.readlines()[-lines:]]


@dataclass(frozen=True)
class PlayRecord:
    game: str
    kind: str  # "play" or "teach"
    started: str  # local time, ISO
    minutes: float
    actions: int
    finished: bool
    reason: str


def _read_archive(path: Path) -> PlayRecord | None:
    import json

    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            header = json.loads(conn.execute("SELECT body FROM header WHERE id = 1").fetchone()[0])
            rows = conn.execute("SELECT kind, body, at FROM records ORDER BY seq").fetchall()
        finally:
            conn.close()
    except (sqlite3.DatabaseError, TypeError, ValueError) as exc:
        log.warning("skipping unreadable archive %s: %s", path, exc)
        return None
    started = float(header.get("started_at", 0.0))
    last = max([started] + [float(at) for _, _, at in rows])
    actions = sum(1 for kind, _, _ in rows if kind == "action")
    ends = [json.loads(body) for kind, body, _ in rows if kind == "end"]
    outcome = ends[-1].get("outcome") if ends else None
    return PlayRecord(
        game=str(header.get("game", "?")), kind="play",
        started=time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(started)),
        minutes=round((last - started) / 60.0, 1), actions=actions, finished=outcome is not None,
        reason=str(outcome.get("reason", "")) if outcome else ("abandoned" if ends else "interrupted"))


def play_records(journal_dir: Path) -> list[PlayRecord]:
    out = []
    for path in sorted((journal_dir / "archive").glob("*.sqlite")):
        rec = _read_archive(path)
        if rec is not None:
            out.append(rec)
    return out


def teach_records(data_dir: Path) -> list[PlayRecord]:
    """Teaching sessions recorded by the teaching player (data_dir/stats/teach.csv), if any."""
    path = data_dir / "stats" / "teach.csv"
    if not path.exists():
        return []
    out = []
    with open(path, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f):
            try:
                out.append(PlayRecord(row["game"], "teach", row["started"], float(row["minutes"]), 0,
                                      row.get("finished", "1") in ("1", "true", "True"), "teach"))
            except (KeyError, ValueError):
                continue
    return out


def export_stats_csv(data_dir: Path, target: Path) -> int:
    """Write every play and teaching session as CSV; returns the number of rows."""
    records = play_records(data_dir / "journal") + teach_records(data_dir)
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target, "w", encoding="utf-8-sig", newline="") as f:  # BOM: Excel opens Korean text right
        writer = csv.DictWriter(f, fieldnames=list(PlayRecord.__dataclass_fields__))
        writer.writeheader()
        for rec in records:
            writer.writerow(asdict(rec))
    return len(records)


def sd_notify(message: str) -> bool:
    """Tell systemd (Type=notify units): READY=1, WATCHDOG=1, STATUS=…; a no-op outside systemd."""
    addr = os.environ.get("NOTIFY_SOCKET")
    if not addr:
        return False
    if addr.startswith("@"):
        addr = "\0" + addr[1:]
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
            sock.connect(addr)
            sock.sendall(message.encode())
        return True
    except OSError as exc:
        log.warning("sd_notify failed: %s", exc)
        return False


def watchdog_interval() -> float | None:
    """Half the unit's WatchdogSec, when systemd asked for pets."""
    usec = os.environ.get("WATCHDOG_USEC")
    if not usec:
        return None
    try:
        return max(0.5, int(usec) / 2_000_000)
    except ValueError:
        return None
