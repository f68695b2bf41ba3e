"""The café's broker as deploy/floor/install.sh configures it (real mosquitto on loopback): logins, the
per-tablet ACL, a staff call and its acknowledgement, and a kiosk restart with messages still unsent."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from floor import topics
from tests.floor.broker import Broker
from tests.floor.helpers import floor_board, tablet, wait_for


def test_a_wrong_password_is_refused_and_a_right_one_connects(broker: Broker, tmp_path: Path) -> None:
    bad = tablet(broker, "t01", tmp_path, password="not-the-password")
    good = tablet(broker, "t02", tmp_path)
    try:
        wait_for(lambda: bad.client.last_error, what="the refusal")
        assert "password" in bad.client.last_error.lower() or "authori" in bad.client.last_error.lower()
        assert not bad.client.connected
        wait_for(lambda: good.client.connected, what="the right password")
        # a call made while refused stays in the outbox (nothing is lost; staff fix the password)
        bad.call("problem")
        assert bad.outbox.pending() >= 1
    finally:
        bad.stop()
        good.stop()


def test_a_tablet_cannot_write_another_tables_topics(broker: Broker, tmp_path: Path) -> None:
    board = floor_board(broker)
    t01 = tablet(broker, "t01", tmp_path)
    try:
        wait_for(lambda: t01.client.connected)
        t01.call("rules")
        wait_for(lambda: "t01" in board.tables and board.tables["t01"].calls, what="t01's call")
        # t01 forges a status and a call for t02, and an ack for itself: the broker refuses all three
        t01.client.publish(topics.status("t02"), {"table": "t02", "calls": [{"id": "x", "reason": "order"}]},
                           retain=True)
        t01.client.publish(topics.event("t02"), {"id": "forged", "kind": "call", "call": {"id": "y"}})
        t01.client.publish(topics.ack("t01"), {"acked": [c["id"] for c in t01.open_calls()]}, retain=True)
        wait_for(lambda: t01.client.refused == 3, what="three refusals")
        assert t01.outbox.pending() == 0  # refused messages are dropped, not retried forever
        assert "t02" not in board.tables
        assert board.tables["t01"].calls and t01.open_calls()
    finally:
        t01.stop()
        board.stop()


def test_a_tablet_cannot_read_another_tables_acks(broker: Broker) -> None:
    got: list[Any] = []
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="spy", protocol=mqtt.MQTTv5)
    c.username_pw_set("t03", broker.passwords["t03"])
    c.on_message = lambda _c, _u, msg: got.append(msg.topic)
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    try:
        c.subscribe([("tablehost/#", 1)])
        board = floor_board(broker)
        board.tables.setdefault("t04", board._table("t04")).calls["c1"] = {"id": "c1"}
        board.ack("t04", "c1")
        board.client.publish(topics.ack("t03"), topics.encode({"acked": []}), qos=1, retain=True)
        wait_for(lambda: topics.ack("t03") in got, what="its own ack")
        assert topics.ack("t04") not in got
        board.stop()
    finally:
        c.loop_stop()
        c.disconnect()


def test_a_call_reaches_the_floor_and_the_ack_reaches_the_tablet(broker: Broker, tmp_path: Path) -> None:
    acks: list[list[dict[str, Any]]] = []
    board = floor_board(broker)
    t05 = tablet(broker, "t05", tmp_path, on_ack=acks.append)
    try:
        call = t05.call("order")
        state = wait_for(lambda: board.tables.get("t05"), what="the table")
        wait_for(lambda: call["id"] in state.calls, what="the call")
        assert state.status["needs_staff"] is True
        assert board.ack("t05", call["id"])
        wait_for(lambda: acks, what="the ack on the tablet")
        assert acks[0][0]["id"] == call["id"]
        assert t05.open_calls() == []
        wait_for(lambda: state.status.get("needs_staff") is False, what="the status after the ack")
        assert state.calls == {}
    finally:
        t05.stop()
        board.stop()


def test_messages_unsent_at_a_kiosk_restart_are_sent_after_it(broker: Broker, tmp_path: Path) -> None:
    """The kiosk is stopped while the broker is down; the call waits in the outbox on disk."""
    board = floor_board(broker)
    broker.stop()
    t06 = tablet(broker, "t06", tmp_path)
    call = t06.call("problem")
    t06.stop()  # the kiosk restarts before the broker is back
    broker.start()
    t06 = tablet(broker, "t06", tmp_path)
    try:
        wait_for(lambda: board.connected, what="the floor reconnecting")
        wait_for(lambda: call["id"] in board.tables.get("t06", board._table("t06")).calls, what="the call")
        assert t06.client.wait_idle()
    finally:
        t06.stop()
        board.stop()
