"""Watson & Holmes host screens driven by touch offscreen, with screenshots (kiosk/HOSTING.md):
a case opening, one full round, and a solution at 221B."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui


@pytest.fixture(autouse=True)
def _captions_only(driver: Any) -> Any:
    """Without the app's narrator the opening times its captions itself (deterministic, no speech);
    the narrator path is tested with a fake below."""
    before = getattr(driver.app, "narrator", None)
    driver.app.narrator = None
    yield
    driver.app.narrator = before


def _check(driver: Any, name: str) -> None:
    path = driver.screenshot(name)
    assert path.exists() and path.stat().st_size > 5000
    assert driver.small_targets() == []
    assert driver.overflowing_labels() == []


def _closed(driver: Any) -> None:
    from kivy.uix.modalview import ModalView

    driver.wait_for(lambda: not any(isinstance(w, ModalView) for w in driver.roots()))


def _open_case(driver: Any, case_id: str = "case_01", names: tuple[str, ...] = ("지수", "민호", "서연"),
               shot: str | None = None, toggles: tuple[str, ...] = ()) -> Any:
    driver.app.host("watson_holmes")
    driver.wait_screen("host")
    driver.tap(f"wh_case_{case_id}")
    driver.tap(f"wh_count_{len(names)}")
    for tid in toggles:
        driver.tap(tid)
    for i, name in enumerate(names):
        driver.fill(f"wh_name_{i}", name)
    if shot:
        _check(driver, shot)
    driver.tap("wh_start")
    session = driver.app.table
    assert session is not None and session.game.id == "watson_holmes"
    return session


def skip_opening(driver: Any) -> None:
    for _ in range(3):
        if driver.find("wh_open_begin").disabled:
            driver.tap("wh_open_skip")
    driver.tap("wh_open_begin")
    driver.find("wh_loc_1")


def _visit(driver: Any, location: str, extra: tuple[str, ...] = ()) -> None:
    driver.tap(f"wh_loc_{location}")
    for tid in extra:
        driver.tap(tid)
    driver.tap("wh_visit")


def _read(driver: Any, session: Any, seat: int, shot: str | None = None) -> list[str]:
    driver.tap(f"wh_read_{seat}")
    driver.tap("handover_i_am")
    texts = driver.texts()
    if shot:
        _check(driver, shot)
    driver.tap("wh_read_done")
    _closed(driver)
    return texts


def test_case_opening_is_narrated_with_captions_then_a_random_start_player(driver: Any) -> None:
    """Covers WH-33, WH-34, WH-35, WH-36."""
    session = _open_case(driver, shot="wh_setup")
    opening = driver.find("wh_open_caption")
    intro = session.game.pack["cases/case_01"].intro.ko
    assert opening.text and opening.text[:8] in intro
    _check(driver, "wh_opening")
    host = driver.app.get_screen("host").ctx.host
    driver.tap("wh_open_pause")
    frozen = host.opening.position
    driver.wait(0.4)
    assert host.opening.position == frozen and host.opening.paused
    driver.tap("wh_open_pause")
    driver.wait(0.4)
    assert host.opening.position > frozen
    driver.tap("wh_open_skip")  # → the questions
    assert "1." in host.opening.caption or "브로치" in host.opening.caption
    skipped_to = host.opening.position
    driver.tap("wh_open_replay")
    assert host.opening.current_part == 0 and host.opening.position < min(skipped_to, 2.0)
    for _ in range(3):
        driver.tap("wh_open_skip")
    assert host.opening.finished
    start = session.view(None)["start_player"]
    assert session.view(None)["players"][start]["name"] in driver.find("wh_open_caption").text
    _check(driver, "wh_opening_start_player")
    driver.tap("wh_open_begin")
    driver.find("wh_loc_cab")


def test_one_full_round_with_bids_watson_and_private_reading(driver: Any) -> None:
    """Covers WH-43, WH-47, WH-48, WH-58, WH-66, WH-69, WH-71, WH-52."""
    session = _open_case(driver)
    skip_opening(driver)
    fake = FakeNarrator()
    driver.app.narrator = fake
    state = session.state
    a = state.turn
    b, c = (a + 1) % 3, (a + 2) % 3
    _visit(driver, "2")                                          # a walks to the maid
    driver.tap("wh_take_watson")                                 # b takes Watson before placing
    _visit(driver, "4", ("wh_bid_more",))                        # … and rides to Scotland Yard with 1
    _visit(driver, "2")                                          # c outbids the walker with 1
    assert session.state.occupant("2").seat == c
    _check(driver, "wh_visit_phase")
    _visit(driver, "cab")                                        # a, displaced, goes to the carriage stop
    assert session.state.phase == "watson"
    driver.tap(f"wh_watson_{c}")                                 # Watson: c's card read to the table
    maid = session.game.pack["cases/case_01"].location(2).clue.ko
    prompt = session.view(None)
    assert 2 in prompt["public_readings"]
    assert any(maid[:10] in t for t in driver.texts())
    assert fake.spoken == [("wh.case_01.loc2", True)]  # read aloud to the table (the narrator's reveal)
    _check(driver, "wh_watson_reading")
    yard = session.game.pack["cases/case_01"].location(4).clue.ko
    pending = list(session.state.pending)
    assert sorted(pending) == sorted([b, c])
    texts = {}
    while session.state.phase == "investigate":
        first = sorted(session.state.pending)[0]  # the table shows the next reader
        texts[first] = _read(driver, session, first, shot="wh_reading" if first == b else None)
    assert sorted(texts) == sorted([b, c])
    assert any(yard[:10] in t for t in texts[b])
    assert not any(yard[:10] in t for t in driver.texts())       # back on the table: the text is gone
    state = session.state
    assert state.round == 2 and state.phase == "visit"
    assert state.players[a].carriages == 13 and state.start_player == a
    assert not any(maid[:10] in t for t in driver.texts())  # the Watson reading belonged to round 1
    _check(driver, "wh_round_two")
    # b looks at their notes again, privately: hidden until held
    driver.tap(f"wh_acts_{b}")
    driver.tap("wh_act_notes")
    driver.wait_for(lambda: bool(driver.find_all("handover_i_am")))
    driver.tap("handover_i_am")
    seen: list[list[str]] = []
    driver.hold("handover_hold", 0.2, during=lambda: seen.append(driver.texts()))
    assert any(yard[:10] in t for t in seen[0])
    handover = driver.app.get_screen("host").ctx.open_dialog
    assert handover.secret is not None and handover.secret.opacity == 0  # hidden again on release
    driver.hold("handover_hold", 0.2, during=lambda: _check(driver, "wh_my_notes"))
    driver.tap("handover_done")
    _closed(driver)


def test_solving_at_221b_and_the_solution_screen(driver: Any) -> None:
    """Covers WH-63, WH-75, WH-76, WH-97, WH-98."""
    session = _open_case(driver, names=("지수", "민호"))
    skip_opening(driver)
    solver = session.state.turn
    _visit(driver, "221b")
    _visit(driver, "cab")
    driver.tap(f"wh_answer_{solver}")
    driver.tap("handover_i_am")
    for field, answer in (("wh_answer_q1", "토머스 팔머"), ("wh_answer_q2", "벨라미 전당포")):
        box = driver.find(field)
        driver.tap(box)  # typed on the on-screen keyboard, key by key
        driver.type(answer)
        assert box.text == answer
        assert driver.field_clear_of_keyboard(box)
        driver.screenshot(f"wh_answers_keyboard_{field[-2:]}")
        driver.tap("kb_done")
        driver.wait_for(lambda: not driver.app.keyboard.visible)
    _check(driver, "wh_answers")
    driver.tap("wh_answer_submit")
    driver.tap("confirm_yes")
    _closed(driver)
    assert session.outcome is not None and session.outcome.winners == (solver,)
    assert any("토머스 팔머" in t for t in driver.texts())
    assert driver.find("winner_banner").title.text == f"{session.view(None)['players'][solver]['name']} 승리!"
    assert driver.app.sounds.count("winner") == 1
    toast_clear_of_solution(driver, "사건을 풀었어요", "wh_solved_toast")
    _check(driver, "wh_solved")


def _rect(w: Any) -> tuple[float, float, float, float]:
    x, y = w.to_window(w.x, w.y)
    return x, y, x + w.width, y + w.height


def toast_clear_of_solution(driver: Any, said: str, shot: str) -> None:
    """Issue 37: the toast of the step that ended the game, while visible, covers neither the solution text being
    read nor the controls around it (it was placed while the answers' question was on show and sat over the
    solution and the 게임 끝내기 bar)."""
    toast = driver.app.toast_widget
    driver.wait_for(lambda: toast.opacity > 0.99 and said in toast.last_text)
    driver.screenshot(shot)
    tx0, ty0, tx1, ty1 = toast.x, toast.y, toast.right, toast.top  # a child of the Window: window coordinates
    for tid in ("wh_solution", "wh_solution_text", "wh_end", "result_rematch", "result_other_game", "result_leave",
                "host_end"):
        for w in driver.find_all(tid):
            x0, y0, x1, y1 = _rect(w)
            assert min(tx1, x1) <= max(tx0, x0) or min(ty1, y1) <= max(ty0, y0), \
                f"the toast {toast.pos}+{toast.size} over {tid} {(x0, y0, x1, y1)}"
    assert toast.opacity > 0.99  # still on show when measured



def test_the_staff_example_case_is_offered_only_in_staff_mode(driver: Any) -> None:
    driver.app.host("watson_holmes")
    driver.wait_screen("host")
    assert driver.find_all("wh_case_case_01") and not driver.find_all("wh_case_cafe_box_example")
    assert not any("예시" in t for t in driver.texts())
    driver.app.go("attract")
    driver.wait_screen("attract")
    driver.staff_login()
    driver.app.host("watson_holmes")
    driver.wait_screen("host")
    assert driver.find_all("wh_case_cafe_box_example")
    driver.app.go("attract")  # the next guests: examples gone again
    driver.wait_screen("attract")
    driver.app.host("watson_holmes")
    driver.wait_screen("host")
    assert not driver.find_all("wh_case_cafe_box_example")


def test_physical_box_the_table_judges_and_holmes_checks_an_answer(driver: Any) -> None:
    """Covers WH-77, WH-79, WH-84, WH-85, WH-87, WH-12."""
    driver.staff_login()
    session = _open_case(driver, "cafe_box_example")
    skip_opening(driver)
    a = session.state.turn
    b, c = (a + 1) % 3, (a + 2) % 3
    _visit(driver, "2")
    _visit(driver, "221b")
    _visit(driver, "cab")
    assert session.state.placement_of(c).location == "cab"
    driver.tap(f"wh_read_{a}")
    driver.tap("handover_i_am")
    assert any("직접 읽고" in t for t in driver.texts())  # physical: read the real card
    driver.tap("wh_gain_carriages_2")
    driver.tap("wh_gain_lockpick")
    _check(driver, "wh_physical_reading")
    driver.tap("wh_read_done")
    _closed(driver)
    assert session.state.players[a].carriages == 12 and session.state.players[a].lockpick == 1
    driver.tap(f"wh_answer_{b}")
    driver.tap("handover_i_am")
    driver.tap("wh_answer_submit")
    driver.tap("confirm_yes")
    _closed(driver)
    assert session.state.phase == "judge"
    _check(driver, "wh_physical_judge")
    driver.tap("wh_judge_1")
    driver.tap("confirm_yes")
    assert session.state.players[b].status == "failed" and session.state.holmes_up
    driver.tap(f"wh_acts_{a}")
    _check(driver, "wh_holmes_menu")
    driver.tap("wh_act_check")
    driver.wait_for(lambda: bool(driver.find_all("handover_i_am")))
    driver.tap("handover_i_am")
    driver.tap("wh_check_q2")
    driver.fill("wh_check_text", "서재에서")
    driver.tap("wh_check_submit")
    driver.tap("confirm_yes")
    _closed(driver)
    assert session.state.pending_check is not None
    driver.tap("wh_check_right")
    driver.tap("confirm_yes")
    assert session.state.pending_check is None and session.state.players[a].checks[0].right
    assert session.state.players[a].carriages == 9
    _check(driver, "wh_after_check")


def test_largest_case_with_seven_players_fits_in_both_languages(driver: Any) -> None:
    """Covers WH-01, WH-08, WH-30."""
    names = ("지수", "민호", "서연", "도윤", "하은", "준우", "유나")
    session = _open_case(driver, "case_03", names)
    skip_opening(driver)
    assert len(session.state.players) == 7
    for n in range(1, 14):
        driver.find(f"wh_loc_{n}")
    players = driver.app.get_screen("host").ctx.host.table.ids.players
    # seven rows fit their column: none reaches over the status line above it
    assert max(row.top for row in players.children) <= players.top + 1
    _check(driver, "wh_case03_seven")
    driver.app.set_lang("en")
    try:
        driver.app.get_screen("host").ctx.host.refresh(None)
        driver.pump(4)
        assert any("Scotland Yard" in t for t in driver.texts())
        _check(driver, "wh_case03_seven_en")
    finally:
        driver.app.set_lang("ko")


class FakeNarrator:
    """Stands in for audio.narrator.Narrator: records calls; the test plays the caption states."""

    def __init__(self) -> None:
        self.listeners: list[Any] = []
        self.spoken: list[tuple[str, bool]] = []
        self.calls: list[str] = []

    def listen(self, fn: Any) -> None:
        self.listeners.append(fn)

    def unlisten(self, fn: Any) -> None:
        self.listeners.remove(fn)

    def speak(self, segment: Any, interrupt: bool = False) -> Any:
        from types import SimpleNamespace

        self.spoken.append((segment.id, interrupt))
        return SimpleNamespace(id=1)  # the utterance the caption states below belong to

    def reveal(self, segment: Any, interrupt: bool = True) -> None:
        self.spoken.append((segment.id, interrupt))

    def pause(self) -> None:
        self.calls.append("pause")

    def resume(self) -> None:
        self.calls.append("resume")

    def stop(self) -> None:
        self.calls.append("stop")

    def caption(self, segment_id: str, sentences: tuple[str, ...], current: int, position: float,
                duration: float, state: str) -> None:
        from audio.captions import CaptionState

        for fn in self.listeners:
            fn(CaptionState(1, segment_id, "ko", sentences, current, position, duration, state, True))


def test_opening_follows_the_narrator_captions_and_controls(driver: Any) -> None:
    """Covers WH-33, WH-98."""
    fake = FakeNarrator()
    driver.app.narrator = fake
    try:
        session = _open_case(driver, names=("지수", "민호"))
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
        _visit(driver, "221b")
        _visit(driver, "cab")
        driver.tap(f"wh_answer_{solver}")
        driver.tap("handover_i_am")
        driver.fill("wh_answer_q1", "토마스 팔머")
        driver.fill("wh_answer_q2", "전당포")
        driver.tap("wh_answer_submit")
        driver.tap("confirm_yes")
        _closed(driver)
        assert session.outcome is not None
        assert ("wh.case_01.solution", True) in fake.spoken  # the solution is read aloud at the end
    finally:
        driver.app.narrator = None


def test_consulting_a_failed_players_answers_on_the_tablet(driver: Any) -> None:
    """Covers WH-79, WH-80, WH-86."""
    session = _open_case(driver)
    skip_opening(driver)
    a = session.state.turn
    b = (a + 1) % 3
    _visit(driver, "221b")
    _visit(driver, "cab")
    _visit(driver, "cab")
    driver.tap(f"wh_answer_{a}")
    driver.tap("handover_i_am")
    driver.fill("wh_answer_q1", "수상한 정원사 빌")
    driver.fill("wh_answer_q2", "벨라미 전당포")
    driver.tap("wh_answer_submit")
    driver.tap("confirm_yes")
    _closed(driver)
    assert session.state.players[a].status == "failed"
    assert not any("수상한 정원사" in t for t in driver.texts())  # only "1 of 2 right" is told
    assert driver.find(f"wh_acts_{a}").disabled  # the voice of Holmes takes no actions
    driver.tap(f"wh_acts_{b}")
    driver.tap("wh_act_consult")  # whom b may still consult is b's to see: chosen on b's private screen
    driver.wait_for(lambda: bool(driver.find_all("handover_i_am")))
    driver.tap("handover_i_am")
    driver.tap(f"wh_consult_{a}")
    driver.tap("confirm_yes")
    driver.wait_for(lambda: bool(driver.find_all("wh_consult_done")))
    assert any("수상한 정원사 빌" in t for t in driver.texts())
    _check(driver, "wh_consulted")
    driver.tap("wh_consult_done")
    _closed(driver)
    assert not any("수상한 정원사" in t for t in driver.texts())
    assert session.state.players[b].carriages == 13 - 3


def test_play_on_after_a_win_until_the_table_ends_it(driver: Any) -> None:
    """Covers WH-103, WH-104."""
    session = _open_case(driver, toggles=("wh_play_on",))
    assert session.state.play_on
    skip_opening(driver)
    a = session.state.turn
    _visit(driver, "221b")
    _visit(driver, "cab")
    _visit(driver, "cab")
    driver.tap(f"wh_answer_{a}")
    driver.tap("handover_i_am")
    driver.fill("wh_answer_q1", "토머스 팔머")
    driver.fill("wh_answer_q2", "전당포 금고")
    driver.tap("wh_answer_submit")
    driver.tap("confirm_yes")
    _closed(driver)
    assert session.outcome is None and session.state.winners == (a,)
    assert not any("토머스 팔머" in t for t in driver.texts())  # the winner's answers stay hidden
    _check(driver, "wh_play_on")
    driver.tap("wh_end_play_on")
    driver.tap("confirm_yes")
    _closed(driver)
    assert session.outcome is not None and session.outcome.winners == (a,)
    assert any("토머스 팔머" in t for t in driver.texts())  # now the solution is read


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
    _open_case(driver)
    _hears_speech(driver, narrator, t0)
    host = driver.app.get_screen("host").ctx.host
    assert driver.app.caption_bar.shown is False  # the opening's own captions and controls only
    _check(driver, "wh_opening_sound_on")
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
    _check(driver, "wh_opening_halted")
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
    _open_case(driver)
    _hears_speech(driver, narrator, t0)
    driver.wait_for(lambda: not driver.find("host_end").disabled, 3)
    driver.tap("host_end")
    driver.tap("confirm_yes")
    driver.wait_screen("detail")
    _silent(driver, narrator)

    t1 = time.perf_counter()
    _open_case(driver)
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
    _open_case(driver)
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
    session = _open_case(driver, names=("지수", "민호"))
    skip_opening(driver)
    solver = session.state.turn
    _visit(driver, "221b")
    _visit(driver, "cab")
    driver.tap(f"wh_answer_{solver}")
    driver.tap("handover_i_am")
    driver.fill("wh_answer_q1", "토마스 팔머")
    driver.fill("wh_answer_q2", "전당포")
    driver.tap("wh_answer_submit")
    t0 = time.perf_counter()
    driver.tap("confirm_yes")  # FINAL: the hosting layer asks first
    _closed(driver)
    assert session.outcome is not None
    _hears_speech(driver, narrator, t0)
    driver.wait_for(lambda: driver.app.caption_bar.shown, 5)
    driver.pump(5)
    _check(driver, "wh_solution_sound_on")
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
    _open_case(driver)
    _hears_speech(driver, narrator, t0)
    assert _device(narrator).first_audible_after(t0) is not None  # the opening is heard


def _menu(driver: Any, seat: int) -> list[str]:
    """The test ids the 행동 menu of `seat` offers (on the shared screen), closed again."""
    driver.tap(f"wh_acts_{seat}")
    offered = sorted(w.test_id for w in driver.walk() if str(getattr(w, "test_id", "")).startswith("wh_act_"))
    driver.tap("wh_act_close")
    _closed(driver)
    return offered


def test_the_actions_menu_offers_the_same_whatever_a_hidden_card_is(driver: Any) -> None:
    """Covers WH-40, WH-91, WH-92. The 행동 menu is on the shared screen: what it offers must not depend on a seat's
    hidden character card. Seat a spends down to 1 carriage (Hopkins's ability costs 2); a's hidden card is swapped
    for Hopkins and for a free one (the same public facts) and the menu read each time: the same. The ability is
    offered on a's private screen, by a's own card. (Before: the menu listed a's legal actions, so 캐릭터 능력 쓰기
    came and went with the card's cost, and a refusal there said the cost.)"""
    import dataclasses

    session = _open_case(driver)
    skip_opening(driver)
    a = session.state.turn
    driver.tap("wh_loc_2")
    host = driver.app.get_screen("host").ctx.host
    while host.bid < session.state.players[a].carriages - 1:
        driver.tap("wh_bid_more")
    driver.tap("wh_visit")
    assert session.state.players[a].carriages == 1 and session.state.players[a].character_state == "hidden"
    cards = session.game.pack["components"].characters
    before = session.state
    others = {p.character for s, p in enumerate(before.players) if s != a}
    dear = next(c for c in cards if c.id == "hopkins")
    free = next(c for c in cards if c.cost == 0 and c.id not in others and c.id != "hopkins")
    assert dear.cost > 1

    def holding(card: Any) -> Any:  # a's hidden card swapped: nothing any other seat sees changes
        players = list(before.players)
        players[a] = dataclasses.replace(players[a], character=card.id)
        mine = before.players[a].character
        dealt = tuple(card if c.id == mine else c for c in before.characters)
        return dataclasses.replace(before, players=tuple(players), characters=dealt)

    menus, shared = {}, []
    for card in (dear, free):
        session._session.state = holding(card)  # the hidden fact swapped (as the engine's hidden_variants do)
        host.refresh(None)
        shared.append(session.view(None))
        menus[card.id] = _menu(driver, a)
    assert shared[0] == shared[1]  # the same public facts (the table's offers too)
    assert menus[dear.id] == menus[free.id] and "wh_act_reveal" in menus[dear.id], menus
    driver.tap(f"wh_acts_{a}")
    _check(driver, "wh_actions_menu")
    driver.tap("wh_act_reveal")  # with the free card (the last swap): a reveals it on a's own screen
    driver.tap("handover_i_am")
    _check(driver, "wh_use_character")
    driver.tap("wh_card_reveal")
    driver.tap("confirm_yes")
    _closed(driver)
    assert session.state.players[a].character_state == "revealed"
    session._session.state = holding(dear)  # with Hopkins: a's screen says why not; the shared one said nothing
    host.refresh(None)
    driver.tap(f"wh_acts_{a}")
    driver.tap("wh_act_reveal")
    driver.tap("handover_i_am")
    assert not driver.find_all("wh_card_reveal")
    assert any("쓸 수 없어요" in t for t in driver.texts())
    _check(driver, "wh_use_character_not_now")
    driver.tap("handover_cancel")
    _closed(driver)
