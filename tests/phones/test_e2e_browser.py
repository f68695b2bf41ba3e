"""End to end in a real headless browser (Debian's chromium, driven by Playwright): two phones join a
Spyfall round — one by scanning (the QR code's address), one by typing the short code — see different
roles, accuse, cast sealed votes, and ride out a dropped connection. Screenshots go to test-artifacts/.

Skips when chromium or the playwright package is missing (scripts/setup.sh installs both in test mode)."""

from __future__ import annotations

import dataclasses
import importlib.util
import os
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from engines.core import TABLE, View
from engines.parts import Card, Items, Reveal, phrase, said
from engines.spyfall import actions as A
from phones.channel import PhoneHub
from phones.server import PhoneServer
from tests.engines import reference
from tests.phones.helpers import new_session
from tests.phones.test_leaks import PlaySession

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

if not os.path.exists(CHROMIUM):
    pytest.skip(f"no chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True)
if importlib.util.find_spec("playwright") is None:
    pytest.skip("the playwright package is not installed (pip install playwright; no browser download)",
                allow_module_level=True)

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

from tests.tables import act  # noqa: E402

expect.set_options(timeout=10_000)  # a loaded CI machine: generous waits (they end as soon as the page is right)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


class Table:
    """The tablet's side: the session and the hub, with the main thread played by one lock."""

    def __init__(self, tmp: Path, store: Path | None = None) -> None:
        self.session = new_session(tmp, "spyfall", {"players": ["지수", "민호", "서연"], "rounds": 1,
                                                    "votes": "sealed"}, seed=7)
        self.lock = threading.RLock()
        self.hub = PhoneHub(run_on_main=self.main, store=store)
        self.hub.follow(self.session)
        self.server = PhoneServer(self.hub, "127.0.0.1", 0)
        self.server.start()

    def main(self, fn: Callable[[], None]) -> None:
        with self.lock:
            fn()

    def seated(self, browser: Browser, seat: int) -> Page:
        """A phone that scanned the seat's QR code and was let in on the tablet."""
        page = phone(browser)
        url = self.server.join_url(seat)
        assert url is not None
        page.goto(url)
        let_in(self.hub, page, self.lock)
        return page

    def dispatch(self, action: Any) -> None:
        with self.lock:
            act(self.session, action)

    def close(self) -> None:
        self.server.stop()
        self.session.close()


def phone(browser: Browser) -> Page:
    context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True,
                                  has_touch=True, locale="ko-KR")
    page = context.new_page()
    page.set_default_timeout(10_000)
    return page


def let_in(hub: PhoneHub, page: Page, lock: Any, ok: bool = True, name: str = "") -> str:
    """The tablet's answer for a phone new to its seat, as the seat's owner gives it: the page says what it
    waits for and shows four digits; the tablet's question carries the same digits."""
    wait = page.get_by_test_id("wait")
    expect(wait).to_contain_text("태블릿에서 확인하기를 기다리는 중이에요")
    number = "".join(ch for ch in wait.locator(".number").inner_text() if ch.isdigit())
    if name:
        shot(page, name)
    ask = next(a for a in hub.asking() if a.number == number)
    with lock:
        hub.answer(ask.ident, ok)
    return number


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"phones_{name}.png"), full_page=False)


