"""Each shell screen rendered offscreen, driven by touch, screenshotted and checked for fit and Hangul."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui


def _check_layout(driver: Any, name: str) -> None:
    path = driver.screenshot(name)
    assert path.exists() and path.stat().st_size > 5000
    assert driver.small_targets() == []
    assert driver.overflowing_labels() == []


def test_default_font_draws_hangul(driver: Any) -> None:
    """Roboto draws Hangul as tofu: our bundled NanumGothic must be the default font."""
    from kivy.core.text import Label as CoreLabel

    hangul = CoreLabel(text="테이블", font_size=40)
    hangul.refresh()
    box = CoreLabel(text="\u25a1\u25a1\u25a1", font_size=40)  # what tofu would look like, roughly
    box.refresh()
    assert hangul.texture.size[0] > 60
    assert bytes(hangul.texture.pixels) != bytes(box.texture.pixels)
    from kivy.core.text import LabelBase
    assert "NanumGothic" in LabelBase._fonts["Roboto"][0]


def test_attract_screen(driver: Any) -> None:
    assert driver.app.sm.current == "attract"
    assert "테이블 호스트" in driver.texts()
    _check_layout(driver, "attract")


def test_language_switch_from_attract(driver: Any) -> None:
    driver.tap("lang_toggle")
    assert "TableHost" in driver.texts()
    _check_layout(driver, "attract_en")
    driver.tap("lang_toggle")
    assert "테이블 호스트" in driver.texts()


def test_library_lists_games_and_filters_by_players(driver: Any) -> None:
    driver.tap("start")
    driver.wait_screen("library")
    ids = {w.test_id for w in driver.walk() if getattr(w, "test_id", "").startswith("game_")}
    assert ids == {"game_watson_holmes", "game_spyfall", "game_mr_jack_ny", "game_clue"}
    _check_layout(driver, "library")
    driver.tap("players_8")
    ids = {w.test_id for w in driver.walk() if getattr(w, "test_id", "").startswith("game_")}
    assert ids == {"game_spyfall"}
    driver.tap("players_2")
    ids = {w.test_id for w in driver.walk() if getattr(w, "test_id", "").startswith("game_")}
    assert ids == {"game_watson_holmes", "game_mr_jack_ny"}
    driver.tap("minutes_30")  # Mr. Jack takes 30–45 minutes: not "within 30"
    ids = {w.test_id for w in driver.walk() if getattr(w, "test_id", "").startswith("game_")}
    assert ids == set()
    driver.tap("minutes_45")
    ids = {w.test_id for w in driver.walk() if getattr(w, "test_id", "").startswith("game_")}
    assert ids == {"game_mr_jack_ny"}
    _check_layout(driver, "library_filtered")


def test_library_keeps_its_cards_while_they_say_the_same(driver: Any) -> None:
    """Back to the library (a tap, voice's 처음으로): the same cards and filter buttons, not made again (made on
    every visit, the visit's frame was 40-55 ms of UI-thread CPU here); in another language they say it in it."""
    driver.tap("start")
    driver.wait_screen("library")
    before = {w.test_id: w for w in driver.walk() if getattr(w, "test_id", "").startswith(("game_", "players_"))}
    driver.tap("game_clue")
    driver.wait_screen("detail")
    driver.tap("back")
    driver.wait_screen("library")
    after = {w.test_id: w for w in driver.walk() if getattr(w, "test_id", "").startswith(("game_", "players_"))}
    assert after.keys() == before.keys() and all(after[k] is before[k] for k in before)
    assert driver.find("players_0").selected
    driver.tap("players_3")
    assert driver.find("players_3") is before["players_3"] and driver.find("players_3").selected
    assert not driver.find("players_0").selected
    driver.app.set_lang("en")
    driver.app.get_screen("library").refresh()
    driver.pump(2)
    assert "Clue" in driver.find("game_clue").text and driver.find("players_0").text == driver.app.tr("library.any")


def test_library_shows_shelf_code_for_this_branch(driver: Any) -> None:
    driver.tap("start")
    driver.wait_screen("library")
    card = driver.find("game_spyfall")
    assert "선반 X2" in card.text
    # the rulebooks give no shelf for Clue and Mr. Jack: the tile says to ask, never a made-up code
    assert "직원에게" in driver.find("game_clue").text and "직원에게" in driver.find("game_mr_jack_ny").text


def test_game_detail_and_back(driver: Any) -> None:
    driver.tap("start")
    driver.wait_screen("library")
    driver.tap("game_watson_holmes")
    driver.wait_screen("detail")
    texts = " ".join(driver.texts()).replace("\u00a0", " ")  # a fact is kept on one line by no-break spaces
    assert "왓슨&홈즈" in texts and "2–7명" in texts and "선반 X3" in texts
    _check_layout(driver, "detail_watson_holmes")
    driver.tap("back")
    driver.wait_screen("library")


def test_every_game_detail_fits(driver: Any) -> None:
    for game in ("spyfall", "mr_jack_ny", "clue"):
        driver.app.open_game(game)
        driver.wait_screen("detail")
        # the page follows when another game opens while it shows
        assert driver.app.get_screen("detail").ids.title.text == driver.app.library.games[game].info.name.get("ko")
        _check_layout(driver, f"detail_{game}")


def test_host_frame_opens_for_each_game(driver: Any) -> None:
    for game in ("watson_holmes", "spyfall", "mr_jack_ny", "clue"):
        driver.app.open_game(game)
        driver.wait_screen("detail")
        if driver.find("host").disabled:
            continue
        driver.tap("host")
        driver.wait_screen("host")
        assert driver.app.get_screen("host").game_id == game
        driver.screenshot(f"host_{game}_start")
        driver.tap("host_back")
        driver.wait_screen("detail")


def test_esc_does_not_leave_the_kiosk(driver: Any) -> None:
    from kivy.core.window import Window

    assert Window.dispatch("on_keyboard", 27, 0, "", []) is True
    assert Window.dispatch("on_request_close") is True
    assert driver.app.sm.current == "attract"


def test_pin_wrong_five_times_locks_for_60_seconds(driver: Any) -> None:
    clock = {"t": 1000.0}
    driver.app.now = lambda: clock["t"]
    try:
        driver.tap("staff")
        driver.wait_screen("pin")
        _check_layout(driver, "pin")
        for _attempt in range(5):
            driver.enter_pin("1111")
            assert driver.app.sm.current == "pin"
        screen = driver.app.get_screen("pin")
        assert "60초" in screen.message
        assert screen.ids.pad.disabled
        driver.screenshot("pin_locked")
        clock["t"] += 30
        driver.wait_for(lambda: "30초" in screen.message)  # the screen's next tick (every 0.5 s) reads the clock
        assert screen.ids.pad.disabled
        clock["t"] += 31
        driver.wait_for(lambda: not screen.ids.pad.disabled)
        driver.enter_pin("0000")
        driver.wait_screen("staff")
    finally:
        import time
        driver.app.now = time.time


def test_pin_is_checked_off_the_ui_thread(driver: Any, monkeypatch: Any) -> None:
    """The PIN's hash (~80 ms of CPU here, several times that on a tablet) runs on a worker thread: the screen
    says it is checking and keeps drawing, and takes no second PIN meanwhile."""
    import threading

    from table import pin

    release = threading.Event()
    finished = threading.Event()
    real = pin.check_pin

    def slow_check(value: str, stored: str) -> bool:
        release.wait(30)
        finished.set()
        return real(value, stored)

    monkeypatch.setattr(pin, "check_pin", slow_check)
    driver.tap("staff")
    driver.wait_screen("pin")
    for k in "0000":
        driver.tap(f"pin_{k}")
    ok = driver.find("pin_ok")
    driver.tap_at(*ok.to_window(*ok.center))  # a bare touch: Driver.tap would wait for the answer
    screen = driver.app.get_screen("pin")
    # the check is still held back: a tap that waited for it would have returned only after it finished
    assert not finished.is_set(), "the tap waited for the hash"
    assert screen.message == "확인하는 중…" and screen.ids.pad.disabled
    driver.screenshot("pin_checking")
    driver.pump(3)
    assert driver.app.sm.current == "pin"
    release.set()
    driver.wait_screen("staff")


def test_staff_screen_switches_language_and_branch(driver: Any) -> None:
    driver.staff_login()
    _check_layout(driver, "staff")
    driver.tap("staff_nav_general")
    driver.tap("staff_branch_branch2")
    assert driver.app.branch == "branch2"
    driver.tap("staff_lang_en")
    assert driver.app.lang == "en" and driver.app.settings.lang == "en"
    _check_layout(driver, "staff_en")
    driver.tap("staff_done")
    driver.wait_screen("attract")
    driver.tap("start")
    driver.wait_screen("library")
    ids = {w.test_id for w in driver.walk() if getattr(w, "test_id", "").startswith("game_")}
    assert "game_spyfall" not in ids  # not stocked at branch 2
    # settings persisted
    from table import settings as settings_mod
    saved = settings_mod.load(driver.app.settings_path)
    assert saved.branch == "branch2" and saved.lang == "en"


def test_staff_exit_asks_first(driver: Any) -> None:
    driver.staff_login()
    driver.tap("staff_exit")
    driver.screenshot("staff_exit_confirm")
    driver.tap("confirm_no")
    assert driver.app.sm.current == "staff" and not driver.app._allow_exit


def _narrating(driver: Any, text: str) -> float:
    """The library on show and `text` narrated with the sound on (fake device), its caption bar shown; the screens'
    full height before it."""
    app = driver.app
    if app.narrator is None:
        pytest.skip("narration disabled (TABLEHOST_NO_AUDIO)")
    from audio.segments import Segment

    driver.tap("start")
    driver.wait_screen("library")
    full = float(app.sm.height)
    app.narrator.speak(Segment("test.bar", "ko", text), interrupt=True)
    driver.wait_for(lambda: app.caption_bar.shown, 5)
    return full


def test_caption_bar_takes_its_own_strip_and_gives_it_back(driver: Any) -> None:
    """Narration with the sound on (fake device): the bar shows the current sentence in the strip under the
    screen (the screen shrinks, nothing is covered), pause and stop work, and the strip closes after."""
    app = driver.app
    full = _narrating(driver, "첫 문장입니다. 두 번째 문장입니다. 세 번째 문장입니다.")
    driver.pump(3)
    assert "첫 문장입니다." in app.caption_bar.label.text
    assert app.sm.height <= full - app.caption_bar.height + 1  # room made, not laid over the screen
    assert driver.covered_targets() == [] and driver.overflowing_labels() == []
    driver.screenshot("caption_bar")
    driver.tap("captions_pause")
    driver.wait_for(lambda: app.caption_bar.state.state == "paused", 3)
    driver.tap("captions_stop")
    driver.wait_for(lambda: not app.caption_bar.shown, 5)
    driver.pump(3)
    assert app.sm.height == full


def test_the_caption_strip_never_closes_under_a_finger(driver: Any) -> None:
    """Narration ends while a guest's finger is down: the strip (and what is above it) stays until the finger
    lifts, so the screen does not grow under the press; then it closes (kiosk.widgets.fingers)."""
    from kivy.core.window import Window
    from kivy.tests.common import UnitTestTouch

    app = driver.app
    full = _narrating(driver, "짧은 문장입니다.")
    touch = UnitTestTouch(Window.width / 2, Window.height / 2)
    touch.touch_down()
    try:
        driver.wait_for(lambda: app.caption_bar.state is not None
                        and app.caption_bar.state.state not in ("playing", "paused"), 15)
        driver.wait(2.5)  # past the strip's 1.5 s after the narration ended
        assert app.caption_bar.shown and app.sm.height < full, "closed under the finger"
    finally:
        touch.touch_up()
    driver.wait_for(lambda: not app.caption_bar.shown, 3)
    driver.pump(3)
    assert app.sm.height == full
