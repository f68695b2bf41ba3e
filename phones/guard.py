"""The phones' server's door: how many connections it holds, from whom, and for how long.

Every TCP connection is counted when it is accepted, before aiohttp sees a byte:
- at most `max_per_address` from one address and `max_connections` in all; a new one over either cap
  pushes out the oldest connection of that address (or, overall, the oldest anywhere) that holds no seat,
  so a flood cannot keep a real phone out and a joined phone is never pushed out; when every connection
  in the way holds a seat, the new one is refused (reset at once: its file handle is freed);
- a connection that holds no seat is closed `join_timeout` seconds after it was opened (a page loads in
  well under a second; a phone that joins keeps its socket), so idle sockets cannot pile up.
The WebSocket handler marks a connection `hold` once it joins a seat and `release` when it leaves one.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

log = logging.getLogger(__name__)


@dataclass
class _Entry:
    address: str
    seated: bool = False
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)


class Guard:
    def __init__(self, max_connections: int = 256, max_per_address: int = 16, join_timeout: float = 20.0) -> None:
        self.max_connections = max_connections
        self.max_per_address = max_per_address
        self.join_timeout = join_timeout
        self.conns: OrderedDict[asyncio.BaseTransport, _Entry] = OrderedDict()  # oldest first
        self.per_address: dict[str, int] = {}
        self.refused = 0
        self.pushed_out = 0
        self.timed_out = 0

    # ------------------------------------------------------------ accept / close
    def admit(self, transport: asyncio.BaseTransport) -> bool:
        peer = transport.get_extra_info("peername")
        address = str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        if self.per_address.get(address, 0) >= self.max_per_address and not self._push_out(address):
            self.refused += 1
            return False
        if len(self.conns) >= self.max_connections and not self._push_out(None):
            self.refused += 1
            return False
        entry = _Entry(address)
        self.conns[transport] = entry
        self.per_address[address] = self.per_address.get(address, 0) + 1
        self._arm(transport, entry)
        return True

    def forget(self, transport: asyncio.BaseTransport) -> None:
        entry = self.conns.pop(transport, None)
        if entry is None:
            return
        if entry.timer is not None:
            entry.timer.cancel()
        left = self.per_address.get(entry.address, 1) - 1
        if left > 0:
            self.per_address[entry.address] = left
        else:
            self.per_address.pop(entry.address, None)

    def _push_out(self, address: str | None) -> bool:
        for transport, entry in self.conns.items():
            if not entry.seated and (address is None or entry.address == address):
                self.pushed_out += 1
                self._close(transport)
                return True
        return False

    def _close(self, transport: asyncio.BaseTransport) -> None:
        self.forget(transport)
        if isinstance(transport, asyncio.Transport):
            transport.abort()  # no lingering: the file handle is freed now
        else:
            transport.close()

    # ------------------------------------------------------------ seats and time-outs
    def hold(self, transport: asyncio.BaseTransport | None) -> None:
        """The connection joined a seat: no time-out, never pushed out."""
        entry = self.conns.get(transport) if transport is not None else None
        if entry is not None:
            entry.seated = True
            if entry.timer is not None:
                entry.timer.cancel()
                entry.timer = None

    def release(self, transport: asyncio.BaseTransport | None) -> None:
        """The connection lost its seat (replaced, revoked): it may stay `join_timeout` more at most."""
        entry = self.conns.get(transport) if transport is not None else None
        if entry is not None and entry.seated:
            entry.seated = False
            self._arm(transport, entry)  # type: ignore[arg-type]

    def _arm(self, transport: asyncio.BaseTransport, entry: _Entry) -> None:
        if entry.timer is not None:
            entry.timer.cancel()
        entry.timer = asyncio.get_running_loop().call_later(self.join_timeout, self._expire, transport)

    def _expire(self, transport: asyncio.BaseTransport) -> None:
        entry = self.conns.get(transport)
        if entry is not None and not entry.seated:
            self.timed_out += 1
            self._close(transport)


class _Guarded(asyncio.Protocol):
    """aiohttp's protocol for one connection, behind the guard."""

    def __init__(self, guard: Guard, make: Callable[[], Any]) -> None:
        self.guard = guard
        self.make = make
        self.inner: Any = None
        self.transport: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        if not self.guard.admit(transport):
            if isinstance(transport, asyncio.Transport):
                transport.abort()
            return
        self.transport = transport
        self.inner = self.make()
        self.inner.connection_made(transport)

    def connection_lost(self, exc: Exception | None) -> None:
        if self.transport is not None:
            self.guard.forget(self.transport)
        if self.inner is not None:
            self.inner.connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.inner is not None:
            self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        return self.inner.eof_received() if self.inner is not None else None

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()


class GuardedSite(web.BaseSite):
    """A TCP site whose every connection passes the guard first."""

    def __init__(self, runner: web.BaseRunner, host: str, port: int, guard: Guard) -> None:
        super().__init__(runner)
        self._host, self._port, self.guard = host, port, guard

    @property
    def name(self) -> str:
        return f"http://{self._host}:{self._port}"

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None
        loop = asyncio.get_running_loop()
        self._server = await loop.create_server(lambda: _Guarded(self.guard, server), self._host, self._port,
                                                reuse_address=True)
