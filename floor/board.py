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
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties

from floor import schema, topics

log = logging.getLogger(__name__)
ACK_KEEP = 50  # call ids kept in a table's retained ack
RETRY_S = 5.0  # after a message could not be handled (an event not stored), reconnect to have it again
STALE_S = 200.0  # a tablet re-sends its status every 60 s (ui.HEARTBEAT): one silent this long is offline
RATE = 5.0  # messages a second one tablet may send on average …
BURST = 500.0  # … after a burst of this many (a reconnection re-sends its backlog); beyond: dropped, counted


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

    tokens: float = BURST  # the rate quota's bucket
    refilled: float = 0.0

    def live(self, now: float, stale_s: float = STALE_S) -> bool:
        """Online by its last will (the retained online flag) and by the age of its status."""
        return self.online and bool(self.received) and now - self.received < stale_s

    def within_rate(self, now: float) -> bool:
        self.tokens = min(BURST, self.tokens + (now - self.refilled) * RATE) if self.refilled else self.tokens
        self.refilled = now
        if self.tokens < 1.0:
            return False
        self.tokens -= 1.0
        return True

    def to_view(self, now: float, stale_s: float = STALE_S) -> dict[str, Any]:
        s = self.status
        late = now - self.received if self.received else 0.0
        seated = s.get("seated_s")
        played = s.get("game_s")
        return {"table": self.table, "online": self.live(now, stale_s), "game": s.get("game"), "phase": s.get("phase", ""),
                "players": s.get("players", 0),
                "seated_s": None if seated is None else round(seated + late),
                "game_s": None if played is None else round(played + late),
                "calls": [{**c, "waiting_s": round(now - self.seen.get(c["id"], now))}
                          for c in sorted(self.calls.values(), key=lambda c: c.get("at", 0))],
                "content": self.content, "dropped": s.get("dropped", 0),
                "status_age_s": round(late) if self.received else None}


