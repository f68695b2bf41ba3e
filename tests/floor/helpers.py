"""Floor test helpers: tablets (TableFloor) and the floor (FloorBoard) against the test broker, and waiting."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from floor.board import FloorBoard
from floor.client import FloorConfig
from floor.table import TableFloor
from tests.floor.broker import Broker


def wait_for(check: Callable[[], Any], timeout: float = 15.0, what: str = "") -> Any:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = check()
        if value:
            return value
        time.sleep(0.03)
    raise AssertionError(f"timed out waiting for {what or check}")


def tablet(broker: Broker, table: str, data: Path, password: str | None = None, port: int | None = None,
           **kw: Any) -> TableFloor:
    config = FloorConfig("127.0.0.1", port or broker.port, table,
                         broker.passwords[table] if password is None else password)
    floor = TableFloor(config, data / table, **kw)
    floor.start()
    return floor


def floor_board(broker: Broker, **kw: Any) -> FloorBoard:
    board = FloorBoard("127.0.0.1", broker.port, broker.passwords["floor"], **kw)
    board.start()
    assert board.wait_connected(), board.last_error
    return board