def test_two_phones_join_a_spyfall_round_see_their_roles_and_vote_sealed(browser: Browser, tmp_path: Path) -> None:
    """Covers SPY-19 on the phone (each seat sees only its own card) and SPY-29's secret vote, cast by phone
    (here the accusation vote, sealed until everyone has voted)."""
    table = Table(tmp_path)
    try:
        joker, hero = phone(browser), phone(browser)
        # seat 0 scans the QR code (its address); seat 1 types the short code
        url0 = table.server.join_url(0)
        assert url0 is not None
        joker.goto(url0)
        let_in(table.hub, joker, table.lock, name="asking_the_tablet")
        hero.goto(table.server.url + "/")
        expect(hero.get_by_test_id("join")).to_be_visible()
        hero.get_by_test_id("code").fill("ZZZZ-ZZZZ")  # a typo first: said once, no bar left behind (#37)
        hero.get_by_test_id("join_go").click()
        expect(hero.get_by_test_id("join")).to_contain_text("코드가 맞지 않아요")
        expect(hero.get_by_test_id("msg")).to_be_hidden()
        expect(hero.get_by_test_id("net")).to_be_hidden()
        assert hero.locator("body").inner_text().count("코드가 맞지 않아요") == 1
        hero.get_by_test_id("code").fill(table.hub.status()[1].code.lower())
        shot(hero, "join_by_code")
        hero.get_by_test_id("join_go").click()
        let_in(table.hub, hero, table.lock)
        expect(hero.get_by_test_id("mine")).to_contain_text("나만 보는 정보")
        expect(joker.get_by_test_id("mine")).to_contain_text("나만 보는 정보")

        # the tablet names the dealer; the deal follows and each phone shows its card at once
        table.dispatch(A.ChooseDealer(TABLE, 0))
        me0, me1 = table.session.view(0)["me"]["card"], table.session.view(1)["me"]["card"]
        assert me0["kind"] == "joker" and me1["kind"] == "location"  # seed 7 deals these
        expect(joker.get_by_test_id("mine")).to_contain_text("조커")
        expect(hero.get_by_test_id("mine")).to_contain_text(me1["ko"])
        expect(joker.get_by_test_id("who")).to_contain_text("지수 · 1번 자리")
        expect(hero.get_by_test_id("all")).to_contain_text("점수")
        expect(hero.get_by_test_id("all")).to_contain_text("지수 0")
        assert "_" not in hero.locator("main").inner_text()
        expect(hero.get_by_test_id("who")).to_contain_text("민호 · 2번 자리")
        assert me1["ko"] not in joker.get_by_test_id("mine").inner_text()
        assert "조커" not in hero.get_by_test_id("mine").inner_text()
        assert "#t=" not in joker.url  # the token leaves the address bar once joined
        assert table.hub.connected(0) and table.hub.connected(1) and not table.hub.connected(2)
        # every page says what it waits for (issue 37): here the tablet, which starts the round
        expect(hero.get_by_test_id("wait")).to_contain_text("태블릿에서 다음으로 넘어가기를 기다리는 중이에요")
        shot(joker, "spyfall_role_joker")
        shot(hero, "spyfall_role_location")

        # the round starts on the tablet; the Joker's phone accuses 서연 with its own buttons
        table.dispatch(A.StartClock(TABLE))
        acts = joker.get_by_test_id("acts")
        expect(acts).to_contain_text("지목하기")
        acts.get_by_role("button", name="서연").click()
        expect(joker.get_by_test_id("send")).to_be_visible()
        joker.get_by_test_id("send").click()

        # both phones vote, sealed
        expect(hero.get_by_test_id("acts")).to_contain_text("비밀 투표")
        expect(hero.get_by_test_id("wait")).to_contain_text("지금 내 차례예요")
        expect(joker.get_by_test_id("acts")).to_contain_text("비밀 투표")
        hero.get_by_role("button", name="반대 (엄지 아래)").click()
        expect(hero.get_by_test_id("send")).to_be_visible()
        shot(hero, "spyfall_vote_confirm")
        # the Joker votes while 민호 is still confirming: 민호's page gets a new state, the choice stays
        joker.get_by_role("button", name="찬성 (엄지 위)").click()
        joker.get_by_test_id("send").click()
        expect(joker.get_by_test_id("mine")).to_contain_text("내 표")
        expect(hero.locator("body")).to_have_attribute("data-v", str(table.hub.version))
        expect(hero.get_by_test_id("send")).to_be_visible()
        assert "찬성" not in hero.get_by_test_id("mine").inner_text()  # the Joker's ballot stays sealed
        with table.lock:
            assert table.session.state.round.vote.ballots == ((0, "yes"),)
        hero.get_by_test_id("send").click()
        expect(hero.get_by_test_id("net")).to_contain_text("보냈어요")
        with table.lock:
            r = table.session.state.round
            assert r.phase != "accusation" and dict(r.counts) == {"yes": 1, "no": 1}
        shot(joker, "spyfall_after_vote_joker")
        shot(hero, "spyfall_after_vote_hero")

        # the connection drops (the kiosk's server restarts): the page says so and comes back by itself
        port = table.server.port
        table.server.stop()
        expect(hero.get_by_test_id("net")).to_contain_text("연결이 끊겼어요")
        shot(hero, "connection_lost")
        table.server = PhoneServer(table.hub, "127.0.0.1", port)
        table.server.start()
        expect(hero.get_by_test_id("net")).to_contain_text("다시 연결됐어요", timeout=15000)
        expect(hero.get_by_test_id("mine")).to_contain_text(me1["ko"])
        assert table.hub.connected(1)

        # English on request
        hero.get_by_test_id("lang").click()
        expect(hero.get_by_test_id("who")).to_contain_text("민호 · seat 2")
        expect(hero.get_by_test_id("mine")).to_contain_text(me1["en"])
        shot(hero, "spyfall_english")

        # a reload rejoins by itself (token and device key kept by the browser, language too)
        hero.reload()
        expect(hero.get_by_test_id("mine")).to_contain_text(me1["en"])
        expect(hero.get_by_test_id("who")).to_contain_text("민호 · seat 2")
        # the same QR link opened again on the Joker's phone (a locked phone, the camera app): straight back
        joker.goto(url0)
        expect(joker.get_by_test_id("mine")).to_contain_text("조커")
        expect(joker.get_by_test_id("wait")).to_be_visible()
        assert table.hub.asking() == [] and "이미 다른 휴대폰" not in joker.content()
        expect(joker.get_by_test_id("net")).to_be_hidden()
        # another phone with 민호's QR address only asks the tablet; 민호 says no: it gets nothing
        url1 = table.server.join_url(1)
        assert url1 is not None
        thief = phone(browser)
        thief.goto(url1)
        let_in(table.hub, thief, table.lock, ok=False)
        expect(thief.get_by_test_id("join")).to_contain_text("태블릿에서 이 휴대폰을 받지 않았어요")
        assert me1["ko"] not in thief.content() and me1["en"] not in thief.content()
        assert table.hub.connected(1)
    finally:
        table.close()


