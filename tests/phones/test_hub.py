"""The hub without a web server: passes, labels for the buttons, free-text answers, the seat list, and
the hooks the kiosk uses (attach, route, end_game, listen)."""

from __future__ import annotations

import hmac
import json
import random
from pathlib import Path
from typing import Any

import pytest

import engines
from engines.core import CHANCE, TABLE, stamp
from engines.spyfall import actions as A
from phones import tokens as T
from phones.channel import PhoneHub
from phones.labels import Catalogs, Labeller, fill_free
from phones.ratelimit import Bucket
from tests.packs import pack_for
from tests.phones.helpers import admit, new_session
from tests.phones.test_leaks import Recorder, catalogs
from tests.tables import act

SPY = {"players": ["지수", "민호", "서연"], "rounds": 1, "votes": "sealed"}


# ---------------------------------------------------------------- passes
def test_passes_are_unguessable_and_codes_are_typable() -> None:
    toks = SeatTokensFactory(8)
    tokens = [p.token for p in toks.passes.values()]
    codes = [p.code for p in toks.passes.values()]
    assert len(set(tokens)) == 8 and all(len(t) >= 24 for t in tokens)
    assert len(set(codes)) == 8
    assert all(len(c) == 8 and set(c) <= set(T.CODE_ALPHABET) for c in codes)
    assert not set("01OIL") & set(T.CODE_ALPHABET)
    code = codes[3]
    assert toks.seat_of_code(f" {T.format_code(code).lower()} ") == 3
    assert toks.seat_of_code(code[:-1]) is None and toks.seat_of_code("") is None


def SeatTokensFactory(n: int) -> T.SeatTokens:  # noqa: N802 - reads like a constructor
    toks = T.SeatTokens()
    toks.start("g1", tuple(range(n)))
    return toks


def test_tokens_are_compared_in_constant_time_against_every_seat(monkeypatch: pytest.MonkeyPatch) -> None:
    toks = SeatTokensFactory(5)
    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest

    def spy(a: bytes, b: bytes) -> bool:
        calls.append((a, b))
        return real(a, b)

    monkeypatch.setattr(T.hmac, "compare_digest", spy)
    assert toks.seat_of_token(toks.passes[0].token) == 0
    assert len(calls) == 5  # a match on the first seat still compares the rest
    calls.clear()
    assert toks.seat_of_token("nope") is None and len(calls) == 5


def test_one_device_binds_a_seat_until_it_is_reissued() -> None:
    toks = SeatTokensFactory(2)
    key = toks.new_device(0)
    assert len(key) >= 24 and toks.passes[0].device == key
    assert toks.new_device(0) != key  # the tablet let another phone in: the first one's key is dead
    old = toks.passes[0]
    new = toks.reissue(0)
    assert new.token != old.token and new.code != old.code and new.issued == 2 and new.device == ""
    assert toks.seat_of_token(old.token) is None
    toks.clear()
    assert toks.seat_of_token(new.token) is None and toks.passes == {}


def test_a_bucket_allows_a_burst_then_the_rate() -> None:
    now = [0.0]
    b = Bucket(3, 2.0, clock=lambda: now[0])
    assert [b.take() for _ in range(4)] == [True, True, True, False]
    now[0] += 0.5
    assert b.ready() and b.take() and not b.take()


# ---------------------------------------------------------------- labels
def test_spyfall_buttons_name_players_and_votes_in_both_languages(tmp_path: Path) -> None:
    session = new_session(tmp_path, "spyfall", SPY)
    act(session, A.ChooseDealer(TABLE, 0))
    act(session, A.StartClock(TABLE))
    lab = Labeller(catalogs(), "spyfall")
    entries = lab.entries(session.legal(1), session.view(1))
    accuse = [e for e in entries if e["group"] == "accuse"]
    assert [e["parts"][0]["label"]["ko"] for e in accuse] == ["지수", "서연"]
    assert accuse[0]["glabel"] == {"ko": "지목하기", "en": "Accuse"}
    assert all(p["field"] != "at" for e in entries for p in e["parts"])
    act(session, A.Accuse(0, accused=2))
    votes = lab.entries(session.legal(1), session.view(1))
    assert [(e["parts"][0]["label"]["ko"], e["parts"][0]["label"]["en"]) for e in votes] == [
        ("찬성 (엄지 위)", "Yes (thumb up)"), ("반대 (엄지 아래)", "No (thumb down)")]
    session.close()


