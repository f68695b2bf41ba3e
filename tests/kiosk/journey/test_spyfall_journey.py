"""Issue 37 part 7, Spyfall DC: the whole evening by taps alone, narrator on. Arrive, learn two teaching steps and skip
the rest, set up (four names typed, one round), the dealer, the cards round the table, the clock, the final pointing,
the result, 한 판 더 with the same players, play to the result, 다른 게임, then leave.
Screenshots: test-artifacts/journey_spyfall_*.

Staff-side shortcuts, said plainly: the round's 8-minute clock is moved to its end (the table's wall clock), and the
pointing follows the Joker read from the table's state (a real table talks for those minutes and points by itself)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kiosk.journey.steps import arrive_and_learn, modal_gone, other_game_and_leave, rematch, shot

pytestmark = pytest.mark.ui

NAMES = ["지수", "민호", "서연", "도윤"]
GAME = "spyfall"


def _confirm(driver: Any) -> None:
    driver.tap("confirm_yes")
    modal_gone(driver)


def _play_one_round(driver: Any, table: Any, step: str) -> None:
    driver.wait_for(lambda: bool(driver.find_all("spy_dealer_0")))
    driver.tap("spy_dealer_0")
    driver.tap("spy_pass_cards")
    for name in NAMES:
        driver.wait_for(lambda n=name: bool(driver.find_all("handover_i_am")) and any(n in t for t in driver.texts()))
        driver.tap("handover_i_am")
        driver.hold("handover_hold", 0.05)
        driver.tap("handover_done")
    driver.wait_for(lambda: not driver.find("spy_start_clock").disabled)
    modal_gone(driver)
    driver.tap("spy_start_clock")
    shot(driver, GAME, f"{step}_clock")
    deadline = table.state.round.clock.deadline
    host = driver.app.get_screen("host").ctx.host
    table.clock = lambda: deadline + 1  # the staff-side shortcut: the clock's 8 minutes
    host.clock._now = table.clock
    driver.wait_for(lambda: table.state.round.phase == "discussion", timeout=5)
    driver.tap("spy_point_now")
    _confirm(driver)
    joker = table.state.round.facts.joker
    for seat in range(len(NAMES)):  # everyone points at the Joker; the Joker at the next player
        driver.tap(f"spy_plus_{joker if seat != joker else (joker + 1) % len(NAMES)}")
    driver.tap("spy_points_submit")
    _confirm(driver)
    if table.outcome is None and driver.find_all("spy_end_session"):
        driver.tap("spy_end_session")
        _confirm(driver)
    driver.wait_for(lambda: table.outcome is not None and bool(driver.find_all("winner_banner")))
    shot(driver, GAME, f"{step}_result")


def test_spyfall_evening_by_taps(driver: Any) -> None:
    app = driver.app
    facts = arrive_and_learn(driver, GAME)
    driver.tap(f"spy_count_{len(NAMES)}")
    for i, name in enumerate(NAMES):
        driver.fill(f"spy_name_{i}", name)
    for _ in range(6):
        if not driver.find("spy_rounds_minus").disabled:
            driver.tap("spy_rounds_minus")
    shot(driver, GAME, "04_setup")
    driver.tap("spy_start")
    table = app.table
    assert table.view(None)["settings"]["rounds"] == 1
    _play_one_round(driver, table, "07")
    assert app.sounds.count("winner") == 1
    rematch(driver, table, NAMES)
    _play_one_round(driver, table, "09_rematch")
    other_game_and_leave(driver, table, GAME, facts)
