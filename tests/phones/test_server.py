"""The phones' server: joining, rejoining, revoking, wrong and foreign tokens, rate limits, reconnection,
inputs dispatched as the tablet's own actions, and nothing else reachable."""

from __future__ import annotations

import asyncio
import base64
import json
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from nacl.secret import SecretBox

from engines.core import TABLE
from engines.spyfall import actions as A
from phones.seal import NO_PASS, pass_of
from table.table import Table as Session
from tests.phones.helpers import MainThread, Phone, new_session, serve, until
from tests.tables import act

SPY = {"players": ["지수", "민호", "서연"], "rounds": 1, "votes": "sealed"}


def run(tmp_path: Path, body: Callable[..., Awaitable[None]], config: dict[str, Any] | None = None,
        **hub_kw: Any) -> None:
    """Run `body(session, hub, server, main)` with a Spyfall session and a server on 127.0.0.1."""
    session = new_session(tmp_path, "spyfall", config or SPY)
    try:
        serve(lambda hub, server, main: body(session, hub, server, main), session, **hub_kw)
    finally:
        session.close()


def to_vote(session: Session, accuser: int = 0, accused: int = 2) -> None:
    act(session, A.ChooseDealer(TABLE, 0))
    act(session, A.StartClock(TABLE))
    act(session, A.Accuse(accuser, accused=accused))


def test_a_seat_joins_with_its_token_and_sees_exactly_its_view(tmp_path: Path) -> None:
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        phone = await Phone.open(server.url)
        hello = await phone.join(token=hub.seat_pass(1).token)
        assert hello["t"] == "hello" and hello["seat"] == 1 and hello["name"] == "민호"
        state = await phone.recv("state")
        assert state["view"] == json.loads(json.dumps(session.view(1)))
        assert hub.connected(1) and not hub.connected(0)
        assert [s.connected for s in hub.status()] == [False, True, False]
        # a step on the tablet is pushed at once
        act(session, A.ChooseDealer(TABLE, 2))
        state = await phone.state_like(session, 1)
        assert state["view"]["round"]["dealer"] == 2
        await phone.close()

    run(tmp_path, body)


def test_join_by_the_short_code_typed_loosely(tmp_path: Path) -> None:
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        code = hub.status()[2].code  # "ABCD-EFGH"
        phone = await Phone.open(server.url)
        hello = await phone.join(code=f" {code.lower()} ")
        assert hello["seat"] == 2
        assert hello["token"] == hub.seat_pass(2).token  # kept by the page to rejoin
        await phone.close()

    run(tmp_path, body)


def test_a_wrong_token_gets_nothing(tmp_path: Path) -> None:
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        phone = await Phone.open(server.url)
        real = hub.seat_pass(0).token
        near = real[:-1] + ("A" if real[-1] != "A" else "B")  # one character off
        for bad in ("", "x" * 24, near, "AAAA-BBBB"):
            reply = await phone.join(token=bad) if "-" not in bad else await phone.join(code=bad)
            assert reply["t"] == "error" and reply["code"] == "bad_token"
            assert "코드" in reply["ko"]
        await phone.send({"t": "act", "confirmed": True, "v": 0, "id": 0})
        assert (await phone.recv())["code"] == "not_joined"
        assert not any(m["t"] == "state" for m in phone.log)
        await phone.close()

    run(tmp_path, body)


def test_rejoin_with_the_same_token_and_device_after_a_drop(tmp_path: Path) -> None:
    """Reconnection: a phone that slept rejoins with its token and device key and gets the current state,
    including what happened while it was away."""
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        phone = await Phone.open(server.url)
        hello = await phone.join(token=hub.seat_pass(0).token)
        await phone.recv("state")
        await phone.close()
        await until(lambda: not hub.connected(0))
        act(session, A.ChooseDealer(TABLE, 1))  # while the phone sleeps
        again = await Phone.open(server.url)
        hello2 = await again.join(token=hello["token"], device=hello["device"])
        assert hello2["t"] == "hello" and hello2["seat"] == 0 and hello2["device"] == hello["device"]
        state = await again.recv("state")
        assert state["view"]["round"]["dealer"] == 1
        assert state["view"] == json.loads(json.dumps(session.view(0)))
        # a reload while the old socket is still open: the new one takes over, the old one is told
        third = await Phone.open(server.url)
        assert (await third.join(token=hello["token"], device=hello["device"]))["t"] == "hello"
        bye = await again.recv("bye")
        assert bye["code"] == "replaced"
        assert hub.connected(0)
        await third.close()
        await again.close()

    run(tmp_path, body)


