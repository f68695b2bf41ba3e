"""Watson & Holmes: the case opening and the solution read aloud, with a fake narrator (captions and controls) and
with the app's real narrator playing into the fake sound device (what a guest hears)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kiosk.games.watson_holmes_steps import (
    FakeNarrator,
    captions_only,  # noqa: F401 (autouse)
    check,
    closed,
    open_case,
    skip_opening,
    visit,
)

pytestmark = pytest.mark.ui


def test_opening_follows_the_narrator_captions_and_controls(driver: Any) -> None:
    """Covers WH-33, WH-98."""
    fake = FakeNarrator()
    driver.app.narrator = fake
    try:
        session = open_case(driver, names=("지수", "민호"))
        assert [s for s, _ in fake.spoken] == ["wh.case_01.intro", "wh.case_01.questions", "wh.case_01.rules"]
        assert fake.spoken[0][1] is True and fake.spoken[1][1] is False  # queued one after another
        fake.caption("wh.case_01.intro", ("첫 문장.", "둘째 문장."), 1, 5.0, 10.0, "playing")
        driver.pump(4)
        host = driver.app.get_screen("host").ctx.host
        assert host.opening.caption == "둘째 문장."
        assert 0 < host.opening.progress < host.opening.part_len[0] / host.opening.total
        driver.tap("wh_open_pause")
        assert fake.calls[-1] == "pause"
        driver.tap("wh_open_pause")
        assert fake.calls[-1] == "resume"
        fake.spoken.clear()
        driver.tap("wh_open_skip")
        assert fake.spoken[0] == ("wh.case_01.questions", True)
        fake.caption("wh.case_01.rules", ("규칙.",), 0, 3.0, 3.0, "finished")
        driver.pump(4)
        assert host.opening.finished
        driver.tap("wh_open_begin")
        assert fake.calls[-1] == "stop"
        solver = session.state.turn
        visit(driver, "221b")
        visit(driver, "cab")
        driver.tap(f"wh_answer_{solver}")
        driver.tap("handover_i_am")
        driver.fill("wh_answer_q1", "토마스 팔머")
        driver.fill("wh_answer_q2", "전당포")
        driver.tap("wh_answer_submit")
        driver.tap("confirm_yes")
        closed(driver)
        assert session.outcome is not None
        assert ("wh.case_01.solution", True) in fake.spoken  # the solution is read aloud at the end
    finally:
        driver.app.narrator = None


# ------------------------------------------------------------ the opening with the sound on


@pytest.fixture
def sound_on(driver: Any) -> Any:
    """The app's real narrator (live synthesis) playing into the fake device: what a guest hears."""
    narrator = driver.app.narration.narrator if driver.app.narration is not None else None
    if narrator is None:
        pytest.skip("narration disabled")
    driver.app.narrator = narrator
    return narrator


def _device(narrator: Any) -> Any:
    return narrator.mixer._device


def _hears_speech(driver: Any, narrator: Any, since: float) -> None:
    driver.wait_for(lambda: _device(narrator).first_audible_after(since) is not None, 15)


def _silent(driver: Any, narrator: Any) -> None:
    import time

    driver.wait_for(lambda: not narrator.busy, 5)
    end = _device(narrator).silent_from()
    assert end is None or end <= time.perf_counter() + 0.05


def test_opening_with_the_sound_on_pause_replay_skip_stop_and_leave(driver: Any, sound_on: Any) -> None:
    """Covers WH-33, WH-34, WH-35. Every control of the opening by touch while it is heard: one set of
    controls (no caption bar over the opening), a stop from outside leaves it usable and says what next,
    and the greyed start button says why."""
    import time

    narrator = sound_on
    t0 = time.perf_counter()
    open_case(driver)
    _hears_speech(driver, narrator, t0)
    host = driver.app.get_screen("host").ctx.host
    assert driver.app.caption_bar.shown is False  # the opening's own captions and controls only
    check(driver, "wh_opening_sound_on")
    assert driver.covered_targets() == []
    assert [b for b in driver.unexplained_disabled() if "wh_open" in b] == []
    assert driver.find("wh_open_begin").disabled and "건너뛰기" in driver.find("wh_open_note").text

    driver.tap("wh_open_pause")
    driver.wait_for(lambda: narrator.paused, 3)
    t1 = time.perf_counter()
    driver.wait(0.4)
    assert _device(narrator).first_audible_after(t1 + 0.1) is None  # paused: nothing more is heard
    driver.tap("wh_open_pause")
    _hears_speech(driver, narrator, time.perf_counter())

    driver.tap("wh_open_skip")  # → the questions
    driver.wait_for(lambda: host.opening.current_part == 1, 5)
    driver.tap("wh_open_replay")
    driver.wait_for(lambda: host.opening.current_part == 0 and not host.opening.paused, 5)

    narrator.stop()  # as the voice command 그만 does: the opening must not freeze
    driver.wait_for(lambda: host.opening.halted, 5)
    _silent(driver, narrator)
    assert "계속" in driver.find("wh_open_note").text
    check(driver, "wh_opening_halted")
    t2 = time.perf_counter()
    driver.tap("wh_open_pause")  # 계속: reads this part again
    _hears_speech(driver, narrator, t2)
    assert not host.opening.halted

    driver.tap("host_back")  # leaving the screen ends its speech at once
    driver.wait_screen("detail")
    _silent(driver, narrator)
    assert not driver.app.caption_bar.shown


