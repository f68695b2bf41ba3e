"""Issue 37 part 7, Mr. Jack in New York: the whole evening by taps alone, narrator on. Arrive, learn two teaching steps
and skip the rest, set up (two names), Jack alone sees who he is, play to the result, 한 판 더 with the same players
(Jack sees his new identity), play to the result, 다른 게임, then leave. Screenshots: test-artifacts/journey_mr_jack_ny_*.

Staff-side shortcut, said plainly: the detective's arrest names Jack's real identity, read from the table's state; a
real detective narrows it down over up to eight rounds (the rounds have their own tests in
tests/kiosk/games/test_mr_jack_ny.py)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kiosk.journey.steps import arrive_and_learn, modal_gone, other_game_and_leave, rematch, shot

pytestmark = pytest.mark.ui

NAMES = ["민호", "지수"]  # the detective, Jack


def _jack_sees_who_he_is(driver: Any, step: str) -> None:
    driver.wait_for(lambda: any("지수님에게" in t for t in driver.texts()))
    shot(driver, "mr_jack_ny", f"{step}_handover")
    driver.tap("handover_i_am")
    driver.hold("handover_hold", 0.1)
    driver.tap("handover_done")
    modal_gone(driver)


def _arrest_jack(driver: Any, table: Any) -> None:
    jack = table.state.jack  # the staff-side shortcut (module docstring)
    first = table.state.remaining()[0]
    driver.tap(f"mj_pick_{first}")
    suspect = jack if jack != first else next(c for c in table.state.roster if c != first)
    driver.tap("mj_arrest")
    driver.tap(f"mj_choose_{suspect}")
    driver.tap("confirm_yes")
    modal_gone(driver)
    driver.wait_for(lambda: table.outcome is not None and bool(driver.find_all("winner_banner")))


def test_mr_jack_evening_by_taps(driver: Any) -> None:
    app = driver.app
    facts = arrive_and_learn(driver, "mr_jack_ny")
    driver.fill("mj_name_detective", NAMES[0])
    driver.fill("mj_name_jack", NAMES[1])
    shot(driver, "mr_jack_ny", "04_setup")
    driver.tap("mj_start")
    table = app.table
    _jack_sees_who_he_is(driver, "05")
    shot(driver, "mr_jack_ny", "06_table")
    _arrest_jack(driver, table)
    assert app.sounds.count("winner") == 1
    shot(driver, "mr_jack_ny", "07_result")
    rematch(driver, table, NAMES)
    _jack_sees_who_he_is(driver, "08_rematch")
    _arrest_jack(driver, table)
    shot(driver, "mr_jack_ny", "09_rematch_result")
    other_game_and_leave(driver, table, "mr_jack_ny", facts)