def test_a_join_on_a_connection_is_final(tmp_path: Path) -> None:
    """Issue 42: someone holding two seats' passes gets one seat per connection, and the first join stands:
    a second join (another seat's token, a typed code under a key of the sender's choosing) is refused and
    changes no key — what follows is still sealed for the first seat's phone alone. (Before: a second join
    moved the connection, and a typed-code join installed its key before its code was checked.)"""
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        phone = await Phone.open(server.url)
        assert (await phone.join(token=hub.seat_pass(0).token))["seat"] == 0
        first_key = phone.key
        other = pass_of(hub.seat_pass(1).token)
        await phone.send_raw({"t": "join", "via": "qr", "box": phone.seal({"t": "join"}, phone.key_for(other))})
        assert (await phone.recv("error"))["code"] == "already_joined"
        chosen = phone.key_for(NO_PASS * 2)  # a relay's typed-code join injected into the connection
        await phone.send_raw({"t": "join", "via": "code",
                              "box": phone.seal({"t": "join", "code": hub.status()[1].code}, chosen)})
        assert (await phone.recv("error"))["code"] == "already_joined"  # sealed under the first key still
        assert phone.key == first_key
        assert hub.connected(0) and not hub.connected(1)
        phone.log.clear()
        phone._used.clear()
        act(session, A.ChooseDealer(TABLE, 0))
        await phone.state_like(session, 0)  # opened with the first key: the connection's key never changed
        assert {m["seat"] for m in phone.log if m["t"] == "state"} == {0}
        await phone.close()

    run(tmp_path, body)


def test_a_photographed_qr_code_gets_a_question_the_owner_answers_no(tmp_path: Path) -> None:
    """Issue 42: a QR code is good for one phone, the one its owner confirms on the tablet with the digits
    the phone shows. A photographer who scans first gets only a question on the tablet (the seat's name and
    four digits, nothing of its secret) and, refused, never a state; the owner's phone gets the seat; the
    code scanned again later asks again. (Before: the first device to present the token got the seat.)"""
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        token = hub.seat_pass(0).token
        thief = await Phone.open(server.url)  # photographed the QR code before its owner scanned it
        asked = await thief.join(token=token, approve=False)
        assert asked["t"] == "asking" and asked["name"] == "지수" and not hub.connected(0)
        assert hub.status()[0].phone == "asking"
        [question] = hub.asking()
        assert (question.seat, question.name, question.number) == (0, "지수", thief.number)
        assert len(question.number) == 4 and question.number.isdigit()
        owner = await Phone.open(server.url)
        owner_asked = await owner.join(token=token, approve=False)
        assert owner_asked["t"] == "asking" and owner.number != thief.number or len(hub.asking()) == 2
        ours = next(a for a in hub.asking() if a.number == owner.number and a.ident != question.ident)
        hub.answer(question.ident, False)  # "is this your phone?" — not the number on mine
        assert (await thief.recv("bye"))["code"] == "declined"
        hub.answer(ours.ident, True)
        hello = await owner.recv("hello")
        assert hello["seat"] == 0 and hello["device"]
        await owner.recv("state")
        assert hub.status()[0].phone == "connected"
        assert not any(m["t"] in ("state", "hello") for m in thief.log)
        again = await Phone.open(server.url)  # the photo, tried again: the token alone is not the pass now
        assert (await again.join(token=token, approve=False))["t"] == "asking"
        assert hub.connected(0) and not any(m["t"] == "state" for m in again.log)
        await owner.close()
        await until(lambda: hub.status()[0].phone == "asking")  # the owner's phone away; a question waits
        for p in (thief, again):
            await p.close()
        await until(lambda: hub.status()[0].phone == "away")

    run(tmp_path, body)


