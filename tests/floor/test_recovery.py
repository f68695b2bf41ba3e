"""The floor recovers by itself (#39.1, #39.2), real broker: an acknowledgement lost with the broker (killed
within its autosave window) is published again until the tablet's status stops listing the call, and a floor
restarted meanwhile does not ring it again; a tablet that died while the broker was down goes offline by the
age of its status; an event the floor could not store is not acknowledged to the broker and comes again;
the tablet's outbox is bounded and expiring, with its drops counted. The open page across a restart of the
floor service: tests/floor/test_floor_page.py."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from floor.board import FloorBoard
from floor.outbox import Outbox
from floor.store import FloorStore
from tests.floor.broker import Broker
from tests.floor.helpers import floor_board, tablet, wait_for
from tests.floor.proxy import Link


def test_an_ack_lost_with_the_broker_comes_again_and_a_restarted_floor_does_not_ring(
        broker: Broker, tmp_path: Path) -> None:
    acks_path = tmp_path / "floorbox/acks.json"
    board = floor_board(broker, acks_path=acks_path)
    link = Link(broker.port)
    acked: list[Any] = []
    t01 = tablet(broker, "t01", tmp_path, port=link.port, on_ack=acked.append, keepalive=2)
    board2: FloorBoard | None = None
    try:
        call = t01.call("rules")
        wait_for(lambda: call["id"] in board.tables.get("t01", board._table("t01")).calls, what="the call")
        link.cut()  # the tablet's Wi-Fi drops …
        wait_for(lambda: not t01.client.connected, what="the tablet offline")
        assert board.ack("t01", call["id"])  # … staff acknowledge the call meanwhile …
        time.sleep(0.3)
        broker.kill()  # … and the broker dies before its autosave: the retained ack is gone
        board.stop()  # the floor restarts too
        broker.start()
        rung: set[str] = set()
        board2 = FloorBoard("127.0.0.1", broker.port, broker.passwords["floor"], acks_path=acks_path)
        board2.on_change = lambda t: rung.update(board2.tables[t].calls) if board2 else None
        board2.start()
        assert board2.wait_connected()
        link.restore()
        wait_for(lambda: acked, timeout=30, what="the ack on the tablet")  # the old floor: never
        assert acked[0][0]["id"] == call["id"] and t01.open_calls() == []
        wait_for(lambda: board2.tables["t01"].status.get("needs_staff") is False, what="the tablet's confirmation")
        assert call["id"] not in rung  # the restarted floor never rang it again
    finally:
        t01.stop()
        link.close()
        if board2 is not None:
            board2.stop()


def test_a_tablet_that_died_while_the_broker_was_down_goes_offline(broker: Broker, tmp_path: Path) -> None:
    board = floor_board(broker)
    board.stale_s = 3.0
    t02 = tablet(broker, "t02", tmp_path)
    try:
        t02.seated()
        wait_for(lambda: board.tables.get("t02") and board.snapshot()[0]["online"], what="t02 online")
        since = time.time()  # the broker's autosave (every 10 s) keeps the retained online flag and the status …
        saved = broker.folder / "data" / "mosquitto.db"
        wait_for(lambda: saved.exists() and saved.stat().st_mtime > since, timeout=30, what="the broker's autosave")
        broker.kill()  # … the broker dies …
        t02.client._client.loop_stop()  # … and the tablet dies while it is down: no will is ever sent
        broker.start()
        wait_for(lambda: board.connected, what="the floor back")
        time.sleep(0.5)
        view = next(v for v in board.snapshot() if v["table"] == "t02")
        assert view["game"] is None
        wait_for(lambda: not next(v for v in board.snapshot() if v["table"] == "t02")["online"], timeout=10,
                 what="t02 offline by the age of its status")  # the old floor: online for good
        assert board.tables["t02"].online  # the retained flag still says online: the age decided
    finally:
        t02.stop()
        board.stop()


def test_an_event_the_floor_could_not_store_is_delivered_again(broker: Broker, tmp_path: Path) -> None:
    store = FloorStore(tmp_path / "events.sqlite")
    failures = [1]

    def keep(event: dict[str, Any]) -> None:
        if failures[0]:
            failures[0] -= 1
            raise OSError("disk full")
        store.add(event)

    board = floor_board(broker, on_event=keep)
    t03 = tablet(broker, "t03", tmp_path)
    try:
        t03.note_voice("clue", 2)
        wait_for(lambda: failures[0] == 0, what="the failed store")
        assert t03.client.wait_idle()
        assert store.count() == 0
        # never acknowledged, the message stays in the floor's session; the floor reconnects for it
        wait_for(lambda: store.count() == 1, timeout=20, what="the event delivered again")  # the old floor: lost
        t03.note_voice("clue", 1)
        wait_for(lambda: store.count() == 2, what="the next event as usual")
    finally:
        t03.stop()
        board.stop()
        store.close()


def test_the_outbox_is_bounded_and_expires_counting_what_it_drops(tmp_path: Path) -> None:
    now = [1000.0]
    box = Outbox(tmp_path / "outbox.sqlite", max_rows=10, max_age_s=3600, clock=lambda: now[0])
    try:
        box.put("s", b"status", retain=True, key="status")
        for i in range(15):
            box.put("e", str(i).encode())
        assert box.pending() == 10 and box.dropped() == 6
        assert [m.payload for m in box.take(100)][:2] == [b"status", b"6"]  # the oldest events went first
        box.release()
        now[0] += 3601
        box.put("e", b"late")
        assert [m.payload for m in box.take(100)] == [b"status", b"late"]  # the status never expires
        assert box.dropped() == 15
    finally:
        box.close()
    again = Outbox(tmp_path / "outbox.sqlite", max_rows=10)
    try:
        assert again.dropped() == 15  # counted on disk
    finally:
        again.close()


def test_what_a_tablets_outbox_dropped_shows_on_the_floor(broker: Broker, tmp_path: Path) -> None:
    board = floor_board(broker)
    broker.stop()
    t04 = tablet(broker, "t04", tmp_path)
    try:
        t04.outbox.max_rows = 3  # a tablet cut off for long: its oldest events go
        for _ in range(8):
            t04.note_voice("clue", 1)
        t04.heartbeat()
        broker.start()
        wait_for(lambda: [v for v in board.snapshot() if v["table"] == "t04" and v["dropped"] >= 5], timeout=30,
                 what="the drops on the floor")
        assert t04.outbox.dropped() >= 5
    finally:
        t04.stop()
        board.stop()


def test_a_floor_restarted_after_a_tablet_left_shows_it_offline(broker: Broker, tmp_path: Path) -> None:
    """The old floor let each status set online: after its restart the retained offline mark came first, then
    the retained status, and every tablet showed online."""
    t05 = tablet(broker, "t05", tmp_path)
    t05.seated()
    assert t05.client.wait_idle()
    t05.stop()  # leaves cleanly: retained online false, the status stays retained
    board = floor_board(broker)
    try:
        wait_for(lambda: board.tables.get("t05") and board.tables["t05"].status, what="t05's retained status")
        time.sleep(0.5)
        assert [v["online"] for v in board.snapshot() if v["table"] == "t05"] == [False]
    finally:
        board.stop()


@pytest.mark.slow
def test_events_queued_while_the_floor_is_down_are_all_kept(broker: Broker, tmp_path: Path) -> None:
    """#39.2: with the floor page down, the old config's queue (5000 messages) dropped the excess for good."""
    import uuid

    from tests.floor.test_hardening import Raw

    store = FloorStore(tmp_path / "events.sqlite")
    board = floor_board(broker, on_event=store.add)
    board.stop()  # its session (24 h) keeps collecting what the tables send
    senders = [Raw(broker, f"t{i + 1:02d}") for i in range(15)]
    try:
        for n, raw in enumerate(senders):
            for _ in range(400):
                raw.send(f"tablehost/table/t{n + 1:02d}/event",
                         {"id": uuid.uuid4().hex, "kind": "voice", "table": f"t{n + 1:02d}",
                          "at": round(time.time(), 3), "game": "clue", "commands": 1})
        wait_for(lambda: all(r.acked == 400 for r in senders), timeout=60, what="6000 events at the broker")
        board = floor_board(broker, on_event=store.add)
        wait_for(lambda: store.count() == 6000, timeout=120, what="every queued event stored")
        assert board.dropped == {}
    finally:
        for raw in senders:
            raw.close()
        board.stop()
        store.close()