def _table_for(tmp: Path, game: str, config: dict[str, Any], seed: int) -> Table:
    table = Table.__new__(Table)
    table.session = new_session(tmp, game, config, seed=seed)
    table.lock = threading.RLock()
    table.hub = PhoneHub(run_on_main=table.main)
    table.hub.follow(table.session)
    table.server = PhoneServer(table.hub, "127.0.0.1", 0)
    table.server.start()
    return table


def test_a_clue_phone_shows_the_hand_and_builds_an_accusation_step_by_step(browser: Browser,
                                                                            tmp_path: Path) -> None:
    """Covers CLUE-14 on the phone (a seat sees only its own cards) and CLUE-47's accusation input."""
    table = _table_for(tmp_path, "clue", {"players": ["지수", "민호", "서연"], "mode": "digital", "set": "classic"}, 3)
    try:
        page = table.seated(browser, 0)
        hand = table.session.view(0)["hand"]
        names = table.hub.state_message(0)["names"]
        mine = page.get_by_test_id("mine")
        expect(mine).to_contain_text("내 손패")
        # the table at a glance: whose turn it is, from the view's shared part; no raw view keys or codes
        expect(page.get_by_test_id("wait")).to_contain_text("지금 내 차례예요.")
        assert "_" not in page.locator("main").inner_text()
        other = table.seated(browser, 1)
        expect(other.get_by_test_id("wait")).to_contain_text("지수의 차례를 기다리는 중이에요.")
        shot(other, "clue_table_other")
        for card in hand:
            expect(mine).to_contain_text(names[card]["ko"])
        others = table.session.view(1)["hand"]
        assert not any(names.get(c, {"ko": "?"})["ko"] in mine.inner_text() for c in others)
        acts = page.get_by_test_id("acts")
        expect(acts).to_contain_text("범인 밝히기")
        acts.get_by_role("button", name="피콕 부인").click()
        expect(acts).to_contain_text("용의자: 피콕 부인")
        acts.get_by_role("button", name="렌치").click()
        shot(page, "clue_hand_accuse")
        acts.get_by_role("button", name="서재").click()
        acts.get_by_test_id("act-accuse-go").click()
        expect(page.get_by_test_id("send")).to_be_visible()
        expect(acts).to_contain_text("피콕 부인 · 렌치 · 서재")
        page.get_by_test_id("cancel").click()
        expect(acts).to_contain_text("범인 밝히기")
        # a move its engine does not mark FINAL is sent at once: no confirmation step (issue 20)
        assert not table.session.engine.actions["roll_die"].FINAL
        acts.get_by_test_id("act-roll_die").click()
        expect(page.get_by_test_id("net")).to_contain_text("보냈어요")
        assert not page.get_by_test_id("send").is_visible()
        with table.lock:
            assert [a["name"] for a in table.session.journal.actions()[-2:]] == ["roll_die", "die_roll"]
    finally:
        table.close()


