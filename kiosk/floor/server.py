"""`tablehost floor`: the staff's floor page on the café LAN (aiohttp on its own thread), behind the floor PIN.

Routes: the page and its assets, `POST /login` (PIN → an HttpOnly session cookie; 5 wrong tries lock entry for
60 s), `/ws` (every table live, pushed on each change; `ack` from the page acknowledges a call), `/stats.csv`
(statistics across tables) and the content form (`kiosk.floor.content_form`). Nothing works without the cookie
except the page shell and the login."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from kiosk.floor.board import FloorBoard
from kiosk.floor.store import FloorStore
from kiosk.loop_thread import LoopThread
from kiosk.pin import PinLock

log = logging.getLogger(__name__)
COOKIE = "floor_session"
ASSETS = {"/floor.js": "application/javascript", "/content.js": "application/javascript", "/floor.css": "text/css"}
FONT = Path(__file__).resolve().parents[1] / "fonts" / "NanumGothic.ttf"
PUSH_EVERY = 5.0  # seconds between pushes when nothing changed (clocks are counted on the page)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _asset(name: str) -> str:
    return (resources.files("kiosk.floor") / "static" / name).read_text(encoding="utf-8")


class FloorServer:
    def __init__(self, board: FloorBoard, store: FloorStore, pin_hash: str, strings: Mapping[str, Any],
                 host: str = "127.0.0.1", port: int = 8080, clock: Callable[[], float] = time.time) -> None:
        self.board = board
        self.store = store
        self.pin_hash = pin_hash
        self.strings = strings
        self.host, self.port = host, port
        self.clock = clock
        self.lock = PinLock()
        self.sessions: set[str] = set()
        self.extra_routes: list[Callable[[web.Application], None]] = []
        self.pushes = 0
        self.content_state: Callable[[], dict[str, Any]] = dict  # the content form's state (content_form)
        self._sockets: set[web.WebSocketResponse] = set()
        self._dirty = asyncio.Event()
        self._runs = LoopThread("floor-page")
        self._runner: web.AppRunner | None = None
        board.on_change = self._changed

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    # ------------------------------------------------------------ life
    def start(self, timeout: float = 10.0) -> None:
        self._runs.start(self._startup, timeout)

    def stop(self, timeout: float = 5.0) -> None:
        self._runs.stop(self._shutdown, timeout)

    async def _startup(self) -> None:
        self._dirty = asyncio.Event()
        app = web.Application(middlewares=[self._headers], client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self._index)
        for path in ASSETS:
            app.router.add_get(path, self._static)
        app.router.add_get("/font.ttf", self._font)
        app.router.add_post("/login", self._login)
        app.router.add_post("/logout", self._logout)
        app.router.add_get("/ws", self._ws)
        app.router.add_get("/stats.csv", self._stats)
        app.router.add_get("/me", self._me)
        for add in self.extra_routes:
            add(app)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        if self.port == 0:
            self.port = int(self._runner.addresses[0][1])
        asyncio.get_running_loop().create_task(self._pusher())

    async def _shutdown(self) -> None:
        for ws in list(self._sockets):
            with contextlib.suppress(Exception):
                await asyncio.wait_for(ws.close(code=1001), 1.0)
        if self._runner is not None:
            await self._runner.cleanup()

    # ------------------------------------------------------------ http
    @web.middleware
    async def _headers(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        response = await handler(request)
        response.headers["Content-Security-Policy"] = ("default-src 'self'; connect-src 'self'; "
                                                       "img-src 'self' data:; media-src 'self' blob:")
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        response.headers["Cache-Control"] = "no-store"
        return response

    def authorised(self, request: web.Request) -> bool:
        return request.cookies.get(COOKIE, "") in self.sessions

    def require(self, request: web.Request) -> None:
        if not self.authorised(request):
            raise web.HTTPForbidden(text="PIN")

    async def _index(self, request: web.Request) -> web.Response:
        strings = json.dumps(self.strings, ensure_ascii=False).replace("<", "\\u003c")
        html = _asset("floor.html").replace("{{STRINGS}}", strings)
        return web.Response(text=html, content_type="text/html")

    async def _static(self, request: web.Request) -> web.Response:
        path = request.path
        return web.Response(text=_asset(path.lstrip("/")), content_type=ASSETS[path])

    async def _font(self, request: web.Request) -> web.FileResponse:
        resp = web.FileResponse(FONT)
        resp.headers["Content-Type"] = "font/ttf"
        return resp

    async def _login(self, request: web.Request) -> web.Response:
        try:
            data = await request.json()
            pin = str(data.get("pin", ""))[:16]
        except (ValueError, AttributeError):
            return web.json_response({"ok": False, "error": "bad"}, status=400)
        now = self.clock()
        if self.lock.locked(now):
            return web.json_response({"ok": False, "locked": self.lock.seconds_left(now)}, status=429)
        loop = asyncio.get_running_loop()
        ok, self.lock = await loop.run_in_executor(None, self.lock.attempt, pin, self.pin_hash, now)
        if not ok:
            status = 429 if self.lock.locked(now) else 403
            return web.json_response({"ok": False, "locked": self.lock.seconds_left(now)}, status=status)
        token = secrets.token_urlsafe(24)
        self.sessions.add(token)
        resp = web.json_response({"ok": True})
        resp.set_cookie(COOKIE, token, httponly=True, samesite="Strict", max_age=12 * 3600)
        return resp

    async def _me(self, request: web.Request) -> web.Response:
        return web.json_response({"ok": self.authorised(request)}, status=200 if self.authorised(request) else 403)

    async def _logout(self, request: web.Request) -> web.Response:
        self.sessions.discard(request.cookies.get(COOKIE, ""))
        resp = web.json_response({"ok": True})
        resp.del_cookie(COOKIE)
        return resp

    async def _stats(self, request: web.Request) -> web.Response:
        self.require(request)
        day = time.strftime("%Y%m%d")
        return web.Response(body=self.store.csv_text().encode("utf-8"), content_type="text/csv", charset="utf-8",
                            headers={"Content-Disposition": f'attachment; filename="floor-stats-{day}.csv"'})

    # ------------------------------------------------------------ live tables
    def _changed(self, _table: str) -> None:
        loop = self._runs.loop
        if loop is not None:
            loop.call_soon_threadsafe(self._dirty.set)

    def push_now(self) -> None:
        self._changed("")

    def snapshot(self) -> dict[str, Any]:
        return {"t": "tables", "tables": self.board.snapshot(), "broker": self.board.connected,
                "content": self.content_state()}

    async def _pusher(self) -> None:
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._dirty.wait(), PUSH_EVERY)
            self._dirty.clear()
            if not self._sockets:
                continue
            text = json.dumps(self.snapshot(), ensure_ascii=False)
            self.pushes += 1
            for ws in list(self._sockets):
                with contextlib.suppress(Exception):
                    await ws.send_str(text)
            await asyncio.sleep(0.05)  # at most 20 pushes a second, however busy the floor

    async def _ws(self, request: web.Request) -> web.WebSocketResponse:
        self.require(request)
        origin = request.headers.get("Origin", "")
        if origin and origin.split("://", 1)[-1] != request.host:
            raise web.HTTPForbidden(text="origin")  # another site's page may not drive the floor
        ws = web.WebSocketResponse(heartbeat=15.0, max_msg_size=16 * 1024)
        await ws.prepare(request)
        self._sockets.add(ws)
        try:
            await ws.send_str(json.dumps(self.snapshot(), ensure_ascii=False))
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                try:
                    data = json.loads(msg.data)
                except ValueError:
                    continue
                if isinstance(data, dict) and data.get("t") == "ack":
                    table, call = str(data.get("table", "")), data.get("call")
                    self.board.ack(table, str(call) if call else None)
        finally:
            self._sockets.discard(ws)
        return ws
