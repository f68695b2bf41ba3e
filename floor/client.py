"""The tablet's MQTT client (paho-mqtt, MQTT 5, QoS 1) on its own worker thread.

Everything it sends goes through the persisted `Outbox` and leaves it only on the broker's PUBACK. paho's
network thread reconnects by itself (1 → 8 s backoff) and re-sends what was in flight; the worker thread
hands new outbox messages to paho while connected, and re-asserts the table's status on every connection
(`on_connected` hooks), so a broker that lost its retained messages catches up at once.
The retained `online` flag is the connection's will: the floor sees a tablet drop off without waiting.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion
from paho.mqtt.packettypes import PacketTypes
from paho.mqtt.properties import Properties
from paho.mqtt.reasoncodes import ReasonCode

from floor import topics
from floor.outbox import Outbox

log = logging.getLogger(__name__)
DEFAULT_PORT = 1883


@dataclass(frozen=True)
class FloorConfig:
    host: str = ""
    port: int = DEFAULT_PORT
    table: str = ""
    password: str = ""

    @property
    def enabled(self) -> bool:
        return bool(self.host) and topics.valid_table_id(self.table)


MessageHandler = Callable[[str, bytes], None]


class FloorClient:
    """`publish` may be called from any thread; handlers run on the worker thread."""

    def __init__(self, config: FloorConfig, outbox: Outbox, on_message: MessageHandler | None = None,
                 subscriptions: tuple[str, ...] = (), keepalive: int = 10, batch: int = 50) -> None:
        self.config = config
        self.outbox = outbox
        self.on_message = on_message
        self.subscriptions = (topics.ack(config.table), topics.MANIFEST, *subscriptions)
        self.keepalive = keepalive
        self.batch = batch
        self.on_connected: list[Callable[[], None]] = []
        self.connected = False
        self.last_error = ""  # why the broker refused us or why the link dropped (staff settings show it)
        self.refused = 0  # publishes the broker refused (not authorised): dropped, never retried
        self.connections = 0
        self._mids: dict[int, int] = {}  # paho message id → outbox row
        self._jobs: queue.Queue[tuple[str, Any]] = queue.Queue()
        self._thread: threading.Thread | None = None
        self._client = self._make_client()
        outbox.release()  # a new client: whatever an earlier one held is sent again

    def _make_client(self) -> mqtt.Client:
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"tablehost-{self.config.table}",
                        protocol=mqtt.MQTTv5)
        c.username_pw_set(self.config.table, self.config.password)
        c.will_set(topics.online(self.config.table), topics.encode({"online": False}), qos=1, retain=True)
        c.reconnect_delay_set(min_delay=1, max_delay=8)
        c.max_inflight_messages_set(100)
        c.on_connect = lambda _c, _u, _f, rc, _p: self._jobs.put(("connect", rc))
        c.on_disconnect = lambda _c, _u, _f, rc, _p: self._jobs.put(("disconnect", rc))
        c.on_publish = lambda _c, _u, mid, rc, _p: self._jobs.put(("puback", (mid, rc)))
        c.on_message = lambda _c, _u, msg: self._jobs.put(("message", (msg.topic, bytes(msg.payload))))
        return c

    # ------------------------------------------------------------ life
    def start(self) -> None:
        props = Properties(PacketTypes.CONNECT)  # type: ignore[no-untyped-call]
        props.SessionExpiryInterval = 0
        self._client.connect_async(self.config.host, self.config.port, keepalive=self.keepalive,
                                   clean_start=True, properties=props)
        self._client.loop_start()
        self._thread = threading.Thread(target=self._work, name=f"floor-{self.config.table}", daemon=True)
        self._thread.start()

    def stop(self, timeout: float = 3.0) -> None:
        """Leave cleanly: the table shows offline at once (the will is for unclean drops)."""
        if self.connected:
            try:
                info = self._client.publish(topics.online(self.config.table), topics.encode({"online": False}),
                                            qos=1, retain=True)
                info.wait_for_publish(timeout=1.0)
            except (RuntimeError, ValueError):
                pass
        self._jobs.put(("stop", None))
        if self._thread is not None:
            self._thread.join(timeout)
        self._client.disconnect()
        self._client.loop_stop()

    # ------------------------------------------------------------ sending
    def publish(self, topic: str, payload: Any, retain: bool = False, key: str = "") -> None:
        """Persist first, then send when connected (QoS 1)."""
        self.outbox.put(topic, topics.encode(payload), retain, key)
        self._jobs.put(("pump", None))

    def subscribe(self, topic: str) -> None:
        self.subscriptions = (*self.subscriptions, topic)
        if self.connected:
            self._client.subscribe(topic, qos=1)

    def unsubscribe(self, topic: str) -> None:
        self.subscriptions = tuple(t for t in self.subscriptions if t != topic)
        if self.connected:
            self._client.unsubscribe(topic)

    # ------------------------------------------------------------ the worker thread
    def _work(self) -> None:
        while True:
            kind, data = self._jobs.get()
            try:
                if kind == "stop":
                    return
                self._handle(kind, data)
            except Exception:
                log.exception("floor client: %s failed", kind)

    def _handle(self, kind: str, data: Any) -> None:
        if kind == "connect":
            rc: ReasonCode = data
            if rc.is_failure:
                self.connected = False
                self.last_error = str(rc)
                log.warning("floor broker refused table %s: %s", self.config.table, rc)
                return
            self.connected, self.last_error = True, ""
            self.connections += 1
            for t in self.subscriptions:
                self._client.subscribe(t, qos=1)
            self._client.publish(topics.online(self.config.table), topics.encode({"online": True}), qos=1,
                                 retain=True)
            for hook in list(self.on_connected):
                hook()
            self._pump()
        elif kind == "disconnect":
            was, self.connected = self.connected, False
            if was and data is not None and data.is_failure:  # a refusal's reason stays shown
                self.last_error = str(data)
        elif kind == "puback":
            mid, rc = data
            row = self._mids.pop(mid, None)
            if row is None:
                return
            if rc.is_failure:
                self.refused += 1
                log.error("floor broker refused a message (%s); dropped", rc)
            self.outbox.done(row)
        elif kind == "message":
            topic, payload = data
            if self.on_message is not None:
                self.on_message(topic, payload)
        elif kind == "pump":
            self._pump()

    def _pump(self) -> None:
        if not self.connected:
            return
        while True:
            messages = self.outbox.take(self.batch)
            for m in messages:
                info = self._client.publish(m.topic, m.payload, qos=1, retain=m.retain)
                self._mids[info.mid] = m.id
            if len(messages) < self.batch:
                return

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Tests and the bench: True once everything in the outbox was acknowledged by the broker."""
        import time

        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.outbox.pending() == 0:
                return True
            time.sleep(0.05)
        return False