def _to_221b(table: Table) -> None:
    """Random play (fixed seed) until seat 0 is at 221B with its answers to give."""
    import random

    rng = random.Random(1)
    s, e = table.session, table.session.engine
    for i in range(400):
        if any(a.NAME == "submit_answers" for a in s.legal(0)):
            return
        seat = rng.choice(sorted(x for x in e.to_move(s.state) if x >= TABLE))
        legal = s.legal(seat)
        pick = [a for a in legal if a.NAME not in ("submit_answers", "visit") or
                (a.NAME == "visit" and getattr(a, "location", "") != "221b")]
        if seat == 0 and i > 60:
            pick = [a for a in legal if a.NAME == "visit" and getattr(a, "location", "") == "221b"] or pick
        if pick:
            table.dispatch(rng.choice(pick))
    raise AssertionError("seat 0 never reached 221B")


def test_a_watson_holmes_phone_shows_the_notebook_and_takes_typed_answers(browser: Browser,
                                                                          tmp_path: Path) -> None:
    """Covers WH-40 and WH-69 on the phone (own character card, own card texts and notes) and the sealed
    answers at 221B typed on the phone."""
    table = _table_for(tmp_path, "watson_holmes", {"players": ["지수", "민호", "서연"], "case": "case_01"}, 3)
    try:
        _to_221b(table)
        page = table.seated(browser, 0)
        me = table.session.view(0)["me"]
        mine = page.get_by_test_id("mine")
        expect(mine).to_contain_text(me["character_card"]["name"]["ko"])
        expect(mine).to_contain_text(me["notes"][0]["name"]["ko"])
        acts = page.get_by_test_id("acts")
        expect(acts).to_contain_text("221B 답 제출")
        # the engine's sample answers (one of them right) are never on the page: the guest types
        right = table.session.game.pack["cases/case_01"].questions[0].accepted[0]
        assert right not in page.content()
        page.get_by_test_id("free-submit_answers-answers-0").fill("토머스 리드")
        page.get_by_test_id("free-submit_answers-answers-1").fill("전당포")
        shot(page, "watson_holmes_answers")
        acts.get_by_test_id("act-submit_answers-go").click()
        page.get_by_test_id("send").click()
        expect(page.get_by_test_id("net")).to_contain_text("보냈어요")
        with table.lock:
            last = table.session.journal.actions()
        sent = [a for a in last if a["name"] == "submit_answers" and a["seat"] == 0]
        assert sent and sent[-1]["answers"] == ["토머스 리드", "전당포"]
        # the host takes the seat back to the tablet: the phone says so and asks for a new code
        table.hub.revoke(0)
        expect(page.get_by_test_id("join")).to_contain_text("휴대폰 연결이 해제됐어요")
        expect(page.get_by_test_id("mine")).to_be_hidden()
        page.reload()
        expect(page.get_by_test_id("join")).to_be_visible()
        expect(page.get_by_test_id("mine")).to_be_hidden()
    finally:
        table.close()


