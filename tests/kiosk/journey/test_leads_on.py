"""Issue 37 part 1: every end leads on. Results offer 한 판 더 (the same seats and names), 다른 게임 and 끝내기; home
offers the game in progress; a hand-over opened by mistake can be backed out of without acting. Taps only."""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = pytest.mark.ui

NAMES = ["지수", "민호", "서연"]


def _modal_gone(driver: Any) -> None:
    from kivy.uix.modalview import ModalView

    driver.wait_for(lambda: not any(isinstance(w, ModalView) for w in driver.roots()))


def _shot(driver: Any, name: str) -> None:
    assert driver.screenshot(name).stat().st_size > 5000
    assert driver.small_targets() == [] and driver.overflowing_labels() == []


def _clue_by_taps(driver: Any) -> Any:
    driver.app.host("clue")
    driver.wait_screen("host")
    driver.tap(f"clue_count_{len(NAMES)}")
    for i, name in enumerate(NAMES):
        driver.fill(f"clue_name_{i}", name)
    driver.tap("clue_mode_digital")
    driver.tap("clue_start")
    _hands_round(driver)
    return driver.app.table


def _hands_round(driver: Any) -> None:
    for name in NAMES:  # the tablet goes round: each sees their own hand
        driver.wait_for(lambda n=name: getattr(_dialog(driver), "name", "") == n and _dialog(driver).stage == "ask")
        driver.tap("handover_i_am")
        driver.hold("handover_hold", 0.1)
        driver.tap("handover_done")
    _modal_gone(driver)


def _dialog(driver: Any) -> Any:
    return driver.app.get_screen("host").ctx.open_dialog


def _accuse_right(driver: Any, table: Any) -> None:
    """The seat to move accuses the envelope's cards. Staff-side shortcut: the test reads the envelope, which a real
    table takes many minutes of suggestions to work out."""
    env = table.state.envelope
    driver.tap("clue_accuse")
    driver.tap(f"clue_acc_suspect_{env[0]}")
    driver.tap(f"clue_acc_weapon_{env[1]}")
    driver.tap(f"clue_acc_room_{env[2]}")
    driver.tap("clue_acc_go")
    driver.tap("confirm_yes")
    driver.wait_for(lambda: table.outcome is not None)
    _modal_gone(driver)
    driver.wait_for(lambda: bool(driver.find_all("winner_banner")))


def test_results_offer_rematch_other_game_and_leave(driver: Any) -> None:
    """Before the end the results' buttons are not there; after it 한 판 더 starts the same game with the same names
    (Change.rematch), 다른 게임 goes to the library with the game archived, 끝내기 turns the table over."""
    changes: list[Any] = []
    table = _clue_by_taps(driver)
    table.subscribe(lambda _t, c: changes.append(c))
    results = driver.app.get_screen("host").ids.results
    assert driver.find("result_rematch").disabled and results.opacity == 0 and results.height == 0
    _accuse_right(driver, table)
    for tid in ("result_rematch", "result_other_game", "result_leave"):
        assert not driver.find(tid).disabled and driver.find(tid).opacity == 1 and results.opacity == 1
    assert {"한 판 더", "다른 게임", "끝내기"} <= set(driver.texts())
    _shot(driver, "journey_leads_on_results")

    driver.tap("result_rematch")
    assert table.playing and table.outcome is None and table.game.id == "clue"
    assert [p["name"] for p in table.view(None)["common"]["players"]] == NAMES
    assert any(c.kind == "started" and c.rematch for c in changes)
    assert driver.app.sm.current == "host" and driver.find("result_rematch").disabled and results.opacity == 0
    _hands_round(driver)  # a new deal: the tablet goes round again (GameHost.rematched)
    _shot(driver, "journey_leads_on_rematch")

    _accuse_right(driver, table)
    driver.tap("result_other_game")
    driver.wait_screen("library")
    assert not table.playing

    table = _clue_by_taps(driver)
    _accuse_right(driver, table)
    driver.tap("result_leave")
    driver.wait_screen("attract")
    assert not table.playing
    assert driver.find("resume_game").opacity == 0 and driver.find("resume_game").disabled


def test_home_offers_the_game_in_progress(driver: Any) -> None:
    """A game left unfinished (back to home): home shows 이어서 하기 with its name; the tap goes back to it."""
    table = _clue_by_taps(driver)
    driver.tap("host_back")
    driver.wait_screen("detail")
    driver.tap("back")
    driver.wait_screen("library")
    driver.tap("back")
    driver.wait_screen("attract")
    button = driver.find("resume_game")
    assert button.opacity == 1 and not button.disabled and button.text == "클루 이어서 하기"
    _shot(driver, "journey_home_resume")
    driver.tap("resume_game")
    driver.wait_screen("host")
    assert table.playing and driver.app.get_screen("host").game_id == "clue"


def test_a_handover_opened_by_mistake_can_be_cancelled(driver: Any) -> None:
    """A tap on a seat's notebook (a private screen) by mistake: 취소 closes it before and after the seat claims it,
    nothing is acted, and the shared screen shows nothing of it."""
    table = _clue_by_taps(driver)
    acts = table.acts
    driver.tap("clue_notebook_1")
    assert any("민호님에게" in t for t in driver.texts())
    _shot(driver, "journey_handover_cancel")
    driver.tap("handover_cancel")
    _modal_gone(driver)
    assert not any("민호" in t and "태블릿" in t for t in driver.texts())
    driver.tap("clue_notebook_1")
    driver.tap("handover_i_am")
    driver.tap("handover_cancel")
    _modal_gone(driver)
    assert table.acts == acts and driver.app.get_screen("host").ctx.open_dialog is None
