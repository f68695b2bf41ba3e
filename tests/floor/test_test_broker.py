"""The floor tests' own broker (tests/floor/broker.py) starts on a port of its own even when another test's broker
took the port it found free (the other xdist worker's): before, its check reached the other broker and the test
failed with "Not authorized" (1 full run in about 10)."""

from __future__ import annotations

from pathlib import Path

from tests.floor.broker import Broker
from tests.floor.helpers import floor_board


def test_a_broker_whose_port_was_taken_moves_to_another(broker: Broker, tmp_path: Path) -> None:
    """Started on a port another broker listens on, it moves to a free one, and the floor logs in with its passwords."""
    late = Broker(tmp_path / "late", tables=2, port=broker.port)  # the port another broker already listens on
    try:
        late.start()
        assert late.port != broker.port and late.proc is not None and late.proc.poll() is None
        assert f"TABLEHOST_FLOOR_PORT={late.port}\n" in (late.root / "etc/tablehost/floor.env").read_text()
        board = floor_board(late)  # its own passwords are taken: it is ours that answers
        board.stop()
    finally:
        late.stop()
