"""The phones' server under a hostile guest on the café Wi-Fi (issue 19, item 6): connection caps overall
and per address, idle time-outs, a join budget per address, security headers on every response, no
version banner, the Host header checked. Extra loopback addresses (127.0.0.x) stand in for other phones."""

from __future__ import annotations

import asyncio
import json
import os
import resource
import socket
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp

from engines.core import TABLE
from engines.spyfall import actions as A
from phones import tokens
from table.table import Table as Session
from tests.phones.helpers import MainThread, Phone, new_session, serve, until
from tests.tables import act

SPY = {"players": ["지수", "민호", "서연"], "rounds": 1, "votes": "sealed"}
ROOT = Path(__file__).resolve().parents[2]
HEADERS = {"Content-Security-Policy", "X-Content-Type-Options", "X-Frame-Options", "Referrer-Policy",
           "Cache-Control", "Cross-Origin-Opener-Policy", "Cross-Origin-Resource-Policy", "Permissions-Policy"}


def run(tmp_path: Path, body: Callable[..., Awaitable[None]], server_kw: dict[str, Any] | None = None,
        **hub_kw: Any) -> None:
    session = new_session(tmp_path, "spyfall", SPY)
    try:
        serve(lambda hub, server, main: body(session, hub, server, main), session, server_kw, **hub_kw)
    finally:
        session.close()


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def test_a_thousand_idle_websockets_leave_room_for_games_saves_and_joins(tmp_path: Path) -> None:
    """1,050 idle WebSockets from 50 addresses, the kiosk's usual limit of 1,024 open files: a new game
    starts, its steps are saved, a new code is saved, and a phone joins and gets its state."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))  # systemd's default soft limit for a service
    flood: subprocess.Popen[str] | None = None
    figures: dict[str, Any] = {}
    try:
        async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
            nonlocal flood
            before = open_fds()
            flood = subprocess.Popen([sys.executable, "-m", "tests.phones.flood", str(server.port), "1050", "50"],
                                     cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
            assert flood.stdout is not None
            line = await asyncio.wait_for(asyncio.to_thread(flood.stdout.readline), 120)
            figures.update(json.loads(line))
            figures["server_fds_before"] = before
            figures["server_fds_during"] = open_fds()
            # a new game on this tablet: its journal opens and its steps are saved
            other = new_session(tmp_path / "next", "spyfall", SPY, seed=9)
            act(other, A.ChooseDealer(TABLE, 1))
            other.close()
            act(session, A.ChooseDealer(TABLE, 0))
            hub.store = tmp_path / "passes.json"
            hub.reissue(2)  # the passes file is written (by its writer thread)
            tokens.flush()
            assert hub.store.exists()
            # a real phone joins while the flood holds its sockets
            phone = await Phone.open(server.url)
            hello = await phone.join(token=hub.seat_pass(1).token)
            assert hello["t"] == "hello", hello
            state = await phone.state_like(session, 1)
            assert state["view"]["round"]["dealer"] == 0
            await phone.close()
            figures["server_fds_after_join"] = open_fds()
            figures["pushed_out"], figures["timed_out"] = server.guard.pushed_out, server.guard.timed_out

        run(tmp_path, body)
    finally:
        if flood is not None:
            flood.kill()
            flood.wait(10)
            if flood.stdout is not None:
                flood.stdout.close()
            if flood.stdin is not None:
                flood.stdin.close()
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    print("flood figures:", figures)
    assert figures["tried"] == 1050
    assert figures["server_fds_during"] - figures["server_fds_before"] < 300, figures


def test_ten_addresses_guessing_codes_cannot_keep_a_good_phone_out(tmp_path: Path) -> None:
    """Ten addresses spend their own join budgets on bad codes, then send one bad code every 5 s each
    (virtual clock): a phone at another address still joins with its code at the first try."""
    now = [1000.0]

    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        guessers = [await Phone.open(server.url, source=f"127.0.0.{i}") for i in range(2, 12)]
        sent, refused = 0, 0
        for g in guessers:  # each spends its allowance at once
            while True:
                sent += 1
                if (await g.join(code="AAAA-AAAA"))["code"] == "rate_limited":
                    refused += 1
                    break
        for _ in range(12):  # a minute: one bad code per address every 5 s
            now[0] += 5.0
            for g in guessers:
                sent += 1
                refused += (await g.join(code="AAAA-AAAA"))["code"] == "rate_limited"
        good = await Phone.open(server.url, source="127.0.0.1")
        hello = await good.join(code=hub.status()[1].code)
        assert hello["t"] == "hello" and hello["seat"] == 1, hello
        print(f"join budget: {sent} bad codes from 10 addresses ({refused} refused as too fast); "
              "a phone at another address joined at once")
        for g in [*guessers, good]:
            await g.close()

    run(tmp_path, body, clock=lambda: now[0])


def test_connections_are_capped_per_address_and_overall_yet_a_phone_still_joins(tmp_path: Path) -> None:
    """One address cannot hold more than its share; many addresses cannot fill the server against a new
    phone (the oldest connection that has not joined a seat makes room)."""
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        held: list[socket.socket] = []
        # (the caps are waited for, not given a fixed time: a connection the server has not taken yet looks open)
        for _ in range(40):  # 40 from one address, then 60 more from ten others
            held.append(_connect(server.port, "127.0.0.2"))
        await until(lambda: sum(_alive(s) for s in held) <= 6)
        for i in range(60):
            held.append(_connect(server.port, f"127.0.0.{3 + i % 10}"))
        await until(lambda: sum(_alive(s) for s in held) <= 20)
        phone = await Phone.open(server.url)
        assert (await phone.join(token=hub.seat_pass(0).token))["t"] == "hello"
        await phone.recv("state")
        for i in range(30):  # the joined phone is never the one pushed out
            held.append(_connect(server.port, f"127.0.0.{20 + i % 10}"))
        await until(lambda: sum(_alive(s) for s in held) <= 19)  # all 30 taken: the phone holds the 20th
        assert hub.connected(0)
        await phone.send({"t": "ping"})
        assert (await phone.recv("pong"))["t"] == "pong"
        print(f"caps: 130 connections tried, {sum(_alive(s) for s in held)} still open, the phone stayed")
        for s in held:
            s.close()
        await phone.close()

    run(tmp_path, body, server_kw={"max_connections": 20, "max_per_address": 6})


def test_idle_connections_time_out(tmp_path: Path) -> None:
    """A socket that never joins, a joined phone that falls silent, and an idle keep-alive are closed."""
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        # each timed from before its own connection or message (the server's timer starts after it), not from a
        # moment after the others' set-up, which took longer than the join timeout's margin on a slow machine
        t_lurker = time.monotonic()
        lurker = await Phone.open(server.url)
        silent = await Phone.open(server.url)
        t_silent = time.monotonic()
        assert (await silent.join(token=hub.seat_pass(0).token))["t"] == "hello"
        keep = _connect(server.port, "127.0.0.1")
        keep.sendall(f"GET / HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\n\r\n".encode())
        await _closed(lurker)
        lurker_closed = time.monotonic()
        await _closed(silent)
        silent_closed = time.monotonic()
        await until(lambda: not hub.connected(0), 2)
        await until(lambda: not _alive(keep), 5)
        with_lurker, with_silent = lurker_closed - t_lurker, silent_closed - t_silent
        assert 0.55 < with_lurker < 4 and 1.45 < with_silent < 6, (with_lurker, with_silent)
        assert lurker_closed < silent_closed
        await lurker.close()
        await silent.close()
        keep.close()

    run(tmp_path, body, server_kw={"join_timeout": 0.6, "idle_timeout": 1.5, "keepalive_timeout": 0.6})


def test_every_response_has_the_security_headers_and_no_version_banner(tmp_path: Path) -> None:
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        seen = []
        async with aiohttp.ClientSession() as http:
            for method, path in (("GET", "/"), ("GET", "/page.js"), ("GET", "/page.css"), ("GET", "/nope"),
                                 ("POST", "/"), ("GET", "/ws")):
                async with http.request(method, server.url + path) as r:
                    seen.append((path, r.status, r.headers))
            async with http.get(server.url + "/ws", headers={"Origin": "http://evil.example", "Upgrade": "websocket",
                                                              "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                                                              "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="}) as r:
                seen.append(("/ws evil origin", r.status, r.headers))
        assert {s for _, s, _ in seen} >= {200, 404, 405, 403}
        raw = _raw(server.port, b"NOT A REQUEST\r\n\r\n")
        status, headers = _parse_head(raw)
        seen.append(("garbage", status, headers))
        for what, status, headers in seen:
            missing = HEADERS - set(headers)
            assert not missing, (what, status, missing)
            banner = headers.get("Server", "")
            assert "aiohttp" not in banner.lower() and "python" not in banner.lower(), (what, banner)
            assert headers["X-Frame-Options"] == "DENY" and headers["X-Content-Type-Options"] == "nosniff"

    run(tmp_path, body)


def test_the_host_header_is_checked(tmp_path: Path) -> None:
    """A page from another name (DNS rebinding: evil.example resolving to the tablet) gets nothing."""
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        for host in (b"evil.example", b"evil.example:%d" % server.port, b"localhost.evil.example"):
            for path in (b"/", b"/page.js", b"/ws"):
                status, _ = _parse_head(_raw(server.port, b"GET " + path + b" HTTP/1.1\r\nHost: " + host +
                                             b"\r\n\r\n"))
                assert status == 421, (host, path, status)
        status, _ = _parse_head(_raw(server.port, b"GET / HTTP/1.1\r\n\r\n"))
        assert status in (400, 421)  # no Host at all: aiohttp's parser refuses it first
        status, _ = _parse_head(_raw(server.port, b"GET / HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % server.port))
        assert status == 200

    run(tmp_path, body)


# ---------------------------------------------------------------- raw sockets
def _connect(port: int, source: str) -> socket.socket:
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((source, 0))
    s.settimeout(2)
    try:
        s.connect(("127.0.0.1", port))
    except OSError:
        pass
    return s


def _alive(s: socket.socket) -> bool:
    """Still open from the server's side: whatever it sent is read and thrown away; no FIN, no reset."""
    s.setblocking(False)
    try:
        while True:
            if not s.recv(65536):
                return False
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        s.setblocking(True)


async def _closed(phone: Phone) -> None:
    """Wait until the server closes the phone's socket (whatever it sent before)."""
    while True:
        msg = await phone.ws.receive(timeout=5)
        if msg.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING):
            return


def _raw(port: int, request: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(request)
        out = b""
        while b"\r\n\r\n" not in out:
            chunk = s.recv(65536)
            if not chunk:
                break
            out += chunk
        return out


def _parse_head(raw: bytes) -> tuple[int, dict[str, str]]:
    head = raw.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    status = int(head[0].split()[1]) if head and len(head[0].split()) > 1 else 0
    headers = {}
    for line in head[1:]:
        if ":" in line:
            k, v = line.split(":", 1)
            headers[k.strip()] = v.strip()
    return status, headers
