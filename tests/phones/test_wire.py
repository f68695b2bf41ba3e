"""Phone traffic is sealed end to end (issue 19, item 3): everything between phones and the kiosk is
recorded by a proxy on loopback, as a Wi-Fi eavesdropper would see it, while phones join by QR token and
by typed code, get their secret roles, accuse, vote and rejoin. Nothing of a seat's secret, its token, its
code or its device key is in the recording; the phones themselves read every message."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
from pathlib import Path
from typing import Any

from nacl.exceptions import CryptoError
from nacl.secret import SecretBox

from engines.core import TABLE
from engines.spyfall import actions as A
from phones.seal import b64, pass_of, seat_key
from tests.phones.helpers import Phone, new_session, serve, start_server, until
from tests.phones.wire import RecordingProxy, forms, ws_messages
from tests.tables import act

SPY = {"players": ["지수", "민호", "서연"], "rounds": 1, "votes": "sealed"}
CLEAR_FROM_KIOSK = {"hi", "key", "error", "pong", "bye"}  # all a kiosk sends unsealed (never a view, never a pass)


def secrets_of(hub: Any) -> dict[str, str]:
    """Every pass secret of the game: tokens, seat keys, typed codes, device keys."""
    out = {}
    for seat, p in hub.tokens.passes.items():
        out[f"token {seat}"] = p.token
        out[f"key {seat}"] = b64(seat_key(p.token))
        out[f"code {seat}"] = p.code
        out[f"typed code {seat}"] = f"{p.code[:4]}-{p.code[4:]}"
        if p.device:
            out[f"device {seat}"] = p.device
    return out


def check_recording(proxy: RecordingProxy, secrets: dict[str, str], words: dict[str, str]) -> dict[str, int]:
    """No secret anywhere in the recording, no word of a seat's view in any WebSocket message, and every
    kiosk message after the greeting sealed. Returns counts for the report."""
    raw = b"".join(bytes(c.up) + bytes(c.down) for c in proxy.connections)
    messages: list[bytes] = []
    sealed = clear = 0
    for c in proxy.connections:
        up, down = ws_messages(c)
        messages += up + down
        for m in down:
            data = json.loads(m)
            if "box" in data:
                sealed += 1
                assert set(data) == {"box"}
            else:
                clear += 1
                assert data["t"] in CLEAR_FROM_KIOSK, data
        for m in up:
            data = json.loads(m)
            assert set(data) <= {"t", "box", "pk", "via"}, data  # no token, code, device or input in the clear
    for what, value in secrets.items():
        for form in forms(value):
            assert form not in raw, f"{what} on the wire"
            assert not any(form in m for m in messages), f"{what} in a WebSocket message"
    for what, value in words.items():
        for form in forms(value):
            assert not any(form in m for m in messages), f"{what} in a WebSocket message"
    return {"bytes": len(raw), "connections": len(proxy.connections), "sealed": sealed, "clear": clear}


def closed_after_a_photo(proxy: RecordingProxy, hub: Any) -> None:
    """Forward secrecy: someone holding the recording and, later, every pass of the game (a photo of each
    QR code, the typed codes, even the device keys) opens no recorded box — each connection's key came
    from key pairs that lived only as long as the connection. (Before issue 42 the seat's key was
    SHA-512(token)[:32]: a photo opened everything recorded.)"""
    keys = [seat_key(p.token) for p in hub.tokens.passes.values()]
    keys += [pass_of(p.token, p.device)[:32] for p in hub.tokens.passes.values()]
    boxes = 0
    for c in proxy.connections:
        up, down = ws_messages(c)
        for m in up + down:
            data = json.loads(m)
            if "box" not in data:
                continue
            raw = base64.b64decode(data["box"])
            boxes += 1
            for key in keys:
                with contextlib.suppress(CryptoError):
                    SecretBox(key).decrypt(raw)
                    raise AssertionError("a recorded box opens with a pass alone")
    assert boxes >= 10


def test_a_recording_of_the_wire_holds_no_secret_token_code_or_device_key(tmp_path: Path) -> None:
    session = new_session(tmp_path, "spyfall", SPY)
    hub, server, main = start_server(session)
    proxy = RecordingProxy(server.port).start()
    figures: dict[str, Any] = {}

    async def body() -> None:
        pump = asyncio.create_task(main.pump())
        try:
            joker = await Phone.open(proxy.url, tablet=hub)
            hello0 = await joker.join(token=hub.seat_pass(0).token)  # scanned the QR code
            hero = await Phone.open(proxy.url, tablet=hub)
            assert (await hero.join(code="ZZZZ-ZZZZ"))["code"] == "bad_token"  # a typo first
            hello1_msg = await hero.join(code=hub.status()[1].code)  # typed the short code
            assert hello1_msg["t"] == "hello" and hello1_msg["token"] == hub.seat_pass(1).token
            act(session, A.ChooseDealer(TABLE, 0))
            card0 = (await joker.state_like(session, 0))["view"]["me"]["card"]
            card1 = (await hero.state_like(session, 1))["view"]["me"]["card"]
            assert card0["kind"] == "joker" and card1["kind"] == "location"
            act(session, A.StartClock(TABLE))
            state = await joker.state_like(session, 0)
            accuse = [e for e in state["actions"] if e["group"] == "accuse"][-1]  # 서연, so 민호 votes
            await joker.send({"t": "act", "confirmed": True, "v": state["v"], "id": accuse["id"]})
            await joker.recv("done")
            state = await hero.state_like(session, 1)
            vote = next(e for e in state["actions"] if e["group"] == "vote")
            await hero.send({"t": "act", "confirmed": True, "v": state["v"], "id": vote["id"]})
            await hero.recv("done")
            await hero.close()  # the phone sleeps, wakes and rejoins with its token and device key
            await until(lambda: not hub.connected(1))
            again = await Phone.open(proxy.url, tablet=hub)
            back = await again.join(token=hello1_msg["token"], device=hello1_msg["device"])
            assert back["t"] == "hello" and back["device"] == hello1_msg["device"]
            await again.recv("state")
            figures["joker_card"], figures["hero_card"] = card0, card1
            figures["device0"] = hello0["device"]
            for p in (joker, again):
                await p.close()
        finally:
            pump.cancel()

    try:
        asyncio.run(body())
        words = {"the Joker's card": "joker", "a view": '"view"', "a state": '"state"',
                 "the hero's location (ko)": figures["hero_card"]["ko"],
                 "the hero's location (en)": figures["hero_card"]["en"],
                 "a ballot": '"my_ballot"'}
        counts = check_recording(proxy, secrets_of(hub), words)
        closed_after_a_photo(proxy, hub)
    finally:
        proxy.stop()
        server.stop()
        session.close()
    assert counts["sealed"] >= 10 and counts["connections"] == 3
    print(f"wire: {counts['connections']} connections, {counts['bytes']} bytes recorded, "
          f"{counts['sealed']} sealed and {counts['clear']} clear kiosk messages (greetings, refusals)")


def test_a_tampered_replayed_or_foreign_box_is_refused(tmp_path: Path) -> None:
    """An attacker on the Wi-Fi cannot replay a recorded input, flip its bytes, or move it to another
    connection: nothing is dispatched."""
    session = new_session(tmp_path, "spyfall", SPY)

    async def body(hub: Any, server: Any, main: Any) -> None:
        phone = await Phone.open(server.url)
        await phone.join(token=hub.seat_pass(1).token)
        act(session, A.ChooseDealer(TABLE, 0))
        act(session, A.StartClock(TABLE))
        act(session, A.Accuse(0, accused=2))
        state = await phone.state_like(session, 1)
        vote = next(e for e in state["actions"] if e["group"] == "vote")
        frame = {"box": phone.seal({"t": "act", "confirmed": True, "v": state["v"], "id": vote["id"]})}
        await phone.send_raw(frame)
        await phone.recv("done")
        before = session.count
        await phone.send_raw(frame)  # the recorded vote, replayed: refused by the channel, not the engine
        assert (await phone.recv("error"))["code"] == "bad_input"
        box = bytearray(phone.seal({"t": "ping"}).encode())
        mid = len(box) // 2
        box[mid] = ord("A") if box[mid] != ord("A") else ord("B")  # one character changed
        await phone.send_raw({"box": box.decode()})
        assert (await phone.recv("error"))["code"] == "bad_input"
        other = await Phone.open(server.url)  # a box from another connection (another challenge)
        other.key, other.challenge = phone.key, phone.challenge
        await other.send_raw({"t": "join", "box": phone.seal({"t": "join", "device": ""})})
        assert (await other.recv("error"))["code"] == "bad_token"
        await other.send_raw({"t": "key", "pk": base64.b64encode(bytes(other.mine.public_key)).decode()})
        assert (await other.recv("error"))["code"] == "bad_input"  # one key exchange per connection
        fresh = await Phone.open(server.url, exchange=False)
        for pk in (base64.b64encode(bytes(32)).decode(), "x" * 44, "", 7):  # a low-order point, junk
            await fresh.send_raw({"t": "key", "pk": pk})
            assert (await fresh.recv("error"))["code"] == "bad_input"
        await fresh.send_raw({"t": "join", "via": "code", "box": "AAAA"})  # a join before any exchange
        assert (await fresh.recv("error"))["code"] == "bad_input"
        await fresh.close()
        assert session.count == before
        await other.close()
        await phone.close()

    try:
        serve(body, session)
    finally:
        session.close()
