"""Thirty headless kiosk tables (table.session, no Kivy) play scripted games and publish to the real broker;
mid-run the broker is killed (SIGKILL) and restarted, one tablet's Wi-Fi resets and another's goes silently
dead for a while. At the end no staff call is lost, every status on the floor matches its table, and the
acknowledgements reach every tablet."""

from __future__ import annotations

from pathlib import Path

import pytest

from floor.report import REASONS
from tests.floor.broker import Broker
from tests.floor.helpers import floor_board, wait_for
from tests.floor.proxy import Link
from tests.floor.tables import HeadlessTable

pytestmark = pytest.mark.slow
TABLES = 30
ROUNDS = 36


def test_thirty_tables_through_a_broker_kill_and_a_wifi_cut(broker: Broker, tmp_path: Path) -> None:
    board = floor_board(broker)
    reset_link, dead_link = Link(broker.port), Link(broker.port)
    tables: list[HeadlessTable] = []
    try:
        for i in range(TABLES):
            table = f"t{i + 1:02d}"
            port = reset_link.port if i == 6 else dead_link.port if i == 7 else broker.port
            tables.append(HeadlessTable(table, i, tmp_path / "tablets" / table, "127.0.0.1", port, broker.passwords[table],
                                        keepalive=2))
        wait_for(lambda: all(t.floor.client.connected for t in tables), what="every tablet connected")
        for rnd in range(ROUNDS):
            if rnd == 8:
                reset_link.cut()
                dead_link.cut(silent=True)
            if rnd == 12:
                broker.kill()
            if rnd == 16:
                broker.start()
            if rnd == 24:
                reset_link.restore()
                dead_link.restore()
            for i, t in enumerate(tables):
                t.step()
                if (rnd + i) % 9 == 0:
                    t.call(REASONS[(rnd + i) % len(REASONS)])
        calls = {t.table: set(t.calls) for t in tables}
        assert sum(len(c) for c in calls.values()) >= 100
        # no call lost: every one is open on the floor
        wait_for(lambda: all(t.floor.outbox.pending() == 0 for t in tables), timeout=60, what="every outbox empty")
        wait_for(lambda: all(calls[t] <= set(board.tables.get(t, board._table(t)).calls) for t in calls), timeout=30,
                 what="every call on the floor")
        # every status caught up with its table
        for t in tables:
            floor_status = board.tables[t.table].status
            assert floor_status == t.floor.reporter._last_status, t.table
            assert board.tables[t.table].online
        assert any(t.games_played for t in tables)
        # staff acknowledge every call from the floor; every tablet hears it
        for t in tables:
            assert board.ack(t.table)
        wait_for(lambda: all(not t.floor.open_calls() for t in tables), timeout=30, what="every ack on its tablet")
        wait_for(lambda: all(not board.tables[t.table].status["needs_staff"] for t in tables), timeout=30,
                 what="statuses after the acks")
        events = board.events_seen
        assert events > TABLES  # game starts, ends and calls arrived (the ones during the kill may be lost)
    finally:
        for t in tables:
            t.stop()
        board.stop()
        reset_link.close()
        dead_link.close()
