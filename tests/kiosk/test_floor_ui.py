"""The café floor on the tablet (real mosquitto on loopback): staff enter the broker in staff mode, guests
call staff from the game screen's top bar with a reason, the floor sees the call and acknowledges it, and
the tablet shows the acknowledgement. Without a broker nothing of it appears."""

from __future__ import annotations

from typing import Any

import pytest

from floor.board import FloorBoard
from tests.floor.broker import Broker
from tests.floor.conftest import broker  # noqa: F401  (fixture)
from tests.floor.helpers import floor_board, wait_for
from tests.kiosk.test_staff_ops import _start_nim

pytestmark = pytest.mark.ui


def _type(driver: Any, test_id: str, text: str) -> None:
    field = driver.find(test_id)
    field.text = text  # typing itself is Kivy's TextInput; the form reads the field on save


def _configure(driver: Any, mqtt_broker: Broker, table: str, password: str) -> None:
    driver.staff_login()
    driver.tap("staff_nav_floor")
    assert "꺼져 있어요. 이 태블릿은 혼자 동작해요." in driver.texts()
    _type(driver, "floor_host", "127.0.0.1")
    _type(driver, "floor_port", str(mqtt_broker.port))
    _type(driver, "floor_table", table)
    _type(driver, "floor_password", password)
    driver.tap("floor_save")


def _connect(driver: Any, mqtt_broker: Broker, table: str) -> Any:
    """The floor set in the settings directly (the staff form has its own test)."""
    from kiosk.floor.ui import restart

    app = driver.app
    s = app.settings
    s.floor_host, s.floor_port, s.floor_table, s.floor_password = ("127.0.0.1", mqtt_broker.port, table,
                                                                  mqtt_broker.passwords[table])
    restart(app)
    driver.wait_for(lambda: app.floor is not None and app.floor.table.client.connected, 10)
    return app


def test_without_a_floor_the_game_screen_has_no_call_button(driver: Any) -> None:
    _start_nim(driver)
    assert driver.app.floor is None
    assert driver.find_all("floor_call") == []


def test_staff_configure_the_floor_and_a_call_is_acknowledged(driver: Any, broker: Broker) -> None:  # noqa: F811
    board: FloorBoard = floor_board(broker)
    try:
        _configure(driver, broker, "t09", broker.passwords["t09"])
        driver.wait_for(lambda: driver.app.floor is not None and driver.app.floor.table.client.connected, 10)
        driver.wait_for(lambda: any(t.startswith("연결됨: 테이블 t09") for t in driver.texts()), 5)
        driver.screenshot("floor_settings")
        assert driver.small_targets() == [] and driver.overflowing_labels() == []
        assert driver.app.settings.floor_table == "t09"
        driver.tap("staff_done")
        session = _start_nim(driver)
        driver.tap("floor_call")
        driver.screenshot("floor_call_reasons")
        assert driver.small_targets() == [] and driver.overflowing_labels() == []
        driver.tap("floor_reason_rules")
        assert driver.app.toast_widget.last_text == "직원을 불렀어요. 잠시만 기다려 주세요."
        state = wait_for(lambda: board.tables.get("t09"), what="the table on the floor")
        wait_for(lambda: state.calls, what="the call on the floor")
        call = next(iter(state.calls.values()))
        assert call["reason"] == "rules"
        driver.wait_for(lambda: state.status.get("game") == "secret_nim", 15)  # the floor reports on its 1 s tick
        assert state.status["players"] == 2 and state.status["needs_staff"]
        driver.wait_for(lambda: driver.find("floor_call").text == "호출 중…", 3)
        driver.screenshot("floor_call_waiting")
        assert driver.overflowing_labels() == []
        board.ack("t09", call["id"])
        driver.wait_for(lambda: driver.app.toast_widget.last_text == "직원이 호출을 확인했어요. 곧 갈게요!", 10)
        driver.wait_for(lambda: driver.find("floor_call").text == "직원 호출", 3)
        assert session.outcome is None
    finally:
        board.stop()


def test_a_wrong_password_shows_the_refusal_and_keeps_the_call(driver: Any, broker: Broker) -> None:  # noqa: F811
    _configure(driver, broker, "t10", "wrong")
    driver.wait_for(lambda: any(t.startswith("연결 거부") for t in driver.texts()), 10)
    driver.screenshot("floor_settings_refused")
    assert driver.overflowing_labels() == []
    driver.tap("floor_off")
    driver.wait_for(lambda: driver.app.floor is None, 3)
    assert driver.app.settings.floor_host == ""


