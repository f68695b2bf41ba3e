"""One bad tablet (its own login, any payload, any client id) and an attacker on the café Wi-Fi against the
floor (#42.4), with the real broker as deploy/floor/install.sh configures it: strict schemas (a bad status or
event is dropped and counted, the page and the CSV keep working), CSV cells never formulas, client ids bound
to the login, per-tablet quotas (retained size, message rate), the page's PIN lock per address with the
staff's way in, logins only from the page's own origin, no default PIN. Every test here fails on the code
before it."""

from __future__ import annotations

import asyncio
import json
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import paho.mqtt.client as mqtt
import pytest
from paho.mqtt.enums import CallbackAPIVersion

from floor import topics
from floor.board import BURST, FloorBoard
from floor.serve import Floor, FloorSetup, SetupError, run
from floor.store import FloorStore
from tests.floor.broker import Broker
from tests.floor.helpers import floor_board, tablet, wait_for
from tests.phones.helpers import library

PIN = "2468"


class Raw:
    """A hostile client with a tablet's own login, sending whatever it likes (MQTT 5, QoS 1)."""

    def __init__(self, broker: Broker, user: str, client_id: str = "") -> None:
        self.refused: list[str] = []
        self.acked = 0
        self.disconnects = 0
        c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id or f"raw-{uuid.uuid4().hex[:6]}",
                        protocol=mqtt.MQTTv5)
        c.username_pw_set(user, broker.passwords[user])
        c.max_inflight_messages_set(1000)
        c.on_publish = self._published
        c.on_disconnect = lambda *_a: setattr(self, "disconnects", self.disconnects + 1)
        c.connect("127.0.0.1", broker.port)
        c.loop_start()
        self.c = c

    def _published(self, _c: Any, _u: Any, _mid: int, rc: Any, _p: Any) -> None:
        self.acked += 1
        if rc.is_failure:
            self.refused.append(str(rc))

    def send(self, topic: str, payload: Any, retain: bool = False) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.c.publish(topic, data, qos=1, retain=retain)

    def close(self) -> None:
        self.c.loop_stop()
        self.c.disconnect()


def good_status(table: str, **kw: Any) -> dict[str, Any]:
    return {"table": table, "at": round(time.time(), 3), "game": "clue", "phase": "move", "players": 3,
            "seated_s": 60, "game_s": 30, "calls": [], "needs_staff": False, "content": "", "dropped": 0, **kw}


def ended(table: str, **kw: Any) -> dict[str, Any]:
    return {"id": uuid.uuid4().hex, "kind": "game_ended", "table": table, "at": round(time.time(), 3),
            "game": "clue", "finished": True, "reason": "solved", "minutes": 30.0, "winners": ["A"],
            "scores": [], **kw}


# ---------------------------------------------------------------- schemas, the snapshot and the CSV
def test_a_malformed_status_is_dropped_counted_and_never_breaks_the_page(broker: Broker) -> None:
    board = floor_board(broker)
    t01, t02 = Raw(broker, "t01"), Raw(broker, "t02")
    try:
        t02.send(topics.online("t02"), {"online": True}, retain=True)
        t02.send(topics.status("t02"), good_status("t02"), retain=True)
        wait_for(lambda: "t02" in board.tables and board.tables["t02"].status, what="t02's status")
        # a string where a number goes, a call without a reason, a status naming another table
        for bad in (good_status("t01", seated_s="forever"), good_status("t01", calls=[{"id": "x"}]),
                    good_status("t02"), [1, 2], good_status("t01", players=float("nan"))):
            t01.send(topics.status("t01"), bad if not isinstance(bad, dict) or "NaN" not in str(bad)
                     else json.dumps(bad).encode(), retain=True)
        wait_for(lambda: board.dropped.get("status", 0) == 5, what="five statuses dropped")
        views = {v["table"]: v for v in board.snapshot()}  # the old code raised here (seated_s + late)
        assert views["t02"]["game"] == "clue" and views["t02"]["online"]
        assert views.get("t01", {}).get("game") is None
        t01.send(topics.status("t01"), good_status("t01", game="spyfall"), retain=True)
        wait_for(lambda: board.tables["t01"].status.get("game") == "spyfall", what="a good status after")
        json.dumps(board.snapshot())
    finally:
        t01.close()
        t02.close()
        board.stop()


def test_a_forged_event_is_dropped_and_the_csv_stays_whole_and_formula_free(broker: Broker, tmp_path: Path) -> None:
    store = FloorStore(tmp_path / "events.sqlite")
    board = floor_board(broker, on_event=store.add)
    t01 = Raw(broker, "t01")
    try:
        t01.send(topics.event("t01"), ended("t01", minutes="=HYPERLINK(\"http://x\")"))
        t01.send(topics.event("t01"), ended("t01", winners=[{"name": 1}]))
        t01.send(topics.event("t01"), ended("t02"))  # another table's event from t01's login
        t01.send(topics.event("t01"), {**ended("t01"), "kind": "=cmd"})
        t01.send(topics.event("t01"), ended("t01", minutes=12.0))
        wait_for(lambda: store.count() == 1 and board.dropped.get("event") == 4, what="one event kept, four dropped")
        text = store.csv_text()
        assert text.count("\r\n") == 2 and "HYPERLINK" not in text
    finally:
        t01.close()
        board.stop()
        store.close()


