"""The phones' web server: aiohttp on its own thread and asyncio loop, beside Kivy.

It serves exactly three things: the page (`/`, `/page.js`, `/page.css`, `/nacl.js`, all from this package)
and one WebSocket (`/ws`) that speaks to the hub: after the key exchange (`key`), `join` (QR pass or typed
code, once per connection), `act` (an input), `name` (at set-up), `ping`, every message after the
handshake sealed (`seal.py`; the protocol: README.md). JSON is read strictly and a message that cannot be
handled gets a refusal, never the end of its socket. There is
no other route: nothing of staff mode, no QR images (the codes are drawn on the tablet only), no files.
It listens on the one host and port it is given (the café LAN address in the kiosk, 127.0.0.1 in tests).

Hardening (issue 19): connections capped overall and per address, and closed when idle (`guard.py`; a
joined phone's socket after `idle_timeout` without a message — the page pings every 8 s); a request
whose Host is not this server's address is refused (421: no DNS rebinding); every response carries the
security headers and no version banner.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import json
import logging
from collections.abc import Callable, Mapping
from importlib import resources
from typing import Any

from aiohttp import WSMsgType, web

from phones.channel import PhoneHub, _direct
from phones.guard import Guard, GuardedSite
from phones.ratelimit import Limiter
from phones.seal import NO_PASS, Channel, loads, number_of, pass_of
from table.loop_thread import LoopThread

log = logging.getLogger(__name__)
MAX_MESSAGE = 16 * 1024
# path → (file in static/, type); nacl.js is TweetNaCl 1.0.3 from npm, vendored (static/README.md)
STATIC = {"/page.js": ("page.js", "application/javascript"), "/page.css": ("page.css", "text/css"),
          "/nacl.js": ("nacl-fast.min.js", "application/javascript")}


def _hostname(host: str) -> str:
    """The name part of a Host header ("[::1]:8765" → "::1", "10.0.0.5:8765" → "10.0.0.5")."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:host.find("]")] if "]" in host else ""
    name, _, port = host.rpartition(":")
    return name if name and port.isdigit() else host


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


def _asset(name: str) -> str:
    return (resources.files("phones") / "static" / name).read_text(encoding="utf-8")


class WsConn:
    """A phone's WebSocket as the hub sees it: `send`/`close` may be called from any thread."""

    def __init__(self, ws: web.WebSocketResponse, loop: asyncio.AbstractEventLoop, remote: str,
                 transport: asyncio.BaseTransport | None = None) -> None:
        self.ws = ws
        self.transport = transport
        self.loop = loop
        self.remote = remote
        self.seat: int | None = None
        self.channel = Channel()  # sealing: every message after the greeting is a box
        self.queue: asyncio.Queue[tuple[str, Mapping[str, Any]]] = asyncio.Queue()
        self.queue.put_nowait(("greet", self.channel.greeting()))

    def send(self, message: Mapping[str, Any]) -> None:
        self.loop.call_soon_threadsafe(self.queue.put_nowait, ("send", message))

    def close(self, message: Mapping[str, Any]) -> None:
        self.loop.call_soon_threadsafe(self.queue.put_nowait, ("close", message))

    async def writer(self) -> None:
        while True:
            kind, message = await self.queue.get()
            if kind == "stop" or self.ws.closed:
                return
            try:
                out = message if kind == "greet" else self.channel.wrap(message)
            except (TypeError, ValueError):  # not JSON (a NaN in a view): that message is lost, not the writer
                log.exception("a message for a phone could not be written")
                continue
            try:
                await self.ws.send_str(json.dumps(out, ensure_ascii=False))
                if kind == "close":
                    await self.ws.close()
                    return
            except (ConnectionError, RuntimeError):
                return


