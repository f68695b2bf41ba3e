"""The floor's side of the broker: every table's latest status, its open staff calls, and the events, kept
from the MQTT messages (user `floor`). Acknowledging a call publishes the table's retained ack, which the
tablet shows. Kivy-free; the floor page (`server`) draws from `snapshot()` and is told of changes.

Time at the table is counted from when the status arrived on this box (tablet clocks may be off)."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from kiosk.floor import topics

log = logging.getLogger(__name__)
ACK_KEEP = 50  # call ids kept in a table's retained ack


@dataclass
class TableState:
    table: str
    status: dict[str, Any] = field(default_factory=dict)
    received: float = 0.0  # when the status arrived (this box's clock)
    online: bool = False
    calls: dict[str, dict[str, Any]] = field(default_factory=dict)  # open calls by id
    acked: list[str] = field(default_factory=list)
    seen: dict[str, float] = field(default_factory=dict)  # when this box first heard of each open call
    content: dict[str, Any] = field(default_factory=dict)  # the table's content report

    def to_view(self, now: float) -> dict[str, Any]:
        s = self.status
        late = now - self.received if self.received else 0.0
        seated = s.get("seated_s")
        played = s.get("game_s")
        return {"table": self.table, "online": self.online, "game": s.get("game"), "phase": s.get("phase", ""),
                "players": s.get("players", 0),
                "seated_s": None if seated is None else round(seated + late),
                "game_s": None if played is None else round(played + late),
                "calls": [{**c, "waiting_s": round(now - self.seen.get(c["id"], now))}
                          for c in sorted(self.calls.values(), key=lambda c: c.get("at", 0))],
                "content": self.content,
                "status_age_s": round(late) if self.received else None}


class FloorBoard:
    """`on_change(table)` and `on_event(event)` run on paho's network thread."""

    def __init__(self, host: str, port: int, password: str, user: str = topics.FLOOR_USER,
                 on_change: Callable[[str], None] | None = None,
                 on_event: Callable[[dict[str, Any]], None] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        self.host, self.port = host, port
        self.on_change = on_change
        self.on_event = on_event
        self.clock = clock
        self.tables: dict[str, TableState] = {}
        self.manifest: dict[str, Any] | None = None
        self.connected = False
        self.last_error = ""
        self.events_seen = 0
        self.on_connected: list[Callable[[], None]] = []  # run on the network thread after each (re)connection
        self._seen: dict[str, None] = {}  # event ids already handled (QoS 1 may deliver twice)
        self._lock = threading.RLock()
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"tablehost-{user}", protocol=mqtt.MQTTv5)
        c.username_pw_set(user, password)
        c.reconnect_delay_set(min_delay=1, max_delay=4)
        c.max_inflight_messages_set(100)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        self.client = c

    def start(self) -> None:
        props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        props.SessionExpiryInterval = 24 * 3600  # events queued for us while this page restarts
        self.client.connect_async(self.host, self.port, keepalive=10, clean_start=False, properties=props)
        self.client.loop_start()

    def stop(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()

    def wait_connected(self, timeout: float = 10.0) -> bool:
        end = time.monotonic() + timeout
        while time.monotonic() < end and not self.connected:
            time.sleep(0.02)
        return self.connected

    # ------------------------------------------------------------ MQTT callbacks (network thread)
    def _on_connect(self, client: mqtt.Client, _u: Any, _f: Any, rc: Any, _p: Any) -> None:
        if rc.is_failure:
            self.connected, self.last_error = False, str(rc)
            log.error("floor: the broker refused us: %s", rc)
            return
        self.connected, self.last_error = True, ""
        client.subscribe([(topics.TABLES_ALL, 1), (topics.ack("+"), 1), (topics.MANIFEST, 1)])
        for hook in list(self.on_connected):
            try:
                hook()
            except Exception:
                log.exception("floor: on_connected hook failed")

    def _on_disconnect(self, _c: Any, _u: Any, _f: Any, rc: Any, _p: Any) -> None:
        self.connected = False

    def _on_message(self, _c: Any, _u: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            self.handle(msg.topic, bytes(msg.payload))
        except Exception:
            log.exception("floor: message on %s not handled", msg.topic)

    # ------------------------------------------------------------ messages
    def handle(self, topic: str, payload: bytes) -> None:
        data = topics.decode(payload)
        if topic == topics.MANIFEST:
            self.manifest = data if isinstance(data, dict) else None
            return
        parts = topic.split("/")
        if len(parts) == 4 and parts[1] == "floor" and parts[3] == "ack" and isinstance(data, dict):
            with self._lock:  # our own retained acks: after a restart, what was acknowledged stays so
                state = self._table(parts[2])
                acked = [str(i) for i in data.get("acked", [])]
                state.acked = list(dict.fromkeys(state.acked + acked))[-ACK_KEEP:]
                for i in acked:
                    state.calls.pop(i, None)
            self._changed(parts[2])
            return
        parsed = topics.parse_table_topic(topic)
        if parsed is None or not isinstance(data, dict):
            return
        table, kind = parsed
        with self._lock:
            state = self._table(table)
            if kind == "status":
                state.status, state.received, state.online = data, self.clock(), True
                calls = [c for c in data.get("calls", []) if isinstance(c, dict) and "id" in c]
                state.calls = {c["id"]: c for c in calls if c["id"] not in state.acked}
                for call_id in state.calls:
                    state.seen.setdefault(call_id, self.clock())
            elif kind == "online":
                state.online = bool(data.get("online"))
            elif kind == "content":
                state.content = data
            elif kind == "event":
                if not self._first_time(str(data.get("id", ""))):
                    return
                self.events_seen += 1
                call = data.get("call")
                if data.get("kind") == "call" and isinstance(call, dict) and call.get("id") not in state.acked:
                    state.calls[str(call["id"])] = call
                    state.seen.setdefault(str(call["id"]), self.clock())
            else:
                return
        if kind == "event" and self.on_event is not None:
            self.on_event(data)
        self._changed(table)

    def _first_time(self, event_id: str) -> bool:
        if not event_id or event_id in self._seen:
            return False
        self._seen[event_id] = None
        if len(self._seen) > 20000:
            for old in list(self._seen)[:10000]:
                del self._seen[old]
        return True

    def _table(self, table: str) -> TableState:
        if table not in self.tables:
            self.tables[table] = TableState(table)
        return self.tables[table]

    def _changed(self, table: str) -> None:
        if self.on_change is not None:
            self.on_change(table)

    # ------------------------------------------------------------ staff actions (any thread)
    def ack(self, table: str, call_id: str | None = None) -> bool:
        """Acknowledge one call (or all of the table's): the tablet shows it; the sound stops."""
        with self._lock:
            state = self.tables.get(table)
            if state is None:
                return False
            ids = [call_id] if call_id else list(state.calls)
            ids = [i for i in ids if i in state.calls]
            if not ids:
                return False
            for i in ids:
                state.calls.pop(i, None)
            state.acked = list(dict.fromkeys(state.acked + ids))[-ACK_KEEP:]
            payload = {"acked": state.acked, "at": round(self.clock(), 3)}
        self.client.publish(topics.ack(table), topics.encode(payload), qos=1, retain=True)
        self._changed(table)
        return True

    def snapshot(self) -> list[dict[str, Any]]:
        now = self.clock()
        with self._lock:
            return [self.tables[t].to_view(now) for t in sorted(self.tables)]
