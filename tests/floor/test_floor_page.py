"""The floor page in headless Chromium (Playwright, Debian's chromium) against the real broker: PIN, every
table live (game, phase, players, time), a staff call ringing until it is acknowledged from the page, the
acknowledgement reaching the tablet, and the statistics CSV. Screenshots go to test-artifacts/."""

from __future__ import annotations

import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from floor.serve import Floor, FloorSetup
from tests.floor.broker import Broker
from tests.floor.helpers import tablet, wait_for
from tests.phones.helpers import library, new_session
from tests.phones.test_e2e_browser import ARGS as PHONE_ARGS  # skips this module too without chromium/playwright
from tests.phones.test_e2e_browser import CHROMIUM

ARGS = [*PHONE_ARGS, "--autoplay-policy=no-user-gesture-required"]  # the call's sound plays without a click
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"

from playwright.sync_api import Browser, Page, expect, sync_playwright  # noqa: E402

expect.set_options(timeout=15_000)


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def floor(broker: Broker, tmp_path: Path) -> Iterator[Floor]:
    setup = FloorSetup(broker="127.0.0.1", broker_port=broker.port, password=broker.passwords["floor"],
                       listen="127.0.0.1", web_port=0, pin="2468", data_dir=tmp_path / "floorbox")
    f = Floor(setup, library=library())
    f.start()
    assert f.board.wait_connected()
    yield f
    f.stop()


def staff_page(browser: Browser) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="ko-KR")
    page = context.new_page()
    page.set_default_timeout(15_000)
    return page


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"floor_{name}.png"))


def test_nothing_but_the_login_without_the_pin(floor: Floor) -> None:
    for path in ("/ws", "/stats.csv", "/me"):
        with pytest.raises(urllib.error.HTTPError) as err:
            urllib.request.urlopen(floor.server.url + path, timeout=5)
        assert err.value.code == 403, path


def test_another_sites_page_cannot_open_the_live_socket(floor: Floor) -> None:
    import asyncio

    import aiohttp

    async def attempt(origin: str) -> int:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.post(floor.server.url + "/login", json={"pin": "2468"}) as r:
                assert r.status == 200
            try:
                async with http.ws_connect(floor.server.url + "/ws", headers={"Origin": origin}):
                    return 101
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status

    host = floor.server.url.split("://")[1]
    assert asyncio.run(attempt("http://evil.example")) == 403
    assert asyncio.run(attempt(f"http://{host}")) == 101


