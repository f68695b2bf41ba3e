"""Issue 37 part 7, Clue: the whole evening at a table by taps alone, narrator on. Arrive (attract → library → the game's
page), learn two teaching steps and skip the rest, set up, the tablet goes round (each sees their hand), play to the
result, 한 판 더 with the same players, play to the result again, 다른 게임, then leave (home). A screenshot of each
step is saved (test-artifacts/journey_clue_*.png).

Staff-side shortcut, said plainly: the accusation reads the envelope from the table's state; a real table reaches it
after many minutes of suggestions (the suggestion flow has its own tests in tests/kiosk/games/test_clue.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kiosk.journey.steps import arrive_and_learn, modal_gone, other_game_and_leave, rematch, shot

pytestmark = pytest.mark.ui

NAMES = ["지수", "민호", "서연"]


def _dialog(driver: Any) -> Any:
    return driver.app.get_screen("host").ctx.open_dialog


def _hands_round(driver: Any, step: str) -> None:
    for i, name in enumerate(NAMES):
        driver.wait_for(lambda n=name: getattr(_dialog(driver), "name", "") == n and _dialog(driver).stage == "ask")
        if i == 0:
            shot(driver, "clue", f"{step}_handover")
        driver.tap("handover_i_am")
        driver.hold("handover_hold", 0.1)
        driver.tap("handover_done")
    modal_gone(driver)


def _accuse_right(driver: Any, table: Any) -> None:
    env = table.state.envelope  # the staff-side shortcut (module docstring)
    driver.tap("clue_accuse")
    driver.tap(f"clue_acc_suspect_{env[0]}")
    driver.tap(f"clue_acc_weapon_{env[1]}")
    driver.tap(f"clue_acc_room_{env[2]}")
    driver.tap("clue_acc_go")
    driver.tap("confirm_yes")
    driver.wait_for(lambda: table.outcome is not None)
    modal_gone(driver)
    driver.wait_for(lambda: bool(driver.find_all("winner_banner")))


def test_clue_evening_by_taps(driver: Any) -> None:
    app = driver.app
    facts = arrive_and_learn(driver, "clue")
    driver.tap(f"clue_count_{len(NAMES)}")
    for i, name in enumerate(NAMES):
        driver.fill(f"clue_name_{i}", name)
    driver.tap("clue_mode_digital")
    shot(driver, "clue", "04_setup")
    driver.tap("clue_start")
    table = app.table
    _hands_round(driver, "05")
    shot(driver, "clue", "06_table")
    _accuse_right(driver, table)
    assert app.sounds.count("winner") == 1
    shot(driver, "clue", "07_result")
    rematch(driver, table, NAMES)
    _hands_round(driver, "08_rematch")
    _accuse_right(driver, table)
    shot(driver, "clue", "09_rematch_result")
    other_game_and_leave(driver, table, "clue", facts)
