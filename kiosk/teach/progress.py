"""Where each table left off, the set-up ticks and the measured teach times (JSON in the data folder)."""

from __future__ import annotations

import json
import logging
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path
from statistics import median
from typing import Any

log = logging.getLogger(__name__)


@dataclass
class GameProgress:
    page: int = 0
    players: int = 0
    modules: list[str] = field(default_factory=list)
    ticks: list[str] = field(default_factory=list)
    started: float = 0.0  # when this teaching run began (0: not running)
    spent: float = 0.0  # seconds on the teaching screen in this run
    quiz: dict[str, int] = field(default_factory=dict)  # question page id → chosen option


class ProgressStore:
    """data_dir/teach/progress.json; writes are atomic (tmp + rename) so a power cut keeps the old file."""

    def __init__(self, data_dir: Path) -> None:
        self.path = data_dir / "teach" / "progress.json"
        self.games: dict[str, GameProgress] = {}
        self.times: dict[str, list[float]] = {}
        self._load()

    def _load(self) -> None:
        try:
            raw = json.loads(self.path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return
        except (OSError, ValueError) as exc:
            log.warning("teaching progress unreadable, starting fresh: %s", exc)
            return
        for game_id, data in raw.get("games", {}).items():
            try:
                self.games[game_id] = GameProgress(**data)
            except TypeError:
                continue
        self.times = {k: [float(x) for x in v] for k, v in raw.get("times", {}).items()}

    def save(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        data: dict[str, Any] = {"games": {k: asdict(v) for k, v in self.games.items()}, "times": self.times}
        tmp = self.path.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(tmp, self.path)

    def get(self, game_id: str) -> GameProgress:
        return self.games.setdefault(game_id, GameProgress())

    def finish(self, game_id: str, now: float, finished: bool = True) -> float | None:
        """The run ended: `finished` when its last page was reached, else skipped ("skip to playing" part way).
        Only a finished run's time counts for the estimate guests see (a skip after two pages is not a teaching
        of one minute); every run, finished or skipped, is one row of data_dir/stats/teach.csv for staff. Starts
        over next time."""
        p = self.get(game_id)
        spent = p.spent + (now - p.started if p.started else 0.0)
        self.games[game_id] = GameProgress()
        recorded = None
        if spent >= 1.0:
            if finished:
                self.times.setdefault(game_id, []).append(round(spent, 1))
                recorded = spent
            self._log(game_id, (p.started or now - spent), spent, finished)
        self.save()
        return recorded

    def _log(self, game_id: str, started: float, spent: float, finished: bool) -> None:
        """One teaching run in data_dir/stats/teach.csv (table.ops.teach_records reads it for staff)."""
        import csv
        import time

        path = self.path.parent.parent / "stats" / "teach.csv"
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            new = not path.exists()
            with open(path, "a", encoding="utf-8", newline="") as f:
                writer = csv.writer(f)
                if new:
                    writer.writerow(["game", "started", "minutes", "finished"])
                writer.writerow([game_id, time.strftime("%Y-%m-%dT%H:%M:%S", time.localtime(started)),
                                 round(spent / 60, 2), 1 if finished else 0])
        except OSError as exc:
            log.warning("teaching not logged for statistics: %s", exc)


def measured_minutes(data_dir: Path, game_id: str) -> int | None:
    """The median teach time of finished teachings (skipped ones never count) in whole minutes (rounded up), or
    None before any table finished one."""
    times = ProgressStore(data_dir).times.get(game_id)
    if not times:
        return None
    return max(1, int(-(-median(times) // 60)))


def teach_minutes(data_dir: Path, game_id: str, overlay: Path | None = None) -> tuple[int, bool] | None:
    """For the library: (minutes, measured?) — the median measured at this café's tables when there is
    one, else the teaching content's own estimate; None when the game has no teaching."""
    measured = measured_minutes(data_dir, game_id)
    if measured is not None:
        return measured, True
    from kiosk.teach.loader import load_teaching

    gt, _ = load_teaching(game_id, overlay)
    if gt is None or not gt.teaching.minutes:
        return None
    return gt.teaching.minutes, False
