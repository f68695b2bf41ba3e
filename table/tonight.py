"""What the guests at this table played tonight (since the last turnover), kept on disk beside the journal: a
restart or a power cut during the evening does not make Watson & Holmes offer a case they already solved.

A list left from another evening (no turnover: the tablet was switched off with guests' games on it) is not
tonight's: older than `MAX_AGE_S` since its last game, it is dropped. A missing or damaged file is an empty list
(what was played is a convenience, never a reason to stop)."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from table.settings import write_whole

log = logging.getLogger(__name__)
FILE = "tonight.json"
MAX_AGE_S = 12 * 3600  # an evening

Played = list[tuple[str, dict[str, Any]]]


def load(folder: Path, now: float) -> Played:
    """Tonight's games (game id, set-up), oldest first, from `folder` (the journal's)."""
    try:
        data = json.loads((folder / FILE).read_text(encoding="utf-8"))
        if now - float(data["last"]) > MAX_AGE_S:
            return []
        return [(str(game), dict(config)) for game, config in data["games"]]
    except FileNotFoundError:
        return []
    except (OSError, ValueError, TypeError, KeyError) as exc:
        log.warning("tonight's games unreadable, starting an empty list: %s", exc)
        return []


def save(folder: Path, played: Played, now: float) -> None:
    """Write the list whole (fsync'd, renamed over the old one); an empty list removes the file. A write that
    fails is logged: the game goes on, only the list is not kept."""
    path = folder / FILE
    try:
        if not played:
            path.unlink(missing_ok=True)
            return
        folder.mkdir(parents=True, exist_ok=True)
        write_whole(path, json.dumps({"last": now, "games": played}, ensure_ascii=False).encode())
    except OSError as exc:
        log.warning("tonight's games not kept: %s", exc)