def test_the_csv_survives_rows_an_older_floor_stored_and_quotes_what_looks_like_a_formula(tmp_path: Path) -> None:
    store = FloorStore(tmp_path / "events.sqlite")
    try:
        bad = ended("t01", minutes="lots")
        store._db.execute("INSERT INTO events VALUES (?, 't01', 'game_ended', 'clue', ?, ?)",
                          (bad["id"], bad["at"], json.dumps(bad)))  # as the old floor kept it
        assert store.add(ended("t01", game="clue"))
        assert store.add({**ended("t02"), "game": "evil"})
        text = store.csv_text({"day": "날짜"}, {"clue": "클루", "evil": "=1+2"})
        rows = [r.split(",") for r in text.lstrip("\ufeff").strip().split("\r\n")]
        assert rows[0][0] == "날짜" and sorted(r[1] for r in rows[1:]) == ["'=1+2", "클루"]
        assert all(r[2] == "1" for r in rows[1:])  # the unreadable row is left out, not fatal
    finally:
        store.close()


# ---------------------------------------------------------------- the broker: client ids and quotas
def test_a_tablets_login_cannot_kick_the_floor_or_another_tablet(broker: Broker, tmp_path: Path) -> None:
    board = floor_board(broker)
    drops: list[Any] = []
    board.client.on_disconnect = lambda *a: (drops.append(a), board._on_disconnect(*a))
    t02 = tablet(broker, "t02", tmp_path)
    wait_for(lambda: t02.client.connected, what="t02")
    thief = Raw(broker, "t01", client_id="tablehost-floor")
    thief2 = Raw(broker, "t01", client_id="tablehost-t02")
    try:
        time.sleep(1.5)
        assert drops == [] and board.connected  # the old config: the floor was thrown off at once
        assert t02.client.connections == 1 and t02.client.connected
    finally:
        thief.close()
        thief2.close()
        t02.stop()
        board.stop()


def test_a_tablet_has_four_topics_and_an_oversized_retained_message_is_cleared(broker: Broker) -> None:
    board = floor_board(broker)
    t01 = Raw(broker, "t01")
    try:
        t01.send("tablehost/table/t01/junk/1", b"x" * 1000, retain=True)  # the old ACL took any level below
        wait_for(lambda: t01.refused, what="the broker's refusal")
        t01.send(topics.status("t01"), b"{" + b" " * 200_000 + b"}", retain=True)
        wait_for(lambda: board.dropped.get("size") == 1, what="the oversized status dropped")
        t01.send(topics.status("t01"), b"x" * 1_000_000, retain=True)  # the old broker kept up to 32 MiB …
        time.sleep(1.5)  # … this one drops the connection that sends it (MQTT 5 maximum packet size)
        time.sleep(0.5)
    finally:
        t01.close()
        board.stop()
    again = floor_board(broker)  # a fresh look at what the broker retains for t01
    try:
        time.sleep(1.0)
        assert "t01" not in again.tables and again.dropped == {}
    finally:
        again.stop()


def test_a_flooding_tablet_is_held_to_its_rate(broker: Broker, tmp_path: Path) -> None:
    store = FloorStore(tmp_path / "events.sqlite")
    # the board's clock stands still: the bucket refills RATE a second of the board's clock, so on the wall clock
    # the count let through grew with how long this machine took to send and handle the flood
    now = time.time()
    board = floor_board(broker, on_event=store.add, clock=lambda: now)
    t01 = Raw(broker, "t01")
    try:
        for _ in range(1500):
            t01.send(topics.event("t01"), {"id": uuid.uuid4().hex, "kind": "voice", "table": "t01",
                                           "at": round(now, 3), "game": "clue", "commands": 1})
        wait_for(lambda: t01.acked == 1500, what="the flood sent")
        wait_for(lambda: store.count() + board.dropped.get("rate", 0) == 1500, what="every message handled")
        assert store.count() == BURST and board.dropped["rate"] == 1500 - BURST  # the burst, then nothing
    finally:
        t01.close()
        board.stop()
        store.close()


# ---------------------------------------------------------------- the page: PIN, origin, sessions
@pytest.fixture
def floor(broker: Broker, tmp_path: Path) -> Iterator[Floor]:
    f = Floor(_setup(broker, tmp_path), library=library())
    f.start()
    assert f.board.wait_connected()
    yield f
    f.stop()


