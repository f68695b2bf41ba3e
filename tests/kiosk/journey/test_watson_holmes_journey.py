"""Issue 37 part 7, Watson & Holmes: the whole evening by taps alone, narrator on. Arrive, learn two teaching steps and
skip the rest, set up (a case, two names), the opening (skipped part by part), the case file on the board, solve at
221B, the solution, 한 판 더 with the same players, solve again, 다른 게임, then leave.
Screenshots: test-artifacts/journey_watson_holmes_*.

Staff-side shortcut, said plainly: the answers typed at 221B are the case's solution, which a real table works out over
several rounds of visits (the visits have their own tests in tests/kiosk/games/test_watson_holmes.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kiosk.journey.steps import arrive_and_learn, modal_gone, other_game_and_leave, rematch, shot

pytestmark = pytest.mark.ui

NAMES = ["지수", "민호"]
GAME = "watson_holmes"


def _solve(driver: Any, table: Any, step: str) -> None:
    solver = table.view(None)["turn"]
    for place in ("221b", "cab"):
        driver.tap(f"wh_loc_{place}")
        driver.tap("wh_visit")
    driver.tap(f"wh_answer_{solver}")
    driver.tap("handover_i_am")
    for field, answer in (("wh_answer_q1", "토머스 팔머"), ("wh_answer_q2", "벨라미 전당포")):
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
    for _ in range(3):
        if driver.find("wh_open_begin").disabled:
            driver.tap("wh_open_skip")
    driver.tap("wh_open_begin")
    driver.find("wh_loc_1")
    shot(driver, GAME, "06_table")
    driver.tap("wh_case_file")  # the questions, one tap away all game
    assert "1. " in driver.find("wh_case_file_questions").text
    driver.tap("wh_case_file_close")
    modal_gone(driver)
    _solve(driver, table, "07_result")
    assert app.sounds.count("winner") == 1
    rematch(driver, table, NAMES)
    driver.wait_for(lambda: bool(driver.find_all("wh_loc_1")))
    _solve(driver, table, "09_rematch_result")
    other_game_and_leave(driver, table, GAME, facts)
