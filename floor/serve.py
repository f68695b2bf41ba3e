"""Running the floor page: the board (MQTT, user `floor`), the event store and the web page, configured from
the environment that deploy/floor/install.sh writes (/etc/tablehost/floor.env) or the command line."""

from __future__ import annotations

import logging
import os
import signal
import sys
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from floor.board import FloorBoard
from floor.content_floor import FloorContent, install
from floor.server import FloorServer
from floor.store import FloorStore
from table.pin import hash_pin, valid_new_pin

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class FloorSetup:
    broker: str = "127.0.0.1"
    broker_port: int = 1883
    password: str = ""
    listen: str = "127.0.0.1"
    web_port: int = 8080
    pin: str = ""  # no default: the staff choose one (install.sh --pin); the page refuses to start without
    data_dir: Path = Path(".")
    chain: bool = False  # a head office: every branch's tables too (deploy/floor/bridge.conf)

    @classmethod
    def from_env(cls, data_dir: Path) -> FloorSetup:
        env = os.environ
        host, _, port = env.get("TABLEHOST_FLOOR_WEB", "127.0.0.1:8080").rpartition(":")
        return cls(broker=env.get("TABLEHOST_FLOOR_BROKER", "127.0.0.1"),
                   broker_port=int(env.get("TABLEHOST_FLOOR_PORT", "1883")),
                   password=env.get("TABLEHOST_FLOOR_PASSWORD", ""), listen=host or "127.0.0.1",
                   web_port=int(port or 8080), pin=env.get("TABLEHOST_FLOOR_PIN", ""), data_dir=data_dir,
                   chain=env.get("TABLEHOST_FLOOR_CHAIN", "") == "1")


def read_env(path: Path, required: bool = False) -> str:
    """Put the KEY=VALUE lines of install.sh's floor.env into the environment (what is already set wins);
    a problem to tell, or "" (a missing default file is no problem: the environment may hold everything)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return f"{path} does not exist" if required else ""
    except PermissionError:
        return f"{path} is readable by root only: run with sudo (or pass --env FILE)"
    except OSError as exc:
        return f"{path}: {exc}"
    for line in text.splitlines():
        key, sep, value = line.strip().partition("=")
        if sep and key.startswith("TABLEHOST_FLOOR_"):
            os.environ.setdefault(key, value)
    return ""


def page_strings(library: Any = None) -> dict[str, Any]:
    """The page's texts from the i18n catalogs (floor.page.*, reasons, phases) and the games' names."""
    from content.i18n_catalog import LANGS, load_catalog

    out: dict[str, Any] = {}
    for lang in LANGS:
        catalog = load_catalog(lang)
        texts: dict[str, str] = {}
        for key, value in catalog.items():
            for prefix, short in (("floor.page.", ""), ("floor.reason.", "reason."), ("floor.phase.", "phase."),
                                  ("floor.csv.", "csv.")):
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
        problem = setup_problem(setup)
        if problem:
            raise SetupError(problem)
        if library is None:
            from content.loader import load_library

            library = load_library(overlay=setup.data_dir / "content")
        self.setup = setup
        self.library = library
        self.store = FloorStore(setup.data_dir / "floor" / "events.sqlite")
        folder = setup.data_dir / "floor"
        self.board = FloorBoard(setup.broker, setup.broker_port, setup.password, on_event=self._event,
                                acks_path=folder / "acks.json", chain=setup.chain)
        self.server = FloorServer(self.board, self.store, hash_pin(setup.pin), page_strings(library),
                                  host=setup.listen, port=setup.web_port, sessions_path=folder / "sessions.json")
        self.board.on_staff = lambda _table: self.server.unlock()
        self.content = FloorContent(setup.data_dir / "floor" / "content", self.board)
        install(self.server, self.content)

    def _event(self, event: dict[str, Any]) -> None:
        self.store.add(event)  # raising, the message is not acknowledged: the broker delivers it again

    def start(self) -> None:
        self.board.start()
        self.server.start()

    def stop(self) -> None:
        self.server.stop()
        self.board.stop()
        self.store.close()


class SetupError(ValueError):
    """The floor cannot start as configured; the message says what to set, and where."""


def setup_problem(setup: FloorSetup) -> str:
    if not setup.password:
        return ("no broker password for the floor: set TABLEHOST_FLOOR_PASSWORD (deploy/floor/install.sh writes it "
                "to /etc/tablehost/floor.env; run as root, or pass --env FILE)")
    if not valid_new_pin(setup.pin):
        return ("no floor PIN (4-8 digits): set TABLEHOST_FLOOR_PIN in /etc/tablehost/floor.env "
                "(deploy/floor/install.sh --pin 4321); there is no default PIN")
    return ""


def run(setup: FloorSetup, first_connection_s: float = 10.0) -> int:
    try:
        floor = Floor(setup)
    except SetupError as exc:
        print(f"tablehost floor: {exc}", file=sys.stderr)
        return 2
    floor.start()
    if not floor.board.wait_connected(first_connection_s) and floor.board.refused:
        print(f"tablehost floor: the broker {setup.broker}:{setup.broker_port} refused the floor's login "
              f"({floor.board.last_error}): check TABLEHOST_FLOOR_PASSWORD against the broker's password file",
              file=sys.stderr)
        floor.stop()
        return 1
    if not floor.board.connected:
        log.warning("floor: broker %s:%d not reachable yet; still trying", setup.broker, setup.broker_port)
    log.warning("floor page on %s (broker %s:%d)", floor.server.url, setup.broker, setup.broker_port)
    print(f"TableHost floor page: {floor.server.url}", flush=True)
    done = threading.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        signal.signal(sig, lambda _s, _f: done.set())
    done.wait()
    floor.stop()
    return 0