class FloorBoard:
    """`on_change(table)` and `on_event(event)` run on paho's network thread."""

    def __init__(self, host: str, port: int, password: str, user: str = topics.FLOOR_USER,
                 on_change: Callable[[str], None] | None = None,
                 on_event: Callable[[dict[str, Any]], None] | None = None,
                 clock: Callable[[], float] = time.time, acks_path: Path | None = None, chain: bool = False) -> None:
        self.host, self.port = host, port
        self.chain = chain  # a head office: also every branch's tables, keyed "<branch>/<table>"
        self.on_change = on_change
        self.on_event = on_event  # must keep the event durably: the broker's PUBACK waits for it
        self.clock = clock
        self.tables: dict[str, TableState] = {}
        self.manifest: dict[str, Any] | None = None
        self.connected = False
        self.last_error = ""
        self.refused = False  # the broker refused our login (not a network problem)
        self.stale_s = STALE_S
        self.events_seen = 0
        self.dropped: dict[str, int] = {}  # payloads refused, by why ("status", "event", "rate", "size" …)
        self.on_connected: list[Callable[[], object]] = []  # run on the network thread after each (re)connection
        self.on_staff: Callable[[str], None] | None = None  # staff entered their PIN on this table's tablet
        self._seen: dict[str, None] = {}  # event ids already handled (QoS 1 may deliver twice)
        self._lock = threading.RLock()
        self._retry: threading.Timer | None = None
        self._stopped = False
        self.acks_path = acks_path
        for table, acked in _load_acks(acks_path).items():
            self._table(table).acked = acked
        # manual acks: a message is acknowledged to the broker only once handled (an event: stored)
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"tablehost-{user}", protocol=mqtt.MQTTv5,
                        manual_ack=True)
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
        self._stopped = True
        with self._lock:
            retry, self._retry = self._retry, None
        if retry is not None:
            retry.cancel()
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
            self.refused = rc.value in (0x86, 0x87, 0x85, 4, 5)  # bad user/password, not authorised, bad id
            log.error("floor: the broker refused us: %s", rc)
            return
        self.refused = False
        self.connected, self.last_error = True, ""
        client.subscribe([(topics.TABLES_ALL, 1), (topics.ack("+"), 1), (topics.MANIFEST, 1)])
        if self.chain:  # the head office: every branch's tables through the bridges
            client.subscribe([(topics.BRANCH_TABLES_ALL, 1), (topics.BRANCH_ACKS_ALL, 1)])
        for hook in list(self.on_connected):
            try:
                hook()
            except Exception:
                log.exception("floor: on_connected hook failed")

    def _on_disconnect(self, _c: Any, _u: Any, _f: Any, rc: Any, _p: Any) -> None:
        self.connected = False

    def _on_message(self, client: mqtt.Client, _u: Any, msg: mqtt.MQTTMessage) -> None:
        try:
            self.handle(msg.topic, bytes(msg.payload), retained=bool(msg.retain))
        except Exception:  # not acknowledged: the broker delivers it again at the next connection, …
            log.exception("floor: message on %s not handled; the broker keeps it", msg.topic)
            self._reconnect_soon()  # … which comes soon (unacknowledged messages would fill the window)
            return
        if msg.qos > 0:
            client.ack(msg.mid, msg.qos)

    def _reconnect_soon(self) -> None:
        with self._lock:
            if self._retry is not None:
                return
            self._retry = threading.Timer(RETRY_S, self._reconnect)
            self._retry.daemon = True
            self._retry.start()

    def _reconnect(self) -> None:
        """A fresh connection to the same session: the broker sends again what we did not acknowledge."""
        self.client.disconnect()
        self.client.loop_stop()
        with self._lock:
            self._retry = None
        if not self._stopped:
            self.start()

    # ------------------------------------------------------------ messages
    def _drop(self, why: str, topic: str) -> None:
        with self._lock:
            self.dropped[why] = self.dropped.get(why, 0) + 1
        log.warning("floor: dropped a message on %s (%s)", topic, why)

    def handle(self, topic: str, payload: bytes, retained: bool = False) -> None:
        if topic == topics.MANIFEST:
            data = topics.decode(payload)
            self.manifest = data if isinstance(data, dict) else None
            return
        acked_key = topics.parse_ack_topic(topic)
        if acked_key is not None:
            self._handle_ack(acked_key, payload)
            return
        parsed = topics.parse_table_topic(topic)
        if parsed is None:
            return
        table, kind = parsed  # the table's key: "t01", or "b1/t01" from a branch
        sender = topics.split_key(table)[1]
        now = self.clock()
        if not payload:
            return  # a retained message cleared (by us, over its quota)
        if len(payload) > schema.MAX_BYTES.get(kind, 0):
            self._drop("size", topic)
            if kind in schema.MAX_BYTES and kind != "event":  # over the tablet's retained quota: cleared
                self.client.publish(topic, b"", qos=1, retain=True)
            return
        with self._lock:
            if not self._table(table).within_rate(now):
                self.dropped["rate"] = self.dropped.get("rate", 0) + 1
                return
        data = topics.decode(payload)
        checks: dict[str, Callable[[Any], dict[str, Any] | None]] = {
            "status": lambda d: schema.status(d, sender), "online": schema.online, "content": schema.content,
            "event": lambda d: schema.event(d, sender)}
        check = checks.get(kind)
        if check is None:
            return
        if check(data) is None:
            self._drop(kind, topic)
            return
        republish: dict[str, Any] | None = None
        with self._lock:
            state = self._table(table)
            if kind == "status":
                # a retained status is as old as the tablet says (its heartbeat keeps it young)
                state.status, state.received = data, min(now, float(data["at"])) if retained else now
                listed = {c["id"]: c for c in data["calls"]}
                state.calls = {i: c for i, c in listed.items() if i not in state.acked}
                for call_id in state.calls:
                    state.seen.setdefault(call_id, now)
                if any(i in state.acked for i in listed):  # acked, not yet confirmed by the tablet: again
                    republish = self._ack_payload(state)
            elif kind == "online":
                state.online = data["online"]
            elif kind == "content":
                state.content = data
            elif kind == "event":
                if data["id"] in self._seen:
                    return
                call = data.get("call")
                if data["kind"] == "call" and call["id"] not in state.acked:
                    state.calls[call["id"]] = call
                    state.seen.setdefault(call["id"], now)
        if kind == "event" and self.on_event is not None:
            branch = topics.split_key(table)[0]
            self.on_event({**data, "branch": branch} if branch else data)  # the store keys it "b1/t01"
        if kind == "event":  # handled (stored): a second delivery is a duplicate from now on
            with self._lock:
                self._note_seen(data["id"])
                self.events_seen += 1
        if kind == "event" and data["kind"] == "staff" and self.on_staff is not None:
            self.on_staff(table)
        if republish is not None:
            self.client.publish(topics.ack_for(table), topics.encode(republish), qos=1, retain=True)
        self._changed(table)

    def _handle_ack(self, table: str, payload: bytes) -> None:
        """Our own retained acks: after a restart, what was acknowledged stays so."""
        data = schema.ack(topics.decode(payload))
        if data is None:
            return
        with self._lock:
            state = self._table(table)
            state.acked = list(dict.fromkeys(state.acked + data["acked"]))[-ACK_KEEP:]
            for i in data["acked"]:
                state.calls.pop(i, None)
        self._changed(table)

    def _ack_payload(self, state: TableState) -> dict[str, Any]:
        return {"acked": list(state.acked), "at": round(self.clock(), 3)}

    def _note_seen(self, event_id: str) -> None:
        self._seen[event_id] = None
        if len(self._seen) > 20000:
            for old in list(self._seen)[:10000]:
                del self._seen[old]

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
            payload = self._ack_payload(state)
            _save_acks(self.acks_path, {t: s.acked for t, s in self.tables.items() if s.acked})
        self.client.publish(topics.ack_for(table), topics.encode(payload), qos=1, retain=True)
        self._changed(table)
        return True

    def snapshot(self, only: set[str] | None = None) -> list[dict[str, Any]]:
        """Every table's view (or only those named), by table id."""
        now = self.clock()
        out = []
        with self._lock:
            for t in sorted(self.tables if only is None else only & set(self.tables)):
                try:
                    out.append(self.tables[t].to_view(now, self.stale_s))
                except Exception:  # one table's state never takes the others' off the page
                    log.exception("floor: table %s not shown", t)
        return out


def _load_acks(path: Path | None) -> dict[str, list[str]]:
    return {str(t): [str(i) for i in ids][-ACK_KEEP:] for t, ids in topics.load_json(path).items()
            if topics.valid_key(str(t)) and isinstance(ids, list)}


def _save_acks(path: Path | None, acks: dict[str, list[str]]) -> None:
    """Kept on disk before the ack is published: a broker that loses it (autosave) gets it again."""
    if path is not None:
        topics.save_json(path, acks)