def test_what_the_browser_and_kiosk_say_on_the_wire_is_sealed(browser: Browser, tmp_path: Path) -> None:
    """Issue 19 item 3 in a real browser: two phones (one scans, one types the code) get their roles and
    vote through a recording proxy; the recording holds no role, token, code or device key."""
    from tests.phones.test_wire import check_recording, secrets_of
    from tests.phones.wire import RecordingProxy

    table = Table(tmp_path)
    proxy = RecordingProxy(table.server.port).start()
    try:
        joker, hero = phone(browser), phone(browser)
        joker.goto(proxy.url + "/#t=" + table.hub.seat_pass(0).token)
        let_in(table.hub, joker, table.lock)
        hero.goto(proxy.url + "/")
        hero.get_by_test_id("code").fill(table.hub.status()[1].code)
        hero.get_by_test_id("join_go").click()
        let_in(table.hub, hero, table.lock)
        expect(hero.get_by_test_id("who")).to_contain_text("민호")
        expect(joker.get_by_test_id("who")).to_contain_text("지수")
        table.dispatch(A.ChooseDealer(TABLE, 0))
        me1 = table.session.view(1)["me"]["card"]
        expect(joker.get_by_test_id("mine")).to_contain_text("조커")
        expect(hero.get_by_test_id("mine")).to_contain_text(me1["ko"])
        table.dispatch(A.StartClock(TABLE))
        joker.get_by_test_id("acts").get_by_role("button", name="서연").click()
        joker.get_by_test_id("send").click()
        hero.get_by_role("button", name="반대 (엄지 아래)").click()
        hero.get_by_test_id("send").click()
        expect(hero.get_by_test_id("net")).to_contain_text("보냈어요")
        hero.reload()  # rejoins with the token and device key the browser kept
        expect(hero.get_by_test_id("mine")).to_contain_text(me1["ko"])
        with table.lock:
            words = {"the Joker's card": "joker", "a view": '"view"', "a ballot": '"my_ballot"',
                     "the hero's location (ko)": me1["ko"], "the hero's location (en)": me1["en"]}
            counts = check_recording(proxy, secrets_of(table.hub), words)
        assert counts["sealed"] >= 10
        print(f"browser wire: {counts}")
    finally:
        proxy.stop()
        table.close()


def test_a_phone_types_its_name_at_set_up_and_keeps_its_seat_in_the_game(browser: Browser, tmp_path: Path) -> None:
    """Issue 15 item 3 on the phone: before the game, the page asks for the player's name (the phone's
    own keyboard); the tablet's set-up gets it; the game starts and the same page shows the role."""
    lock = threading.RLock()

    def main(fn: Callable[[], None]) -> None:
        with lock:
            fn()

    hub = PhoneHub(run_on_main=main)
    server = PhoneServer(hub, "127.0.0.1", 0)
    server.start()
    session = None
    try:
        hub.open_setup("spyfall", ["1번 플레이어", "2번 플레이어", "3번 플레이어"])
        page = phone(browser)
        url = server.join_url(1)
        assert url is not None
        page.goto(url)
        let_in(hub, page, lock)
        expect(page.get_by_test_id("setup")).to_be_visible()
        expect(page.get_by_test_id("wait")).to_contain_text("게임이 시작되기를 기다리는 중이에요")
        expect(page.get_by_test_id("setup_name")).to_have_value("2번 플레이어")
        page.get_by_test_id("setup_name").fill("민호")
        page.get_by_test_id("setup_save").click()
        expect(page.get_by_test_id("who")).to_contain_text("민호 · 2번 자리")
        shot(page, "setup_name")
        with lock:
            assert hub.setup_typed() == {1: "민호"}
        session = new_session(tmp_path, "spyfall", {"players": ["지수", "민호", "서연"], "rounds": 1,
                                                    "votes": "sealed"}, seed=7)
        with lock:
            hub.follow(session)
            act(session, A.ChooseDealer(TABLE, 0))
        me1 = session.view(1)["me"]["card"]
        expect(page.get_by_test_id("mine")).to_contain_text(me1["ko"])
        expect(page.get_by_test_id("setup")).to_be_hidden()
        shot(page, "setup_then_role")
    finally:
        server.stop()
        if session is not None:
            session.close()


class _PartsNim(reference.SecretNim):
    """A made-up game: its seat view declares a card, a list and a secret to hold, none of which any real
    game's keys or words name."""

    name = "parts_nim"

    def observe(self, state: Any, seat: int | None) -> View:
        view = super().observe(state, seat)
        if seat is None or seat < 0:
            return view
        mine = (Card(said("비밀 무기", "Secret weapon"), said(f"돌 {state.hands[seat]}개", f"{state.hands[seat]} stones"),
                     (said("아무에게도 말하지 마세요", "Tell nobody"),)),
                Items(phrase("made_up_list"), (said("하나", "one"), said("둘", "two")),
                      cards=(Card(said("3"), said("셋", "three"), (said("세 번째 줄", "third line"),)),)),
                Reveal(said("숨은 말", "Hidden word"), said("두더지", "mole")))
        return dataclasses.replace(view, mine=mine)