def test_a_bad_table_id_is_refused_in_the_form(driver: Any, broker: Broker) -> None:  # noqa: F811
    _configure(driver, broker, "Table 1", "x")
    assert "테이블 번호는 영어 소문자·숫자·-·_ 로 적어 주세요 (예: t01)." in driver.texts()
    assert driver.app.floor is None


def _fill_case(driver: Any, duplicate: bool) -> None:
    for name, value in (("number", "31"), ("title_ko", "우리 상자"), ("questions", "3"), ("persons", "1"),
                        ("layout", "1 2 / 3 4"), ("difficulty", "2")):
        _type(driver, f"case_{name}", value)
    for n in range(1, 5):
        _type(driver, f"case_loc_name_{n}", f"장소 {n}")
    _type(driver, "case_loc_number_4", "3" if duplicate else "4")
    if not driver.find("case_loc_locked_2").selected:
        driver.tap("case_loc_locked_2")


def test_without_a_floor_staff_add_a_case_on_the_tablet(driver: Any) -> None:
    driver.staff_login()
    driver.tap("staff_nav_floor")
    driver.screenshot("floor_settings_off")
    assert driver.small_targets() == [] and driver.overflowing_labels() == []
    driver.tap("floor_case_open")
    _fill_case(driver, duplicate=True)
    driver.screenshot("floor_case_form")
    assert driver.small_targets() == [] and driver.overflowing_labels() == []
    driver.tap("case_save")
    assert "location numbers repeat" in driver.find("case_message").text  # the loader's own message
    assert "cases/cafe_box_31" not in driver.app.library.games["watson_holmes"].pack
    _type(driver, "case_loc_number_4", "4")
    driver.tap("case_save")
    driver.pump(3)
    case = driver.app.library.games["watson_holmes"].pack["cases/cafe_box_31"]
    assert case.title.ko == "우리 상자" and case.location(2).locked and case.questions[0].person
    assert (driver.app.data_dir / "content/games/watson_holmes/cases/cafe_box_31.yaml").exists()
    assert driver.app.toast_widget.last_text.startswith("'우리 상자' 사건을 저장했어요.")


def test_floor_content_is_applied_on_the_attract_screen(driver: Any, broker: Broker) -> None:  # noqa: F811
    from floor import cases
    from floor.content_floor import FloorContent

    board = floor_board(broker)
    try:
        app = _connect(driver, broker, "t11")
        form = {"number": "41", "title_ko": "플로어 상자", "difficulty": "1", "questions": "2",
                "locations": [{"number": 1, "ko": "부두"}, {"number": 2, "ko": "박물관", "no_watson": True}]}
        FloorContent(driver.app.data_dir / "floorbox", board).add(
            "cafe_box_41", {"ko": "플로어 상자"}, cases.item_files(cases.parse_form(form), None))
        assert app.sm.current == "attract" and not app.table.playing
        driver.wait_for(lambda: "cases/cafe_box_41" in app.library.games["watson_holmes"].pack, 15)
        state = wait_for(lambda: board.tables.get("t11") and board.tables["t11"].content.get("state") == "applied"
                         and board.tables["t11"], what="the applied report")
        assert state.status.get("content") == state.content["hash"]
    finally:
        board.stop()


def test_a_teaching_session_and_the_table_time_reach_the_floor(driver: Any, broker: Broker) -> None:  # noqa: F811
    events: list[dict[str, Any]] = []
    board = floor_board(broker, on_event=events.append)
    try:
        app = _connect(driver, broker, "t12")
        state = wait_for(lambda: "t12" in board.tables and board.tables["t12"].status and board.tables["t12"],
                         what="the table's status")
        assert state.status["seated_s"] is None  # nobody at the table yet
        app.open_game("spyfall")
        driver.wait_screen("detail")
        wait_for(lambda: state.status.get("seated_s") is not None, what="the table seated")
        app.teach("spyfall")
        driver.wait_screen("teach")
        app.go("detail")
        driver.wait_screen("detail")
        teach = wait_for(lambda: [e for e in events if e["kind"] == "teach"], what="the teaching event")
        assert teach[0]["game"] == "spyfall" and teach[0]["table"] == "t12"
        app.keeper.new_table()
        wait_for(lambda: state.status.get("seated_s") is None, what="the turnover")
    finally:
        board.stop()
