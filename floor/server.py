"""`tablehost floor`: the staff's floor page on the café LAN (aiohttp on its own thread), behind the floor PIN.

The page gets every table once when it connects, then only the tables whose view changed (moving clocks
aside: the page counts them from when it got each table). Routes: the page and its assets, `POST /login` (PIN → an HttpOnly session cookie; 5 wrong tries lock entry
from that address for 60 s, doubling; only the page's own origin may post it), `/ws` (every table live, pushed on each change; `ack` from the page acknowledges a call), `/stats.csv`
(statistics across tables) and the content form (`floor.content_floor`). Nothing works without the cookie
except the page shell and the login. Sessions are kept on disk (hashed), so a restart of this service does not log
the staff out; `unlock()` (staff entering their PIN on a tablet) lifts every address's lock."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable, Mapping
from importlib import resources
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

from floor import topics, webfont
from floor.board import FloorBoard
from floor.store import FloorStore
from table.loop_thread import LoopThread
from table.pin import PinLock

log = logging.getLogger(__name__)
COOKIE = "floor_session"
ASSETS = {"/floor.js": "application/javascript", "/content.js": "application/javascript", "/floor.css": "text/css"}
FONT = Path(__file__).resolve().parents[1] / "kiosk" / "fonts" / "NanumGothic.ttf"
SESSION_S = 12 * 3600
MAX_FORM = 32 * 1024 * 1024  # a case form with its recording (floor.cases.MAX_ITEM_BYTES and the fields)
MAX_LOCKS = 4096  # addresses whose wrong PINs are remembered
PUSH_EVERY = 2.0  # seconds between looks when no message came (online also follows the age of a status)
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def _asset(name: str) -> str:
    return (resources.files("floor") / "static" / name).read_text(encoding="utf-8")


class FloorServer:
    def __init__(self, board: FloorBoard, store: FloorStore, pin_hash: str, strings: Mapping[str, Any],
                 host: str = "127.0.0.1", port: int = 8080, clock: Callable[[], float] = time.time,
                 sessions_path: Path | None = None) -> None:
        self.board = board
        self.store = store
        self.pin_hash = pin_hash
        self.strings = strings
        self.host, self.port = host, port
        self.clock = clock
        self.locks: dict[str, PinLock] = {}  # by client address
        self.sessions_path = sessions_path
        self.sessions: dict[str, float] = _load_sessions(sessions_path, clock())  # sha256(token) → expiry
        self.extra_routes: list[Callable[[web.Application], object]] = []
        self.pushes = 0
        self.pushed_bytes = 0
        self._sent: dict[str, str] = {}  # each table's view as last pushed (moving clocks aside)
        self._head: dict[str, Any] = {}
        self._dirty_tables: set[str] = set()  # tables with news since the last push (loop thread)
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
        app = web.Application(middlewares=[self._headers], client_max_size=MAX_FORM)
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
        response.headers.setdefault("Cache-Control", "no-store")
        return response

    def authorised(self, request: web.Request) -> bool:
        token = request.cookies.get(COOKIE, "")
        return bool(token) and self.sessions.get(_digest(token), 0.0) > self.clock()

    def unlock(self) -> None:
        """Staff proved themselves elsewhere (their PIN on a tablet): every address may try again."""
        self.locks.clear()

    def _remember(self) -> None:
        now = self.clock()
        self.sessions = {k: v for k, v in self.sessions.items() if v > now}
        _save_sessions(self.sessions_path, self.sessions)

    @staticmethod
    def same_origin(request: web.Request) -> bool:
        """A login from the page itself: JSON (a cross-site form cannot send it without a preflight we never
        answer), and an Origin or Sec-Fetch-Site, when the browser sends one, naming this page."""
        if request.content_type != "application/json":
            return False
        origin = request.headers.get("Origin")
        if origin is not None and origin.split("://", 1)[-1] != request.host:
            return False
        return request.headers.get("Sec-Fetch-Site", "same-origin") in ("same-origin", "none")

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

    async def _font(self, request: web.Request) -> web.Response:
        body = await asyncio.get_running_loop().run_in_executor(None, webfont.served, FONT)
        return web.Response(body=body, content_type="font/ttf", headers={"Cache-Control": "max-age=86400"})

    async def _login(self, request: web.Request) -> web.Response:
        if not self.same_origin(request):  # another site's form: refused, and no wrong PIN counted
            return web.json_response({"ok": False, "error": "origin"}, status=403)
        try:
            data = await request.json()
            pin = str(data.get("pin", ""))[:16]
        except (ValueError, AttributeError):
            return web.json_response({"ok": False, "error": "bad"}, status=400)
        now = self.clock()
        address = request.remote or ""
        lock = self.locks.get(address, PinLock())
        if lock.locked(now):
            return web.json_response({"ok": False, "locked": lock.seconds_left(now)}, status=429)
        loop = asyncio.get_running_loop()
        ok, lock = await loop.run_in_executor(None, lock.attempt, pin, self.pin_hash, now)
        if ok:
            self.locks.pop(address, None)
        else:
            self.locks[address] = lock
            if len(self.locks) > MAX_LOCKS:  # forget the addresses that are not locked, oldest first
                for old in [a for a, v in self.locks.items() if not v.locked(now)][: len(self.locks) - MAX_LOCKS]:
                    del self.locks[old]
            status = 429 if lock.locked(now) else 403
            return web.json_response({"ok": False, "locked": lock.seconds_left(now)}, status=status)
        token = secrets.token_urlsafe(24)
        self.sessions[_digest(token)] = now + SESSION_S
        await loop.run_in_executor(None, self._remember)
        resp = web.json_response({"ok": True})
        resp.set_cookie(COOKIE, token, httponly=True, samesite="Strict", max_age=SESSION_S)
        return resp

    async def _me(self, request: web.Request) -> web.Response:
        return web.json_response({"ok": self.authorised(request)}, status=200 if self.authorised(request) else 403)

    async def _logout(self, request: web.Request) -> web.Response:
        self.sessions.pop(_digest(request.cookies.get(COOKIE, "")), None)
        self._remember()
        resp = web.json_response({"ok": True})
        resp.del_cookie(COOKIE)
        return resp

    async def _stats(self, request: web.Request) -> web.Response:
        self.require(request)
        day = time.strftime("%Y%m%d")
        lang = request.query.get("lang", "ko")
        texts = self.strings.get(lang) if lang in ("ko", "en") else None
        texts = texts if isinstance(texts, dict) else self.strings.get("ko", {})
        headers = {k[4:]: v for k, v in texts.items() if k.startswith("csv.")}
        games = {gid: names.get(lang) or names.get("ko") or gid for gid, names in self.strings.get("games", {}).items()}
        return web.Response(body=self.store.csv_text(headers, games).encode("utf-8"), content_type="text/csv", charset="utf-8",
                            headers={"Content-Disposition": f'attachment; filename="floor-stats-{day}.csv"'})

    # ------------------------------------------------------------ live tables
    def _changed(self, table: str) -> None:
        loop = self._runs.loop
        if loop is not None:
            loop.call_soon_threadsafe(self._mark, table)

    def _mark(self, table: str) -> None:
        if table:
            self._dirty_tables.add(table)
        self._dirty.set()

    def push_now(self) -> None:
        self._changed("")

    def snapshot(self) -> dict[str, Any]:
        return {"t": "tables", "tables": self.board.snapshot(), "broker": self.board.connected,
                "content": self.content_state()}

    def changes(self, everything: bool = True) -> dict[str, Any] | None:
        """What changed since the last push, moving clocks aside (the page counts them): the tables whose view
        changed (among those with news, or all with `everything`), with the link and content state; None when
        nothing did."""
        dirty, self._dirty_tables = self._dirty_tables, set()
        tables = self.board.snapshot(None if everything else dirty)
        changed = []
        for view in tables:
            shape = json.dumps(_shape(view), sort_keys=True, ensure_ascii=False)
            if self._sent.get(view["table"]) != shape:
                self._sent[view["table"]] = shape
                changed.append(view)
        head = {"broker": self.board.connected, "content": self.content_state()}
        if not changed and head == self._head:
            return None
        self._head = head
        return {"t": "diff", "tables": changed, **head}

    async def _pusher(self) -> None:
        looked = time.monotonic()
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._dirty.wait(), max(0.0, looked + PUSH_EVERY - time.monotonic()))
            self._dirty.clear()
            everything = time.monotonic() >= looked + PUSH_EVERY  # now and then: online by the age of statuses
            if everything:
                looked = time.monotonic()
            diff = self.changes(everything)
            if diff is None or not self._sockets:
                continue
            text = json.dumps(diff, ensure_ascii=False)
            self.pushes += 1
            self.pushed_bytes += len(text)
            for ws in list(self._sockets):
                with contextlib.suppress(Exception):
                    await ws.send_str(text)
            await asyncio.sleep(0.02)  # at most 50 pushes a second, however busy the floor

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


def _shape(view: dict[str, Any]) -> dict[str, Any]:
    """A table's view without what only time moves (the page adds the time since it got the view)."""
    out = {k: v for k, v in view.items() if k not in ("seated_s", "game_s", "status_age_s")}
    out["calls"] = [{k: v for k, v in c.items() if k != "waiting_s"} for c in view["calls"]]
    out["seated"], out["playing"] = view["seated_s"] is not None, view["game_s"] is not None
    return out


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _load_sessions(path: Path | None, now: float) -> dict[str, float]:
    return {str(k): float(v) for k, v in topics.load_json(path).items() if isinstance(v, (int, float)) and v > now}


def _save_sessions(path: Path | None, sessions: dict[str, float]) -> None:
    """Only the tokens' hashes are written (0600): the file cannot log anyone in."""
    if path is not None:
        topics.save_json(path, sessions)
