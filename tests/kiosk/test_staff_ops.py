"""Staff mode and café operations: sections, PIN change, table turnover, idle timeout, error recovery,
statistics export."""

from __future__ import annotations

import csv
import time
from typing import Any

import pytest

import engines
from engines.core import RuleError
from table.session import Session
from tests.engines import reference
from tests.kiosk.conftest import start_table
from tests.kiosk.nim_library import nim_library
from tests.tables import act

pytestmark = pytest.mark.ui
engines.register(reference.ENGINE)



def _start_nim(driver: Any) -> Session:
    """A game in progress (the tests' reference engine, so this test does not depend on a real game's UI)."""
    app = driver.app
    lib = nim_library()
    app.library.games["secret_nim"] = lib.games["secret_nim"]
    session = start_table(app, "secret_nim", {"players": ["지수", "민호"], "pile": 30}, 3)
    act(session, reference.Take(session.state.turn, 2))
    app.get_screen("detail").game_id = "secret_nim"
    app.host("secret_nim")
    driver.wait_screen("host")
    return session


def test_every_staff_section_renders_and_fits(driver: Any) -> None:
    driver.staff_login()
    for section in ("table", "general", "sound", "pin", "devices", "content", "stats", "logs"):
        driver.tap(f"staff_nav_{section}")
        driver.screenshot(f"staff_{section}")
        assert driver.small_targets() == [], section
        assert driver.overflowing_labels() == [], section