def test_a_made_up_games_private_part_is_drawn_by_kind(browser: Browser) -> None:
    """Issue 20: the page draws a seat's private part from the engine's display parts alone (a card, a
    list with chips and sub-cards, a secret covered until held), for a game it has never heard of."""
    engine = _PartsNim()
    session = PlaySession(engine, {"players": ["A", "B"]}, {}, 0, engine.name)
    lock = threading.RLock()

    def main(fn: Callable[[], None]) -> None:
        with lock:
            fn()

    hub = PhoneHub(run_on_main=main)
    hub.follow(session)  # type: ignore[arg-type]
    server = PhoneServer(hub, "127.0.0.1", 0)
    server.start()
    try:
        page = phone(browser)
        url = server.join_url(0)
        assert url is not None
        page.goto(url)
        let_in(hub, page, lock)
        mine = page.get_by_test_id("mine")
        expect(mine).to_contain_text("비밀 무기")
        expect(mine).to_contain_text(f"돌 {session.state.hands[0]}개")
        expect(mine).to_contain_text("아무에게도 말하지 마세요")
        expect(mine).to_contain_text("Made up list")  # a key no catalog names: shown as words
        expect(mine.locator(".chip")).to_have_text(["하나", "둘"])
        expect(mine).to_contain_text("3 · 셋")
        secret = mine.get_by_text("두더지")
        expect(secret).to_be_hidden()  # covered until held
        assert "두더지" not in mine.inner_text()
        hold = page.get_by_test_id("reveal-hold")
        hold.dispatch_event("pointerdown")
        expect(secret).to_be_visible()
        shot(page, "made_up_parts_held")
        hold.dispatch_event("pointerup")
        expect(secret).to_be_hidden()
        page.get_by_test_id("lang").click()
        expect(mine).to_contain_text("Secret weapon")
        expect(mine.locator(".chip")).to_have_text(["one", "two"])
    finally:
        server.stop()


def test_a_seats_phone_stays_through_a_pause_and_a_rematch(browser: Browser, tmp_path: Path) -> None:
    """Issue 37: the tablet pauses the game (a recovery, a restart: the table closes and resumes it) and the
    seat's phone comes back by itself, without a question; 한 판 더 (the same players again) keeps the phone
    on its seat and shows the new deal. (Before: a pause stopped the page for good; a rematch ended every
    pass and every phone had to scan again.)"""
    table = Table(tmp_path, store=tmp_path / "phone_passes.json")
    try:
        joker = table.seated(browser, 0)
        table.dispatch(A.ChooseDealer(TABLE, 0))
        expect(joker.get_by_test_id("mine")).to_contain_text("조커")
        with table.lock:
            table.session.close()  # the tablet recovers from an error: the game is let go, then resumed
        expect(joker.get_by_test_id("wait")).to_contain_text("게임이 잠시 멈췄어요")
        shot(joker, "paused")
        with table.lock:
            table.session.resume()
        expect(joker.get_by_test_id("mine")).to_be_visible(timeout=20_000)
        expect(joker.get_by_test_id("mine")).to_contain_text("조커")
        expect(joker.get_by_test_id("wait")).not_to_contain_text("멈췄어요")
        assert table.hub.connected(0) and table.hub.asking() == []

        with table.lock:
            table.session.rematch()  # 한 판 더: same game, same players, a new deal
        expect(joker.locator("body")).to_have_attribute("data-v", str(table.hub.version))
        expect(joker.get_by_test_id("wait")).to_be_visible()
        expect(joker.get_by_test_id("join")).to_be_hidden()
        assert table.hub.connected(0) and table.hub.asking() == []
        table.dispatch(A.ChooseDealer(TABLE, 1))
        card = table.session.view(0)["me"]["card"]
        expect(joker.get_by_test_id("mine")).to_contain_text(card["ko"] if card["kind"] == "location" else "조커")
        shot(joker, "after_rematch")
    finally:
        table.close()