def test_a_seats_phone_comes_back_and_a_new_phone_takes_it_only_with_the_tablets_ok(tmp_path: Path) -> None:
    """Issue 37: the seat's phone rejoins by itself (its pass: token and device key), however often; a new
    phone for the seat (the old one's battery died) asks, and the tablet's OK gives it the seat and a new
    device key — the old phone is cut off and its key no longer opens the seat. (Before: "이 자리는 이미
    다른 휴대폰에 연결되어 있어요" until staff reissued the code.)"""
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        token = hub.seat_pass(2).token
        first = await Phone.open(server.url)
        hello = await first.join(token=token)
        for _ in range(3):  # reloads, locked screens: straight back, no question
            again = await Phone.open(server.url)
            back = await again.join(token=token, device=hello["device"])
            assert back["t"] == "hello" and back["seat"] == 2 and hub.asking() == []
            await again.recv("state")
            await again.close()
        assert (await first.recv("bye"))["code"] == "replaced"
        await until(lambda: hub.status()[2].phone == "away")
        new = await Phone.open(server.url)
        hello2 = await new.join(token=token)  # asks; the tablet says yes
        assert hello2["t"] == "hello" and hello2["device"] != hello["device"]
        assert hub.status()[2].phone == "connected"
        old = await Phone.open(server.url)
        assert (await old.join(token=token, device=hello["device"], approve=False))["t"] == "asking"  # key dead
        assert hub.connected(2), hub.status()
        assert not any(m["t"] == "state" for m in old.log), old.log
        for p in (first, new, old):
            await p.close()

    run(tmp_path, body)


def test_revoke_and_reissue_cut_off_the_old_code(tmp_path: Path) -> None:
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        old = hub.seat_pass(1).token
        phone = await Phone.open(server.url)
        await phone.join(token=old)
        hub.reissue(1)
        assert (await phone.recv("bye"))["code"] == "reissued"
        new = hub.seat_pass(1).token
        assert new != old
        again = await Phone.open(server.url)
        assert (await again.join(token=old))["code"] == "bad_token"
        assert (await again.join(token=new))["t"] == "hello"  # a new device may take a reissued seat
        hub.revoke(1)
        assert (await again.recv("bye"))["code"] == "revoked"
        assert hub.seat_pass(1) is None and hub.status()[1].code == ""
        last = await Phone.open(server.url)
        assert (await last.join(token=new))["code"] == "bad_token"
        await phone.close()
        await again.close()
        await last.close()

    run(tmp_path, body)


def test_tokens_die_with_the_game(tmp_path: Path) -> None:
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        token = hub.seat_pass(0).token
        phone = await Phone.open(server.url)
        await phone.join(token=token)
        hub.end_game()
        assert (await phone.recv("bye"))["code"] == "ended"
        late = await Phone.open(server.url)
        assert (await late.join(token=token))["code"] == "bad_token"
        # a new game: new passes; the old token is not among them
        session2 = new_session(tmp_path / "g2", "spyfall", SPY, seed=8)
        hub.follow(session2)
        assert token not in {hub.seat_pass(s).token for s in range(3)}
        assert (await late.join(token=token))["code"] == "bad_token"
        assert (await late.join(token=hub.seat_pass(0).token))["t"] == "hello"
        state = await late.recv("state")
        assert state["view"] == json.loads(json.dumps(session2.view(0)))
        session2.close()
        await phone.close()
        await late.close()

    run(tmp_path, body)


def test_sealed_votes_from_phones_are_the_tablets_actions(tmp_path: Path) -> None:
    """The phone's buttons are the seat's legal actions; a pick is dispatched on the main thread with the
    session's own moment; a refused one comes back as a Korean message."""
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        phone = await Phone.open(server.url)
        await phone.join(token=hub.seat_pass(1).token)
        await phone.recv("state")
        to_vote(session)
        state = await phone.state_like(session, 1)
        assert state["view"]["round"]["phase"] == "accusation"
        votes = [e for e in state["actions"] if e["group"] == "vote"]
        assert [e["parts"][0]["label"]["ko"] for e in votes] == ["찬성 (엄지 위)", "반대 (엄지 아래)"]
        assert not any(p["field"] == "at" for e in votes for p in e["parts"])
        await phone.send({"t": "act", "confirmed": True, "v": state["v"], "id": votes[1]["id"]})
        done = await phone.recv("done")
        assert done["action"] == "vote"
        vote = session.state.round.vote
        assert (1, "no") in vote.ballots
        after = await phone.state_like(session, 1)
        assert after["view"]["round"]["vote"]["my_ballot"] == "no"
        # voting again with an old button: the engine refuses, in Korean
        await phone.send({"t": "act", "confirmed": True, "v": state["v"], "id": votes[0]["id"]})
        err = await phone.recv("error")
        assert err["code"] in ("already_voted", "not_your_turn") and err["ko"] and err["en"] != err["ko"]
        assert (1, "yes") not in session.state.round.vote.ballots

    run(tmp_path, body)