def test_devices_show_speech_synthesis_working_through_a_fallback_and_why(driver: Any,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    from audio.status import StatusBoard
    from kiosk.screens import staff_panels

    board = StatusBoard()
    board.set("tts", True, "음성 합성 프로세스가 60초 안에 3번 멈췄습니다 (TTS worker failed 3 times in 60 s: "
                           "killed by SIGSEGV)")
    monkeypatch.setattr(staff_panels, "BOARD", board)
    driver.staff_login()
    driver.tap("staff_nav_devices")
    driver.screenshot("staff_devices_tts_fallback")
    # the Korean screen shows the Korean half of the bilingual reason (the English detail stays in the logs)
    assert "대체 수단으로 동작: 음성 합성 프로세스가 60초 안에 3번 멈췄습니다" in driver.texts()
    assert driver.overflowing_labels() == []


def test_pin_change_needs_the_same_pin_twice_and_then_works(driver: Any) -> None:
    driver.staff_login()
    driver.tap("staff_nav_pin")
    for k in "12":
        driver.tap(f"newpin_{k}")
    driver.tap("newpin_ok")
    assert "4–8" in " ".join(driver.texts())  # too short
    for k in "4321":
        driver.tap(f"newpin_{k}")
    driver.tap("newpin_ok")
    for k in "4322":
        driver.tap(f"newpin_{k}")
    driver.tap("newpin_ok")
    assert "달라요" in " ".join(driver.texts())
    for pin in ("4321", "4321"):
        for k in pin:
            driver.tap(f"newpin_{k}")
        driver.tap("newpin_ok")
    assert "바꿨어요" in " ".join(driver.texts())
    assert not driver.app.settings.pin_is_default
    driver.tap("staff_done")
    driver.wait_screen("attract")
    driver.tap("staff")
    driver.enter_pin("0000")
    assert driver.app.sm.current == "pin"  # the old PIN no longer works
    driver.enter_pin("4321")
    driver.wait_screen("staff")


def test_new_table_archives_the_game_and_shows_nothing_of_it(driver: Any) -> None:
    session = _start_nim(driver)
    app = driver.app
    app.set_lang("en")
    app.go("attract")
    driver.wait_screen("attract")
    driver.staff_login()
    assert "비밀 님" in " ".join(driver.texts()) or "Secret Nim" in " ".join(driver.texts())
    driver.tap("staff_new_table")
    driver.tap("confirm_yes")
    driver.wait_screen("attract")
    assert not app.table.playing
    assert app.lang == app.settings.lang == "ko"
    assert not (app.journal_dir / "current.sqlite").exists()
    assert len(list((app.journal_dir / "archive").glob("*.sqlite"))) == 1
    assert Session.resume(app.library, app.journal_dir) is None
    assert not any("지수" in t or "민호" in t for t in driver.texts())
    app.open_game("watson_holmes")
    driver.wait_screen("detail")
    assert driver.find("host").text != app.tr("detail.resume")
    del session


def test_idle_during_a_game_asks_first_then_keeps_playing(driver: Any) -> None:
    _start_nim(driver)
    keeper = driver.app.keeper
    keeper.last_touch = time.monotonic() - keeper.idle_seconds - 1
    keeper.check_idle()
    driver.pump(3)
    driver.screenshot("idle_ask")
    assert keeper.asking is not None
    driver.tap("confirm_yes")
    assert keeper.asking is None and driver.app.table.playing
    assert driver.app.sm.current == "host"


def test_idle_without_answer_resets_the_table(driver: Any) -> None:
    _start_nim(driver)
    keeper = driver.app.keeper
    keeper.last_touch = time.monotonic() - keeper.idle_seconds - 1
    keeper.check_idle()
    driver.pump(2)
    driver.tap("confirm_no")  # same path as the timeout
    driver.wait_screen("attract")
    assert not driver.app.table.playing


def test_idle_without_a_game_returns_to_attract(driver: Any) -> None:
    driver.tap("start")
    driver.wait_screen("library")
    keeper = driver.app.keeper
    keeper.last_touch = time.monotonic() - keeper.idle_seconds - 1
    keeper.check_idle()
    driver.wait_screen("attract")


def test_uncaught_error_shows_wait_then_resumes_the_same_game(driver: Any, monkeypatch: Any) -> None:
    session = _start_nim(driver)
    state, journal = session.state, session.journal
    from kivy.base import ExceptionManager
    from kivy.clock import Clock

    keeper = driver.app.keeper
    # the recovery comes 0.8 s (wall clock) after the error: held until the overlay is checked and its picture taken
    recover = keeper._recover
    due: list[Any] = []
    monkeypatch.setattr(keeper, "_recover", due.append)

    def boom(_dt: float) -> None:
        raise RuntimeError("a bug in a screen")

    Clock.schedule_once(boom, 0)
    driver.pump(2)
    assert any(getattr(w, "test_id", "") == "recovering" for w in driver.roots())
    assert "잠시만요, 다시 준비하고 있어요." in driver.texts()
    driver.screenshot("recovering")
    driver.wait_for(lambda: bool(due), 5)
    recover(due.pop())
    driver.wait_for(lambda: not keeper.recovering, 5)
    driver.wait_screen("host")
    assert driver.app.table.playing and driver.app.table.journal is not journal
    assert driver.app.table.state == state
    assert driver.app.errors and "a bug in a screen" in driver.app.errors[-1]
    assert ExceptionManager.handlers  # still installed


def test_stats_export_writes_csv_with_each_finished_game(driver: Any) -> None:
    session = _start_nim(driver)
    while session.outcome is None:
        try:
            act(session, reference.Take(session.state.turn, 3))
        except RuleError:
            act(session, reference.Take(session.state.turn, 1))
    session.end(later=False)
    driver.app.go("attract")
    driver.wait_screen("attract")
    driver.staff_login()
    driver.tap("staff_nav_stats")
    driver.tap("staff_export")
    path = driver.app.get_screen("staff").last_export
    rows = list(csv.DictReader(open(path, encoding="utf-8-sig")))
    assert len(rows) == 1 and rows[0]["game"] == "secret_nim" and rows[0]["finished"] == "True"
    assert rows[0]["reason"] == "last_take" and int(rows[0]["actions"]) > 5


def test_private_channel_goes_to_the_phone_when_the_seat_has_one(driver: Any) -> None:
    """With the seat's phone connected the hand-over screen is skipped; without, the tablet is passed."""
    _start_nim(driver)
    ctx = driver.app.get_screen("host").ctx
    routed: list[tuple[int, str]] = []

    class FakeHub:
        def route(self, seat: int, mode: str, on_done: Any) -> bool:
            routed.append((seat, mode))
            return seat == 0

        def end_game(self) -> None: ...

    real = driver.app.phones
    driver.app.phones = FakeHub()
    ctx.attach()
    try:
        from kivy.uix.label import Label
        assert ctx.private("지수", lambda done: Label(text="비밀"), seat=0) is None
        assert "휴대폰" in driver.app.toast_widget.last_text
        handover = ctx.private("민호", lambda done: Label(text="비밀"), seat=1)
        assert handover is not None
        driver.pump(3)
        assert driver.find("handover_i_am")
        handover.dismiss()
        assert routed == [(0, "reveal"), (1, "reveal")]
    finally:
        driver.app.phones = real


def test_phone_server_runs_on_loopback_in_tests(driver: Any) -> None:
    app = driver.app
    try:
        driver.wait_for(lambda: app.phones_server is not None, 8)  # it starts beside the UI
    except AssertionError:
        pass
    if app.phones_server is None:
        pytest.skip("phone server could not start here (port taken)")
    assert app.phones_server.url.startswith("http://127.0.0.1:")


def test_staff_records_a_segment_and_the_narrator_uses_it(driver: Any) -> None:
    """Covers the staff recording flow with a fake microphone: countdown, take, keep → overlay file."""
    from audio.pcm import Clip
    from audio.recording import FakeInput

    app = driver.app
    import math
    from array import array
    samples = array("h", [0] * 8000 + [int(8000 * math.sin(i / 8)) for i in range(24000)] + [0] * 8000)
    app.recording_input_factory = lambda: FakeInput(Clip(samples, 22050), speed=20.0)
    try:
        driver.staff_login()
        driver.tap("staff_nav_recordings")
        driver.screenshot("staff_recordings")
        assert driver.small_targets() == []
        first = next(w for w in driver.walk() if getattr(w, "test_id", "").startswith("rec_wh.case_01.intro"))
        driver.tap(first)
        recorder = app.get_screen("staff").recorder
        driver.tap("rec_start")
        driver.wait_for(lambda: recorder.state in ("recording", "recorded"), 8)
        driver.wait(0.5)
        if recorder.state == "recording":
            driver.tap("rec_stop")
        driver.wait_for(lambda: recorder.state == "recorded", 8)
        driver.screenshot("staff_recording_take")
        driver.tap("rec_keep")
        assert recorder.state == "kept" and recorder.path.exists()
        assert recorder.path.parent.parent == app.data_dir / "recordings"
        # the panel follows each tap: a kept take is not kept or discarded again; a second take is discarded
        assert all(driver.find(t).disabled for t in ("rec_keep", "rec_discard", "rec_play", "rec_stop"))
        assert app.tr("staff.rec_kept") in driver.texts()
        driver.tap("rec_start")
        driver.wait_for(lambda: recorder.state in ("recording", "recorded"), 8)
        if recorder.state == "recording":
            driver.tap("rec_stop")
        driver.wait_for(lambda: recorder.state == "recorded" and not driver.find("rec_discard").disabled, 8)
        driver.tap("rec_discard")
        assert recorder.state == "discarded" and recorder.take is None and recorder.path.exists()
        assert driver.find("rec_keep").disabled and app.tr("staff.rec_discarded") in driver.texts()
    finally:
        app.recording_input_factory = None
