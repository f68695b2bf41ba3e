"""Issue 37 part 3: the case file stays at the table (Watson & Holmes). After the opening, the intro and the case's
questions are one tap away on the board for the whole game, and the opening can be heard again. Taps only."""

from __future__ import annotations

from typing import Any

import pytest

from tests.kiosk.games.watson_holmes_steps import resumed

pytestmark = pytest.mark.ui


def _closed(driver: Any) -> None:
    from kivy.uix.modalview import ModalView

    driver.wait_for(lambda: not any(isinstance(w, ModalView) for w in driver.roots()))


def test_case_file_on_the_board_with_questions_and_replay(driver: Any) -> None:
    driver.app.host("watson_holmes")
    driver.wait_screen("host")
    driver.tap("wh_case_case_01")
    driver.tap("wh_count_3")
    for i, name in enumerate(("지수", "민호", "서연")):
        driver.fill(f"wh_name_{i}", name)
    driver.tap("wh_start")
    table = driver.app.table
    case = table.game.pack["cases/case_01"]
    for _ in range(3):  # the guests skip the opening's parts: its text is gone from the screen then
        if driver.find("wh_open_begin").disabled:
            driver.tap("wh_open_skip")
    driver.tap("wh_open_begin")
    driver.find("wh_loc_1")
    question = f"{case.questions[0].number}. {case.questions[0].text.ko}"
    assert not any(question in t for t in driver.texts())

    narrator = driver.app.narrator
    spoken: list[str] = []
    if narrator is not None:
        speak = narrator.speak
        narrator.speak = lambda seg, interrupt=False: (spoken.append(seg.id), speak(seg, interrupt=interrupt))[1]
    try:
        driver.tap("wh_case_file")
        intro = driver.find("wh_case_file_intro").text
        assert intro == case.intro.ko
        assert question in driver.find("wh_case_file_questions").text
        assert all(f"{q.number}. " in driver.find("wh_case_file_questions").text for q in case.questions)
        shot = driver.screenshot("journey_wh_case_file")
        assert shot.stat().st_size > 5000 and driver.small_targets() == [] and driver.overflowing_labels() == []
        driver.tap("wh_case_file_replay")
        if narrator is not None:
            assert spoken[:2] == ["wh.case_01.intro", "wh.case_01.questions"]
        driver.tap("wh_case_file_close")
        _closed(driver)
    finally:
        if narrator is not None:
            del narrator.speak
    assert table.outcome is None and driver.find("wh_loc_1")


def test_the_case_file_opens_at_once_and_its_texts_follow(driver: Any) -> None:
    """The tap's frame shows the dialog and its buttons; its texts (long: drawing them was most of a 22-36 ms frame)
    come a part per frame after it, each under the last; 닫기 tapped before they are all there closes it."""
    from kivy.uix.modalview import ModalView

    app = driver.app
    resumed(driver)  # its table without the opening
    driver.wait_screen("host")
    driver.pump(20)
    driver.tap("wh_case_file", frames=0)
    dialog = next(w for w in driver.roots() if isinstance(w, ModalView))
    assert driver.find("wh_case_file_close") and not driver.find_all("wh_case_file_intro")
    driver.pump(len(dialog.parts) + 2)
    first = driver.find(f"wh_case_file_{dialog.parts[0][0]}")
    where = (first.to_window(*first.pos), first.size)
    assert all(driver.find(f"wh_case_file_{key}").text == text for key, text, _ in dialog.parts)
    driver.pump(2)
    assert (first.to_window(*first.pos), first.size) == where
    driver.tap("wh_case_file_close")
    _closed(driver)
    driver.tap("wh_case_file", frames=1)  # drawn: its buttons where a finger sees them
    assert not driver.find_all("wh_case_file_intro")
    driver.tap("wh_case_file_close", frames=0)  # its texts not there yet
    _closed(driver)
    driver.pump(5)
    assert not app.errors
