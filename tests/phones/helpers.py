"""Test helpers for the phones: a real session, a hub whose "main thread" is the test's own loop, a
server on 127.0.0.1 (a free port), and phones speaking the page's WebSocket protocol."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import json
import queue
from collections.abc import Awaitable, Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import aiohttp
from nacl.exceptions import CryptoError
from nacl.public import Box, PrivateKey, PublicKey
from nacl.secret import SecretBox

from phones.channel import PhoneHub
from phones.seal import NO_PASS, number_of, pass_of
from phones.server import PhoneServer
from table.table import Table
from tests.tables import new_table


@cache
def library() -> Any:
    from content.loader import load_library

    return load_library()


def new_session(tmp: Path, game: str, config: Mapping[str, Any], seed: int = 7,
                clock: Callable[[], float] | None = None) -> Table:
    """A running table with `game` started (its journal under `tmp`)."""
    return new_table(library(), tmp / "journal", game, config, seed, clock)


class MainThread:
    """Stands in for Kivy's main thread: the hub queues work here; the test's loop runs it."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[Callable[[], None]] = queue.Queue()

    def __call__(self, fn: Callable[[], None]) -> None:
        self.jobs.put(fn)

    def run_pending(self) -> int:
        n = 0
        while True:
            try:
                fn = self.jobs.get_nowait()
            except queue.Empty:
                return n
            fn()
            n += 1

    async def pump(self) -> None:
        while True:
            self.run_pending()
            await asyncio.sleep(0.005)


TABLETS: dict[str, PhoneHub] = {}  # server url -> its hub: the tablet a test phone asks for its OK


class Phone:
    """One phone's socket, speaking the page's sealed protocol (phones/seal.py, README.md) with
    PyNaCl: the key exchange as it opens, then a join sealed under the key of its pass. A phone new to
    its seat waits for the tablet's OK: `join` gives it as the seat's owner would (the digits on the
    tablet are the phone's) unless `tablet` is None or `approve` False.
    `recv(kind)` takes the oldest message of that kind not taken yet (waiting for one if need be);
    messages of other kinds stay for later. `wire` keeps every frame as it crossed the network."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse,
                 tablet: PhoneHub | None) -> None:
        self.http = http
        self.ws = ws
        self.tablet = tablet
        self.log: list[dict[str, Any]] = []
        self.wire: list[str] = []
        self._used: set[int] = set()
        self.challenge = ""
        self.commitment = ""
        self.mine = PrivateKey.generate()
        self.server_pk = b""
        self.shared = b""
        self.key: bytes | None = None
        self.number = ""
        self._sent = 0
        self._heard = 0

    @classmethod
    async def open(cls, url: str, origin: str | None = None, source: str | None = None,
                   tablet: PhoneHub | None = None, exchange: bool = True) -> Phone:
        """A phone's socket; `source` picks the loopback address it comes from (127.0.0.x: another phone);
        `tablet` the hub that answers its asks (else the one serving `url`, when a test started it)."""
        connector = aiohttp.TCPConnector(local_addr=(source, 0)) if source else None
        http = aiohttp.ClientSession(connector=connector)
        headers = {"Origin": origin} if origin else {}
        ws = await http.ws_connect(url.replace("http://", "ws://") + "/ws", headers=headers)
        phone = cls(http, ws, tablet if tablet is not None else TABLETS.get(url))
        hi = await phone.recv("hi")
        phone.challenge, phone.commitment = hi["c"], hi["h"]
        if exchange:
            await phone.exchange()
        return phone

    async def exchange(self) -> None:
        """The key exchange: the phone's ephemeral key, then the kiosk's, checked against its commitment."""
        await self.send_raw({"t": "key", "pk": base64.b64encode(bytes(self.mine.public_key)).decode()})
        reply = await self.recv("key")
        self.server_pk = base64.b64decode(reply["pk"])
        assert base64.b64encode(hashlib.sha512(self.server_pk).digest()[:32]).decode() == self.commitment
        self.shared = bytes(Box(self.mine, PublicKey(self.server_pk)).shared_key())

    def key_for(self, seat_pass: bytes) -> bytes:
        parts = (b"tablehost/2", self.shared, bytes(self.mine.public_key), self.server_pk,
                 hashlib.sha512(self.challenge.encode()).digest(), seat_pass)
        return hashlib.sha512(b"".join(parts)).digest()[:32]

    def seal(self, message: Mapping[str, Any], key: bytes | None = None) -> str:
        self._sent += 1
        inner = json.dumps({"c": self.challenge, "i": self._sent, "d": "up", "m": dict(message)}).encode()
        return base64.b64encode(bytes(SecretBox(key or self.key).encrypt(inner))).decode()

    async def send_raw(self, frame: Mapping[str, Any]) -> None:
        text = json.dumps(frame)
        self.wire.append(text)
        await self.ws.send_str(text)

    async def send(self, message: Mapping[str, Any]) -> None:
        """Sealed once a key is agreed; before that only what the page sends in the clear (ping)."""
        await self.send_raw({"box": self.seal(message)} if self.key is not None else dict(message))

    async def recv(self, kind: str | None = None, timeout: float = 5.0) -> dict[str, Any]:
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            for i in range(len(self.log)):
                if i not in self._used and (kind is None or self.log[i]["t"] == kind):
                    self._used.add(i)
                    return self.log[i]
            left = end - loop.time()
            if left <= 0:
                raise TimeoutError(f"no {kind} message; got {[m['t'] for m in self.log]}")
            msg = await self.ws.receive(timeout=left)
            if msg.type != aiohttp.WSMsgType.TEXT:
                raise ConnectionError(f"socket closed ({msg.type}); got {[m['t'] for m in self.log]}")
            self.wire.append(msg.data)
            data = json.loads(msg.data)
            if "box" in data:
                data = self._open(data["box"])
                if data is None:  # sealed under a key this phone no longer holds (it joined another seat)
                    continue
            self.log.append(data)

    def _open(self, box: str) -> dict[str, Any] | None:
        assert self.key is not None, "a sealed message before any key"
        try:
            inner = json.loads(SecretBox(self.key).decrypt(base64.b64decode(box)))
        except CryptoError:
            return None
        assert inner["d"] == "dn" and inner["c"] == self.challenge and inner["i"] > self._heard, inner
        self._heard = inner["i"]
        return dict(inner["m"])

    async def state_like(self, session: Table, seat: int, timeout: float = 5.0) -> dict[str, Any]:
        """The first pushed state that shows exactly the session's current view for the seat (a step and
        the chance steps after it each push; this waits for the last)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            state = await self.recv("state", max(0.01, end - loop.time()))
            if state["view"] == json.loads(json.dumps(session.view(seat))):
                return state

    async def join(self, token: str = "", code: str = "", device: str = "", approve: bool = True) -> dict[str, Any]:
        """As the page does: a join box under the key of the seat's pass (the QR code's token and the
        device key the seat gave this phone) or, for a typed code, of no pass (the code inside). The reply:
        hello (a known phone; or a new one the tablet let in, when `approve`), asking, or an error."""
        if token:
            self.key = self.key_for(pass_of(token, device))
            await self.send_raw({"t": "join", "via": "qr", "box": self.seal({"t": "join"})})
        elif code:
            self.key = self.key_for(NO_PASS * 2)
            await self.send_raw({"t": "join", "via": "code", "box": self.seal({"t": "join", "code": code})})
        else:
            await self.send_raw({"t": "join"})
        reply = await self.recv()
        if reply.get("code") == "bad_token" and token and device:  # as the page does: a device key the seat
            return await self.join(token=token, approve=approve)  # no longer knows asks as a new phone
        if reply["t"] != "asking":
            return reply
        self.number = number_of(self.key)
        if not approve or self.tablet is None:
            return reply
        await until(lambda: any(a.number == self.number for a in self.tablet.asking()))  # type: ignore[union-attr]
        ask = next(a for a in self.tablet.asking() if a.number == self.number)
        self.tablet.answer(ask.ident, True)
        return await self.recv("hello")

    async def close(self) -> None:
        await self.ws.close()
        await self.http.close()