class PhoneServer:
    def __init__(self, hub: PhoneHub, host: str = "127.0.0.1", port: int = 8765,
                 message_burst: float = 30, message_rate: float = 10, max_connections: int = 256,
                 max_per_address: int = 16, join_timeout: float = 20.0, idle_timeout: float = 60.0,
                 keepalive_timeout: float = 15.0, exchange_burst: float = 16, exchange_rate: float = 0.5) -> None:
        self.hub = hub
        self.host = host
        self.port = port
        self.messages = Limiter(message_burst, message_rate, hub.clock)
        # key exchanges per address: a relay cannot open connection after connection until one shows the
        # digits its victim's phone shows (seal.number_of: 1 in 10,000 a try)
        self.exchanges = Limiter(exchange_burst, exchange_rate, hub.clock)
        self.guard = Guard(max_connections, max_per_address, join_timeout)
        self.idle_timeout = idle_timeout
        self.keepalive_timeout = keepalive_timeout
        self._runs = LoopThread("phones-server")
        self._runner: web.AppRunner | None = None
        self._page = ""
        self._sockets: set[web.WebSocketResponse] = set()

    # ------------------------------------------------------------ life
    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def join_url(self, seat: int) -> str | None:
        """What the seat's QR code holds (the token rides in the fragment, never sent in a request line)."""
        p = self.hub.seat_pass(seat)
        return f"{self.url}/#t={p.token}" if p is not None else None

    def start(self, timeout: float = 10.0) -> None:
        """Start serving on a background thread; raises OSError if the port cannot be had."""
        strings = json.dumps(self.hub.cat.page_strings(), ensure_ascii=False).replace("<", "\\u003c")
        self._page = _asset("page.html").replace("{{STRINGS}}", strings)
        self._runs.start(self._startup, timeout)

    def stop(self, timeout: float = 5.0) -> None:
        if self._runs.loop is None:
            return
        self.hub.offload = _direct
        self._runs.stop(self._shutdown, timeout)

    async def _startup(self) -> None:
        app = web.Application(middlewares=[self._check_host], client_max_size=MAX_MESSAGE)
        app.router.add_get("/", self._index)
        for path in STATIC:
            app.router.add_get(path, self._static)
        app.router.add_get("/ws", self._ws)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0,
                                     keepalive_timeout=self.keepalive_timeout)
        await self._runner.setup()
        protect = self._headers

        class Request(web.Request):
            """Every response is prepared through here, even aiohttp's own answer to a malformed request
            (which skips the app's on_response_prepare)."""

            async def _prepare_hook(self, response: web.StreamResponse) -> None:
                await super()._prepare_hook(response)
                protect(self, response)

        assert self._runner.server is not None
        self._runner.server.request_factory = functools.partial(app._make_request, _cls=Request)
        site = GuardedSite(self._runner, self.host, self.port, self.guard)
        await site.start()
        if self.port == 0:  # tests: the port the system gave
            self.port = int(self._runner.addresses[0][1])
        loop = asyncio.get_running_loop()

        def offload(fn: Callable[[], None]) -> None:
            loop.call_soon_threadsafe(fn)

        self.hub.offload = offload

    async def _shutdown(self) -> None:
        for ws in list(self._sockets):  # the phones see the drop at once and start reconnecting
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=1001), 1.0)
        if self._runner is not None:
            await self._runner.cleanup()

    # ------------------------------------------------------------ HTTP
    @web.middleware
    async def _check_host(self, request: web.Request, handler: Any) -> web.StreamResponse:
        """Only requests addressed to this server by its own address (a page served under another name,
        e.g. a DNS-rebinding domain that resolves to the tablet, gets nothing)."""
        if not self._our_host(request.headers.get("Host", "")):
            raise web.HTTPMisdirectedRequest(text="host")
        response: web.StreamResponse = await handler(request)
        return response

    def _our_host(self, host: str) -> bool:
        """The server's own address; bound to every interface, any address but never a name."""
        name = _hostname(host)
        if self.host in ("0.0.0.0", "::", ""):
            try:
                ipaddress.ip_address(name)
            except ValueError:
                return False
            return True
        return name == self.host.lower()

    def _headers(self, request: web.BaseRequest, response: web.StreamResponse) -> None:
        """Every response: pages, errors, the WebSocket handshake, a refusal of a malformed request."""
        ours = self._our_host(request.headers.get("Host", ""))
        response.headers["Server"] = "TableHost"  # no version banner
        response.headers["Content-Security-Policy"] = (
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            f"connect-src 'self' {f'ws://{request.host}' if ours else ''}; base-uri 'none'; form-action 'none'; "
            "frame-ancestors 'none'")
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["Cache-Control"] = "no-store"
        response.headers["Cross-Origin-Opener-Policy"] = "same-origin"
        response.headers["Cross-Origin-Resource-Policy"] = "same-origin"
        response.headers["Permissions-Policy"] = "camera=(), microphone=(), geolocation=(), payment=(), usb=()"

    async def _index(self, request: web.Request) -> web.Response:
        return web.Response(text=self._page, content_type="text/html", charset="utf-8")

    async def _static(self, request: web.Request) -> web.Response:
        name, kind = STATIC[request.path]
        return web.Response(text=_asset(name), content_type=kind, charset="utf-8")

    # ------------------------------------------------------------ the phone's socket
    async def _ws(self, request: web.Request) -> web.StreamResponse:
        origin = request.headers.get("Origin")
        if origin is not None and origin not in (f"http://{request.host}", f"https://{request.host}"):
            raise web.HTTPForbidden(text="origin")
        ws = web.WebSocketResponse(heartbeat=15.0, max_msg_size=MAX_MESSAGE, compress=False)
        await ws.prepare(request)
        self._sockets.add(ws)
        loop = asyncio.get_running_loop()
        conn = WsConn(ws, loop, request.remote or "?", request.transport)
        writer = loop.create_task(conn.writer())
        try:
            while True:
                try:  # a seat's phone pings every 8 s; a socket without a seat has the guard's time-out
                    msg = await ws.receive(timeout=self.idle_timeout if conn.channel.final else None)
                except TimeoutError:
                    break
                if msg.type != WSMsgType.TEXT:
                    break
                if not self.messages.allow(id(conn)):
                    conn.close(self.hub.bye_message("flood"))
                    break
                try:
                    data = loads(msg.data)
                except (ValueError, RecursionError):
                    data = None
                if not isinstance(data, dict):
                    conn.send(self.hub.error_message("bad_input"))
                    continue
                try:
                    await self._receive(conn, data)
                except Exception:  # noqa: BLE001 - a message that cannot be handled ends nothing
                    log.warning("a phone's message was not handled", exc_info=True)
                    conn.send(self.hub.error_message("bad_input"))
        finally:
            self._sockets.discard(ws)
            self.hub.leave(conn)
            self.messages.buckets.pop(id(conn), None)
            loop.call_soon(conn.queue.put_nowait, ("stop", {}))  # after what is queued (a bye still goes out)
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(writer), 1.0)
            writer.cancel()
        return ws

    async def _receive(self, conn: WsConn, data: dict[str, Any]) -> None:
        """The handshake in the clear (`key`, then one `join` sealed under the key it makes), then boxes
        under the connection's key. Nothing in the clear is believed but a ping."""
        channel = conn.channel
        kind = data.get("t")
        if kind == "key":
            if not self.exchanges.allow(conn.remote):
                conn.send(self.hub.error_message("rate_limited"))
                return
            conn.send(channel.exchange(data.get("pk")) or self.hub.error_message("bad_input"))
        elif kind == "join":
            if channel.final:  # a connection joins once: no second seat, no other key
                conn.send(self.hub.error_message("already_joined"))
            else:
                self._join(conn, data)
        elif "box" in data and channel.key is not None:
            message = channel.open(data["box"])
            if message is None or message.get("t") in ("join", "key"):
                conn.send(self.hub.error_message("bad_input"))
            else:
                await self._handle(conn, message)
        elif kind == "ping":
            conn.send({"t": "pong"})
        elif (kind == "act" or "box" in data) and channel.key is None:
            conn.send(self.hub.error_message("not_joined"))
        else:
            conn.send(self.hub.error_message("bad_input"))

    def _join(self, conn: WsConn, data: dict[str, Any]) -> None:
        """Which pass made the key that opens the join box: a seat's token with its phone's device key, the
        token alone (a phone new to the seat), or none (a typed code, inside the box). The code or pass is
        checked by the hub before the key becomes the connection's."""
        channel, box = conn.channel, data.get("box")
        if channel.key_for(NO_PASS * 2) is None:  # no key exchange yet
            conn.send(self.hub.error_message("bad_input"))
            return
        found: tuple[bytes, dict[str, Any], str, str] | None = None
        if data.get("via") == "code":
            key = channel.key_for(NO_PASS * 2)
            message = channel.open(box, key) if key is not None else None
            if key is None or message is None:
                conn.send(self.hub.error_message("bad_input"))
                return
            found = (key, message, "", "")
            reply = self.hub.join(conn, code=_text(message.get("code")), number=number_of(key))
        else:
            found = self._open_join(channel, box)
            if found is None:
                reply = self.hub.join(conn)  # no seat's pass: refused, and it spends the address's budget
            else:
                key, _, token, device = found
                reply = self.hub.join(conn, token=token, device=device, number=number_of(key))
        if reply["t"] == "error" or found is None:
            conn.send(reply)
            return
        channel.take(found[0])  # before anything queued for the phone is sealed (same thread, no await)
        self.guard.hold(conn.transport)

    def _open_join(self, channel: Channel, box: Any) -> tuple[bytes, dict[str, Any], str, str] | None:
        for token, device in self.hub.seat_passes():
            for dev in (device, "") if device else ("",):
                key = channel.key_for(pass_of(token, dev))
                message = channel.open(box, key) if key is not None else None
                if key is not None and message is not None:
                    return key, message, token, dev
        return None

    async def _handle(self, conn: WsConn, data: dict[str, Any]) -> None:
        kind = data.get("t")
        if kind == "ping":
            conn.send({"t": "pong"})
        elif kind == "name":  # at set-up: the player's own name, typed on the phone
            conn.send(self.hub.name_from_phone(conn, data.get("name")))
        elif kind == "act":
            fut = self.hub.act(conn, data)
            try:
                reply = await asyncio.wait_for(asyncio.wrap_future(fut), 10.0)
            except TimeoutError:
                reply = self.hub.error_message("timeout")
            conn.send(reply)
        else:
            conn.send(self.hub.error_message("bad_input"))