def test_clue_accusation_buttons_are_named_cards_picked_field_by_field() -> None:
    engine = engines.find_engine("clue")
    pack = pack_for("clue")
    state = engine.setup({"players": ["지수", "민호", "서연"], "mode": "digital", "set": "classic"}, pack, 3)
    legal = [a for a in engine.legal_actions(state, 0) if a.NAME == "accuse"]
    entries = Labeller(catalogs(), "clue").entries(legal, engine.view(state, 0))
    assert len(entries) == len(legal) == 6 * 6 * 9
    fields = {p["field"]: set() for p in entries[0]["parts"]}
    for e in entries:
        for p in e["parts"]:
            fields[p["field"]].add((p["k"], p["label"]["ko"]))
    assert {f: len(v) for f, v in fields.items()} == {"suspect": 6, "weapon": 6, "room": 9}
    assert ("피콕 부인" in {label for _, label in fields["suspect"]})
    assert not any(label.isascii() for v in fields.values() for _, label in v)  # every card has its Korean name


def _at_221b() -> tuple[Any, Any, Any]:
    engine = engines.find_engine("watson_holmes")
    pack = pack_for("watson_holmes")
    state = engine.setup({"players": ["지수", "민호", "서연"], "case": "case_01"}, pack, 3)
    rng = random.Random(1)
    for i in range(600):
        if any(a.NAME == "submit_answers" for a in engine.legal_actions(state, 0)):
            return engine, pack, state
        seat = rng.choice(sorted(engine.to_move(state)))
        if seat == CHANCE:
            action = engine.sample_chance(state, rng)
        else:
            legal = list(engine.legal_actions(state, seat))
            pick = [a for a in legal if a.NAME != "submit_answers" and getattr(a, "location", "") != "221b"]
            if seat == 0 and i > 60:
                pick = [a for a in legal if getattr(a, "location", "") == "221b"] or pick
            if not pick:
                continue
            action = rng.choice(pick)
        state = engine.apply(state, stamp(action, 1.8e9 + i)).state
    raise AssertionError("seat 0 never reached 221B")


def test_answers_at_221b_are_typed_never_offered() -> None:
    """The engine offers sample answers (one of them right); the phone shows a form instead."""
    engine, pack, state = _at_221b()
    legal = list(engine.legal_actions(state, 0))
    entries = Labeller(catalogs(), "watson_holmes").entries(legal, engine.view(state, 0))
    forms = [e for e in entries if e["group"] == "submit_answers"]
    n = len(pack["cases/case_01"].questions)
    assert len(forms) == 1 and forms[0]["free"] == [
        {"field": "answers", "flabel": {"ko": "답", "en": "Answer"}, "count": n}]
    text = json.dumps(entries, ensure_ascii=False)
    for q in pack["cases/case_01"].questions:
        for right in q.accepted:
            assert right not in text
    action = legal[forms[0]["id"]]
    typed = fill_free(action, {"answers": ["  토머스 리드 ", "x" * 500]}, forms[0], engine.action_from_dict)
    assert typed.answers == ("토머스 리드", "x" * 200) and typed.seat == 0
    for bad in ({"answers": ["하나"]}, {"answers": "토머스"}, {"answers": [1, 2]}, {}):
        with pytest.raises(ValueError):
            fill_free(action, bad, forms[0], engine.action_from_dict)


def test_the_page_gets_its_strings_in_korean_and_english() -> None:
    page = Catalogs.load().page_strings()
    assert page["lost"]["ko"].startswith("연결이 끊겼어요") and page["lost"]["en"].startswith("Connection lost")
    assert page["turn_me"] == {"ko": "지금 내 차례예요.", "en": "It's your turn."}
    assert page["value.yes"] == {"ko": "예", "en": "Yes"}


# ---------------------------------------------------------------- the hub's hooks
def test_the_seat_list_reads_the_table_once_not_once_a_seat(tmp_path: Path, monkeypatch: Any) -> None:
    """The phones panel asks for the seat list at each refresh, in a guest's tap's frame: the names come from one
    view of the table, not one per seat (8 seats cost ~5 ms of the tap, profiled)."""
    session = new_session(tmp_path, "spyfall", {**SPY, "players": [f"P{i}" for i in range(8)]})
    hub = PhoneHub(catalogs=catalogs())
    hub.follow(session)
    engine = session.engine
    calls: list[int] = []
    real = engine.observe
    monkeypatch.setattr(engine, "observe", lambda *a, **k: (calls.append(1), real(*a, **k))[1])
    assert [s.name for s in hub.status()] == [f"P{i}" for i in range(8)]
    assert len(calls) == 1


