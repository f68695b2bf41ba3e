"""Phones at set-up (issue 15 item 3): before the game starts, a seat's phone joins (QR token or typed
code, sealed like any other traffic) and types its player's name; the tablet gets it; when the game starts
the phone stays with its player and gets its view."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from engines.core import TABLE
from engines.spyfall import actions as A
from phones.lobby import MAX_NAME, clean_name
from tests.phones.helpers import Phone, new_session, serve
from tests.tables import act

SPY = {"rounds": 1, "votes": "sealed"}


def test_phones_join_at_set_up_type_their_names_and_stay_for_the_game(tmp_path: Path) -> None:
    async def body(hub: Any, server: Any, main: Any) -> None:
        hub.open_setup("spyfall", ["1번", "2번", "3번"])
        assert [s.name for s in hub.status()] == ["1번", "2번", "3번"] and all(s.code for s in hub.status())
        second = await Phone.open(server.url)
        hello = await second.join(token=hub.seat_pass(1).token)  # scanned seat 2's QR code
        assert hello["t"] == "hello" and hello["name"] == "2번"
        assert (await second.recv("setup"))["name"] == "2번"
        first = await Phone.open(server.url)
        assert (await first.join(code=hub.status()[0].code))["seat"] == 0  # typed seat 1's code
        await first.recv("setup")
        await second.send({"t": "name", "name": "  민호\n"})
        assert (await second.recv("done"))["action"] == "name"
        assert (await second.recv("setup"))["name"] == "민호"
        await first.send({"t": "name", "name": "지수"})
        await first.recv("done")
        assert hub.setup_typed() == {1: "민호", 0: "지수"} and hub.setup_typed() == {}
        assert [s.name for s in hub.status()] == ["지수", "민호", "3번"]
        await first.send({"t": "name", "name": " \t "})
        assert (await first.recv("error"))["code"] == "bad_input"
        await first.send({"t": "act", "v": 0, "id": 0})  # nothing to do before the game
        assert (await first.recv("error"))["code"] == "not_joined"

        # the game starts with the form's names: each phone is at its player's seat and sees its view
        session = new_session(tmp_path, "spyfall", {"players": ["지수", "민호", "서연"], **SPY})
        hub.follow(session)
        assert (await second.recv("hello"))["name"] == "민호"
        state = await second.recv("state")
        assert state["seat"] == 1 and state["view"] == json.loads(json.dumps(session.view(1)))
        assert hub.connected(0) and hub.connected(1) and not hub.connected(2)
        act(session, A.ChooseDealer(TABLE, 0))
        assert "card" in (await first.state_like(session, 0))["view"]["me"]
        await first.close()
        await second.close()
        session.close()

    serve(body)


def test_a_phone_asking_at_set_up_follows_its_player_into_the_game(tmp_path: Path) -> None:
    """A phone still waiting for the tablet's OK when the game starts keeps its question, now for its
    player's seat in the game; the OK seats it there."""
    async def body(hub: Any, server: Any, main: Any) -> None:
        hub.open_setup("spyfall", ["지수", "", "서연"])
        phone = await Phone.open(server.url)
        assert (await phone.join(token=hub.seat_pass(2).token, approve=False))["t"] == "asking"
        session = new_session(tmp_path, "spyfall", {"players": ["지수", "서연", "민호"], **SPY})
        hub.follow(session)
        [ask] = hub.asking()
        assert (ask.seat, ask.name, ask.number) == (1, "서연", phone.number)
        hub.answer(ask.ident, True)
        assert (await phone.recv("hello"))["seat"] == 1
        assert (await phone.recv("state"))["view"] == json.loads(json.dumps(session.view(1)))
        await phone.close()
        session.close()

    serve(body)


def test_a_phone_follows_its_name_when_the_form_drops_an_empty_seat(tmp_path: Path) -> None:
    """Spyfall's form skips empty fields: the phone that typed "서연" at the fourth field is seat 2 in the
    game when the second field was left empty."""
    async def body(hub: Any, server: Any, main: Any) -> None:
        hub.open_setup("spyfall", ["지수", "", "민호", "서연"])
        phone = await Phone.open(server.url)
        await phone.join(token=hub.seat_pass(3).token)
        await phone.send({"t": "name", "name": "서연"})
        await phone.recv("done")
        session = new_session(tmp_path, "spyfall", {"players": ["지수", "민호", "서연"], **SPY})
        hub.follow(session)
        assert (await phone.recv("hello"))["seat"] == 2
        assert hub.connected(2) and not hub.connected(3)
        await phone.close()
        session.close()

    serve(body)


def test_the_form_going_away_ends_the_set_up_passes() -> None:
    async def body(hub: Any, server: Any, main: Any) -> None:
        hub.open_setup("clue", ["1", "2", "3"])
        token = hub.seat_pass(0).token
        phone = await Phone.open(server.url)
        await phone.join(token=token)
        hub.open_setup("clue", ["1", "2"])  # the table picked fewer players: seat 3's pass dies
        assert hub.seat_pass(2) is None and [s.seat for s in hub.status()] == [0, 1]
        hub.close_setup()
        assert (await phone.recv("bye"))["code"] == "ended"
        late = await Phone.open(server.url)
        assert (await late.join(token=token))["code"] == "bad_token"
        await phone.close()
        await late.close()

    serve(body)


def test_typed_names_are_cleaned() -> None:
    assert clean_name("  민\u202e호 \n") == "민 호"  # no control or direction-override characters
    assert clean_name("a\x00b\x1bc") == "a b c"
    assert len(clean_name("가" * 50)) == MAX_NAME
    assert clean_name(None) == "" and clean_name(42) == ""


def test_a_set_up_seat_finds_its_player_by_name_else_by_place() -> None:
    from phones.lobby import Lobby

    lobby = Lobby()
    lobby.start("mr_jack_ny", ["셜록", "잭"])
    assert [lobby.seat_in_game(s, ["잭", "셜록"]) for s in (0, 1)] == [1, 0]  # by name
    assert [lobby.seat_in_game(s, ["탐정", "잭"]) for s in (0, 1)] == [0, 1]  # renamed at start: by place
    assert lobby.seat_in_game(1, ["셜록"]) is None  # no such seat in the game
    lobby.start("clue", ["지수", "민호", "서연"])
    assert lobby.seat_in_game(0, ["민호", "A", "B"]) is None  # its place is another seat's player
