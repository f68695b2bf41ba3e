"""The parts every game's evening shares (tests/kiosk/journey/test_*_journey.py), by taps alone: arrive and learn two
teaching steps, then skip to the game; after the results, 다른 게임 and leave."""

from __future__ import annotations

from typing import Any

from table import ops


def shot(driver: Any, game: str, step: str) -> None:
    """A screenshot of the step (test-artifacts/journey_<game>_<step>.png), checked for small targets and clipping."""
    path = driver.screenshot(f"journey_{game}_{step}")
    assert path.stat().st_size > 5000, step
    assert driver.small_targets() == [] and driver.overflowing_labels() == [], step


def modal_gone(driver: Any) -> None:
    from kivy.uix.modalview import ModalView

    driver.wait_for(lambda: not any(isinstance(w, ModalView) for w in driver.roots()))


def arrive_and_learn(driver: Any, game: str) -> str:
    """Attract → 게임 고르기 → the game's card → its page → 규칙 배우기, two steps, 건너뛰기 → the set-up. Returns the game
    page's facts line (its teaching estimate), which the skip must leave as it was."""
    app = driver.app
    shot(driver, game, "01_attract")
    driver.tap("start")
    driver.wait_screen("library")
    driver.tap(f"game_{game}")
    driver.wait_screen("detail")
    facts = app.get_screen("detail").ids.facts.text
    assert "설명\u00a0약" in facts and "실측" not in facts  # each fact kept on one line (no-break spaces)
    shot(driver, game, "02_detail")
    driver.tap("teach")
    driver.wait_screen("teach")
    driver.tap("teach_next")
    driver.tap("teach_next")
    shot(driver, game, "03_teach_step2")
    driver.wait(1.2)  # a skip after a second or more is a run the statistics see
    driver.tap("teach_skip")
    driver.wait_screen("host")
    assert [(r.game, r.finished) for r in ops.teach_records(app.data_dir)] == [(game, False)]
    return facts


def rematch(driver: Any, table: Any, names: list[str]) -> None:
    """한 판 더: the same game, the same names, freshly dealt."""
    driver.tap("result_rematch")
    assert table.playing and table.outcome is None
    assert [p["name"] for p in table.view(None)["common"]["players"]] == names


def other_game_and_leave(driver: Any, table: Any, game: str, facts: str) -> None:
    """다른 게임 → the library (the game archived); the game's page keeps its estimate (the skipped teaching is not
    "설명 실측 약 1분"); home, with nothing left open at the table."""
    driver.tap("result_other_game")
    driver.wait_screen("library")
    assert not table.playing
    shot(driver, game, "10_library")
    driver.tap(f"game_{game}")
    driver.wait_screen("detail")
    assert driver.app.get_screen("detail").ids.facts.text == facts
    driver.tap("back")
    driver.wait_screen("library")
    driver.tap("back")
    driver.wait_screen("attract")
    assert driver.find("resume_game").disabled
    shot(driver, game, "11_left")
