"""Test helpers for the phones: a real session, a hub whose "main thread" is the test's own loop, a
server on 127.0.0.1 (a free port), and phones speaking the page's WebSocket protocol."""

from __future__ import annotations

import asyncio
import json
import queue
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import aiohttp

from kiosk.phones.channel import PhoneHub
from kiosk.phones.server import PhoneServer
from kiosk.session import Session


@cache
def library() -> Any:
    from content.loader import load_library

    return load_library()


def new_session(tmp: Path, game: str, config: Mapping[str, Any], seed: int = 7,
                clock: Callable[[], float] | None = None) -> Session:
    kwargs: dict[str, Any] = {"seed": seed}
    if clock is not None:
        kwargs["clock"] = clock
    return Session.new(library(), game, config, tmp / "journal", **kwargs)


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


class Phone:
    """One phone's socket. `recv(kind)` takes the oldest message of that kind not taken yet (waiting for
    one if need be); messages of other kinds stay for later."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.http = http
        self.ws = ws
        self.log: list[dict[str, Any]] = []
        self._used: set[int] = set()

    @classmethod
    async def open(cls, url: str, origin: str | None = None, source: str | None = None) -> Phone:
        """A phone's socket; `source` picks the loopback address it comes from (127.0.0.x: another phone)."""
        connector = aiohttp.TCPConnector(local_addr=(source, 0)) if source else None
        http = aiohttp.ClientSession(connector=connector)
        headers = {"Origin": origin} if origin else {}
        ws = await http.ws_connect(url.replace("http://", "ws://") + "/ws", headers=headers)
        return cls(http, ws)

    async def send(self, message: Mapping[str, Any]) -> None:
        await self.ws.send_str(json.dumps(message))

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
            self.log.append(json.loads(msg.data))

    async def state_like(self, session: Session, seat: int, timeout: float = 5.0) -> dict[str, Any]:
        """The first pushed state that shows exactly the session's current view for the seat (a step and
        the chance steps after it each push; this waits for the last)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while True:
            state = await self.recv("state", max(0.01, end - loop.time()))
            if state["view"] == json.loads(json.dumps(session.view(seat))):
                return state


    async def join(self, token: str = "", code: str = "", device: str = "") -> dict[str, Any]:
        await self.send({"t": "join", "token": token, "code": code, "device": device})
        return await self.recv()

    async def close(self) -> None:
        await self.ws.close()
        await self.http.close()


def start_server(session: Session | None = None, server_kw: Mapping[str, Any] | None = None,
                 **hub_kw: Any) -> tuple[PhoneHub, PhoneServer, MainThread]:
    main = MainThread()
    hub = PhoneHub(run_on_main=main, **hub_kw)
    if session is not None:
        hub.attach(session)
        main.run_pending()
    server = PhoneServer(hub, "127.0.0.1", 0, **(server_kw or {}))
    server.start()
    return hub, server, main


async def until(predicate: Callable[[], bool], timeout: float = 5.0) -> None:
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not predicate():
        if loop.time() > end:
            raise TimeoutError("condition not met")
        await asyncio.sleep(0.01)