def test_another_seats_actions_are_refused(tmp_path: Path) -> None:
    """A phone holds one seat: an action dict for another seat, or the table's, is never dispatched."""
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        phone = await Phone.open(server.url)
        await phone.join(token=hub.seat_pass(1).token)
        await phone.recv("state")
        to_vote(session)
        before = session.count
        for seat in (0, TABLE):
            await phone.send({"t": "act", "confirmed": True, "action": {"name": "vote", "seat": seat, "yes": True, "at": 0.0}})
            assert (await phone.recv("error"))["code"] == "not_your_seat"
        await phone.send({"t": "act", "confirmed": True, "action": {"name": "start_clock", "seat": TABLE, "at": 0.0}})
        assert (await phone.recv("error"))["code"] == "not_your_seat"
        await phone.send({"t": "act", "confirmed": True, "action": {"name": "launch_missiles", "seat": 1}})
        err = await phone.recv("error")
        assert err["code"] == "unknown_action" and "행동" in err["ko"]
        for bad in ({"v": 10**6, "id": 0}, {"v": 0, "id": -1}, {"v": "x", "id": 0}, {"id": 0},
                    {"v": 0, "id": 0, "free": "x"}, {"action": "vote"}, {"action": {"seat": 1}}):
            await phone.send({"t": "act", "confirmed": True, **bad})
            assert (await phone.recv("error"))["code"] in ("bad_input", "bad_action"), bad
        for junk in ("[1, 2]", "not json", '{"t": "launch"}'):
            await phone.ws.send_str(junk)
            assert (await phone.recv("error"))["code"] == "bad_input"
        assert session.count == before
        # its own seat's action dict is accepted, with the moment set by the session, not the phone
        await phone.send({"t": "act", "confirmed": True, "action": {"name": "vote", "seat": 1, "yes": True, "at": 1.0}})
        assert (await phone.recv("done"))["action"] == "vote"
        assert session.count == before + 1
        await phone.close()

    run(tmp_path, body, action_burst=50)


def test_no_malformed_message_ends_a_phones_socket(tmp_path: Path) -> None:
    """Issue 42: JSON is read strictly (no NaN, Infinity or 1e999, in the clear or in a box) and no message,
    however made, ends the socket's handler: each gets a refusal and the phone goes on. (Before: a sealed
    input with "v": Infinity killed that phone's socket.)"""
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        phone = await Phone.open(server.url)
        await phone.join(token=hub.seat_pass(1).token)
        await phone.recv("state")
        for text in ('{"t": "ping", "x": Infinity}', '{"t": "ping", "x": NaN}', '{"t": "ping", "x": -1e999}',
                     "[" * 5000 + "]" * 5000, '{"t": "act", "confirmed": True, "box": null}', '{"box": 7}', '"box"'):
            await phone.ws.send_str(text)
            assert (await phone.recv("error"))["code"] == "bad_input", text[:40]
        for inner in ('{"t": "act", "confirmed": True, "v": Infinity, "id": 0}', '{"t": "act", "confirmed": True, "v": 1e999, "id": 0}',
                      '{"t": "act", "confirmed": True, "v": NaN, "id": NaN}', '{"t": "act", "confirmed": True, "v": 0, "id": 1e308}'):
            phone._sent += 1
            raw = f'{{"c": "{phone.challenge}", "i": {phone._sent}, "d": "up", "m": {inner}}}'.encode()
            box = base64.b64encode(bytes(SecretBox(phone.key).encrypt(raw))).decode()
            await phone.send_raw({"box": box})
            assert (await phone.recv("error"))["code"] == "bad_input", inner
        for odd in ({"t": "act", "confirmed": True, "v": 0, "id": 0, "free": {"x": [1e308] * 3}}, {"t": "name", "name": None},
                    {"t": "act", "confirmed": True, "action": {"name": "vote", "seat": 1, "yes": {"a": []}}}, {"t": []}):
            await phone.send(odd)
            assert (await phone.recv("error"))["t"] == "error", odd
        hub._conns[1].send({"t": "nudge", "x": float("nan")})  # nor does a message the kiosk cannot write
        await phone.send({"t": "ping"})
        assert (await phone.recv("pong"))["t"] == "pong"  # still there
        assert hub.connected(1)
        await phone.close()

    run(tmp_path, body, action_burst=50)