def _setup(broker: Broker, tmp_path: Path, **kw: Any) -> FloorSetup:
    return FloorSetup(**{"broker": "127.0.0.1", "broker_port": broker.port, "password": broker.passwords["floor"],
                         "listen": "127.0.0.1", "web_port": 0, "pin": PIN, "data_dir": tmp_path / "floorbox", **kw})


async def _login(url: str, pin: str, source: str = "127.0.0.1", jar: aiohttp.CookieJar | None = None,
                 **kw: Any) -> int:
    connector = aiohttp.TCPConnector(local_addr=(source, 0))
    async with aiohttp.ClientSession(connector=connector, cookie_jar=jar or aiohttp.CookieJar(unsafe=True)) as http:
        kw = kw or {"json": {"pin": pin}}
        async with http.post(url + "/login", **kw) as r:
            return r.status


def test_wrong_pins_lock_one_address_only_and_staff_on_a_tablet_lift_the_lock(
        floor: Floor, broker: Broker, tmp_path: Path) -> None:
    url = floor.server.url
    assert [asyncio.run(_login(url, "1111")) for _ in range(5)] == [403] * 4 + [429]
    assert asyncio.run(_login(url, PIN)) == 429  # this address waits …
    assert asyncio.run(_login(url, PIN, source="127.0.0.2")) == 200  # … the counter's PC does not
    t03 = tablet(broker, "t03", tmp_path)
    try:
        t03.note_staff()  # staff entered their PIN on a tablet
        wait_for(lambda: not floor.server.locks, what="the lock lifted")
        assert asyncio.run(_login(url, PIN)) == 200
    finally:
        t03.stop()


def test_a_cross_site_form_post_is_refused_without_counting_as_a_wrong_pin(floor: Floor) -> None:
    url = floor.server.url
    forged = [
        {"data": "pin=1111", "headers": {"Content-Type": "application/x-www-form-urlencoded",
                                         "Origin": "http://evil.example"}},
        {"data": '{"pin": "1111"}', "headers": {"Content-Type": "text/plain", "Origin": "http://evil.example"}},
        {"json": {"pin": "1111"}, "headers": {"Origin": "http://evil.example"}},
        {"json": {"pin": "1111"}, "headers": {"Sec-Fetch-Site": "cross-site"}},
    ]
    for _ in range(3):
        for kw in forged:
            assert asyncio.run(_login(url, "", **kw)) == 403
    assert floor.server.locks == {}
    assert asyncio.run(_login(url, PIN)) == 200


def test_a_login_survives_a_restart_of_the_floor_service(broker: Broker, tmp_path: Path) -> None:
    def login(url: str) -> str:
        req = urllib.request.Request(url + "/login", data=json.dumps({"pin": PIN}).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return str(r.headers["Set-Cookie"]).split(";")[0]

    def me(url: str, cookie: str) -> int:
        try:
            with urllib.request.urlopen(urllib.request.Request(url + "/me", headers={"Cookie": cookie}),
                                        timeout=10) as r:
                return int(r.status)
        except urllib.error.HTTPError as err:
            return err.code

    first = Floor(_setup(broker, tmp_path), library=library())
    first.start()
    try:
        cookie = login(first.server.url)
        assert me(first.server.url, cookie) == 200
    finally:
        first.stop()
    second = Floor(_setup(broker, tmp_path), library=library())
    second.start()
    try:
        assert me(second.server.url, cookie) == 200  # the old floor kept sessions in memory: 403
        assert me(second.server.url, "floor_session=forged") == 403
        assert cookie.split("=", 1)[1] not in (tmp_path / "floorbox/floor/sessions.json").read_text()  # hashes
    finally:
        second.stop()


def test_there_is_no_default_floor_pin_and_a_missing_setting_is_said(broker: Broker, tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch,
                                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("TABLEHOST_FLOOR_PIN", raising=False)
    assert FloorSetup.from_env(tmp_path).pin == ""
    with pytest.raises(SetupError, match="PIN"):
        Floor(_setup(broker, tmp_path, pin=""), library=library())
    assert run(_setup(broker, tmp_path, pin="")) == 2
    assert "TABLEHOST_FLOOR_PIN" in capsys.readouterr().err
    assert run(_setup(broker, tmp_path, password="")) == 2
    assert "TABLEHOST_FLOOR_PASSWORD" in capsys.readouterr().err
    start = time.monotonic()
    assert run(_setup(broker, tmp_path, password="wrong")) == 1  # refused: said, not retried for ever
    assert "refused" in capsys.readouterr().err and time.monotonic() - start < 15


def test_board_counts_nothing_for_its_own_cleared_messages(broker: Broker) -> None:
    board: FloorBoard = floor_board(broker)
    try:
        board.handle(topics.status("t05"), b"")
        assert board.dropped == {} and "t05" not in board.tables
    finally:
        board.stop()