def test_five_wrong_pins_lock_the_login(floor: Floor) -> None:
    import json

    def login(pin: str) -> tuple[int, dict[str, Any]]:
        req = urllib.request.Request(floor.server.url + "/login", data=json.dumps({"pin": pin}).encode(),
                                     headers={"Content-Type": "application/json"}, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as err:
            return err.code, json.loads(err.read())

    assert [login("1111")[0] for _ in range(4)] == [403] * 4
    assert login("1111")[0] == 429
    status, body = login("2468")  # even the right PIN waits out the lock
    assert status == 429 and 0 < body["locked"] <= 60


def test_the_floor_page_shows_every_table_and_a_call_rings_until_acknowledged(
        browser: Browser, floor: Floor, broker: Broker, tmp_path: Path) -> None:
    acks: list[Any] = []
    t01 = tablet(broker, "t01", tmp_path)
    t02 = tablet(broker, "t02", tmp_path, on_ack=acks.append)
    session = new_session(tmp_path / "t01", "spyfall", {"players": ["지수", "민호", "서연"], "rounds": 1}, seed=7)
    page = staff_page(browser)
    try:
        t01.observe(session)
        t02.seated()
        page.goto(floor.server.url + "/")
        expect(page.get_by_test_id("login")).to_be_visible()
        page.get_by_test_id("pin").fill("1111")
        page.get_by_test_id("login-go").click()
        expect(page.get_by_test_id("login-error")).to_have_text("PIN이 틀렸어요.")
        page.get_by_test_id("pin").fill("2468")
        page.get_by_test_id("login-go").click()
        expect(page.get_by_test_id("table-t01")).to_be_visible()
        expect(page.get_by_test_id("game-t01")).to_have_text("스파이폴 DC")
        expect(page.get_by_test_id("facts-t01")).to_contain_text("딜러 정하기 · 3명 · 게임 0분")
        expect(page.get_by_test_id("game-t02")).to_have_text("빈 테이블")
        expect(page.get_by_test_id("link")).to_have_text("● 브로커 연결됨")
        assert page.evaluate("window.floorBeeps") == 0
        # a guest at t02 calls staff: the card rings until someone acknowledges it
        call = t02.call("order")
        expect(page.get_by_test_id("call-t02")).to_contain_text("주문할게요")
        expect(page.get_by_test_id("call-t02")).to_contain_text("방금")  # its waiting time
        expect(page.locator("#tables article").first).to_have_attribute("data-testid", "table-t02")  # calls first
        wait_for(lambda: page.evaluate("window.floorBeeps") >= 2, what="the call ringing")
        shot(page, "page_call")
        page.get_by_test_id(f"ack-t02-{call['id']}").click()
        expect(page.get_by_test_id("call-t02")).to_have_count(0)
        wait_for(lambda: acks, what="the ack on the tablet")
        assert acks[0][0]["id"] == call["id"] and t02.open_calls() == []
        beeps = page.evaluate("window.floorBeeps")
        page.wait_for_timeout(2500)
        assert page.evaluate("window.floorBeeps") == beeps  # quiet again
        # t01 is cut off: the page shows it offline; the page in English
        t01.stop()
        expect(page.get_by_test_id("table-t01")).to_contain_text("연결 끊김")
        page.get_by_test_id("lang").click()
        expect(page.get_by_test_id("game-t02")).to_have_text("Free table")
        shot(page, "page_en")
    finally:
        page.context.close()
        session.close()
        t02.stop()
        if t01.client.connected:
            t01.stop()


def test_the_statistics_csv_counts_plays_across_tables(browser: Browser, floor: Floor, broker: Broker,
                                                      tmp_path: Path) -> None:
    tables = [tablet(broker, t, tmp_path) for t in ("t03", "t04")]
    sessions = [new_session(tmp_path / f"s{i}", "clue", {"players": ["A", "B", "C"]}, seed=i) for i in range(2)]
    page = staff_page(browser)
    try:
        for t, s in zip(tables, sessions, strict=True):
            t.observe(s)
            t.observe(None)  # the game was closed (turnover)
            t.note_teach("clue", 4.0)
        tables[0].note_voice("clue", 3)
        wait_for(lambda: floor.store.count() >= 7, what="the events stored")
        page.goto(floor.server.url + "/")
        page.get_by_test_id("pin").fill("2468")
        page.get_by_test_id("login-go").click()
        expect(page.get_by_test_id("tables")).to_be_visible()
        with page.expect_download() as info:
            page.get_by_test_id("csv").click()
        text = Path(info.value.path()).read_text(encoding="utf-8-sig")
        header, *rows = text.strip().splitlines()
        assert header == "날짜,게임,플레이 수,끝까지 한 수,평균 시간(분),규칙 배우기,규칙 배우기 시간(분),음성 명령," \
                         "직원 호출,테이블 수"  # Korean headers and game names (#39.5)
        clue = [r.split(",") for r in rows if r.split(",")[1] == "클루"]
        assert len(clue) == 1
        assert clue[0][2:6] == ["2", "0", "0.0", "2"] and clue[0][7] == "3" and clue[0][9] == "2"
    finally:
        page.context.close()
        for s in sessions:
            s.close()
        for t in tables:
            t.stop()


def test_the_open_page_comes_back_by_itself_after_the_floor_service_restarts(
        browser: Browser, broker: Broker, tmp_path: Path) -> None:
    """#39.1: the page retries for ever and its session outlives the restart (the old page stayed dead)."""
    from dataclasses import replace

    acks: list[Any] = []
    setup = FloorSetup(broker="127.0.0.1", broker_port=broker.port, password=broker.passwords["floor"],
                       listen="127.0.0.1", web_port=0, pin="2468", data_dir=tmp_path / "floorbox")
    first = Floor(setup, library=library())
    first.start()
    second: Floor | None = None
    t05 = tablet(broker, "t05", tmp_path, on_ack=acks.append)
    page = staff_page(browser)
    try:
        t05.seated()
        page.goto(first.server.url + "/")
        page.get_by_test_id("pin").fill("2468")
        page.get_by_test_id("login-go").click()
        expect(page.get_by_test_id("table-t05")).to_be_visible()
        first.stop()  # a crash or an update
        expect(page.get_by_test_id("link")).to_have_text("● 플로어 서비스에 다시 연결하는 중…")
        page.wait_for_timeout(1500)
        second = Floor(replace(setup, web_port=first.server.port), library=library())
        second.start()
        call = t05.call("problem")
        expect(page.get_by_test_id("call-t05")).to_be_visible()
        expect(page.get_by_test_id("login")).to_be_hidden()
        expect(page.get_by_test_id("link")).to_have_text("● 브로커 연결됨")
        page.get_by_test_id(f"ack-t05-{call['id']}").click()
        wait_for(lambda: acks, what="the ack on the tablet")
        expect(page.get_by_test_id("call-t05")).to_have_count(0)
        shot(page, "page_after_restart")
    finally:
        page.context.close()
        t05.stop()
        if second is not None:
            second.stop()


def test_the_pages_font_loads_in_chromium(browser: Browser, floor: Floor) -> None:
    """#39.5: the vendored NanumGothic was refused by Chromium's sanitiser (OTS: zero-length TSI3 table)."""
    from floor import webfont

    page = staff_page(browser)
    messages: list[str] = []
    page.on("console", lambda m: messages.append(m.text))
    try:
        page.goto(floor.server.url + "/")
        faces = page.evaluate("document.fonts.load('20px NanumGothic', '카페').then((f) => f.length)")
        assert faces == 1, messages
        assert page.evaluate("document.fonts.check('20px NanumGothic', '카페')")
        assert not [m for m in messages if "OTS" in m or "font" in m.lower()], messages
    finally:
        page.context.close()
    font = webfont.served(Path(__file__).resolve().parents[2] / "kiosk/fonts/NanumGothic.ttf")
    assert b"TSI3" not in font[:400] and font[:4] == b"\0\1\0\0"


def test_the_page_gets_every_table_once_then_only_what_changed(floor: Floor, broker: Broker, tmp_path: Path) -> None:
    """#39.3: the old page got the whole snapshot (34 KB at 200 tables) on every change."""
    import asyncio
    import json
    from concurrent.futures import ThreadPoolExecutor

    import aiohttp

    tables = [tablet(broker, t, tmp_path) for t in ("t06", "t07", "t08")]
    for t in tables:
        t.seated()
    wait_for(lambda: len(floor.board.tables) == 3, what="three tables")

    async def watch() -> list[dict[str, Any]]:
        got: list[dict[str, Any]] = []
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.post(floor.server.url + "/login", json={"pin": "2468"}) as r:
                assert r.status == 200
            async with http.ws_connect(floor.server.url + "/ws") as ws:
                got.append(json.loads((await ws.receive()).data))
                while True:  # until the floor is quiet (late statuses of the three tables)
                    try:
                        await asyncio.wait_for(ws.receive(), 2.5)
                    except TimeoutError:
                        break
                call = await asyncio.get_running_loop().run_in_executor(None, tables[1].call, "rules")
                while True:
                    msg = json.loads((await asyncio.wait_for(ws.receive(), 10)).data)
                    got.append(msg)
                    if any(c["id"] == call["id"] for v in msg["tables"] for c in v["calls"]):
                        return got

    try:
        with ThreadPoolExecutor(1) as pool:  # playwright's loop runs on this thread (the module's browser)
            got = pool.submit(asyncio.run, watch()).result()
        assert got[0]["t"] == "tables" and len(got[0]["tables"]) == 3
        assert got[-1]["t"] == "diff" and [v["table"] for v in got[-1]["tables"]] == ["t07"]
    finally:
        for t in tables:
            t.stop()


def test_a_live_page_through_restarts_of_the_broker_the_floor_and_a_tablet(
        browser: Browser, broker: Broker, tmp_path: Path) -> None:
    """#39's closing test: under an open page, the broker (SIGKILL), the floor service and a tablet restart and
    a tablet dies; no call is lost or shown twice, nothing stays stale, and every ack reaches its tablet."""
    from dataclasses import replace

    from tests.floor.proxy import Link

    setup = FloorSetup(broker="127.0.0.1", broker_port=broker.port, password=broker.passwords["floor"],
                       listen="127.0.0.1", web_port=0, pin="2468", data_dir=tmp_path / "floorbox")
    floor = Floor(setup, library=library())
    floor.start()
    floor.board.stale_s = 4.0
    link = Link(broker.port)
    acks: dict[str, list[Any]] = {"t11": [], "t12": []}
    t11 = tablet(broker, "t11", tmp_path, on_ack=acks["t11"].append, keepalive=2)
    t12 = tablet(broker, "t12", tmp_path, port=link.port, on_ack=acks["t12"].append, keepalive=2)
    page = staff_page(browser)

    def rows() -> list[str]:
        return [str(x) for x in page.locator("[data-call]").evaluate_all("(rs) => rs.map((r) => r.dataset.call)")]

    def shown(ids: set[str]) -> bool:
        return sorted(rows()) == sorted(ids)

    try:
        for t in (t11, t12):
            t.seated()
        page.goto(floor.server.url + "/")
        page.get_by_test_id("pin").fill("2468")
        page.get_by_test_id("login-go").click()
        expect(page.get_by_test_id("table-t12")).to_be_visible()
        open_ids = {t11.call("rules")["id"]}
        wait_for(lambda: shown(open_ids), what="the first call")
        broker.kill()  # the broker dies …
        open_ids.add(t11.call("order")["id"])  # … a call made meanwhile waits on the tablet
        broker.start()
        wait_for(lambda: shown(open_ids), timeout=30, what="the call made while the broker was down")
        floor.stop()  # the floor service restarts; a call made meanwhile is queued for it by the broker
        open_ids.add(t12.call("problem")["id"])
        floor = Floor(replace(setup, web_port=floor.server.port), library=library())
        floor.start()
        floor.board.stale_s = 4.0
        wait_for(lambda: shown(open_ids), timeout=30, what="the call made while the floor was down")
        t11.stop()  # the kiosk restarts with its calls open
        t11 = tablet(broker, "t11", tmp_path, on_ack=acks["t11"].append, keepalive=2)
        page.wait_for_timeout(1500)
        assert shown(open_ids)  # not twice, not lost
        expect(page.get_by_test_id("table-t11")).not_to_contain_text("연결 끊김")
        link.cut(silent=True)  # t12's Wi-Fi goes dead without a word
        expect(page.get_by_test_id("table-t12")).to_contain_text("연결 끊김", timeout=30_000)
        link.restore()
        expect(page.get_by_test_id("table-t12")).not_to_contain_text("연결 끊김", timeout=30_000)
        for call_id in sorted(open_ids):
            page.locator(f"[data-call='{call_id}'] button").click()
        wait_for(lambda: rows() == [], what="every call acknowledged on the page")
        wait_for(lambda: not t11.open_calls() and not t12.open_calls(), timeout=30, what="every ack on its tablet")
        shot(page, "page_after_faults")
    finally:
        page.context.close()
        t11.stop()
        t12.stop()
        link.close()
        floor.stop()