def _junk(rng: random.Random, depth: int = 0) -> Any:
    """A random JSON value: what a hostile page might put in any field."""
    kinds = ["int", "float", "str", "bool", "null"] + (["list", "dict"] if depth < 3 else [])
    kind = rng.choice(kinds)
    if kind == "int":
        return rng.choice([0, -1, 1, 2**31, -(2**63), 10**30, rng.randint(-5, 5)])
    if kind == "float":
        return rng.choice([0.5, -0.0, 1e308, -1e-308, 3.0])
    if kind == "str":
        return rng.choice(["", "act", "join", "ping", "name", "vote", "\u0000", "가" * 300, "x" * 5000])
    if kind == "bool":
        return rng.random() < 0.5
    if kind == "null":
        return None
    if kind == "list":
        return [_junk(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    keys = ["t", "v", "id", "free", "action", "name", "seat", "yes", "at", "box", "pk", "via", "code"]
    return {rng.choice(keys): _junk(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def test_random_messages_in_the_clear_and_sealed_never_end_the_socket(tmp_path: Path) -> None:
    """Issue 42: 400 seeded random messages (random JSON in every field the server reads, half of them
    sealed under the joined phone's key so they reach the hub) each get an answer; the socket and the
    seat stay, and nothing is dispatched but what the engine accepts."""
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        rng = random.Random(42)
        phone = await Phone.open(server.url)
        await phone.join(token=hub.seat_pass(1).token)
        await phone.recv("state")
        to_vote(session)
        await phone.state_like(session, 1)
        for i in range(400):
            message = _junk(rng)
            if isinstance(message, dict) and rng.random() < 0.7:
                message["t"] = rng.choice(["act", "act", "name", "ping", "join", "key", "x"])
            if i % 2:
                await phone.send(message if isinstance(message, dict) else {"t": "act", "v": message, "id": 0})
            else:
                await phone.ws.send_str(json.dumps(message))
            reply = await phone.recv()
            assert reply["t"] in ("error", "pong", "done", "state", "key"), reply
        await phone.send({"t": "ping"})
        assert (await phone.recv("pong"))["t"] == "pong"
        assert hub.connected(1)
        await phone.close()

    run(tmp_path, body, action_burst=1000, action_rate=1000,
        server_kw={"message_burst": 1000, "message_rate": 1000})


def test_inputs_are_rate_limited(tmp_path: Path) -> None:
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        phone = await Phone.open(server.url)
        await phone.join(token=hub.seat_pass(1).token)
        for _ in range(8):
            await phone.send({"t": "act", "confirmed": True, "action": {"name": "vote", "seat": 0, "yes": True}})
        codes = [(await phone.recv("error"))["code"] for _ in range(8)]
        assert codes[:3] == ["not_your_seat"] * 3
        assert codes[3:] == ["rate_limited"] * 5
        assert "빨라요" in hub.error_message("rate_limited")["ko"]
        await phone.close()

    run(tmp_path, body, action_burst=3, action_rate=0.01)


def test_key_exchanges_are_rate_limited_per_address(tmp_path: Path) -> None:
    """Issue 42: the four digits a relay would have to match come from each connection's key exchange; one
    address gets a burst of exchanges, then one every 2 s, so trying connection after connection until the
    digits match (1 in 10,000 a try) takes days, not seconds. Another address is not held back."""
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        replies = []
        for _ in range(6):
            phone = await Phone.open(server.url, exchange=False)
            await phone.send_raw({"t": "key", "pk": base64.b64encode(bytes(phone.mine.public_key)).decode()})
            replies.append((await phone.recv())["t"])
            await phone.close()
        assert replies == ["key"] * 4 + ["error"] * 2
        other = await Phone.open(server.url, source="127.0.0.2")  # exchanges, or raises
        assert (await other.join(token=hub.seat_pass(0).token))["t"] == "hello"
        await other.close()

    run(tmp_path, body, server_kw={"exchange_burst": 4, "exchange_rate": 0.001})


def test_failed_joins_are_rate_limited_per_address(tmp_path: Path) -> None:
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        phone = await Phone.open(server.url)
        codes = [(await phone.join(code=f"AAAA-AAA{i}"))["code"] for i in range(5)]
        assert codes == ["bad_token"] * 3 + ["rate_limited"] * 2
        # even the right code waits now: guessing cannot go faster than the limit
        assert (await phone.join(token=hub.seat_pass(0).token))["code"] == "rate_limited"
        await phone.close()

    run(tmp_path, body, join_burst=3, join_rate=0.001)


def test_a_flood_of_messages_closes_the_socket(tmp_path: Path) -> None:
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        phone = await Phone.open(server.url)
        for _ in range(60):
            await phone.send({"t": "ping"})
        with pytest.raises(ConnectionError):
            await phone.recv("never")
        assert any(m["t"] == "bye" and m["code"] == "flood" for m in phone.log)
        await phone.close()

    run(tmp_path, body)


def test_only_the_page_and_the_socket_are_served(tmp_path: Path) -> None:
    """No staff function, no QR image, no file outside the page; strict headers; a foreign origin's page
    cannot open the socket; the server listens only where it was told."""
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        assert server._runner.addresses == [("127.0.0.1", server.port)]
        async with aiohttp.ClientSession() as http:
            async with http.get(server.url + "/") as r:
                assert r.status == 200
                html = await r.text()
                assert "page.js" in html and "연결이 끊겼어요" in html  # Korean strings ride in the page
                assert hub.seat_pass(0).token not in html
                csp = r.headers["Content-Security-Policy"]
                assert "default-src 'none'" in csp and "script-src 'self'" in csp
                assert r.headers["X-Frame-Options"] == "DENY"
            for path in ("/page.js", "/page.css", "/nacl.js"):
                async with http.get(server.url + path) as r:
                    assert r.status == 200 and r.headers["X-Content-Type-Options"] == "nosniff"
            for path in ("/staff", "/settings", "/qr/0.png", "/api/state", "/../pyproject.toml", "/static/page.js",
                         "/ws/../staff", "/journal"):
                async with http.get(server.url + path) as r:
                    assert r.status == 404, path
            async with http.post(server.url + "/", data="x") as r:
                assert r.status == 405
        with pytest.raises(aiohttp.WSServerHandshakeError):
            await Phone.open(server.url, origin="http://evil.example")

    run(tmp_path, body)


def test_the_page_loads_nothing_from_outside() -> None:
    from importlib import resources

    static = resources.files("phones") / "static"
    for name in ("page.html", "page.js", "page.css", "nacl-fast.min.js"):
        text = (static / name).read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text and "//cdn" not in text, name
        assert "innerHTML" not in text and "eval(" not in text, name
        assert "crypto.subtle" not in text, name  # WebCrypto needs HTTPS; TweetNaCl works on the LAN page
    assert (static / "tweetnacl-LICENSE.txt").read_text(encoding="utf-8").startswith("This is free and")


def test_route_hands_private_moments_to_a_connected_phone(tmp_path: Path) -> None:
    """HostContext.private asks the hub first: a seat with a phone skips the hand-over screen."""
    async def body(session: Session, hub: Any, server: Any, main: MainThread) -> None:
        done: list[str] = []
        assert hub.route(0, "reveal", lambda: done.append("nobody")) is False  # no phone: pass the tablet
        phone = await Phone.open(server.url)
        await phone.join(token=hub.seat_pass(1).token)
        assert hub.route(1, "reveal", lambda: done.append("reveal")) is True
        assert (await phone.recv("nudge"))["mode"] == "reveal"
        await until(lambda: done == ["reveal"])
        to_vote(session)
        state = await phone.state_like(session, 1)
        assert state["view"]["round"]["phase"] == "accusation"
        assert hub.route(1, "input", lambda: done.append("voted")) is True
        await asyncio.sleep(0.05)
        assert done == ["reveal"]  # waits for the phone's input
        vote = next(e for e in state["actions"] if e["group"] == "vote")
        await phone.send({"t": "act", "confirmed": True, "v": state["v"], "id": vote["id"]})
        await phone.recv("done")
        assert done == ["reveal", "voted"]  # run on the main thread before the phone was answered
        assert not hub.everyone_connected()
        await phone.close()

    run(tmp_path, body)
