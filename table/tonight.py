"""What the guests at this table played tonight (since the last turnover), kept on disk beside the journal: a
restart or a power cut during the evening does not make Watson & Holmes offer a case they already solved.

A list left from another evening (no turnover: the tablet was switched off with guests' games on it) is not
tonight's: older than `MAX_AGE_S` since its last game, it is dropped. A missing or damaged file is an empty list
(what was played is a convenience, never a reason to stop).

Written whole by one background writer in call order (its fsync stays off the UI thread, as the journal's and
the phones' passes' do); `load` waits for the writes before it reads. A power cut in the few ms before a write
lands loses only the last game's line."""

from __future__ import annotations

import json
import logging
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from table.settings import write_whole

log = logging.getLogger(__name__)
FILE = "tonight.json"
MAX_AGE_S = 12 * 3600  # an evening
_WRITER = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tonight")  # one thread: call order

Played = list[tuple[str, dict[str, Any]]]


def load(folder: Path, now: float) -> Played:
    """Tonight's games (game id, set-up), oldest first, from `folder` (the journal's)."""
    flush()
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
    """Keep the list (a copy, written by the writer thread); an empty list removes the file."""
    _WRITER.submit(_save, folder, [(game, dict(config)) for game, config in played], now)


def flush() -> None:
    """Wait for the writes asked so far."""
    _WRITER.submit(lambda: None).result()


def _save(folder: Path, played: Played, now: float) -> None:
    """Write the list whole (fsync'd, renamed over the old one). A write that fails is logged: the game goes
    on, only the list is not kept."""
    path = folder / FILE
    try:
        if not played:
            path.unlink(missing_ok=True)
            return
        folder.mkdir(parents=True, exist_ok=True)
        write_whole(path, json.dumps({"last": now, "games": played}, ensure_ascii=False).encode())
    except OSError as exc:
        log.warning("tonight's games not kept: %s", exc)
