"""Running the floor page: the board (MQTT, user `floor`), the event store and the web page, configured from
the environment that deploy/floor/install.sh writes (/etc/tablehost/floor.env) or the command line."""

from __future__ import annotations

import logging
import os
import signal
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kiosk.floor.board import FloorBoard
from kiosk.floor.content_floor import FloorContent, install
from kiosk.floor.server import FloorServer
from kiosk.floor.store import FloorStore
from kiosk.pin import hash_pin

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FloorSetup:
    broker: str = "127.0.0.1"
    broker_port: int = 1883
    password: str = ""
    listen: str = "127.0.0.1"
    web_port: int = 8080
    pin: str = "0000"
    data_dir: Path = Path(".")

    @classmethod
    def from_env(cls, data_dir: Path) -> FloorSetup:
        env = os.environ
        host, _, port = env.get("TABLEHOST_FLOOR_WEB", "127.0.0.1:8080").rpartition(":")
        return cls(broker=env.get("TABLEHOST_FLOOR_BROKER", "127.0.0.1"),
                   broker_port=int(env.get("TABLEHOST_FLOOR_PORT", "1883")),
                   password=env.get("TABLEHOST_FLOOR_PASSWORD", ""), listen=host or "127.0.0.1",
                   web_port=int(port or 8080), pin=env.get("TABLEHOST_FLOOR_PIN", "0000"), data_dir=data_dir)


def page_strings(library: Any = None) -> dict[str, Any]:
    """The page's texts from the i18n catalogs (floor.page.*, reasons, phases) and the games' names."""
    from kiosk.i18n import LANGS, load_catalog

    out: dict[str, Any] = {}
    for lang in LANGS:
        catalog = load_catalog(lang)
        texts: dict[str, str] = {}
        for key, value in catalog.items():
            for prefix, short in (("floor.page.", ""), ("floor.reason.", "reason."), ("floor.phase.", "phase.")):
                if key.startswith(prefix):
                    texts[short + key[len(prefix):]] = value
        out[lang] = texts
    games: dict[str, dict[str, str]] = {}
    if library is not None:
        for gid, game in library.games.items():
            games[gid] = {lang: game.info.name.get(lang) for lang in LANGS}
    out["games"] = games
    return out


class Floor:
    """Board + store + page, started and stopped together."""

    def __init__(self, setup: FloorSetup, library: Any = None) -> None:
        if library is None:
            from content.loader import load_library

            library = load_library(overlay=setup.data_dir / "content")
        self.setup = setup
        self.library = library
        self.store = FloorStore(setup.data_dir / "floor" / "events.sqlite")
        self.board = FloorBoard(setup.broker, setup.broker_port, setup.password, on_event=self._event)
        self.server = FloorServer(self.board, self.store, hash_pin(setup.pin), page_strings(library),
                                  host=setup.listen, port=setup.web_port)
        self.content = FloorContent(setup.data_dir / "floor" / "content", self.board)
        install(self.server, self.content)

    def _event(self, event: dict[str, Any]) -> None:
        try:
            self.store.add(event)
        except Exception:
            log.exception("floor event not stored")

    def start(self) -> None:
        self.board.start()
        self.server.start()

    def stop(self) -> None:
        self.server.stop()
        self.board.stop()
        self.store.close()


def run(setup: FloorSetup) -> int:
    floor = Floor(setup)
    floor.start()
    log.warning("floor page on %s (broker %s:%d)", floor.server.url, setup.broker, setup.broker_port)
    print(f"TableHost floor page: {floor.server.url}", flush=True)
    done = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda _s, _f: done.set())
    done.wait()
    floor.stop()
    return 0