def admit(hub: PhoneHub, conn: Any, **join: Any) -> dict[str, Any]:
    """`hub.join`, and the tablet's OK when the phone is new to its seat: "joined" then, else the refusal."""
    reply = hub.join(conn, **join)
    if reply["t"] != "asking":
        return reply
    ask = max(hub.asking(), key=lambda a: a.ident)
    hub.answer(ask.ident, True)
    return {"t": "joined", "seat": ask.seat}


def start_server(session: Table | None = None, server_kw: Mapping[str, Any] | None = None,
                 **hub_kw: Any) -> tuple[PhoneHub, PhoneServer, MainThread]:
    main = MainThread()
    hub = PhoneHub(run_on_main=main, **hub_kw)
    if session is not None:
        hub.follow(session)
        main.run_pending()
    server = PhoneServer(hub, "127.0.0.1", 0, **(server_kw or {}))
    server.start()
    TABLETS[server.url] = hub
    return hub, server, main


def serve(body: Callable[[PhoneHub, PhoneServer, MainThread], Awaitable[None]], session: Table | None = None,
          server_kw: Mapping[str, Any] | None = None, **hub_kw: Any) -> None:
    """Run `body(hub, server, main)` on a fresh event loop with a server on 127.0.0.1 (for `session`, or
    none yet); the test's loop plays the kiosk's main thread. The server stops after; the session stays."""
    hub, server, main = start_server(session, server_kw=server_kw, **hub_kw)

    async def go() -> None:
        pump = asyncio.create_task(main.pump())
        try:
            await body(hub, server, main)
        finally:
            pump.cancel()

    try:
        asyncio.run(go())
    finally:
        server.stop()


async def until(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise TimeoutError("condition not met")
        await asyncio.sleep(0.01)
