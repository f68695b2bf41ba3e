"""A tablet on the floor: the outbox, the MQTT client and the reporter wired together, Kivy-free (the kiosk's
`ui` module and the headless tests both use it). Everything it keeps lives in `<data>/floor/`."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from floor import topics
from floor.client import FloorClient, FloorConfig
from floor.outbox import Outbox
from floor.report import TableReporter
from floor.sync import ContentSync

log = logging.getLogger(__name__)


class TableFloor:
    """`on_ack(calls)` runs on the client's worker thread."""

    def __init__(self, config: FloorConfig, data_dir: Path, clock: Callable[[], float] = time.time,
                 on_ack: Callable[[list[dict[str, Any]]], None] | None = None, keepalive: int = 10) -> None:
        folder = data_dir / "floor"
        self.config = config
        self.lock = threading.RLock()
        self.on_ack = on_ack
        self.outbox = Outbox(folder / "outbox.sqlite")
        self.client = FloorClient(config, self.outbox, on_message=self._message, keepalive=keepalive)
        self.reporter = TableReporter(config.table, self.client.publish, folder / "table.json", clock)
        self.reporter.dropped = self.outbox.dropped  # shown on the floor page
        self.client.on_connected.append(self._reassert)
        self.sync = ContentSync(data_dir, config.table, self.client.publish, self.client.subscribe,
                                self.client.unsubscribe, lambda: self.reporter.content, self._set_content)

    def start(self) -> None:
        self.client.start()

    def stop(self) -> None:
        self.client.stop()
        self.outbox.close()

    # ------------------------------------------------------------ from the kiosk (any thread)
    def observe(self, session: Any) -> None:
        with self.lock:
            self.reporter.observe(session)

    def call(self, reason: str) -> dict[str, Any]:
        with self.lock:
            return self.reporter.call(reason)

    def seated(self) -> None:
        with self.lock:
            self.reporter.seated()

    def left(self) -> None:
        with self.lock:
            self.reporter.left()

    def note_teach(self, game: str, minutes: float) -> None:
        with self.lock:
            self.reporter.note_teach(game, minutes)

    def note_voice(self, game: str, commands: int) -> None:
        with self.lock:
            self.reporter.note_voice(game, commands)

    def note_staff(self) -> None:
        with self.lock:
            self.reporter.note_staff()

    def heartbeat(self) -> None:
        """Re-send the status (durations move on even when nothing else changes)."""
        with self.lock:
            self.reporter.send_status(force=True)

    def open_calls(self) -> list[dict[str, Any]]:
        with self.lock:
            return list(self.reporter.calls)

    # ------------------------------------------------------------ from the broker (worker thread)
    def _reassert(self) -> None:
        self.heartbeat()

    def _message(self, topic: str, payload: bytes) -> None:
        data = topics.decode(payload) if not topic.startswith(topics.blob("")) else None
        if topic == topics.ack(self.config.table):
            with self.lock:
                closed = self.reporter.handle_ack(data)
            if closed and self.on_ack is not None:
                self.on_ack(closed)
        elif topic == topics.MANIFEST:
            self.sync.on_manifest(data, len(payload))
        elif topic.startswith(topics.blob("")):
            self.sync.on_blob(topic, payload)

    # ------------------------------------------------------------ café content from the floor
    def _set_content(self, digest: str) -> None:
        with self.lock:
            self.reporter.set_content(digest)

    def content_waiting(self) -> bool:
        return self.sync.pending is not None

    def apply_content(self) -> bool:
        """At a turnover: put validated floor content in place; True when the library must be reloaded."""
        return self.sync.apply()