def test_attach_issues_passes_per_game_and_end_game_kills_them(tmp_path: Path) -> None:
    session = new_session(tmp_path, "spyfall", SPY)
    hub = PhoneHub(catalogs=catalogs())
    changes: list[int] = []
    hub.listen(lambda: changes.append(1))
    hub.follow(session)
    first = [hub.seat_pass(s).token for s in range(3)]  # type: ignore[union-attr]
    hub.follow(session)  # the same game again (a screen reopened): same passes
    assert [hub.seat_pass(s).token for s in range(3)] == first  # type: ignore[union-attr]
    assert [(s.name, s.connected, s.issued) for s in hub.status()] == [
        ("지수", False, True), ("민호", False, True), ("서연", False, True)]
    phones = [Recorder(f"10.0.0.{s}") for s in range(3)]
    for seat, phone in enumerate(phones):
        assert admit(hub, phone, token=first[seat])["t"] == "joined"
    assert hub.everyone_connected() and len(changes) >= 4
    act(session, A.ChooseDealer(TABLE, 1))
    assert all(p.sent[-1]["t"] == "state" and p.sent[-1]["view"]["round"]["dealer"] == 1 for p in phones)
    hub.leave(phones[2])
    assert not hub.everyone_connected() and not hub.connected(2)
    hub.end_game()
    assert [p.sent[-1]["code"] for p in phones[:2]] == ["ended", "ended"]
    assert hub.status() == [] and hub.seat_pass(0) is None
    act(session, A.StartClock(TABLE))  # no longer subscribed: nothing more is sent
    assert [p.sent[-1]["t"] for p in phones[:2]] == ["bye", "bye"]
    session.close()


def test_a_rematch_keeps_every_seats_phone_and_another_game_does_not(tmp_path: Path) -> None:
    """Issue 37: 한 판 더 (same game, same players: Table.rematch) keeps every seat's pass and phone: no
    bye, no question, no new code; each phone gets the new deal's view, and the passes are kept on disk for
    the new game. Another game (Table.start) gives new passes and tells the phones. (Before: the rematch
    ended every pass; every phone had to scan again.)"""
    store = tmp_path / "phone_passes.json"
    table = new_session(tmp_path, "spyfall", SPY)
    hub = PhoneHub(catalogs=catalogs(), store=store)
    hub.follow(table)
    passes = [hub.seat_pass(s) for s in range(3)]
    phones = [Recorder(f"10.0.0.{s}") for s in range(3)]
    for seat, phone in enumerate(phones):
        assert admit(hub, phone, token=passes[seat].token)["t"] == "joined"  # type: ignore[union-attr]
    act(table, A.ChooseDealer(TABLE, 0))
    before = [len(p.sent) for p in phones]
    table.rematch()
    for seat, phone in enumerate(phones):
        new = phone.sent[before[seat]:]
        assert [m["t"] for m in new] == ["state"], new  # no bye, no hello: the same page goes on
        assert new[0]["view"] == json.loads(json.dumps(table.view(seat)))
        assert hub.seat_pass(seat) == passes[seat] and hub.connected(seat)
    assert [s.phone for s in hub.status()] == ["connected"] * 3 and hub.asking() == []
    act(table, A.ChooseDealer(TABLE, 1))
    assert all(p.sent[-1]["view"]["round"]["dealer"] == 1 for p in phones)
    T.flush()
    hub2 = PhoneHub(catalogs=catalogs(), store=store)  # a restart now: the rematch's passes come back
    hub2.follow(table)
    assert [hub2.seat_pass(s).token for s in range(3)] == [p.token for p in passes]  # type: ignore[union-attr]
    hub2.unfollow()
    table.start("spyfall", SPY)  # another game (a new set-up), not a rematch
    assert all(p.sent[-1] == hub.bye_message("ended") for p in phones)
    assert all(hub.seat_pass(s).token != passes[s].token for s in range(3))  # type: ignore[union-attr]
    table.close()


def test_route_falls_back_to_the_tablet_for_a_seat_without_a_phone(tmp_path: Path) -> None:
    session = new_session(tmp_path, "spyfall", SPY)
    hub = PhoneHub(catalogs=catalogs())
    hub.follow(session)
    done: list[str] = []
    assert hub.route(0, "reveal", lambda: done.append("x")) is False and done == []
    phone = Recorder("10.0.0.9")
    admit(hub, phone, token=hub.seat_pass(0).token)  # type: ignore[union-attr]
    assert hub.route(0, "input", lambda: done.append("nothing to do")) is True
    assert done == ["nothing to do"]  # the seat has no input to give now: the tablet goes on
    assert phone.sent[-1] == {"t": "nudge", "mode": "input"}
    session.close()