def test_ending_the_game_or_a_turnover_during_the_opening_silences_it(driver: Any, sound_on: Any) -> None:
    import time

    narrator = sound_on
    t0 = time.perf_counter()
    open_case(driver)
    _hears_speech(driver, narrator, t0)
    driver.wait_for(lambda: not driver.find("host_end").disabled, 3)
    driver.tap("host_end")
    driver.tap("confirm_yes")
    driver.wait_screen("detail")
    _silent(driver, narrator)

    t1 = time.perf_counter()
    open_case(driver)
    _hears_speech(driver, narrator, t1)
    driver.app.reset_for(driver.app.data_dir.parent / "next_table")  # table turnover
    _silent(driver, narrator)
    assert driver.app.sm.current == "attract"


def test_a_turnover_during_the_opening_lets_its_screen_go(driver: Any, sound_on: Any) -> None:
    """The narrator lives as long as the app: the opening's caption listener must leave with the opening
    (fails on the old code: every opening left behind kept its whole game screen, ~25 widgets, for good)."""
    import gc
    import time
    import weakref

    from tests.kiosk.refchain import chain

    narrator = sound_on
    t0 = time.perf_counter()
    open_case(driver)
    _hears_speech(driver, narrator, t0)
    host = weakref.ref(driver.app.get_screen("host").host_widget)
    listeners = len(narrator._listeners)
    driver.app.keeper.new_table()
    driver.wait_screen("attract")
    driver.pump(4)
    gc.collect()
    assert host() is None, chain(host())
    assert len(narrator._listeners) == listeners - 1
    _silent(driver, narrator)


def test_solution_reading_uses_the_caption_strip_without_covering_controls(driver: Any, sound_on: Any) -> None:
    """Covers WH-98. The solution is read aloud at the end; its captions sit in the strip under the
    screen, never over the results' buttons."""
    import time

    narrator = sound_on
    session = open_case(driver, names=("지수", "민호"))
    skip_opening(driver)
    solver = session.state.turn
    visit(driver, "221b")
    visit(driver, "cab")
    driver.tap(f"wh_answer_{solver}")
    driver.tap("handover_i_am")
    driver.fill("wh_answer_q1", "토마스 팔머")
    driver.fill("wh_answer_q2", "전당포")
    driver.tap("wh_answer_submit")
    t0 = time.perf_counter()
    driver.tap("confirm_yes")  # FINAL: the hosting layer asks first
    closed(driver)
    assert session.outcome is not None
    _hears_speech(driver, narrator, t0)
    driver.wait_for(lambda: driver.app.caption_bar.shown, 5)
    driver.pump(5)
    check(driver, "wh_solution_sound_on")
    assert driver.covered_targets() == []
    driver.tap("captions_stop")
    _silent(driver, narrator)


def test_a_pause_left_on_another_screen_does_not_silence_the_opening(driver: Any, sound_on: Any) -> None:
    """Covers WH-33. Narration paused on one screen (or by the last table) ends when the screen changes: the
    case opening is heard (the narrator stayed paused and the opening was silent)."""
    import time

    narrator = sound_on
    narrator.pause()  # a guest's pause, left behind
    driver.app.go("detail")
    assert not narrator.paused  # the screen change ended it
    t0 = time.perf_counter()
    open_case(driver)
    _hears_speech(driver, narrator, t0)
    assert _device(narrator).first_audible_after(t0) is not None  # the opening is heard
