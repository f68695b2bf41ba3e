"""Issue 37 part 7, Watson & Holmes: the whole evening by taps alone, narrator on. Arrive, learn two teaching steps and
skip the rest, set up (a case, two names), the opening (skipped part by part), the case file on the board, solve at
221B, the solution, 한 판 더 with the same players, solve again, 다른 게임, then leave.
Screenshots: test-artifacts/journey_watson_holmes_*.

Staff-side shortcut, said plainly: the answers typed at 221B are the case's solution, which a real table works out over
several rounds of visits (the visits have their own tests in tests/kiosk/games/test_watson_holmes.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kiosk.games.watson_holmes_steps import skip_opening
from tests.kiosk.journey.steps import arrive_and_learn, modal_gone, other_game_and_leave, rematch, shot

pytestmark = pytest.mark.ui

NAMES = ["지수", "민호"]
GAME = "watson_holmes"


ANSWERS = {"case_01": ("토머스 팔머", "벨라미 전당포"), "case_02": ("빅터 헤일", "시계방 작업장", "가짜 시계")}  # the
# staff-side shortcut above: each case's solution typed at 221B


def _solve(driver: Any, table: Any, step: str) -> None:
    solver = table.view(None)["turn"]
    case = table.view(None)["case"]["id"]
    for place in ("221b", "cab"):
        driver.tap(f"wh_loc_{place}")
        driver.tap("wh_visit")
    driver.tap(f"wh_answer_{solver}")
    driver.tap("handover_i_am")
    for i, answer in enumerate(ANSWERS[case], 1):
        field = f"wh_answer_q{i}"
        driver.tap(field)
        driver.type(answer)
        driver.tap("kb_done")
        driver.wait_for(lambda: not driver.app.keyboard.visible)
    driver.tap("wh_answer_submit")
    driver.tap("confirm_yes")
    modal_gone(driver)
    driver.wait_for(lambda: table.outcome is not None and bool(driver.find_all("winner_banner")))
    assert table.outcome.winners == (solver,)
    shot(driver, GAME, step)


def test_watson_holmes_evening_by_taps(driver: Any) -> None:
    app = driver.app
    facts = arrive_and_learn(driver, GAME)
    driver.tap("wh_case_case_01")
    driver.tap(f"wh_count_{len(NAMES)}")
    for i, name in enumerate(NAMES):
        driver.fill(f"wh_name_{i}", name)
    shot(driver, GAME, "04_setup")
    driver.tap("wh_start")
    table = app.table
    shot(driver, GAME, "05_opening")
    skip_opening(driver)
    shot(driver, GAME, "06_table")
    driver.tap("wh_case_file")  # the questions, one tap away all game
    assert "1. " in driver.find("wh_case_file_questions").text
    driver.tap("wh_case_file_close")
    modal_gone(driver)
    _solve(driver, table, "07_result")
    assert app.sounds.count("winner") == 1
    rematch(driver, table, NAMES)
    # they know case 1's solution now: 한 판 더 goes on to the next case not played here tonight, its opening first
    assert table.view(None)["case"]["id"] == "case_02"
    toast = app.toast_widget  # the last game's end toast went with it
    assert toast.opacity == 0 or "사건을 풀었어요" not in toast.last_text
    shot(driver, GAME, "08_rematch_opening")
    skip_opening(driver)
    _solve(driver, table, "09_rematch_result")
    other_game_and_leave(driver, table, GAME, facts)


def _start(driver: Any, case: str | None) -> None:
    """The set-up form of a new W&H screen: `case` tapped (None: the one it offers), the two names, start; the opening
    skipped."""
    driver.app.host(GAME)
    driver.wait_screen("host")
    if case is not None:
        driver.tap(f"wh_case_{case}")
    driver.tap(f"wh_count_{len(NAMES)}")
    for i, name in enumerate(NAMES):
        driver.fill(f"wh_name_{i}", name)
    driver.tap("wh_start")
    skip_opening(driver)


def _end(driver: Any) -> None:
    driver.tap("host_end")
    driver.tap("confirm_yes")
    driver.wait_screen("detail")


def _marked(driver: Any) -> set[str]:
    return {c for c in ("case_01", "case_02", "case_03") if "오늘 이 자리에서 한 사건" in driver.find(f"wh_case_{c}").text}


def test_rematch_after_every_case_was_played_lets_them_choose(driver: Any) -> None:
    """Issue 37: no case is dealt twice at a table in one evening. The form marks the cases played here tonight and
    offers the first unplayed one; when every case was played, 한 판 더 shows the set-up form with the same players,
    every case marked and the one after theirs chosen (they may take another), and its start is a rematch (the
    phones keep their seats)."""
    app = driver.app
    app.host(GAME)
    driver.wait_screen("host")
    assert _marked(driver) == set() and app.get_screen("host").ctx.host.setup_form.case_id == "case_01"
    driver.tap("host_back")
    driver.wait_screen("detail")
    _start(driver, "case_01")
    _end(driver)
    app.host(GAME)
    driver.wait_screen("host")
    assert _marked(driver) == {"case_01"} and app.get_screen("host").ctx.host.setup_form.case_id == "case_02"
    shot(driver, GAME, "20_setup_played_marked")
    driver.tap("host_back")
    driver.wait_screen("detail")
    _start(driver, "case_03")
    _end(driver)
    _start(driver, None)  # the form offers case 2, the one left
    table = app.table
    assert table.view(None)["case"]["id"] == "case_02"
    _solve(driver, table, "21_last_case_result")
    changes: list[Any] = []
    table.subscribe(lambda _t, change: changes.append(change))
    driver.tap("result_rematch")
    driver.wait_for(lambda: bool(driver.find_all("wh_start")))
    assert not table.playing and [c.kind for c in changes] == ["ended"] and changes[0].rematch
    form = app.get_screen("host").ctx.host.setup_form
    assert _marked(driver) == {"case_01", "case_02", "case_03"} and form.case_id == "case_03"
    assert [f.text for f in form.inputs[:len(NAMES)]] == NAMES and form.count == len(NAMES)
    assert "다시 할 사건을 고르세요" in form.title.text
    shot(driver, GAME, "22_all_played_choose")
    driver.tap("wh_case_case_01")
    driver.tap("wh_start")
    assert table.view(None)["case"]["id"] == "case_01"
    assert changes[-1].kind == "started" and changes[-1].rematch  # the same players: their phones stay
    assert [p["name"] for p in table.view(None)["common"]["players"]] == NAMES
    shot(driver, GAME, "23_chosen_again_opening")