def test_passes_survive_a_restart_of_the_kiosk_and_die_with_the_game(tmp_path: Path) -> None:
    """After a power cut the resumed game keeps its passes: the same phone rejoins with its saved token and
    device key (no rescanning), another device is still refused; a new game or a damaged file gives new
    passes, and the file goes when the game ends."""
    from table.table import Table
    from tests.phones.helpers import library

    store = tmp_path / "phone_passes.json"
    session = new_session(tmp_path, "spyfall", SPY)
    hub = PhoneHub(catalogs=catalogs(), store=store)
    hub.follow(session)
    before = {s: (hub.seat_pass(s).token, hub.seat_pass(s).code) for s in range(3)}  # type: ignore[union-attr]
    phone = Recorder("10.0.0.1")
    assert admit(hub, phone, token=before[1][0])["t"] == "joined"
    device = next(m for m in phone.sent if m["t"] == "hello")["device"]
    T.flush()  # written by the passes' writer thread, in order (a power cut in these ms loses the join)
    assert oct(store.stat().st_mode & 0o777) == "0o600"
    act(session, A.ChooseDealer(TABLE, 1))
    session.close()  # the power goes: nothing is ended

    resumed = Table(library(), tmp_path / "journal")
    assert resumed.resume() is not None
    hub2 = PhoneHub(catalogs=catalogs(), store=store)
    hub2.follow(resumed)
    assert {s: (hub2.seat_pass(s).token, hub2.seat_pass(s).code) for s in range(3)} == before  # type: ignore[union-attr]
    again = Recorder("10.0.0.1")
    assert hub2.join(again, token=before[1][0], device=device)["t"] == "joined"
    assert again.sent[-1]["view"]["round"]["dealer"] == 1
    thief = Recorder("10.0.0.9")
    assert hub2.join(thief, token=before[1][0], device="someone-else")["t"] == "asking"  # the tablet decides
    hub2.end_game()
    T.flush()
    assert not store.exists()
    resumed.close()

    store.write_text("{not json", encoding="utf-8")
    fresh = new_session(tmp_path / "b", "spyfall", SPY)
    hub3 = PhoneHub(catalogs=catalogs(), store=store)
    hub3.follow(fresh)
    assert hub3.seat_pass(1).token not in {t for t, _ in before.values()}  # type: ignore[union-attr]
    T.flush()
    assert json.loads(store.read_text(encoding="utf-8"))["passes"][1]["token"] == hub3.seat_pass(1).token  # type: ignore[union-attr]
    again2 = Recorder("10.0.0.1")
    assert hub3.join(again2, token=before[1][0], device=device)["code"] == "bad_token"  # old passes are dead
    fresh.close()


def test_the_private_part_comes_from_the_views_parts_in_both_languages(tmp_path: Path) -> None:
    """Issue 20 / JACK-09 on the phone: Jack's seat gets its role and Jack's identity as a part to hold
    (words from the catalogs, names from the view); the detective gets neither."""
    session = new_session(tmp_path, "mr_jack_ny", {"players": ["지수", "민호"]}, seed=3)
    try:
        hub = PhoneHub(catalogs=catalogs())
        hub.follow(session)
        jack, detective = hub.state_message(1)["mine"], hub.state_message(0)["mine"]
        assert jack[0] == {"kind": "card", "label": {"ko": "내 역할", "en": "Your role"},
                           "title": {"ko": "잭", "en": "Jack"}, "lines": [], "tone": "secret"}
        reveal = [p for p in jack if p["kind"] == "reveal"]
        assert len(reveal) == 1 and reveal[0]["label"] == {"ko": "잭의 정체", "en": "Jack is"}
        who = session.state.jack
        i = session.state.roster.index(who)
        assert reveal[0]["title"] == {"ko": session.state.names_ko[i], "en": session.state.names_en[i]}
        assert detective[0]["title"] == {"ko": "탐정", "en": "Detective"}
        assert not any(p["kind"] == "reveal" for p in detective)
    finally:
        session.close()


def test_passes_are_fsynced_off_the_callers_thread_in_call_order(tmp_path: Path, monkeypatch: Any) -> None:
    """The fsync took 36 ms of a game-start frame on the UI thread (issue #21): the passes' writer does it,
    and its writes land in call order, so an end of game's forget is never undone by an earlier save."""
    import os
    import threading

    store = tmp_path / "phone_passes.json"
    session = new_session(tmp_path, "spyfall", SPY)  # the table's own fsyncs (its journal, tonight.json) before
    synced: list[threading.Thread] = []
    real = os.fsync
    monkeypatch.setattr(T.os, "fsync", lambda fd: (synced.append(threading.current_thread()), real(fd))[1])
    hub = PhoneHub(catalogs=catalogs(), store=store)
    hub.follow(session)
    for _ in range(5):
        hub.reissue(1)
    T.flush()
    assert synced and threading.current_thread() not in synced
    assert json.loads(store.read_text(encoding="utf-8"))["passes"][1]["token"] == hub.seat_pass(1).token  # type: ignore[union-attr]
    hub.reissue(2)
    hub.end_game()
    T.flush()
    assert not store.exists()
    session.close()
